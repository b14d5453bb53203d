//! Decision tables: ordered regions of the problem-size space, each naming the variant
//! and block size that won there. The first region that contains a query wins.
//!
//! Numeric axes bound a region by an inclusive upper bound (absent = unbounded);
//! categorical axes (residency: `host` / `device`) match by equality (absent = any).
//! A valid table ends in a region with no condition at all: the catch-all.

mod cells;
mod compact;
mod compiled;
mod display;
mod validate;

pub(crate) use compact::compact_regions_within;
pub use compact::{GridValues, Winner, compact_regions, grid_regions};
pub use compiled::CompiledTable;
pub use validate::{InvalidTable, KernelSchema};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether an axis is a number bounded from above or a label matched exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AxisKind {
    /// A problem size: regions bound it with an inclusive upper bound.
    Numeric,
    /// A label such as residency (`host` / `device`): regions match it exactly.
    Categorical,
}

/// One named axis of a kernel's problem space.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Axis {
    /// The axis name, as in `axes(n_samples = ...)`.
    pub name: String,
    /// Numeric or categorical.
    pub kind: AxisKind,
}

impl Axis {
    /// A numeric axis.
    pub fn numeric(name: impl Into<String>) -> Self {
        Axis { name: name.into(), kind: AxisKind::Numeric }
    }
    /// A categorical axis.
    pub fn categorical(name: impl Into<String>) -> Self {
        Axis { name: name.into(), kind: AxisKind::Categorical }
    }
}

/// A region's condition on one axis. An axis a region does not mention is unbounded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Numeric: the value is at most this bound (inclusive).
    Le(f64),
    /// Categorical: the value equals this label.
    Eq(String),
}

impl Condition {
    /// Whether `value` satisfies this condition. A kind mismatch never matches.
    pub fn contains(&self, value: AxisValue<'_>) -> bool {
        match (self, value) {
            (Condition::Le(bound), AxisValue::Num(v)) => v <= *bound,
            (Condition::Le(bound), AxisValue::Int(v)) => int_floor(*bound).is_some_and(|b| v <= b),
            (Condition::Eq(label), AxisValue::Cat(v)) => label == v,
            _ => false,
        }
    }
}

/// The largest integer `≤ bound`, for comparing integer queries exactly (`v ≤ b` ⟺
/// `v ≤ ⌊b⌋`); `None` when no `u64` is `≤ bound` (negative or NaN).
#[inline]
pub(crate) fn int_floor(bound: f64) -> Option<u64> {
    if bound >= 0.0 {
        // `as` saturates above u64::MAX, which is exactly the floor wanted there.
        Some(bound.floor() as u64)
    } else {
        None
    }
}

/// A query's value on one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AxisValue<'a> {
    /// A non-negative integer axis value (sizes, counts), compared exactly.
    Int(u64),
    /// Any other numeric axis value.
    Num(f64),
    /// A categorical axis value, e.g. `"host"`.
    Cat(&'a str),
}

/// `From` for query values: `$variant($as)` for each of the types.
macro_rules! axis_value_from {
    ($variant:ident as $as:ty: $($t:ty),*) => {$(
        impl From<$t> for AxisValue<'_> {
            #[inline]
            fn from(v: $t) -> Self {
                AxisValue::$variant(v as $as)
            }
        }
    )*};
}
// Unsigned sizes compare exactly as integers; anything that may be negative or
// fractional as a float.
axis_value_from!(Int as u64: u8, u16, u32, u64, usize);
axis_value_from!(Num as f64: i8, i16, i32, i64, isize, f32, f64);

impl<'a> From<&'a str> for AxisValue<'a> {
    fn from(v: &'a str) -> Self {
        AxisValue::Cat(v)
    }
}

impl From<crate::Location> for AxisValue<'static> {
    #[inline]
    fn from(v: crate::Location) -> Self {
        AxisValue::Cat(v.label())
    }
}

/// One region: conditions per axis and the decision taken inside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    /// Conditions by axis name; an axis not named here is unbounded.
    #[serde(default)]
    pub when: BTreeMap<String, Condition>,
    /// The variant to run, by name.
    pub variant: String,
    /// The block size to run it with, for variants that take one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<usize>,
}

impl Region {
    /// A region with no conditions (a catch-all) choosing `variant`.
    pub fn new(variant: impl Into<String>) -> Self {
        Region { when: BTreeMap::new(), variant: variant.into(), block_size: None }
    }
    /// Sets the block size.
    pub fn block_size(mut self, block_size: usize) -> Self {
        self.block_size = Some(block_size);
        self
    }
    /// Adds `axis ≤ bound`.
    pub fn at_most(mut self, axis: impl Into<String>, bound: f64) -> Self {
        self.when.insert(axis.into(), Condition::Le(bound));
        self
    }
    /// Adds `axis == label`.
    pub fn equals(mut self, axis: impl Into<String>, label: impl Into<String>) -> Self {
        self.when.insert(axis.into(), Condition::Eq(label.into()));
        self
    }
    /// Whether the region has no condition, so contains every query.
    pub fn is_catch_all(&self) -> bool {
        self.when.is_empty()
    }
    /// Whether the query (axis name, value pairs) lies in this region. An axis the
    /// region bounds but the query omits does not match.
    pub fn contains(&self, query: &[(&str, AxisValue<'_>)]) -> bool {
        self.when.iter().all(|(axis, cond)| {
            query.iter().find(|(name, _)| name == axis).is_some_and(|(_, v)| cond.contains(*v))
        })
    }
}

/// An ordered list of regions over named axes; the first region containing a query wins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DecisionTable {
    /// The axes, in the kernel's order.
    pub axes: Vec<Axis>,
    /// The regions, first match wins; the last is a catch-all in a valid table.
    pub regions: Vec<Region>,
}

impl DecisionTable {
    /// The first region containing `query`, with its index.
    pub fn lookup(&self, query: &[(&str, AxisValue<'_>)]) -> Option<(usize, &Region)> {
        self.regions.iter().enumerate().find(|(_, r)| r.contains(query))
    }
}
