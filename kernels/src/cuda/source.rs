//! The CUDA C source of every kernel, compiled at run time with NVRTC.
//!
//! Kernels are templates over the code widths; `extern "C"` wrappers give each
//! instantiation a fixed name, `<kernel>_<y width>_<x width>` (e.g. `jh_shared_u8_u16`).

/// The whole module: joint histograms (global atomics; shared-memory privatised) and
/// discretisation by binary search over edges.
pub(crate) const SOURCE: &str = r#"
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

// Every (sample, feature) pair adds one to its feature's table in global memory.
template <typename TY, typename TX>
__device__ void jh_global(const TY* y, const TX* x, u32 n, u32 p, u32 ky, u32 joint, u32* counts) {
    u64 total = (u64)n * p;
    u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 idx = (u64)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        u32 j = (u32)(idx / n);
        u32 i = (u32)(idx - (u64)j * n);
        atomicAdd(&counts[(u64)j * joint + (u32)x[idx] * ky + (u32)y[i]], 1u);
    }
}

// One feature per grid row (blockIdx.y, offset by j0): each block counts its share of
// the samples into a table in shared memory, then adds the non-zero counters to the
// feature's table in global memory.
template <typename TY, typename TX>
__device__ void jh_shared(const TY* y, const TX* x, u32 n, u32 j0, u32 ky, u32 joint, u32* counts) {
    extern __shared__ u32 table[];
    for (u32 t = threadIdx.x; t < joint; t += blockDim.x) table[t] = 0;
    __syncthreads();
    u32 j = j0 + blockIdx.y;
    const TX* xc = x + (u64)j * n;
    // 64-bit indices: with n near 2^32, a 32-bit `i += stride` would wrap and loop forever.
    u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&table[(u32)xc[i] * ky + (u32)y[i]], 1u);
    }
    __syncthreads();
    u32* out = counts + (u64)j * joint;
    for (u32 t = threadIdx.x; t < joint; t += blockDim.x) {
        u32 c = table[t];
        if (c != 0) atomicAdd(&out[t], c);
    }
}

#define JH(NY, TY, NX, TX)                                                                  \
extern "C" __global__ void jh_global_##NY##_##NX(const TY* y, const TX* x, u32 n, u32 p,    \
                                                 u32 ky, u32 joint, u32* counts) {          \
    jh_global<TY, TX>(y, x, n, p, ky, joint, counts);                                       \
}                                                                                           \
extern "C" __global__ void jh_shared_##NY##_##NX(const TY* y, const TX* x, u32 n, u32 j0,   \
                                                 u32 ky, u32 joint, u32* counts) {          \
    jh_shared<TY, TX>(y, x, n, j0, ky, joint, counts);                                      \
}
JH(u8, u8, u8, u8)
JH(u8, u8, u16, u16)
JH(u16, u16, u8, u8)
JH(u16, u16, u16, u16)

// Bin of each value: the number of edges <= value (edges sorted, m of them, compared in
// double so f32 values meet the same edges as on the CPU), by a branch-free binary search.
template <typename F>
__device__ void discretize(const F* v, u32 n, const double* edges, u32 m, u8* out) {
    u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double value = (double)v[i];
        u32 base = 0, size = m;
        if (size == 0) { out[i] = 0; continue; }
        while (size > 1) {
            u32 half = size / 2;
            u32 mid = base + half;
            base = edges[mid] <= value ? mid : base;
            size -= half;
        }
        out[i] = (u8)(base + (edges[base] <= value ? 1 : 0));
    }
}

extern "C" __global__ void disc_f32(const float* v, u32 n, const double* edges, u32 m, u8* out) {
    discretize<float>(v, n, edges, m, out);
}
extern "C" __global__ void disc_f64(const double* v, u32 n, const double* edges, u32 m, u8* out) {
    discretize<double>(v, n, edges, m, out);
}
"#;

#[cfg(test)]
mod tests {
    use super::SOURCE;
    use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};

    /// NVRTC alone (no driver or GPU needed) compiles the source, and every kernel the
    /// launches name is in the PTX. Skips, saying so, where NVRTC is absent.
    #[test]
    fn the_source_compiles_with_nvrtc() {
        // SAFETY: only tries to load the library; `compile_ptx` panics without it.
        if !std::panic::catch_unwind(|| unsafe { cudarc::nvrtc::sys::is_culib_present() }).unwrap_or(false) {
            println!("skipping: NVRTC (libnvrtc.so) not found");
            return;
        }
        let opts =
            CompileOptions { options: vec!["--gpu-architecture=compute_70".into()], ..Default::default() };
        let ptx = compile_ptx_with_opts(SOURCE, opts).unwrap_or_else(|e| panic!("{e}"));
        let ptx = ptx.to_src();
        for w in ["u8_u8", "u8_u16", "u16_u8", "u16_u16"] {
            for k in ["jh_global", "jh_shared"] {
                assert!(ptx.contains(&format!(".entry {k}_{w}(")), "{k}_{w} missing");
            }
        }
        assert!(ptx.contains(".entry disc_f32(") && ptx.contains(".entry disc_f64("));
    }
}
