//! Sweep inputs for `joint_hist_batched`: random codes of a given shape.

use crate::Codes;
use crate::column::{Residency, Storage};

/// Splits a joint size into `(kx, ky)` with `ky` the largest divisor not above its
/// square root, so square sizes give square tables (as MRMR's redundancy terms do).
pub(crate) fn split_joint(joint: usize) -> (usize, usize) {
    let joint = joint.max(1);
    let mut ky = joint.isqrt();
    while !joint.is_multiple_of(ky) {
        ky -= 1;
    }
    (joint / ky, ky)
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

/// A grid point's `(y, x, counts)`, codes placed as `loc` says.
pub(crate) fn build(
    n_samples: usize,
    joint_size: usize,
    n_features: usize,
    loc: Residency,
) -> (Codes, Codes, Vec<u32>) {
    let (kx, ky) = split_joint(joint_size);
    let mut rng = Lcg::new((n_samples ^ joint_size << 20 ^ n_features << 40) as u64);
    let y = random_codes(&mut rng, n_samples, 1, ky);
    let x = random_codes(&mut rng, n_samples, n_features, kx);
    (loc.place(y), loc.place(x), vec![0; n_features * kx * ky])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joint_sizes_split_into_near_square_tables() {
        assert_eq!(split_joint(4), (2, 2));
        assert_eq!(split_joint(64), (8, 8));
        assert_eq!(split_joint(256), (16, 16));
        assert_eq!(split_joint(6), (3, 2));
        assert_eq!(split_joint(7), (7, 1));
        assert_eq!(split_joint(0), (1, 1));
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
