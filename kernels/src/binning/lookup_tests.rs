use super::*;
use crate::binning::cpu::linear;
use proptest::prelude::*;

/// A `discretize` variant's signature.
type Variant = fn(&Floats, &[f64], &mut [u8]) -> Result<(), Error>;

/// `lookup`'s codes (or error) and the reference's, for the same input.
fn both(values: &Floats, edges: &[f64]) -> (Result<Vec<u8>, Error>, Result<Vec<u8>, Error>) {
    let run = |f: Variant| {
        let mut codes = vec![0u8; values.len()];
        f(values, edges, &mut codes).map(|()| codes)
    };
    (run(lookup), run(linear))
}

/// Every edge, its neighbours one ulp away, both zeros, both infinities and a few
/// ordinary values: where a table of keys could disagree with `<=`.
fn probes(edges: &[f64]) -> Vec<f64> {
    let mut v = vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, 1.0, -1.0, 1e-310, -1e-310, 0.5, 1e300];
    for &e in edges {
        v.extend([e, e.next_up(), e.next_down(), -e]);
    }
    v
}

#[test]
fn codes_match_the_reference_where_keys_and_comparisons_could_part() {
    let uniform: Vec<f64> = (1..256).map(|i| i as f64 / 256.0).collect();
    let edge_sets: [&[f64]; 18] = [
        &[],
        &[0.5],
        &[0.25, 0.5, 0.75],
        &[-3.0, -1e-300, 0.0, 2.0],
        &[-0.0, 0.0],
        &[0.0, -0.0],
        &[-0.0, -0.0, 0.0, 1.0],
        &[f64::NEG_INFINITY, 1.0, f64::INFINITY],
        &[1.0, 1.0, 1.0000001, 7.5],
        &[-1e300, -1.0, 1e-310, 1e300],
        &[1000.0, 1000.0000000001, 1000.0000000002],
        &[-f64::MAX, f64::MAX],
        // A zero's edges in the bucket above `-0.0`'s, a tiny negative one in its own.
        &[-1e-320, 0.0],
        &[-1e-320, -0.0, 0.0, 1e-320],
        &[-5.0, -4.0],
        &[1e-320],
        &[f64::INFINITY],
        &uniform,
    ];
    for edges in edge_sets {
        let values = Floats::from(probes(edges));
        let (got, want) = both(&values, edges);
        assert_eq!(got.unwrap(), want.unwrap(), "edges {edges:?}");
        // The same through `f32` values (widened before their keys are taken).
        let narrow: Vec<f32> = probes(edges).iter().map(|&v| v as f32).collect();
        let (got, want) = both(&Floats::from(narrow), edges);
        assert_eq!(got.unwrap(), want.unwrap(), "f32 values, edges {edges:?}");
    }
}

#[test]
fn the_lowest_nan_row_is_reported_wherever_its_key_falls() {
    let edges = [0.25, 0.5, 0.75];
    let nans = [f64::NAN, -f64::NAN, f64::from_bits(0x7FF0_0000_0000_0001), f64::from_bits(u64::MAX)];
    for nan in nans {
        let values = Floats::from(vec![0.1, 0.6, nan, 0.9, f64::NAN]);
        let mut codes = vec![0u8; 5];
        let got = lookup(&values, &edges, &mut codes);
        assert!(matches!(got, Err(Error::NotANumber { column: 0, row: 2 })), "{nan:?}: {got:?}");
    }
    // One edge at +∞ puts a NaN's bucket next to the span: still refused.
    let mut codes = vec![0u8; 2];
    let got = lookup(&Floats::from(vec![1.0, f64::NAN]), &[f64::INFINITY], &mut codes);
    assert!(matches!(got, Err(Error::NotANumber { row: 1, .. })), "{got:?}");
}

#[test]
fn uniform_edges_get_buckets_of_one_edge_in_a_small_table() {
    // The case the fixed 16-bit buckets served badly: 255 edges in (0, 1), up to 8 in
    // one bucket.
    let edges: Vec<f64> = (1..256).map(|i| i as f64 / 256.0).collect();
    let table = Table::new(&edges);
    assert_eq!(table.width, 1, "one edge a bucket");
    assert!(table.entries.len() as u64 <= MAX_ENTRIES + 2, "{} entries", table.entries.len());
    // Edges as far apart as floats go still fit the bound (coarser buckets).
    let wide = Table::new(&[-f64::MAX, -1.0, 1e-300, f64::MAX]);
    assert!(wide.entries.len() as u64 <= MAX_ENTRIES + 2, "{} entries", wide.entries.len());
}

proptest! {
    #[test]
    fn codes_match_the_reference_on_random_edges_and_values(
        mut edges in prop::collection::vec(prop_oneof![-1e6f64..1e6, -1.0f64..1.0, -1e-300f64..1e-300, Just(0.0), Just(-0.0)], 0..255),
        mut values in prop::collection::vec(prop_oneof![-2e6f64..2e6, -1.5f64..1.5, -1e-300f64..1e-300, Just(0.0), Just(-0.0)], 0..300),
        repeat in 0usize..4,
    ) {
        edges.sort_by(f64::total_cmp);
        // Edges themselves as values, and repeated edges, are the boundary cases.
        values.extend(edges.iter().step_by(3));
        if let Some(&e) = edges.first() {
            edges.splice(0..0, std::iter::repeat_n(e, repeat));
            edges.truncate(255);
        }
        let (got, want) = both(&Floats::from(values), &edges);
        prop_assert_eq!(got.unwrap(), want.unwrap());
    }
}

#[test]
fn par_lookup_matches_the_reference_at_lengths_around_its_chunk_bounds() {
    let edges: Vec<f64> = (1..77).map(|i| i as f64 / 77.0).collect();
    for n in [1, 2047, 2048, 4095, 4096, 4097, 20_000] {
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 10_007) as f64 / 10_007.0).collect();
        let mut got = vec![0u8; n];
        crate::binning::parallel::par_lookup(&Floats::from(values.clone()), &edges, &mut got, 4).unwrap();
        let mut want = vec![0u8; n];
        linear(&Floats::from(values.clone()), &edges, &mut want).unwrap();
        assert_eq!(got, want, "{n} values");
        // A NaN in the last chunk is reported at its own row.
        let mut with_nan = values;
        with_nan[n - 1] = f64::NAN;
        let err = crate::binning::parallel::par_lookup(&Floats::from(with_nan), &edges, &mut got, 4);
        assert!(matches!(err, Err(Error::NotANumber { row, .. }) if row == n - 1), "{n}: {err:?}");
    }
}
