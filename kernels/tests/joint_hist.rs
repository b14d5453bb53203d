//! `joint_hist_batched`: every variant equals the serial reference; bad input is an
//! error value; CUDA variants are checked where CUDA is present.

use ktc_kernels::joint_hist_batched::{self, Variant};
use ktc_kernels::{Codes, Error, Residency};
use proptest::prelude::*;

#[path = "../../tests/support/child.rs"]
mod child;

/// Codes of either width (u16 when `bins > 256` or `wide`).
fn codes(data: Vec<u16>, n_rows: usize, n_cols: usize, bins: usize, wide: bool) -> Codes {
    if wide || bins > 256 {
        Codes::from_u16(data, n_rows, n_cols, bins).unwrap()
    } else {
        Codes::from_u8(data.into_iter().map(|c| c as u8).collect(), n_rows, n_cols, bins).unwrap()
    }
}

fn reference(y: &Codes, x: &Codes) -> Vec<u32> {
    let mut out = vec![u32::MAX; x.n_cols() * x.bins() * y.bins()];
    joint_hist_batched::call_with(Variant::Serial, None, y, x, &mut out).unwrap();
    out
}

/// Block sizes to try: the declared ones and small ones that split `n` unevenly.
fn blocks(v: Variant) -> Vec<Option<usize>> {
    if v.block_sizes().is_empty() {
        return vec![None];
    }
    let mut b: Vec<Option<usize>> = v.block_sizes().iter().map(|&b| Some(b)).collect();
    b.extend([Some(7), Some(64)]);
    b
}

fn cpu_variants() -> impl Iterator<Item = Variant> {
    Variant::ALL.iter().copied().filter(|v| !v.name().starts_with("cuda"))
}

/// Every CPU variant and block size equals the reference (counts pre-filled with junk:
/// variants overwrite).
fn check_all(y: &Codes, x: &Codes) {
    let expected = reference(y, x);
    assert_eq!(expected.iter().map(|&c| c as usize).sum::<usize>(), x.n_rows() * x.n_cols());
    for v in cpu_variants() {
        for b in blocks(v) {
            let mut out = vec![7u32; expected.len()];
            joint_hist_batched::call_with(v, b, y, x, &mut out).unwrap();
            assert_eq!(out, expected, "{v} block {b:?}");
        }
    }
    let mut out = vec![7u32; expected.len()];
    joint_hist_batched::call(y, x, &mut out).unwrap();
    assert_eq!(out, expected, "the tuned call");
}

