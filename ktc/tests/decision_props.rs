//! Decision tables checked by property: grid compaction answers like the raw grid, and
//! the compiled index answers like the first-match lookup.

use ktc::{
    Axis, AxisKind, AxisValue, CompiledTable, DecisionTable, GridValues, KernelSchema, Region, Winner,
    compact_regions, grid_regions,
};
use proptest::prelude::*;
use proptest::sample::Index;

mod decision_support;
use decision_support::absent;

const LABELS: [&str; 5] = ["host", "device", "pinned", "managed", "remote"];

fn winner_pool() -> [Winner; 3] {
    [Winner::new("serial"), Winner::new("shared").block_size(256), Winner::new("global").block_size(512)]
}

fn pool_schema(axes: &[Axis]) -> KernelSchema {
    KernelSchema {
        axes: axes.to_vec(),
        variants: vec![("serial".into(), vec![]), ("shared".into(), vec![256]), ("global".into(), vec![512])],
    }
}

fn grid_values() -> impl Strategy<Value = GridValues> {
    prop_oneof![
        2 => prop::collection::btree_set(0u32..40, 1..=6)
            .prop_map(|s| GridValues::Numeric(s.into_iter().map(|x| f64::from(x) * 25.0).collect())),
        1 => prop::sample::subsequence(LABELS.to_vec(), 1..=LABELS.len())
            .prop_shuffle()
            .prop_map(|v| GridValues::Categorical(v.into_iter().map(String::from).collect())),
    ]
}

fn axes_for(values: &[GridValues]) -> Vec<Axis> {
    let axis = |(i, v): (usize, &GridValues)| match v {
        GridValues::Numeric(_) => Axis::numeric(format!("a{i}")),
        GridValues::Categorical(_) => Axis::categorical(format!("a{i}")),
    };
    values.iter().enumerate().map(axis).collect()
}

/// How a query picks one axis' value: on, between, below or above the known values,
/// NaN, infinity, an unseen label, the other kind, or absent.
#[derive(Clone, Debug)]
struct Pick {
    how: u8,
    at: Index,
    frac: f64,
}

fn pick() -> impl Strategy<Value = Pick> {
    (0u8..12, any::<Index>(), 0.0f64..1.0).prop_map(|(how, at, frac)| Pick { how, at, frac })
}

/// A query value owning its label; `None` is absent.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Num(f64),
    Int(u64),
    Cat(String),
}

impl Value {
    fn as_axis_value(&self) -> AxisValue<'_> {
        match self {
            Value::Num(v) => AxisValue::Num(*v),
            Value::Int(v) => AxisValue::Int(*v),
            Value::Cat(l) => AxisValue::Cat(l),
        }
    }
}

/// A numeric value near `bounds` (sorted, non-empty).
fn pick_number(bounds: &[f64], p: &Pick) -> Option<Value> {
    let i = p.at.index(bounds.len());
    let top = bounds[bounds.len() - 1];
    let v = match p.how {
        0 | 1 => bounds[i],
        2 => {
            bounds.get(i + 1).map_or(top + 1.0 + p.frac * 1e4, |next| bounds[i] + p.frac * (next - bounds[i]))
        }
        3 => bounds[0] * p.frac,
        4 => top + 1e-9 + p.frac * 1e6,
        5 => f64::NAN,
        6 => f64::INFINITY,
        7 => return Some(Value::Cat("host".into())),
        // Integer queries, compared exactly: on, just below and just above a bound.
        9 => return Some(Value::Int(bounds[i].max(0.0).floor() as u64)),
        10 => return Some(Value::Int(bounds[i].max(0.0).ceil() as u64 + 1)),
        11 => return Some(Value::Int((bounds[i].max(0.0).floor() as u64).saturating_sub(1))),
        _ => return None,
    };
    Some(Value::Num(v))
}

fn pick_label(labels: &[String], p: &Pick) -> Option<Value> {
    match p.how {
        0..=3 => Some(Value::Cat(labels[p.at.index(labels.len())].clone())),
        4 | 5 => Some(Value::Cat("unseen".into())),
        6 | 7 => Some(Value::Num(1.0)),
        _ => None,
    }
}

