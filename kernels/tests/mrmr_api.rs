//! MRMR on a user's data through the library API: names and scores back, stage times,
//! warnings for requests that cannot mean what they ask, and the continuous synthetic
//! set's planted answer through binning.

use ktc_kernels::data::synthetic::{self, Role};
use ktc_kernels::data::{EncodeOptions, encode};
use ktc_kernels::mrmr::{Options, select_dataset, select_floats, select_table};

fn options(k: usize) -> Options {
    Options { k, bins: 4, ..Options::default() }
}

#[test]
fn float_slices_select_by_name_with_scores_and_times() {
    let n = 2_000;
    let class: Vec<u8> = (0..n).map(|i| (i % 4) as u8).collect();
    let signal: Vec<f32> =
        class.iter().enumerate().map(|(i, &c)| f32::from(c) + (i % 7) as f32 * 0.01).collect();
    let noise: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32).collect();
    let report = select_floats(&["noise", "signal"], &[&noise, &signal], &class, &options(1)).unwrap();
    assert_eq!(report.names, ["signal"]);
    assert_eq!(report.scores().len(), 1);
    assert!(report.scores()[0] > 1.0, "signal carries the 2 bits of the class: {:?}", report.scores());
    assert!(report.times.total() >= report.times.select);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn more_features_than_there_are_is_a_warning() {
    let class = [0u8, 1, 0, 1];
    let a = [0.1f64, 0.9, 0.2, 0.8];
    let report = select_floats(&["a"], &[&a], &class, &options(99)).unwrap();
    assert_eq!(report.names, ["a"]);
    assert_eq!(report.warnings, ["asked for 99 features, but there are 1: selecting all 1"]);
}

#[test]
fn a_constant_target_or_a_single_row_is_a_warning() {
    let a = [0.1f64, 0.9, 0.2, 0.8];
    let report = select_floats(&["a"], &[&a], &[3, 3, 3, 3], &options(1)).unwrap();
    assert!(report.warnings.iter().any(|w| w.contains("single value")), "{:?}", report.warnings);
    let report = select_floats(&["a"], &[&[0.5f64][..]], &[1], &options(1)).unwrap();
    assert!(report.warnings.iter().any(|w| w.contains("single row")), "{:?}", report.warnings);
}

#[test]
fn mismatched_names_and_columns_are_an_error() {
    let a = [0.1f64, 0.9];
    assert!(select_floats(&["a", "b"], &[&a], &[0, 1], &options(1)).is_err());
}

#[test]
fn continuous_synthetic_planted_features_come_before_their_copies() {
    let set = synthetic::continuous(20_000, 30, 42).unwrap();
    let roles = set.roles.clone();
    let report = select_table(set.table, "class", &Options { k: 5, bins: 8, ..Options::default() }).unwrap();
    let informative = roles.iter().filter(|r| matches!(r, Role::Informative { .. })).count();
    assert_eq!(informative, 5);
    for pick in &report.selection.picks {
        assert!(matches!(roles[pick.feature], Role::Informative { .. }), "{:?}", report.names);
    }
}

#[test]
fn continuous_synthetic_set_is_fixed_by_its_seed_and_binned_into_codes() {
    let a = synthetic::continuous(1_000, 12, 9).unwrap();
    let b = synthetic::continuous(1_000, 12, 9).unwrap();
    let c = synthetic::continuous(1_000, 12, 10).unwrap();
    assert_eq!(a.table, b.table);
    assert_ne!(a.table, c.table);
    let data = encode(a.table, "class", EncodeOptions { bins: 8, discrete: false }).unwrap();
    assert_eq!((data.features.bins(), data.target.bins()), (8, 4));
    let report = select_dataset(&data, &options(3)).unwrap();
    assert_eq!(report.names.len(), 3);
    assert!(synthetic::continuous(0, 3, 1).is_err());
}
