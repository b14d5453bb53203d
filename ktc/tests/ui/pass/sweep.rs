//! The generated harness end to end: sweep into a fresh store, then dispatch from it.

#[ktc::tunable(axes(n = data.len()), sweep(n = [10, 100]))]
pub mod sum {
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u64>, Vec<u64>) {
        ((0..n as u64).collect(), vec![0])
    }

    #[variant(reference)]
    pub fn serial(data: &[u64], out: &mut [u64]) {
        out[0] = data.iter().sum();
    }

    #[variant(block_size = [4, 64])]
    pub fn chunked(data: &[u64], out: &mut [u64], block_size: usize) {
        out[0] = data.chunks(block_size).map(|c| c.iter().sum::<u64>()).sum();
    }

    #[variant]
    pub fn wrong(data: &[u64], out: &mut [u64]) {
        out[0] = data.len() as u64;
    }
}

fn main() {
    let dir = std::env::temp_dir().join(format!("ktc-ui-sweep-{}", std::process::id()));
    let options = ktc::sweep::SweepOptions { cache_dir: Some(dir.clone()), ..Default::default() };
    let report = (sum::Variant::kernel().sweep)(&options).expect("the sweep runs");
    assert!(report.entry_path.starts_with(&dir));
    let cache = ktc::KernelTuningCache::open(&dir).expect("the store opens");
    let dispatch = ktc::Dispatch::load_from(sum::Variant::kernel(), &cache);
    let data: Vec<u64> = (0..50).collect();
    let choice = dispatch.explain(&[ktc::AxisValue::from(data.len())]);
    assert_ne!(choice.variant, "wrong", "a variant that fails verification is never chosen");
    let _ = std::fs::remove_dir_all(&dir);
}