fn pick_query(values: &[GridValues], picks: &[Pick]) -> Vec<Option<Value>> {
    values
        .iter()
        .zip(picks)
        .map(|(v, p)| match v {
            GridValues::Numeric(g) => pick_number(g, p),
            GridValues::Categorical(l) => pick_label(l, p),
        })
        .collect()
}

fn named<'a>(axes: &'a [Axis], query: &'a [Option<Value>]) -> Vec<(&'a str, AxisValue<'a>)> {
    axes.iter().zip(query).filter_map(|(a, v)| Some((a.name.as_str(), v.as_ref()?.as_axis_value()))).collect()
}

fn positional<'a>(axes: &[Axis], query: &'a [Option<Value>]) -> Vec<AxisValue<'a>> {
    axes.iter().zip(query).map(|(a, v)| v.as_ref().map_or(absent(a), Value::as_axis_value)).collect()
}

/// The grid point a query snaps to: per axis the first value at or above it, else the
/// last (above the grid, NaN, unseen label, other kind, absent).
fn snap(values: &[GridValues], query: &[Option<Value>]) -> usize {
    values.iter().zip(query).fold(0, |flat, (v, q)| {
        let (len, i) = match (v, q) {
            (GridValues::Numeric(g), Some(Value::Num(x))) => (g.len(), g.iter().position(|b| x <= b)),
            // Test integers are far below 2^53, so the conversion is exact.
            (GridValues::Numeric(g), Some(Value::Int(x))) => {
                (g.len(), g.iter().position(|b| *x as f64 <= *b))
            }
            (GridValues::Categorical(l), Some(Value::Cat(x))) => (l.len(), l.iter().position(|b| b == x)),
            (GridValues::Numeric(g), _) => (g.len(), None),
            (GridValues::Categorical(l), _) => (l.len(), None),
        };
        flat * len + i.unwrap_or(len - 1)
    })
}

