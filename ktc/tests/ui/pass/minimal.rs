//! The smallest kernel: one numeric axis, a reference and a variant with block sizes.

#[ktc::tunable(axes(n = data.len()), sweep(n = [10, 1000]))]
pub mod sum {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>,) {
        ((0..n as u64).collect(),)
    }

    #[variant(reference)]
    pub fn serial(data: &[u64]) -> u64 {
        data.iter().sum()
    }

    #[variant(block_size = [4, 64])]
    pub fn chunked(data: &[u64], block_size: usize) -> u64 {
        data.chunks(block_size).map(|c| c.iter().sum::<u64>()).sum()
    }
}

fn main() {
    let data: Vec<u64> = (0..100).collect();
    assert_eq!(sum::call(&data), 4950);
    assert_eq!(sum::call_with(sum::Variant::Chunked, Some(8), &data), 4950);
    assert_eq!(sum::call_with(sum::Variant::Chunked, None, &data), 4950);
    assert_eq!(sum::call_with(sum::Variant::Serial, None, &data), 4950);
    let choice = sum::explain(&data);
    assert_eq!(choice.variant, "serial", "no tuning yet: the reference");
    assert_eq!(sum::Variant::ALL, [sum::Variant::Serial, sum::Variant::Chunked]);
    assert_eq!("serial".parse::<sum::Variant>(), Ok(sum::Variant::Serial));
    let err = "simd".parse::<sum::Variant>().unwrap_err();
    assert!(err.contains("`serial`, `chunked`"), "{err}");
    assert_eq!(sum::Variant::Chunked.name(), "chunked");
    assert_eq!(sum::Variant::Chunked.to_string(), "chunked");
    assert_eq!(sum::Variant::Chunked.block_sizes(), &[4, 64]);
    assert!(sum::Variant::Serial.block_sizes().is_empty());
    assert_eq!(sum::Variant::kernel().name, "sum");
    assert_eq!(sum::Variant::kernel().identity.source_hash.len(), 16);
    assert!(ktc::discover_kernels().iter().any(|t| t.name == "sum"));
}
