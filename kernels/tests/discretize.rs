//! `discretize` and `quantile_edges`: variants agree with the linear reference, edges
//! are quantiles, NaN and bad edges are error values, CUDA where present.

use ktc_kernels::discretize::{self, Variant};
use ktc_kernels::{Error, Floats, quantile_edges};
use proptest::prelude::*;

#[path = "../../tests/support/child.rs"]
mod child;

fn reference(values: &Floats, edges: &[f64]) -> Vec<u8> {
    let mut codes = vec![0u8; values.len()];
    discretize::call_with(Variant::Linear, None, values, edges, &mut codes).unwrap();
    codes
}

/// Every CPU variant (declared block sizes and small ones) equals the reference.
fn check_all(values: &Floats, edges: &[f64]) {
    let expected = reference(values, edges);
    for v in Variant::ALL.iter().filter(|v| **v != Variant::Cuda) {
        let mut blocks: Vec<Option<usize>> = v.block_sizes().iter().map(|&b| Some(b)).collect();
        if blocks.is_empty() {
            blocks.push(None);
        } else {
            blocks.extend([Some(1), Some(5)]);
        }
        for b in blocks {
            let mut codes = vec![255u8; values.len()];
            discretize::call_with(*v, b, values, edges, &mut codes).unwrap();
            assert_eq!(codes, expected, "{v} block {b:?}");
        }
    }
}

/// The definition, checked directly: a code is the number of edges ≤ the value.
fn by_definition(values: &[f64], edges: &[f64]) -> Vec<u8> {
    values.iter().map(|v| edges.iter().filter(|&&e| e <= *v).count() as u8).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn variants_agree_and_edges_are_quantiles(
        values in prop::collection::vec(-1e6f64..1e6, 1..2_000),
        few_distinct in any::<bool>(),
        k in 1usize..=256,
        single in any::<bool>(),
    ) {
        // Rounding to few distinct values makes ties, and so repeated edges.
        let values: Vec<f64> = if few_distinct { values.iter().map(|v| (v / 2e5).round()).collect() } else { values };
        let floats = if single {
            Floats::from(values.iter().map(|&v| v as f32).collect::<Vec<_>>())
        } else {
            Floats::from(values.clone())
        };
        let wide: Vec<f64> = match &floats { Floats::F32(v) => v.iter().map(|&x| f64::from(x)).collect(), Floats::F64(v) => v.to_vec() };
        let edges = quantile_edges(&floats, k).unwrap();
        prop_assert_eq!(edges.len(), k - 1);
        let n = wide.len();
        for (i, e) in edges.iter().enumerate() {
            let target = (i + 1) * n / k;
            let below = wide.iter().filter(|&&v| v < *e).count();
            let at_most = wide.iter().filter(|&&v| v <= *e).count();
            prop_assert!(below <= target && target < at_most, "edge {} = {} at n = {}", i + 1, e, n);
        }
        prop_assert_eq!(reference(&floats, &edges), by_definition(&wide, &edges));
        check_all(&floats, &edges);
    }
}

#[test]
fn edge_cases() {
    for n in [0usize, 1, 17, 16_385] {
        let values: Vec<f64> = (0..n).map(|i| (i * 7919 % 1000) as f64).collect();
        for k in [1, 2, 256] {
            let edges: Vec<f64> = (1..k).map(|i| i as f64 * 1000.0 / k as f64).collect();
            check_all(&Floats::from(values.clone()), &edges);
        }
        // Every value equal, equal to an edge, and extremes.
        check_all(&Floats::from(vec![3.0f64; n]), &[1.0, 3.0, 3.0, 5.0]);
        let extremes = [f64::NEG_INFINITY, f64::INFINITY, -0.0, f64::MAX, f64::MIN_POSITIVE];
        check_all(
            &Floats::from(extremes.iter().copied().cycle().take(n).collect::<Vec<_>>()),
            &[-1.0, 0.0, 1.0],
        );
    }
    // Signed zeros compare equal (`0.0 <= -0.0`), though their keys differ; edges of
    // either sign, in either order, next to values of every kind near them.
    let near_zero = [0.0, -0.0, 5e-324, -5e-324, 1.0, -1.0, f64::INFINITY, f64::NEG_INFINITY, 1e-300];
    for edges in [[-0.0, 0.0], [0.0, -0.0], [-5e-324, 0.0], [0.0, 5e-324]] {
        let wide = near_zero.repeat(3);
        check_all(&Floats::from(wide.clone()), &edges);
        assert_eq!(reference(&Floats::from(wide.clone()), &edges), by_definition(&wide, &edges));
        check_all(&Floats::from(wide.iter().map(|&v| v as f32).collect::<Vec<_>>()), &edges);
    }
    let values = Floats::from(vec![1.0f64, 2.0, 3.0, 4.0]);
    assert_eq!(reference(&values, &quantile_edges(&values, 4).unwrap()), [0, 1, 2, 3]);
    assert_eq!(quantile_edges(&values, 1).unwrap(), Vec::<f64>::new());
}

