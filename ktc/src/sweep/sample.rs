//! Off-grid sample points: log-uniform between a numeric axis' smallest and largest
//! grid value, avoiding the grid values themselves; labels drawn uniformly.

use super::rng::Rng;
use crate::AxisKind;
use crate::registry::{AxisInfo, GridValue, KernelInfo};
use std::collections::BTreeMap;

/// `count` points over `axes`, reproducible from `seed`.
pub(super) fn sample_points(axes: &[AxisInfo], count: usize, seed: u64) -> Vec<Vec<GridValue>> {
    let mut rng = Rng(seed);
    (0..count).map(|_| axes.iter().map(|axis| sample_axis(axis, &mut rng)).collect()).collect()
}

fn sample_axis(axis: &AxisInfo, rng: &mut Rng) -> GridValue {
    if axis.kind == AxisKind::Categorical || axis.grid.iter().any(|v| matches!(v, GridValue::Label(_))) {
        return axis.grid[(rng.next() % axis.grid.len() as u64) as usize];
    }
    let nums: Vec<u64> = grid_ints(axis).collect();
    let (lo, hi) = grid_range(axis).unwrap_or((0, 0));
    let (llo, lhi) = ((lo.max(1) as f64).ln(), (hi.max(1) as f64).ln());
    // Off the grid where the range leaves room (a few tries), else anything in range.
    let mut value = lo;
    for _ in 0..16 {
        value = (llo + rng.unit() * (lhi - llo)).exp().round().clamp(lo as f64, hi as f64) as u64;
        if !nums.contains(&value) {
            break;
        }
    }
    GridValue::Int(value)
}

/// The numeric values of `axis`' sweep grid.
fn grid_ints(axis: &AxisInfo) -> impl Iterator<Item = u64> + '_ {
    axis.grid.iter().filter_map(|v| if let GridValue::Int(n) = v { Some(*n) } else { None })
}

/// The smallest and largest numeric value of `axis`' sweep grid: the range verify
/// samples in; `None` where the grid holds no number.
pub(super) fn grid_range(axis: &AxisInfo) -> Option<(u64, u64)> {
    Some((grid_ints(axis).min()?, grid_ints(axis).max()?))
}

/// A point given by axis name (as entries and reports name them) in the kernel's
/// terms: every axis present, numbers as integers, labels among the axis' grid labels.
pub(super) fn named_point(
    tuner: &KernelInfo,
    point: &BTreeMap<String, serde_json::Value>,
) -> Option<Vec<GridValue>> {
    tuner
        .axes
        .iter()
        .map(|axis| match point.get(axis.name)? {
            serde_json::Value::String(s) => grid_label(axis.grid, s).map(GridValue::Label),
            v => v.as_u64().map(GridValue::Int),
        })
        .collect()
}

/// The grid's own `&'static str` equal to `s`.
fn grid_label(grid: &'static [GridValue], s: &str) -> Option<&'static str> {
    grid.iter().find_map(|v| match v {
        GridValue::Label(l) if *l == s => Some(*l),
        _ => None,
    })
}

/// Whether every numeric value of `point` lies between its axis' smallest and largest
/// grid values (labels are grid values by construction): where verify samples, and
/// where inputs are sized as the sweep sized them (a hostile record or a typo could
/// otherwise ask for inputs no memory holds).
pub(super) fn within_grid(tuner: &KernelInfo, point: &[GridValue]) -> bool {
    tuner.axes.iter().zip(point).all(|(axis, value)| {
        let GridValue::Int(v) = value else { return true };
        grid_range(axis).is_some_and(|(low, high)| (low..=high).contains(v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_stay_in_range_off_grid_and_are_reproducible() {
        let n: &'static [GridValue] =
            &[GridValue::Int(1_000), GridValue::Int(100_000), GridValue::Int(1_000_000)];
        let loc: &'static [GridValue] = &[GridValue::Label("host"), GridValue::Label("device")];
        let axes = [
            AxisInfo { name: "n", kind: AxisKind::Numeric, grid: n },
            AxisInfo { name: "loc", kind: AxisKind::Categorical, grid: loc },
        ];
        let points = sample_points(&axes, 200, 7);
        assert_eq!(points, sample_points(&axes, 200, 7));
        let mut below_grid_mid = 0;
        for p in &points {
            let GridValue::Int(v) = p[0] else { panic!("{p:?}") };
            assert!((1_000..=1_000_000).contains(&v) && !n.contains(&p[0]), "{v}");
            below_grid_mid += usize::from(v < 31_623);
            assert!(loc.contains(&p[1]));
        }
        // Log-uniform: about half below the geometric middle of the range.
        assert!((60..140).contains(&below_grid_mid), "{below_grid_mid}");
    }
}
