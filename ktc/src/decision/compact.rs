//! PLACEHOLDER (helper H2 replaces this file)
use super::Region;
/// Compact grid winners into regions.
pub fn compact_regions() -> Vec<Region> { todo!() }
