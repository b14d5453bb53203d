//! What the decision-table tests share.

use ktc::{Axis, AxisKind, AxisValue};

/// A positional stand-in for a value the query lacks: one of the other kind, which no
/// condition of the axis contains.
pub(crate) fn absent(axis: &Axis) -> AxisValue<'static> {
    match axis.kind {
        AxisKind::Numeric => AxisValue::Cat("absent"),
        AxisKind::Categorical => AxisValue::Num(f64::NAN),
    }
}
