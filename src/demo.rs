//! Demonstration kernels with a real crossover on any multi-core CPU: a serial loop
//! wins on small inputs (no thread start-up), scoped threads win on large ones.

/// Sum of `u32` values as `u64`: serial, four-accumulator unrolled, and threaded.
#[ktc::tunable(
    axes(n = data.len()),
    sweep(n = [1_000, 30_000, 1_000_000, 4_000_000]),
)]
pub mod sum {
    /// One grid point's input: `0, 1, 2, ...` wrapping at 2^20 so sums stay exact.
    #[inputs]
    pub fn inputs(n: usize) -> (Vec<u32>,) {
        ((0..n).map(|i| (i % (1 << 20)) as u32).collect(),)
    }

    /// The reference: one accumulator.
    #[variant(reference)]
    pub fn serial(data: &[u32]) -> u64 {
        data.iter().map(|&x| u64::from(x)).sum()
    }

    /// Four independent accumulators, so the additions pipeline.
    #[variant]
    pub fn unrolled(data: &[u32]) -> u64 {
        let mut acc = [0u64; 4];
        let chunks = data.chunks_exact(4);
        let tail: u64 = chunks.remainder().iter().map(|&x| u64::from(x)).sum();
        for c in chunks {
            for (a, &x) in acc.iter_mut().zip(c) {
                *a += u64::from(x);
            }
        }
        acc.iter().sum::<u64>() + tail
    }

    /// One scoped thread per `block_size` elements, at most one per core.
    #[variant(block_size = [262_144, 1_048_576])]
    pub fn threaded(data: &[u32], block_size: usize) -> u64 {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = block_size.max(data.len().div_ceil(threads)).max(1);
        std::thread::scope(|s| {
            let parts: Vec<_> = data.chunks(chunk).map(|c| s.spawn(move || unrolled(c))).collect();
            parts.into_iter().map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).sum()
        })
    }
}
