//! Decision tables: lookup semantics, validation, grid compaction, the compiled index
//! and the display, checked by example (`decision_props.rs` checks them by property).

use ktc::{
    Axis, AxisValue, CompiledTable, Condition, DecisionTable, GridValues, InvalidTable, KernelSchema, Region,
    Winner, compact_regions, grid_regions,
};

mod decision_support;
use decision_support::absent;

fn n_residency_table(regions: Vec<Region>) -> DecisionTable {
    DecisionTable { axes: vec![Axis::numeric("n"), Axis::categorical("residency")], regions }
}

/// The index `lookup` finds, checked against the compiled index on the same values.
fn first(table: &DecisionTable, query: &[(&str, AxisValue<'_>)]) -> Option<usize> {
    let found = table.lookup(query).map(|(i, _)| i);
    let positional: Vec<AxisValue<'_>> = table
        .axes
        .iter()
        .map(|a| query.iter().find(|(name, _)| *name == a.name).map_or(absent(a), |(_, v)| *v))
        .collect();
    let compiled = CompiledTable::compile(table).expect("compiles").find(&positional);
    assert_eq!(Some(compiled), found.or(Some(table.regions.len())), "compiled vs lookup on {query:?}");
    found
}

// ---- lookup semantics ----

#[test]
fn catch_all_takes_everything_the_others_leave() {
    let t = n_residency_table(vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel")]);
    assert_eq!(first(&t, &[("n", AxisValue::from(1000))]), Some(0));
    assert_eq!(first(&t, &[("n", AxisValue::from(1001))]), Some(1));
    assert_eq!(first(&t, &[("n", AxisValue::Num(f64::NAN))]), Some(1));
    assert_eq!(first(&t, &[("n", AxisValue::Num(f64::INFINITY)), ("residency", "host".into())]), Some(1));
    assert_eq!(first(&t, &[]), Some(1));
}

#[test]
fn categorical_axis_matches_by_label() {
    let t = n_residency_table(vec![
        Region::new("cuda").equals("residency", "device").at_most("n", 1e6),
        Region::new("cuda_big").equals("residency", "device"),
        Region::new("cpu"),
    ]);
    let device = AxisValue::from(ktc::Location::Device);
    let host = AxisValue::from(ktc::Location::Host);
    assert_eq!(first(&t, &[("n", 10.0.into()), ("residency", device)]), Some(0));
    assert_eq!(first(&t, &[("n", 1e7.into()), ("residency", device)]), Some(1));
    assert_eq!(first(&t, &[("n", 10.0.into()), ("residency", host)]), Some(2));
    assert_eq!(first(&t, &[("n", 10.0.into()), ("residency", "tpu".into())]), Some(2));
    // A number where a label is expected matches no label.
    assert_eq!(first(&t, &[("n", 10.0.into()), ("residency", 1.0.into())]), Some(2));
}

#[test]
fn earlier_broader_region_shadows_a_later_one() {
    let t = n_residency_table(vec![
        Region::new("broad").at_most("n", 1000.0),
        Region::new("narrow").at_most("n", 100.0),
        Region::new("rest"),
    ]);
    assert_eq!(first(&t, &[("n", 50.0.into())]), Some(0));
    assert_eq!(first(&t, &[("n", 500.0.into())]), Some(0));
    assert_eq!(first(&t, &[("n", 5000.0.into())]), Some(2));
}

#[test]
fn axis_absent_from_query_does_not_match_a_region_bounding_it() {
    let t = n_residency_table(vec![
        Region::new("small_host").at_most("n", 1000.0).equals("residency", "host"),
        Region::new("small").at_most("n", 1000.0),
        Region::new("rest"),
    ]);
    assert_eq!(first(&t, &[("n", 10.0.into())]), Some(1));
    assert_eq!(first(&t, &[("residency", "host".into())]), Some(2));
    // The compiled index reads a short query the same way.
    assert_eq!(CompiledTable::compile(&t).expect("compiles").find(&[AxisValue::Num(10.0)]), 1);
}

// ---- validation ----

fn schema() -> KernelSchema {
    KernelSchema {
        axes: vec![Axis::numeric("n"), Axis::categorical("residency")],
        variants: vec![("serial".into(), vec![]), ("shared".into(), vec![128, 256])],
    }
}

fn good_table() -> DecisionTable {
    n_residency_table(vec![
        Region::new("shared").block_size(256).at_most("n", 1e6).equals("residency", "device"),
        Region::new("serial"),
    ])
}

#[test]
fn validate_accepts_good_tables() {
    assert_eq!(good_table().validate(None), Ok(()));
    assert_eq!(good_table().validate(Some(&schema())), Ok(()));
    assert_eq!(n_residency_table(vec![Region::new("serial")]).validate(Some(&schema())), Ok(()));
}

#[test]
fn validate_rejects_each_bad_kind() {
    let with_first = |f: &dyn Fn(Region) -> Region| {
        let mut t = good_table();
        t.regions[0] = f(t.regions[0].clone());
        t
    };
    let bad_bound = |b: f64| with_first(&|r| r.at_most("n", b)).validate(None);

    assert!(matches!(
        with_first(&|r| r.at_most("m", 1.0)).validate(None),
        Err(InvalidTable::UnknownAxis { region: 0, .. })
    ));
    let mut no_catch_all = good_table();
    no_catch_all.regions.pop();
    assert_eq!(no_catch_all.validate(None), Err(InvalidTable::NoCatchAll));
    assert!(matches!(bad_bound(f64::NAN), Err(InvalidTable::BadBound { region: 0, .. })));
    assert!(matches!(bad_bound(f64::INFINITY), Err(InvalidTable::BadBound { region: 0, .. })));
    assert!(matches!(bad_bound(-1.0), Err(InvalidTable::BadBound { region: 0, .. })));
    let mut empty_variant = good_table();
    empty_variant.regions[1].variant.clear();
    assert_eq!(empty_variant.validate(None), Err(InvalidTable::EmptyVariant(1)));
    assert!(matches!(
        with_first(&|r| r.block_size(0)).validate(None),
        Err(InvalidTable::BadBlockSize { .. })
    ));
    let mut unknown_variant = good_table();
    unknown_variant.regions[1].variant = "turbo".into();
    assert_eq!(unknown_variant.validate(None), Ok(()));
    assert!(matches!(
        unknown_variant.validate(Some(&schema())),
        Err(InvalidTable::UnknownVariant { region: 1, .. })
    ));
    let block_512 = with_first(&|r| r.block_size(512));
    assert_eq!(block_512.validate(None), Ok(()));
    assert!(matches!(block_512.validate(Some(&schema())), Err(InvalidTable::BadBlockSize { region: 0, .. })));
    let mut block_for_serial = good_table();
    block_for_serial.regions[1].block_size = Some(128);
    assert!(matches!(
        block_for_serial.validate(Some(&schema())),
        Err(InvalidTable::BadBlockSize { region: 1, .. })
    ));
    assert!(matches!(
        with_first(&|r| r.equals("n", "big")).validate(None),
        Err(InvalidTable::KindMismatch { .. })
    ));
    assert!(matches!(
        with_first(&|r| r.at_most("residency", 1.0)).validate(None),
        Err(InvalidTable::KindMismatch { .. })
    ));
    let mut duplicate = good_table();
    duplicate.axes.push(Axis::numeric("n"));
    assert_eq!(duplicate.validate(None), Err(InvalidTable::DuplicateAxis("n".into())));
    let mut other_axes = good_table();
    other_axes.axes.reverse();
    assert!(matches!(other_axes.validate(Some(&schema())), Err(InvalidTable::AxesMismatch { .. })));
    assert_eq!(n_residency_table(vec![]).validate(None), Err(InvalidTable::Empty));
}

// ---- compaction and display, by example ----

#[test]
fn compact_merges_the_example_grid_into_two_regions() {
    let axes = [Axis::numeric("n"), Axis::numeric("k")];
    let values = [GridValues::Numeric(vec![1000.0, 1e5, 1e7]), GridValues::Numeric(vec![4.0, 64.0])];
    let winners: Vec<Winner> =
        (0..6).map(|i| Winner::new(if i < 2 { "serial" } else { "parallel" })).collect();

    let grid = grid_regions(&axes, &values, &winners);
    assert_eq!(grid.len(), 6);
    assert!(grid[..5].iter().all(|r| !r.is_catch_all()) && grid[5].is_catch_all());
    assert_eq!(grid[0].when.get("n"), Some(&Condition::Le(1000.0)));
    assert_eq!(grid[0].when.get("k"), Some(&Condition::Le(4.0)));
    assert_eq!(grid[1].when.get("k"), None, "the top value of an axis is unbounded");

    let compact = compact_regions(&axes, &values, &winners);
    assert_eq!(compact, vec![Region::new("serial").at_most("n", 1000.0), Region::new("parallel")]);
    let table = DecisionTable { axes: axes.to_vec(), regions: compact };
    assert_eq!(table.to_string(), "n ≤ 1000 → serial\nelse → parallel");
}

#[test]
fn display_writes_one_line_per_region_in_axis_order() {
    let table = DecisionTable {
        axes: vec![Axis::numeric("n_samples"), Axis::numeric("joint_size"), Axis::categorical("residency")],
        regions: vec![
            Region::new("shared").block_size(256).at_most("n_samples", 200_000.0).at_most("joint_size", 25.0),
            Region::new("cpu").equals("residency", "host").at_most("joint_size", 2.5),
            Region::new("global").block_size(512),
        ],
    };
    assert_eq!(
        table.to_string(),
        "n_samples ≤ 200000 and joint_size ≤ 25 → shared, block 256\n\
         joint_size ≤ 2.5 and residency = host → cpu\n\
         else → global, block 512"
    );
    assert_eq!(table.regions[0].to_string(), "joint_size ≤ 25 and n_samples ≤ 200000 → shared, block 256");
    assert_eq!(table.regions[2].to_string(), "always → global, block 512");
    let only = DecisionTable { axes: vec![], regions: vec![Region::new("serial")] };
    assert_eq!(only.to_string(), "always → serial");
}
