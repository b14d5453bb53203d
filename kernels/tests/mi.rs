//! Mutual information: a hand-computed table, independence, identity, and the batched
//! layout the histogram kernel writes.

use ktc_kernels::data::SplitMix64;
use ktc_kernels::mi::{entropy, mutual_information, mutual_information_batched};
use ktc_kernels::{Codes, joint_hist_batched};

/// counts[x][y] = [[2, 1], [0, 1]], n = 4. p(x) = (3/4, 1/4), p(y) = (1/2, 1/2):
/// I = 2/4 ln((2/4)/(3/4·1/2)) + 1/4 ln((1/4)/(3/4·1/2)) + 1/4 ln((1/4)/(1/4·1/2))
///   = 1/2 ln(4/3) + 1/4 ln(2/3) + 1/4 ln 2 = 3/2 ln 2 − 3/4 ln 3 ≈ 0.2158 nats.
#[test]
fn matches_a_hand_computed_table() {
    let mi = mutual_information(&[2, 1, 0, 1], 2, 2).unwrap();
    let expected = 1.5 * 2f64.ln() - 0.75 * 3f64.ln();
    assert!((mi - expected).abs() < 1e-12, "{mi} vs {expected}");
    assert!((mi - 0.215_762).abs() < 1e-6);
}

#[test]
fn is_symmetric_in_x_and_y() {
    // The transpose of the table above.
    let transposed = mutual_information(&[2, 0, 1, 1], 2, 2).unwrap();
    let original = mutual_information(&[2, 1, 0, 1], 2, 2).unwrap();
    assert!((transposed - original).abs() < 1e-15);
}

#[test]
fn entropy_of_uniform_and_degenerate() {
    assert!((entropy(&[3, 3, 3, 3]) - 4f64.ln()).abs() < 1e-12);
    assert_eq!(entropy(&[0, 7, 0]), 0.0);
    assert_eq!(entropy(&[]), 0.0);
}

/// Random columns from the kernel: the plug-in estimate of 0 is biased up by about
/// (kx−1)(ky−1) / 2n = 49 / 400 000 ≈ 1.2e-4 nats.
#[test]
fn independent_columns_have_mi_near_zero() {
    let n = 200_000;
    let mut rng = SplitMix64::new(7);
    let y: Vec<u8> = (0..n).map(|_| rng.below(8) as u8).collect();
    let x: Vec<u8> = (0..n).map(|_| rng.below(8) as u8).collect();
    let y = Codes::column_u8(y, 8).unwrap();
    let x = Codes::column_u8(x, 8).unwrap();
    let mut counts = vec![0u32; 64];
    joint_hist_batched::call(&y, &x, &mut counts).unwrap();
    let mi = mutual_information(&counts, 8, 8).unwrap();
    assert!((0.0..5e-4).contains(&mi), "MI of independent columns = {mi}");
}

#[test]
fn identical_columns_have_mi_equal_to_their_entropy() {
    let mut rng = SplitMix64::new(3);
    let v: Vec<u8> = (0..10_000).map(|_| (rng.below(5) * rng.below(3)) as u8).collect();
    let mut marginal = [0u32; 10];
    v.iter().for_each(|&c| marginal[usize::from(c)] += 1);
    let y = Codes::column_u8(v.clone(), 10).unwrap();
    let x = Codes::column_u8(v, 10).unwrap();
    let mut counts = vec![0u32; 100];
    joint_hist_batched::call(&y, &x, &mut counts).unwrap();
    let mi = mutual_information(&counts, 10, 10).unwrap();
    let h = entropy(&marginal);
    assert!(h > 1.0, "a non-trivial entropy: {h}");
    assert!((mi - h).abs() < 1e-12, "I(X;X) = {mi}, H(X) = {h}");
}

#[test]
fn batched_splits_per_feature_blocks() {
    // Feature 0: the hand table; feature 1: perfectly dependent, uniform (ln 2).
    let counts = [2, 1, 0, 1, 5, 0, 0, 5];
    let mi = mutual_information_batched(&counts, 2, 2, 2).unwrap();
    assert!((mi[0] - mutual_information(&[2, 1, 0, 1], 2, 2).unwrap()).abs() < 1e-15);
    assert!((mi[1] - 2f64.ln()).abs() < 1e-12);
    assert_eq!(mutual_information_batched(&[], 0, 2, 2).unwrap(), Vec::<f64>::new());
}

#[test]
fn wrong_lengths_are_errors_not_panics() {
    assert!(mutual_information(&[1, 2, 3], 2, 2).is_err());
    assert!(mutual_information(&[1], usize::MAX, 2).is_err());
    assert!(mutual_information_batched(&[1, 2, 3, 4], 2, 2, 2).is_err());
    assert!(mutual_information_batched(&[], 3, 0, 2).is_err());
    assert_eq!(
        mutual_information(&[0, 0, 0, 0], 2, 2).unwrap(),
        0.0,
        "an empty table carries no information"
    );
}