fn decision(table: &DecisionTable, query: &[(&str, AxisValue<'_>)]) -> Option<Winner> {
    table.lookup(query).map(|(_, r)| Winner { variant: r.variant.clone(), block_size: r.block_size })
}

fn assert_compiled_agrees(table: &DecisionTable, query: &[Option<Value>]) -> Result<(), TestCaseError> {
    let expected = table.lookup(&named(&table.axes, query)).map_or(table.regions.len(), |(i, _)| i);
    let compiled = CompiledTable::compile(table).expect("compiles");
    prop_assert_eq!(compiled.find(&positional(&table.axes, query)), expected, "query {:?}", query);
    Ok(())
}

fn grid_len(values: &GridValues) -> usize {
    match values {
        GridValues::Numeric(g) => g.len(),
        GridValues::Categorical(l) => l.len(),
    }
}

/// The values of grid point `flat` (row-major, the last axis fastest).
fn grid_point(values: &[GridValues], mut flat: usize) -> Vec<Option<Value>> {
    let mut point: Vec<Option<Value>> = values
        .iter()
        .rev()
        .map(|v| {
            let value = match v {
                GridValues::Numeric(g) => Value::Num(g[flat % g.len()]),
                GridValues::Categorical(l) => Value::Cat(l[flat % l.len()].clone()),
            };
            flat /= grid_len(v);
            Some(value)
        })
        .collect();
    point.reverse();
    point
}

#[derive(Clone, Debug)]
struct GridCase {
    values: Vec<GridValues>,
    winners: Vec<usize>,
    queries: Vec<Vec<Pick>>,
}

fn grid_case() -> impl Strategy<Value = GridCase> {
    prop::collection::vec(grid_values(), 1..=3).prop_flat_map(|values| {
        let points: usize = values.iter().map(grid_len).product();
        let d = values.len();
        (
            Just(values),
            prop::collection::vec(0..winner_pool().len(), points),
            prop::collection::vec(prop::collection::vec(pick(), d), 1..40),
        )
            .prop_map(|(values, winners, queries)| GridCase { values, winners, queries })
    })
}

/// A random first-match table: up to 8 regions bounding random axes, then a catch-all.
#[derive(Clone, Debug)]
struct TableCase {
    table: DecisionTable,
    /// Per axis, the values queries pick near.
    values: Vec<GridValues>,
    queries: Vec<Vec<Pick>>,
}

/// Per axis: whether a region bounds it, a numeric bound (times 10), a label.
type RandomRegion = (Vec<(bool, u32, Index)>, usize);

fn table_case() -> impl Strategy<Value = TableCase> {
    prop::collection::vec(any::<bool>(), 1..=3).prop_flat_map(|categorical| {
        let d = categorical.len();
        let region =
            (prop::collection::vec((any::<bool>(), 0u32..12, any::<Index>()), d), 0..winner_pool().len());
        (
            Just(categorical),
            prop::collection::vec(region, 0..8),
            prop::collection::vec(prop::collection::vec(pick(), d), 1..40),
        )
            .prop_map(|(categorical, regions, queries)| build_table_case(&categorical, regions, queries))
    })
}

fn build_table_case(categorical: &[bool], regions: Vec<RandomRegion>, queries: Vec<Vec<Pick>>) -> TableCase {
    let name = |i: usize| format!("a{i}");
    let axes: Vec<Axis> = categorical
        .iter()
        .enumerate()
        .map(|(i, &c)| if c { Axis::categorical(name(i)) } else { Axis::numeric(name(i)) })
        .collect();
    let pool = winner_pool();
    let to_region = |(conditions, w): RandomRegion| {
        let mut r = Region::new(pool[w].variant.clone());
        r.block_size = pool[w].block_size;
        for ((bounded, bound, label), axis) in conditions.into_iter().zip(&axes) {
            r = match (bounded, axis.kind) {
                (false, _) => r,
                (true, AxisKind::Numeric) => r.at_most(&axis.name, f64::from(bound) * 7.5),
                (true, AxisKind::Categorical) => r.equals(&axis.name, LABELS[label.index(LABELS.len())]),
            };
        }
        r
    };
    let mut regions: Vec<Region> = regions.into_iter().map(to_region).collect();
    regions.push(Region::new("serial"));
    let values = axes
        .iter()
        .map(|a| match a.kind {
            AxisKind::Numeric => GridValues::Numeric((0..12).map(|b| f64::from(b) * 10.0).collect()),
            AxisKind::Categorical => GridValues::Categorical(LABELS.map(String::from).to_vec()),
        })
        .collect();
    TableCase { table: DecisionTable { axes, regions }, values, queries }
}

proptest! {
    #[test]
    fn compact_answers_exactly_as_the_grid(case in grid_case()) {
        let pool = winner_pool();
        let winners: Vec<Winner> = case.winners.iter().map(|&w| pool[w].clone()).collect();
        let axes = axes_for(&case.values);
        let table = |regions| DecisionTable { axes: axes.clone(), regions };
        let grid = table(grid_regions(&axes, &case.values, &winners));
        let compact = table(compact_regions(&axes, &case.values, &winners));

        prop_assert_eq!(grid.regions.len(), winners.len());
        prop_assert!(compact.regions.len() <= grid.regions.len());
        prop_assert_eq!(grid.validate(Some(&pool_schema(&axes))), Ok(()));
        prop_assert_eq!(compact.validate(Some(&pool_schema(&axes))), Ok(()));

        for picks in &case.queries {
            let query = pick_query(&case.values, picks);
            let q = named(&axes, &query);
            let reference = decision(&grid, &q);
            let snapped = &winners[snap(&case.values, &query)];
            prop_assert_eq!(reference.as_ref(), Some(snapped), "grid on {:?}", query);
            prop_assert_eq!(decision(&compact, &q), reference, "compact on {:?}\n{}", query, compact);
            assert_compiled_agrees(&grid, &query)?;
            assert_compiled_agrees(&compact, &query)?;
        }
        // Every grid point, too.
        for (flat, winner) in winners.iter().enumerate() {
            let query = grid_point(&case.values, flat);
            let found = decision(&compact, &named(&axes, &query));
            prop_assert_eq!(found.as_ref(), Some(winner));
        }
    }

    #[test]
    fn compiled_answers_exactly_as_lookup_on_any_table(case in table_case()) {
        prop_assert_eq!(case.table.validate(None), Ok(()));
        for picks in &case.queries {
            let query = pick_query(&case.values, picks);
            assert_compiled_agrees(&case.table, &query)?;
        }
    }
}
