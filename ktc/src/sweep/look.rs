//! What refinement and exploring share: what they ask the measurer for, what they
//! expect a look to cost, and how a bracket is split.

use super::lattice::{Cell, Inference, Lattice};
use crate::registry::GridValue;
use std::time::Duration;

/// What refinement asks its measurer for.
pub(crate) enum Look<'a> {
    /// A new point's cell.
    New(&'a [GridValue]),
    /// The cell of the measured point with this result index, measured again and
    /// merged with the first look.
    Again(usize),
}

/// What one more look at `cell` is expected to take: what its looks took so far (one,
/// before its second look); `None` where that is not known (a stored entry's cell).
pub(crate) fn look_cost(cell: &Cell) -> Option<Duration> {
    (!cell.took.is_zero()).then_some(cell.took)
}

/// What measuring a new point between two neighbours is expected to take, from what one
/// look at each took: their geometric mean, as the midpoint is their geometric mean
/// and a kernel's time grows about in proportion to its size; what the one end took
/// where only one was measured; `None` where neither was (a stored entry's cells).
///
/// Per bracket, not the mean over all points: a point at 1 000 samples takes about a
/// tenth of the mean of `joint_hist_batched`'s grid, whose points at 1 000 000 samples
/// take most of it, so priced at the mean the brackets at small sizes, where a parallel
/// and a serial variant cross, were left open as too costly: `pairs` was chosen
/// between 1 000 and 1 333 samples where `par_pairs` ran 1.05–1.08× faster. Priced at
/// the dearer end instead, the brackets at large sizes were left open: `pairs` chosen
/// at 152 377 samples × 3 features where `par_pairs` was 1.6× faster.
pub(crate) fn new_point_cost(lo: Duration, hi: Duration) -> Option<Duration> {
    let (lo, hi) = (lo.as_secs_f64(), hi.as_secs_f64());
    let both = if lo > 0.0 && hi > 0.0 { (lo * hi).sqrt() } else { lo.max(hi) };
    (both > 0.0).then(|| Duration::from_secs_f64(both))
}

/// A cell that could not be measured: it accepts what either neighbour accepts, so no
/// further split is attempted next to it.
fn either(lo: &Cell, hi: &Cell) -> Cell {
    let mut acceptable = lo.acceptable.clone();
    acceptable.extend(hi.acceptable.iter().filter(|c| !lo.acceptable.contains(c)));
    Cell { near: acceptable.clone(), acceptable, ..Cell::default() }
}

/// The integer strictly between `lo` and `hi` at their geometric mean, or `None` once
/// the bracket is within `factor` (or holds no integer).
pub(crate) fn midpoint(lo: u64, hi: u64, factor: f64) -> Option<u64> {
    if hi <= lo + 1 || (lo > 0 && hi as f64 / lo as f64 <= factor) {
        return None;
    }
    let m = if lo == 0 { hi / 2 } else { ((lo as f64) * (hi as f64)).sqrt().round() as u64 };
    Some(m.clamp(lo + 1, hi - 1))
}

/// Splits the bracket between value indices `i` and `i + 1` of `axis` at `mid`: each
/// new cell is the `kept` one where there is one, inferred from its two neighbours
/// where `infer(lo, hi)`, else measured (`measure`; where it cannot be, what either
/// neighbour accepts). Returns how many points it measured.
pub(crate) fn split(
    lattice: &mut Lattice,
    (axis, i, mid): (usize, usize, u64),
    kept: &dyn Fn(&[GridValue]) -> Option<Cell>,
    infer: &dyn Fn(&Cell, &Cell) -> bool,
    measure: &mut dyn FnMut(Look<'_>) -> Option<Cell>,
) -> usize {
    let from = Inference {
        axis,
        lo: lattice.values[axis][i],
        hi: lattice.values[axis][i + 1],
        order: lattice.values.iter().map(Vec::len).sum(),
    };
    let mut measured = 0;
    lattice.insert(axis, i + 1, GridValue::Int(mid), |point, lo, hi| {
        if let Some(cell) = kept(point) {
            return cell;
        }
        if infer(lo, hi) {
            return Cell { inferred_from: Some(from), ..Cell::inferred(lo, hi) };
        }
        measured += 1;
        measure(Look::New(point)).unwrap_or_else(|| either(lo, hi))
    });
    measured
}
