//! A fixture kernel's cost, known by construction: `burn(units)` runs `units` steps of
//! a dependent chain the optimiser cannot remove, so variants' costs are set in units.

use std::hint::black_box;

/// `units` steps of a dependent chain the optimiser cannot remove.
pub(crate) fn burn(units: usize) {
    let mut acc = 0u64;
    for i in 0..units as u64 {
        acc = black_box(acc.wrapping_mul(31).wrapping_add(i));
    }
    black_box(acc);
}
