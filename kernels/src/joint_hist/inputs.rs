//! Sweep inputs for `joint_hist_batched`: random codes of a given shape.

use crate::Codes;
use crate::column::{Residency, Shape, Storage};

/// Bins `(kx, ky)` whose pair table `kx · kx · ky` is as close to `pair_table` as
/// near-equal bins get (MRMR's redundancy terms are square: `kx = ky`).
pub(crate) fn split_pair_table(pair_table: usize) -> (usize, usize) {
    let kx = (pair_table.max(1) as f64).cbrt().round().max(1.0) as usize;
    let ky = (pair_table as f64 / (kx * kx) as f64).round().max(1.0) as usize;
    (kx, ky)
}

/// A fixed-seed xorshift stream: inputs are reproducible without a `rand` dependency.
pub(crate) struct Lcg(u64);

impl Lcg {
    pub(crate) fn new(seed: u64) -> Self {
        Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..k` (`k ≥ 1`).
    pub(crate) fn below(&mut self, k: usize) -> usize {
        (((self.next_u64() >> 32) * k as u64) >> 32) as usize
    }
}

/// Random codes: `n_rows × n_cols`, below `bins`, stored as `u8` when they fit.
pub(crate) fn random_codes(rng: &mut Lcg, n_rows: usize, n_cols: usize, bins: usize) -> Codes {
    let len = n_rows * n_cols;
    let storage = if bins <= 256 {
        Storage::HostU8(std::sync::Arc::new((0..len).map(|_| rng.below(bins) as u8).collect()))
    } else {
        Storage::HostU16((0..len).map(|_| rng.below(bins) as u16).collect())
    };
    Codes::from_parts(storage, n_rows, n_cols, bins)
}

/// A grid point's `(y, x, counts)` of shape `s`, codes placed as `loc` says.
pub(crate) fn build(s: Shape, loc: Residency) -> (Codes, Codes, Vec<u32>) {
    let mut rng = Lcg::new((s.n ^ s.kx << 20 ^ s.ky << 30 ^ s.p << 40) as u64);
    let y = random_codes(&mut rng, s.n, 1, s.ky);
    let x = random_codes(&mut rng, s.n, s.p, s.kx);
    (loc.place(y), loc.place(x), vec![0; s.p * s.kx * s.ky])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_tables_split_into_near_equal_bins() {
        assert_eq!(split_pair_table(8), (2, 2));
        assert_eq!(split_pair_table(512), (8, 8));
        assert_eq!(split_pair_table(1_024), (10, 10));
        assert_eq!(split_pair_table(131_072), (51, 50));
        assert_eq!(split_pair_table(2), (1, 2));
        assert_eq!(split_pair_table(0), (1, 1));
    }

    #[test]
    fn random_codes_are_valid_and_reproducible() {
        let a = random_codes(&mut Lcg::new(3), 100, 2, 300);
        let b = random_codes(&mut Lcg::new(3), 100, 2, 300);
        let (Some(crate::column::HostCodes::U16(a)), Some(crate::column::HostCodes::U16(b))) =
            (a.host(), b.host())
        else {
            panic!("300 bins need u16 codes");
        };
        assert_eq!(a, b);
        assert!(a.iter().all(|&c| c < 300) && a.iter().any(|&c| c > 255));
    }
}
