//! Binning: `discretize`, continuous columns to bin codes, given sorted edges (usually
//! [`quantile_edges`]).
//!
//! ```
//! use ktc_kernels::{Floats, discretize, quantile_edges};
//!
//! let values = Floats::from(vec![0.1f32, 5.0, 2.5, 9.0]);
//! let edges = quantile_edges(&values, 4)?;          // 3 edges, 4 bins
//! let mut codes = vec![0u8; values.len()];
//! discretize::call(&values, &edges, &mut codes)?;   // the tuned variant
//! assert_eq!(codes, [0, 2, 1, 3]);
//! # Ok::<(), ktc_kernels::Error>(())
//! ```
//!
//! A value's code is the number of edges `≤` it, so with `k − 1` edges codes are
//! `0..k` (`k ≤ 256`: codes are `u8`). **NaN policy**: a NaN value is an
//! [`Error::NotANumber`](crate::Error::NotANumber) naming its row (NaN has no bin;
//! dropping or imputing is the caller's decision, made before); `codes` is then
//! partly written. Edges must be sorted and free of NaN, or the call is an error
//! value too; so is a `codes` buffer of the wrong length.

/// Runs `$body` with `$v` bound to the values as a typed slice (for the CPU variants).
macro_rules! with_values {
    ($values:expr, |$v:ident| $body:expr) => {
        match $values {
            Floats::F32($v) => $body,
            Floats::F64($v) => $body,
        }
    };
}

mod columns;
mod cpu;
mod edges;
mod gpu;
mod lookup;
mod parallel;
mod select;

pub use crate::floats::Floats;
pub(crate) use columns::bin_column;
pub use columns::quantile_codes;
pub use edges::{MAX_BINS, quantile_edges};

/// Bin codes of continuous values.
#[ktc::tunable(
    axes(n_samples = values.len(), n_bins = edges.len() + 1),
    sweep(n_samples = [1_000, 100_000, 1_000_000], n_bins = [4, 16, 64, 256]),
)]
pub mod discretize {
    use super::Floats;
    use crate::Error;

    /// One grid point's inputs: uniform random values, their quantile edges.
    #[inputs]
    pub fn inputs(n_samples: usize, n_bins: usize) -> (Floats, Vec<f64>, Vec<u8>) {
        let mut rng = crate::joint_hist::Lcg::new(n_samples as u64 ^ (n_bins as u64) << 32);
        let values: Vec<f64> = (0..n_samples).map(|_| rng.next_u64() as f64 / u64::MAX as f64).collect();
        // Evenly spaced edges are the quantiles of uniform values, without a sort.
        let edges = (1..n_bins).map(|i| i as f64 / n_bins as f64).collect();
        (Floats::from(values), edges, vec![0; n_samples])
    }

    /// The reference: scan the edges in order.
    #[variant(reference)]
    pub fn linear(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
        super::cpu::linear(values, edges, codes)
    }

    /// Branch-free binary search.
    #[variant]
    pub fn binary(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
        super::cpu::binary(values, edges, codes)
    }

    /// A table over the top bits of each value's order-preserving key, as fine as 4 096
    /// buckets between the lowest and the highest edge allow, holds the code of every
    /// bucket: a load and a compare per value, whatever the number of edges, where no
    /// bucket holds two edges; a search among the fullest bucket's edges otherwise.
    #[variant]
    pub fn lookup(values: &Floats, edges: &[f64], codes: &mut [u8]) -> Result<(), Error> {
        super::lookup::lookup(values, edges, codes)
    }

    /// Equal chunks shared between the caller and rayon's workers, binary search
    /// inside: `block_size` chunks per worker thread (a count, not a length), so the
    /// chunk follows the work. A fixed chunk length (a `par_chunks` variant with
    /// blocks of 16 384 and 131 072 values, dropped) was one chunk, so serial, below
    /// its length: the sweep found it tied with `binary` at 1 000 values and with
    /// `par_split` at 100 000, and between them it ran 1.5–1.9× slower than either.
    ///
    /// Four chunks per thread only: with one (two chunks on two threads) a call was
    /// fast only where the worker that took the second chunk ran on the other core,
    /// and the sweep and a later `verify` disagreed between blocks 1 and 4 at 1.1–1.5×
    /// (6 of 10 flagged points in 7 benchmark runs); with four, a participant that
    /// starts late takes fewer chunks. Worst regret in `cargo bench --bench
    /// tuning_quality`: 1.00–1.15 in six runs with 4 alone, 1.08–1.53 in 13 with 1
    /// and 4.
    #[variant(block_size = [4])]
    pub fn par_split(
        values: &Floats,
        edges: &[f64],
        codes: &mut [u8],
        block_size: usize,
    ) -> Result<(), Error> {
        super::parallel::par_split(values, edges, codes, block_size, super::parallel::Search::Binary)
    }

    /// As `par_split`, with `linear`'s scan inside: the parallel twin of the variant
    /// that wins at few bins. Where the pool's worker does not join in time (from one
    /// process, or one second, to the next on a 2-vCPU VM), a parallel variant runs its
    /// serial search alone; `par_split` then ran as slowly as `binary`, 1.2–1.5× behind
    /// `linear` at 5–7 bins, and a sweep that had seen the worker join chose it.
    #[variant(block_size = [4])]
    pub fn par_linear(
        values: &Floats,
        edges: &[f64],
        codes: &mut [u8],
        block_size: usize,
    ) -> Result<(), Error> {
        super::parallel::par_split(values, edges, codes, block_size, super::parallel::Search::Linear)
    }

    /// As `par_split`, with `lookup`'s table inside (built once, read by every chunk):
    /// the parallel twin of the serial variant that wins from a few thousand values
    /// up. Where the pool's worker does not join in time, it runs `lookup` alone, so,
    /// unlike `par_linear` (the serial scan behind `lookup` at 12 000–67 000 values
    /// and 5–14 bins), it loses little where the worker is late.
    #[variant(block_size = [4])]
    pub fn par_lookup(
        values: &Floats,
        edges: &[f64],
        codes: &mut [u8],
        block_size: usize,
    ) -> Result<(), Error> {
        super::parallel::par_lookup(values, edges, codes, block_size)
    }

    /// CUDA: copy values and edges in, binary search per thread, copy codes out.
    #[variant(requires = cuda, block_size = [128, 256, 512, 1024])]
    pub fn cuda(values: &Floats, edges: &[f64], codes: &mut [u8], block_size: usize) -> Result<(), Error> {
        super::gpu::cuda(values, edges, codes, block_size)
    }
}
