//! `joint_hist_batched`: the joint histograms of one target column against many
//! feature columns, in one call.
//!
//! Usage:
//!
//! ```
//! use ktc_kernels::{Codes, joint_hist_batched};
//!
//! // Target: 4 samples, 2 classes. Features: 2 columns of the same 4 samples, 3 bins.
//! let y = Codes::column_u8(vec![0, 1, 1, 0], 2)?;
//! let x = Codes::from_u8(vec![0, 2, 2, 1, /* column 1: */ 1, 1, 1, 1], 4, 2, 3)?;
//! let mut counts = vec![0u32; x.n_cols() * x.bins() * y.bins()];
//! joint_hist_batched::call(&y, &x, &mut counts)?;            // the tuned variant
//! // counts[(j * kx + xv) * ky + yv]: column 0 saw (x=2, y=1) twice.
//! assert_eq!(counts[(0 * 3 + 2) * 2 + 1], 2);
//! assert_eq!(counts[(1 * 3 + 1) * 2 + 0], 2);
//! # Ok::<(), ktc_kernels::Error>(())
//! ```
//!
//! - `y`: one column (`y.n_cols() == 1`) of `n` codes below `ky = y.bins()`.
//! - `x`: `p` columns of the same `n` samples, codes below `kx = x.bins()`.
//! - `counts`: `p · kx · ky` counters, **overwritten** (no need to zero them), laid out
//!   `counts[(j · kx + x) · ky + y]`, always on the host.
//! - Inputs on the host or both on one CUDA device ([`Codes`](crate::Codes) says which; the
//!   `loc` axis). Bad shapes are an [`Error`](crate::Error) value; codes were checked
//!   when the [`Codes`](crate::Codes) were built.
//!
//! Every variant validates shapes first (O(1)), so `call_with` is as safe as `call`.

mod check;
mod count;
mod cpu;
mod gpu;
mod inputs;
mod pairs;

pub use crate::column::Shape;
pub use check::check;
pub(crate) use inputs::Lcg;

/// Joint histograms of `y` against each column of `x`.
#[ktc::tunable(
    axes(
        n_samples = y.n_rows(),
        // The size of `pairs`' two-feature table, `kx · kx · ky`: the cost that decides
        // between pairing and counting columns alone (see `pairs.rs`).
        pair_table = x.bins().saturating_mul(x.bins()).saturating_mul(y.bins()),
        n_features = x.n_cols(),
        loc = ktc::location(x),
    ),
    sweep(
        n_samples = [1_000, 100_000, 1_000_000],
        pair_table = [8, 512, 4_096],
        n_features = [1, 30],
        loc = [host, device],
    ),
)]
pub mod joint_hist_batched {
    use crate::column::Residency;
    use crate::{Codes, Error};

    /// One grid point's inputs: random codes (fixed seed), `kx² · ky ≈ pair_table`
    /// with `kx ≈ ky`; `device` points exist only where CUDA does.
    #[inputs]
    pub fn inputs(
        n_samples: usize,
        pair_table: usize,
        n_features: usize,
        loc: Residency,
    ) -> (Codes, Codes, Vec<u32>) {
        let (kx, ky) = super::inputs::split_pair_table(pair_table);
        super::inputs::build(super::Shape { n: n_samples, p: n_features, kx, ky }, loc)
    }

    /// The reference: one pass per feature, one counter table.
    #[variant(reference)]
    pub fn serial(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        super::cpu::serial(y, x, counts)
    }

    /// Serial, four interleaved tables per feature: no store-to-load waits between
    /// consecutive samples that hit the same counter (plain counting where the column
    /// is shorter than 16 tables, as zeroing four tables would then dominate).
    #[variant]
    pub fn multiway(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        super::cpu::multiway(y, x, counts)
    }

    /// Features shared between the caller and rayon's workers (four-way counting
    /// inside each).
    #[variant]
    pub fn par_features(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        super::cpu::par_features(y, x, counts)
    }

    /// Serial, two feature columns per pass: one increment of a `kx · kx · ky`
    /// table counts a sample for both (columns alone where that table outgrows L1).
    #[variant]
    pub fn pairs(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        super::cpu::pairs(y, x, counts)
    }

    /// Pairs of features shared between the caller and rayon's workers, each pair
    /// counted in one pass as in `pairs`.
    #[variant]
    pub fn par_pairs(y: &Codes, x: &Codes, counts: &mut [u32]) -> Result<(), Error> {
        super::cpu::par_pairs(y, x, counts)
    }

    /// Blocks of `block_size` samples shared between the caller and rayon's workers,
    /// each participant's private tables merged.
    #[variant(block_size = [32_768, 262_144])]
    pub fn par_samples(y: &Codes, x: &Codes, counts: &mut [u32], block_size: usize) -> Result<(), Error> {
        super::cpu::par_samples(y, x, counts, block_size)
    }

    /// As `par_samples`, with blocks that scale with the work: `n` split into
    /// `block_size` equal blocks per worker thread (the block parameter is a count
    /// here), so every size keeps every core busy — a fixed block of 32 768 samples is
    /// one block, and one busy core, at n = 30 000.
    #[variant(block_size = [1, 4])]
    pub fn par_split(y: &Codes, x: &Codes, counts: &mut [u32], block_size: usize) -> Result<(), Error> {
        super::cpu::par_split(y, x, counts, block_size)
    }

    /// CUDA, shared-memory privatised tables merged into global memory (global
    /// atomics instead where the table exceeds the device's shared memory per block).
    #[variant(requires = cuda, block_size = [128, 256, 512, 1024])]
    pub fn cuda_shared(y: &Codes, x: &Codes, counts: &mut [u32], block_size: usize) -> Result<(), Error> {
        super::gpu::shared(y, x, counts, block_size)
    }

    /// CUDA, every count a global atomic add.
    #[variant(requires = cuda, block_size = [128, 256, 512, 1024])]
    pub fn cuda_global(y: &Codes, x: &Codes, counts: &mut [u32], block_size: usize) -> Result<(), Error> {
        super::gpu::global(y, x, counts, block_size)
    }
}