#[test]
fn nan_is_an_error_value_everywhere() {
    let values = Floats::from(vec![1.0f32, f32::NAN, 2.0]);
    assert_eq!(quantile_edges(&values, 2), Err(Error::NotANumber { column: 0, row: 1 }));
    for v in Variant::ALL {
        let mut codes = vec![0u8; 3];
        let err = discretize::call_with(v, Some(1), &values, &[1.5], &mut codes).unwrap_err();
        // For `cuda` too, with or without a device: the NaN check comes first.
        assert_eq!(err, Error::NotANumber { column: 0, row: 1 }, "{v}");
    }
    let mut codes = vec![0u8; 2];
    let err = discretize::call(&Floats::from(vec![1.0f64, 2.0]), &[f64::NAN], &mut codes).unwrap_err();
    assert_eq!(err, Error::NotANumber { column: 0, row: 0 });
}

#[test]
fn bad_edges_bins_and_lengths_are_error_values() {
    let values = Floats::from(vec![1.0f64, 2.0]);
    let mut codes = vec![0u8; 2];
    for v in Variant::ALL {
        let err = discretize::call_with(v, None, &values, &[2.0, 1.0], &mut codes).unwrap_err();
        assert_eq!(err, Error::Unsorted { what: "edges", index: 1 }, "{v}");
        let err = discretize::call_with(v, None, &values, &[1.0], &mut [0u8; 3]).unwrap_err();
        assert!(matches!(err, Error::LengthMismatch { expected: 2, found: 3, .. }), "{v}: {err}");
        let many: Vec<f64> = (0..256).map(f64::from).collect();
        let err = discretize::call_with(v, None, &values, &many, &mut codes).unwrap_err();
        assert!(matches!(err, Error::TooLarge { size: 257, .. }), "{v}: {err}");
    }
    assert_eq!(quantile_edges(&values, 0), Err(Error::ZeroBins));
    assert!(matches!(quantile_edges(&values, 257), Err(Error::TooLarge { .. })));
    assert!(matches!(quantile_edges(&Floats::from(Vec::<f64>::new()), 2), Err(Error::LengthMismatch { .. })));
}

#[test]
fn cuda_variant_equals_the_reference() {
    if let Err(reason) = ktc::capability_available(ktc::Capability::Cuda) {
        child::skip(&format!("the CUDA check: {reason}"), false);
        let err = discretize::call_with(Variant::Cuda, None, &Floats::from(vec![1.0f64]), &[], &mut [0])
            .unwrap_err();
        assert!(matches!(err, Error::Cuda(_)), "{err}");
        return;
    }
    for n in [0usize, 1, 1_000, 100_003] {
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 10_007) as f64 / 10.0).collect();
        for floats in
            [Floats::from(values.clone()), Floats::from(values.iter().map(|&v| v as f32).collect::<Vec<_>>())]
        {
            for k in [1, 4, 256] {
                let edges = if n == 0 { vec![] } else { quantile_edges(&floats, k).unwrap() };
                let expected = reference(&floats, &edges);
                for &b in Variant::Cuda.block_sizes() {
                    let mut codes = vec![255u8; n];
                    discretize::call_with(Variant::Cuda, Some(b), &floats, &edges, &mut codes).unwrap();
                    assert_eq!(codes, expected, "block {b}, n {n}, k {k}");
                }
            }
        }
    }
}

/// Edges come from a selection inside the buckets of an order-preserving key; columns
/// that crowd one bucket, span every exponent, or hold signed zeros and infinities must
/// still give exactly the sorted values at the quantile ranks.
#[test]
fn edges_are_exact_order_statistics_on_skewed_columns() {
    let mut rng = ktc_kernels::data::SplitMix64::new(11);
    let crowded: Vec<f64> = (0..50_000).map(|_| 1.0 + rng.unit() * 1e-9).chain([-1e300, 1e300]).collect();
    let spread: Vec<f64> = (0..50_000).map(|i| (rng.unit() - 0.5) * 10f64.powi(i % 40 - 20)).collect();
    let special: Vec<f64> =
        [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 5e-324]
            .repeat(300);
    for values in [crowded, spread, special] {
        let mut sorted = values.clone();
        sorted.sort_unstable_by(f64::total_cmp);
        for k in [2, 8, 255] {
            let n = values.len();
            let expected: Vec<u64> = (1..k).map(|i| sorted[i * n / k].to_bits()).collect();
            let got: Vec<u64> = quantile_edges(&Floats::from(values.clone()), k)
                .unwrap()
                .iter()
                .map(|e| e.to_bits())
                .collect();
            assert_eq!(got, expected, "k = {k}");
            let single: Vec<f32> = values.iter().map(|&v| v as f32).collect();
            let mut sorted32 = single.clone();
            sorted32.sort_unstable_by(f32::total_cmp);
            let expected32: Vec<u64> = (1..k).map(|i| f64::from(sorted32[i * n / k]).to_bits()).collect();
            let got32: Vec<u64> =
                quantile_edges(&Floats::from(single), k).unwrap().iter().map(|e| e.to_bits()).collect();
            assert_eq!(got32, expected32, "f32, k = {k}");
        }
    }
}
