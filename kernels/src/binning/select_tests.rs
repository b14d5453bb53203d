//! `values_at_ranks` against a full `total_cmp` sort, bit for bit, on columns long
//! enough to be sampled (and short ones), shaped to mislead the sample.

use proptest::prelude::*;

use super::{SAMPLE, SAMPLE_FROM, bucket, predict, values_at_ranks};
use crate::floats::Float;
use crate::rng::SplitMix64;

/// The quantile ranks `quantile_edges` asks for.
fn ranks(n: usize, k: usize) -> Vec<usize> {
    (1..k).map(|i| i * n / k).collect()
}

/// `sorted[r]` for each rank, as bits, by a full sort.
fn by_sort<F: Float>(values: &[F], ranks: &[usize]) -> Vec<u64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(|a, b| a.wide().total_cmp(&b.wide()));
    ranks.iter().map(|&r| sorted[r].wide().to_bits()).collect()
}

fn check<F: Float>(values: &[F], what: &str) {
    for k in [2, 3, 8, 64, 256] {
        let ranks = ranks(values.len(), k);
        let got: Vec<u64> = values_at_ranks(values, &ranks).unwrap().iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, by_sort(values, &ranks), "{what}, n = {}, k = {k}", values.len());
    }
}

/// Columns of one shape: 0 uniform, 1 log-normal (skewed), 2 five distinct values
/// (heavy ties), 3 constant, 4 every exponent with signed zeros and infinities, 5 a
/// spike the strided sample sees everywhere (every sampled row is 0), 6 sorted, 7
/// normal rounded to 5 decimals (the comparison script's data).
fn column(shape: u8, n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    let mut values: Vec<f64> = (0..n)
        .map(|i| match shape {
            0 => rng.unit() * 2.0 - 1.0,
            1 => ((rng.unit() - 0.5) * 12.0).exp(),
            2 => rng.below(5) as f64,
            3 => 7.25,
            4 => match rng.below(20) {
                0 => 0.0,
                1 => -0.0,
                2 => f64::INFINITY,
                3 => f64::NEG_INFINITY,
                _ => (rng.unit() - 0.5) * 10f64.powi(rng.below(600) as i32 - 300),
            },
            5 => rng.unit() + 1.0,
            6 => i as f64 / n as f64,
            _ => {
                let (u, v) = (rng.unit().max(1e-300), rng.unit());
                let normal = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
                (normal * 1e5).round() / 1e5
            }
        })
        .collect();
    if shape == 5 && n >= SAMPLE {
        // The rows `predict` samples.
        (0..SAMPLE).for_each(|i| values[i * n / SAMPLE] = 0.0);
    }
    values
}

#[test]
fn exact_on_every_shape_sampled_or_not() {
    for shape in 0..=7 {
        for n in [1, 2, 3, 1_000, SAMPLE_FROM - 1, SAMPLE_FROM, 300_001] {
            let values = column(shape, n, 17 + u64::from(shape));
            check(&values, &format!("shape {shape}"));
            let single: Vec<f32> = values.iter().map(|&v| v as f32).collect();
            check(&single, &format!("shape {shape}, f32"));
        }
    }
}

/// On a column that is neither tied nor adversarial, the sample's ranges hold every
/// rank's bucket: one pass, no second.
#[test]
fn the_sample_predicts_the_buckets_of_a_plain_column() {
    for shape in [0, 1, 6, 7] {
        let values = column(shape, 1_000_000, 5);
        let ranks = ranks(values.len(), 8);
        let mut counts = vec![0u32; super::BUCKETS];
        let prediction = predict(&values, &ranks, &mut counts).expect("a sampled column");
        assert!(counts.iter().all(|&c| c == 0), "counts left zeroed");
        let mut sorted = values.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        for r in ranks {
            assert_ne!(prediction.marked[bucket(sorted[r].key())], 0, "shape {shape}, rank {r}");
        }
    }
}

#[test]
fn the_first_nan_is_named_sampled_or_not() {
    for n in [10, SAMPLE_FROM + 5] {
        let mut values = column(0, n, 3);
        values[n - 2] = f64::NAN;
        values[n / 2] = -f64::NAN;
        assert_eq!(values_at_ranks(&values, &ranks(n, 8)), Err(n / 2));
        assert_eq!(values_at_ranks(&values, &[]), Err(n / 2), "no ranks, still checked");
        let single: Vec<f32> = values.iter().map(|&v| v as f32).collect();
        assert_eq!(values_at_ranks(&single, &ranks(n, 4)), Err(n / 2));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn equals_a_full_sort(shape in 0u8..=7, extra in 0usize..200_000, seed in any::<u64>(), k in 1usize..=256) {
        let values = column(shape, SAMPLE_FROM + extra, seed);
        let ranks = ranks(values.len(), k);
        let got: Vec<u64> = values_at_ranks(&values, &ranks).unwrap().iter().map(|v| v.to_bits()).collect();
        prop_assert_eq!(got, by_sort(&values, &ranks));
    }
}