fn case() -> impl Strategy<Value = (Codes, Codes)> {
    (0usize..2_000, 0usize..5, 1usize..300, 1usize..20, any::<bool>(), any::<bool>()).prop_flat_map(
        |(n, p, kx, ky, wide_y, wide_x)| {
            let ys = prop::collection::vec(0..ky as u16, n);
            let xs = prop::collection::vec(0..kx as u16, n * p);
            (ys, xs).prop_map(move |(ys, xs)| (codes(ys, n, 1, ky, wide_y), codes(xs, n, p, kx, wide_x)))
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn every_cpu_variant_equals_the_reference((y, x) in case()) {
        check_all(&y, &x);
    }
}

#[test]
fn edge_cases() {
    // N = 0, N = 1, N not a multiple of any block, all codes equal, maximal codes.
    for n in [0usize, 1, 5, 1_001, 70_001] {
        let (kx, ky, p) = (256, 3, 3);
        let ys: Vec<u16> = (0..n).map(|i| (i % ky) as u16).collect();
        let xs: Vec<u16> = (0..n * p).map(|i| (i * 31 % kx) as u16).collect();
        check_all(&codes(ys, n, 1, ky, false), &codes(xs, n, p, kx, false));
        let same = codes(vec![2; n], n, 1, ky, false);
        let max = codes(vec![(kx - 1) as u16; n * p], n, p, kx, false);
        check_all(&same, &max);
        let expected = reference(&same, &max);
        assert_eq!(expected[(kx - 1) * ky + 2], n as u32, "every sample in one cell");
        let wide = codes(vec![65_535; n * 2], n, 2, 65_536, true);
        check_all(&codes(vec![0; n], n, 1, 1, false), &wide);
    }
}

#[test]
fn no_features_is_empty_counts() {
    let y = codes(vec![0, 1], 2, 1, 2, false);
    let x = codes(vec![], 2, 0, 5, false);
    let mut out = vec![];
    joint_hist_batched::call(&y, &x, &mut out).unwrap();
}

#[test]
fn bad_codes_and_zero_bins_are_refused_when_building() {
    let err = Codes::from_u8(vec![0, 1, 4, 2], 2, 2, 4).unwrap_err();
    assert_eq!(err, Error::CodeOutOfRange { column: 1, row: 0, code: 4, bins: 4 });
    assert!(err.to_string().contains("not below the 4 declared bins"), "{err}");
    assert_eq!(Codes::from_u16(vec![], 0, 0, 0).unwrap_err(), Error::ZeroBins);
    assert!(matches!(Codes::from_u8(vec![0; 5], 2, 2, 4), Err(Error::LengthMismatch { .. })));
    assert!(Codes::column_u8(vec![255], 256).is_ok());
}

#[test]
fn bad_shapes_are_error_values_from_every_variant() {
    let y = Codes::column_u8(vec![0, 1, 1], 2).unwrap();
    let short_x = Codes::from_u8(vec![0, 1], 2, 1, 3).unwrap();
    let x = Codes::from_u8(vec![0, 1, 2], 3, 1, 3).unwrap();
    let two_cols = Codes::from_u8(vec![0, 1, 1, 0, 0, 0], 3, 2, 2).unwrap();
    for v in Variant::ALL {
        let mut out = vec![0u32; 6];
        let err = joint_hist_batched::call_with(v, None, &y, &short_x, &mut out).unwrap_err();
        assert!(matches!(err, Error::LengthMismatch { expected: 3, found: 2, .. }), "{v}: {err}");
        let err = joint_hist_batched::call_with(v, None, &two_cols, &x, &mut out).unwrap_err();
        assert!(matches!(err, Error::LengthMismatch { what: "target columns", .. }), "{v}: {err}");
        let mut wrong = vec![0u32; 5];
        let err = joint_hist_batched::call_with(v, None, &y, &x, &mut wrong).unwrap_err();
        assert!(matches!(err, Error::LengthMismatch { expected: 6, found: 5, .. }), "{v}: {err}");
    }
}

#[test]
fn device_points_need_cuda() {
    use ktc::sweep::FromGridValue;
    let device = Residency::from_grid_value(ktc::GridValue::Label("device"));
    match ktc::capability_available(ktc::Capability::Cuda) {
        Ok(()) => assert_eq!(device, Ok(Residency(ktc::Location::Device))),
        Err(reason) => assert_eq!(device, Err(ktc::sweep::GridValueError::DeviceUnavailable(reason))),
    }
    let host = Residency::from_grid_value(ktc::GridValue::Label("host")).unwrap();
    assert_eq!(host, Residency(ktc::Location::Host));
}

#[test]
fn cuda_variants_equal_the_reference() {
    if let Err(reason) = ktc::capability_available(ktc::Capability::Cuda) {
        child::skip(&format!("the CUDA check: {reason}"), false);
        let y = Codes::column_u8(vec![0], 1).unwrap();
        let err = joint_hist_batched::call_with(Variant::CudaGlobal, None, &y, &y, &mut [0]).unwrap_err();
        assert!(matches!(err, Error::Cuda(_)), "{err}");
        assert!(y.to_device().is_err());
        return;
    }
    for (n, p, kx, ky, wide) in
        [(0, 2, 4, 2, false), (1, 1, 3, 2, false), (100_003, 5, 16, 16, false), (3_001, 3, 300, 7, true)]
    {
        let ys: Vec<u16> = (0..n).map(|i| (i * 7 % ky) as u16).collect();
        let xs: Vec<u16> = (0..n * p).map(|i| (i * 13 % kx) as u16).collect();
        let (y, x) = (codes(ys, n, 1, ky, wide), codes(xs, n, p, kx, false));
        let expected = reference(&y, &x);
        let (yd, xd) = (y.to_device().unwrap(), x.to_device().unwrap());
        assert_eq!(ktc::location(&xd), ktc::Location::Device);
        assert_eq!(reference(&yd, &xd), expected, "CPU variant on device inputs");
        for v in [Variant::CudaShared, Variant::CudaGlobal] {
            for &b in v.block_sizes() {
                for (yy, xx) in [(&y, &x), (&yd, &xd)] {
                    let mut out = vec![7u32; expected.len()];
                    joint_hist_batched::call_with(v, Some(b), yy, xx, &mut out).unwrap();
                    assert_eq!(out, expected, "{v} block {b} at n={n} p={p} loc={}", ktc::location(xx));
                }
            }
        }
    }
}

#[test]
fn columns_and_residency_round_trips() {
    let x = Codes::from_u16(vec![1, 2, 3, 4, 5, 6], 3, 2, 7).unwrap();
    let col = x.host_column(1).unwrap();
    assert_eq!((col.n_rows(), col.n_cols(), col.bins()), (3, 1, 7));
    assert!(matches!(col.host(), Some(ktc_kernels::column::HostCodes::U16(&[4, 5, 6]))));
    assert!(x.host_column(2).is_none());
    let back = x.to_host().unwrap();
    assert_eq!(ktc::location(&back), ktc::Location::Host);
    assert!(matches!(back.host(), Some(ktc_kernels::column::HostCodes::U16(&[1, 2, 3, 4, 5, 6]))));
    // Target = one of the features: its histogram against itself is diagonal.
    let y = x.host_column(0).unwrap();
    let mut counts = vec![0u32; 2 * 7 * 7];
    joint_hist_batched::call(&y, &x, &mut counts).unwrap();
    for v in 1..=3 {
        assert_eq!(counts[v * 7 + v], 1, "feature 0 against itself, code {v}");
    }
}
