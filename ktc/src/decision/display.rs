//! Human-readable decision tables, one line per region:
//!
//! ```text
//! n_samples ≤ 200000 and joint_size ≤ 25 → shared, block 256
//! else → global, block 512
//! ```

use super::{Condition, DecisionTable, Region};
use std::fmt;

impl fmt::Display for Condition {
    /// `≤ 200000` or `= device`: the condition without its axis.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // `f64`'s `Display` writes integral values without a trailing `.0`.
            Condition::Le(bound) => write!(f, "≤ {bound}"),
            Condition::Eq(label) => write!(f, "= {label}"),
        }
    }
}

impl fmt::Display for Region {
    /// `n ≤ 1000 and residency = host → serial`, conditions in axis-name order (a table
    /// writes them in its axis order); `always → …` for a catch-all.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_region(f, self, self.when.iter(), "always")
    }
}

impl fmt::Display for DecisionTable {
    /// One line per region, conditions in the table's axis order (then any unknown axis);
    /// a catch-all after the first region reads `else`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, region) in self.regions.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            let declared = self.axes.iter().filter_map(|a| region.when.get_key_value(&a.name));
            let unknown = region.when.iter().filter(|(name, _)| !self.axes.iter().any(|a| a.name == **name));
            write_region(f, region, declared.chain(unknown), if i == 0 { "always" } else { "else" })?;
        }
        Ok(())
    }
}

fn write_region<'a>(
    f: &mut fmt::Formatter<'_>,
    region: &Region,
    conditions: impl Iterator<Item = (&'a String, &'a Condition)>,
    catch_all: &str,
) -> fmt::Result {
    let mut any = false;
    for (axis, condition) in conditions {
        let sep = if any { " and " } else { "" };
        write!(f, "{sep}{axis} {condition}")?;
        any = true;
    }
    if !any {
        f.write_str(catch_all)?;
    }
    write!(f, " → {}", region.variant)?;
    if let Some(block) = region.block_size {
        write!(f, ", block {block}")?;
    }
    Ok(())
}
