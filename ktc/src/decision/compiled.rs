//! A decision table compiled for the dispatcher's hot path: a grid of cells (see
//! [`cells`](super::cells)) holding each cell's first-match region.

use super::cells::{AxisIndex, SmallIndex, axis_indices, first_matches};
use super::{Axis, AxisValue, DecisionTable, InvalidTable};

/// A [`DecisionTable`] indexed for lookups that cost a binary search per axis over its
/// distinct bounds, whatever the number of regions. The one lookup: the dispatcher's
/// `choose` and its `explain` both run [`find`](Self::find).
///
/// Queries are positional, one value per axis in the table's order. Answers equal
/// [`DecisionTable::lookup`]'s on the same values, for every query.
///
/// ```
/// use ktc::{Axis, AxisValue, CompiledTable, DecisionTable, Region};
///
/// let table = DecisionTable {
///     axes: vec![Axis::numeric("n"), Axis::categorical("residency")],
///     regions: vec![
///         Region::new("serial").at_most("n", 1000.0),
///         Region::new("cuda").equals("residency", "device"),
///         Region::new("parallel"),
///     ],
/// };
/// let compiled = CompiledTable::compile(&table)?;
/// assert_eq!(compiled.find(&[AxisValue::Num(500.0), AxisValue::Cat("device")]), 0);
/// assert_eq!(compiled.find(&[AxisValue::Int(5_000_000), AxisValue::Cat("device")]), 1);
/// assert_eq!(compiled.find(&[AxisValue::Num(5e6), AxisValue::Cat("host")]), 2);
/// # Ok::<(), ktc::InvalidTable>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompiledTable {
    axes: Vec<Axis>,
    /// The hot path's index, for tables of the usual shape; `index` for the rest.
    small: SmallIndex,
    index: Box<[AxisIndex]>,
    /// Per cell, row-major over the axes' slots: the first region containing it, or
    /// `region_count` for none.
    regions: Box<[u16]>,
    region_count: usize,
}

impl CompiledTable {
    /// The most regions a table may have: far above what a sweep writes (one region per
    /// grid point at most), and what keeps a region index in 16 bits.
    pub const MAX_REGIONS: usize = u16::MAX as usize;

    /// The most cells the grid may have. The grid is the product of the axes' distinct
    /// bounds (and labels), which a sweep keeps near its grid's size; a dispatcher keeps
    /// a 16-byte decision per cell, so this bounds its table at 4 MiB.
    pub const MAX_CELLS: usize = 1 << 18;

    /// Compiles `table` in time linear in its regions and cells (plus sorting the
    /// bounds). All allocation happens here; [`find`](Self::find) allocates nothing.
    ///
    /// The table need not end in a catch-all, but it must be well formed: no duplicate
    /// or unknown axis, conditions of their axis' kind, finite bounds ≥ 0, at most
    /// [`MAX_REGIONS`](Self::MAX_REGIONS) regions and [`MAX_CELLS`](Self::MAX_CELLS)
    /// cells. [`DecisionTable::validate`] checks all of these.
    pub fn compile(table: &DecisionTable) -> Result<Self, InvalidTable> {
        table.check_shape()?;
        let (index, cells) = axis_indices(table, Self::MAX_CELLS)?;
        // `check_shape` bounds the region count by `MAX_REGIONS`, which fits `u16`.
        let none = table.regions.len() as u16;
        let regions = first_matches(table, &index, cells, none);
        Ok(CompiledTable {
            axes: table.axes.clone(),
            small: SmallIndex::new(&index),
            index: index.into(),
            regions,
            region_count: table.regions.len(),
        })
    }

    /// The index of the first region containing `query` (one value per axis, in the
    /// table's axis order), as [`DecisionTable::lookup`] would find it.
    ///
    /// A missing value (a short query) contains no region that bounds its axis, as a
    /// value of the wrong kind. Extra values are ignored. Returns
    /// [`region_count`](Self::region_count) when no region matches, which cannot happen
    /// in a valid table (it ends with a catch-all).
    #[inline(always)]
    pub fn find(&self, query: &[AxisValue<'_>]) -> usize {
        self.region_of_cell(self.cell(query))
    }

    /// The cell `query` falls in: the lookup itself, which [`find`](Self::find) and the
    /// dispatcher's hot path share. Always below [`cell_count`](Self::cell_count).
    #[inline(always)]
    pub(crate) fn cell(&self, query: &[AxisValue<'_>]) -> usize {
        match self.small_cell(query) {
            Some(cell) => cell,
            None => self.cell_general(query),
        }
    }

    /// [`cell`](Self::cell)'s first half, alone: the cell of a query of one integer per
    /// axis of a table of a few numeric axes with a few bounds each, from the index held
    /// inline; `None` for any other table or query, which `cell` looks up out of line.
    #[inline(always)]
    pub(crate) fn small_cell(&self, query: &[AxisValue<'_>]) -> Option<usize> {
        self.small.cell(query)
    }

    /// [`cell`](Self::cell) for any table and query: floats, labels, values of the
    /// other kind, missing values, many axes or bounds. Out of line, so that its code
    /// (a `memcmp` for labels) costs the inlined path no registers.
    #[inline(never)]
    fn cell_general(&self, query: &[AxisValue<'_>]) -> usize {
        self.index.iter().enumerate().map(|(i, axis)| axis.offset(query.get(i).copied())).sum()
    }

    /// The first region containing cell `cell`, or the region count for none.
    #[inline(always)]
    pub(crate) fn region_of_cell(&self, cell: usize) -> usize {
        // In range by construction; the check is one predictable branch.
        self.regions.get(cell).map_or(self.region_count, |&r| usize::from(r))
    }

    /// The number of regions of the compiled table.
    pub fn region_count(&self) -> usize {
        self.region_count
    }

    /// The table's axes, in query order.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// The number of cells of the grid.
    pub fn cell_count(&self) -> usize {
        self.regions.len()
    }
}

/// The grid's cell count for `table`, or why it is too large.
pub(super) fn check_cells(table: &DecisionTable) -> Result<(), InvalidTable> {
    axis_indices(table, CompiledTable::MAX_CELLS).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::Region;
    use proptest::prelude::*;

    fn table(regions: Vec<Region>) -> DecisionTable {
        DecisionTable { axes: vec![Axis::numeric("n"), Axis::categorical("r")], regions }
    }

    fn lookup(t: &DecisionTable, query: &[AxisValue<'_>]) -> usize {
        let named: Vec<(&str, AxisValue<'_>)> =
            t.axes.iter().map(|a| a.name.as_str()).zip(query.iter().copied()).collect();
        t.lookup(&named).map_or(t.regions.len(), |(i, _)| i)
    }

    #[test]
    fn nan_and_missing_values_fall_in_the_last_bucket() {
        let regions = vec![Region::new("a").at_most("n", 10.0), Region::new("b")];
        let with_labels = table(regions.clone());
        let numeric_only = DecisionTable { axes: vec![Axis::numeric("n")], regions };
        for t in [&with_labels, &numeric_only] {
            let c = CompiledTable::compile(t).unwrap();
            assert_eq!(c.find(&[AxisValue::Num(10.0)]), 0);
            assert_eq!(c.find(&[AxisValue::Int(10)]), 0);
            assert_eq!(c.find(&[AxisValue::Num(-0.0)]), 0);
            assert_eq!(c.find(&[AxisValue::Num(10.5)]), 1);
            assert_eq!(c.find(&[AxisValue::Int(11)]), 1);
            assert_eq!(c.find(&[AxisValue::Num(f64::NAN)]), 1);
            assert_eq!(c.find(&[AxisValue::Num(f64::INFINITY)]), 1);
            assert_eq!(c.find(&[]), 1);
            assert_eq!(c.find(&[AxisValue::Cat("10")]), 1);
        }
        assert_eq!(CompiledTable::compile(&numeric_only).unwrap().cell_count(), 2);
        // Two numeric buckets times (no label, other, any).
        assert_eq!(CompiledTable::compile(&with_labels).unwrap().cell_count(), 4);
    }

    #[test]
    fn many_bounds_answer_as_the_scan() {
        let mut regions: Vec<Region> =
            (0..20).map(|i| Region::new("a").at_most("n", f64::from(i * 10))).collect();
        regions.push(Region::new("z"));
        let t = table(regions);
        let c = CompiledTable::compile(&t).unwrap();
        for v in [-1.0, 0.0, 5.0, 10.0, 11.0, 190.0, 191.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(c.find(&[AxisValue::Num(v)]), lookup(&t, &[AxisValue::Num(v)]), "{v}");
        }
        for v in [0, 1, 9, 10, 11, 189, 190, 191, u64::MAX] {
            assert_eq!(c.find(&[AxisValue::Int(v)]), lookup(&t, &[AxisValue::Int(v)]), "{v}");
        }
    }

    #[test]
    fn a_table_of_the_other_kind_or_too_large_does_not_compile() {
        let t = table(vec![Region::new("a").equals("n", "x"), Region::new("b")]);
        assert!(matches!(CompiledTable::compile(&t), Err(InvalidTable::KindMismatch { .. })));
        let t = table(vec![Region::new("a").at_most("m", 10.0), Region::new("b")]);
        assert!(matches!(CompiledTable::compile(&t), Err(InvalidTable::UnknownAxis { .. })));

        // 3 axes with 200 distinct bounds each: 201³ cells.
        let axes: Vec<Axis> = (0..3).map(|i| Axis::numeric(format!("a{i}"))).collect();
        let mut regions: Vec<Region> = (0..200)
            .map(|i| {
                let b = f64::from(i);
                Region::new("v").at_most("a0", b).at_most("a1", b).at_most("a2", b)
            })
            .collect();
        regions.push(Region::new("w"));
        let t = DecisionTable { axes, regions };
        let too_many_cells = Err(InvalidTable::TooManyCells { max: CompiledTable::MAX_CELLS });
        assert_eq!(CompiledTable::compile(&t).map(|_| ()), too_many_cells);
        assert_eq!(t.validate(None), too_many_cells);

        let regions = vec![Region::new("a"); CompiledTable::MAX_REGIONS + 1];
        let t = DecisionTable { axes: vec![Axis::numeric("n")], regions };
        let too_many_regions = Err(InvalidTable::TooManyRegions {
            count: CompiledTable::MAX_REGIONS + 1,
            max: CompiledTable::MAX_REGIONS,
        });
        assert_eq!(CompiledTable::compile(&t).map(|_| ()), too_many_regions);
        assert_eq!(t.validate(None), too_many_regions);
    }

    #[test]
    fn the_region_limit_compiles_one_region_per_bound() {
        let mut regions: Vec<Region> =
            (0..CompiledTable::MAX_REGIONS - 1).map(|i| Region::new("a").at_most("n", i as f64)).collect();
        regions.push(Region::new("z"));
        let t = DecisionTable { axes: vec![Axis::numeric("n")], regions };
        assert_eq!(t.validate(None), Ok(()));
        let c = CompiledTable::compile(&t).unwrap();
        assert_eq!(c.cell_count(), CompiledTable::MAX_REGIONS);
        for v in [0, 1, 4096, 65_533, 65_534, 1 << 40] {
            assert_eq!(c.find(&[AxisValue::Int(v)]), lookup(&t, &[AxisValue::Int(v)]), "{v}");
        }
    }

    proptest! {
        /// Equals the first-match lookup for integer, float and label queries, whatever
        /// the bounds (fractional ones included) and however the regions overlap.
        #[test]
        fn answers_as_the_first_match_lookup(
            regions in prop::collection::vec(
                (prop::option::of(0u32..40), prop::option::of(0u32..40), prop::option::of(0usize..3)), 0..12),
            queries in prop::collection::vec((0u64..55, 0u64..55, 0usize..5), 1..50),
        ) {
            const LABELS: [&str; 5] = ["host", "device", "tpu", "", "other"];
            let mut regions: Vec<Region> = regions.iter().enumerate().map(|(i, (n, k, r))| {
                let mut region = Region::new(format!("v{i}"));
                if let Some(n) = n { region = region.at_most("n", f64::from(*n) * 1.25); }
                if let Some(k) = k { region = region.at_most("k", f64::from(*k)); }
                if let Some(r) = r { region = region.equals("r", LABELS[*r]); }
                region
            }).collect();
            regions.push(Region::new("last"));
            let t = DecisionTable { axes: vec![Axis::numeric("n"), Axis::categorical("r"), Axis::numeric("k")], regions };
            let c = CompiledTable::compile(&t).unwrap();
            // The same regions without labels: two numeric axes, which integer queries
            // look up inline (up to 7 bounds per axis) or by binary search (more).
            let mut numeric = t.clone();
            numeric.axes.remove(1);
            numeric.regions.iter_mut().for_each(|r| { r.when.remove("r"); });
            let cn = CompiledTable::compile(&numeric).unwrap();
            for (n, k, r) in queries {
                let ints = [AxisValue::Int(n), AxisValue::Cat(LABELS[r]), AxisValue::Int(k)];
                prop_assert_eq!(c.find(&ints), lookup(&t, &ints), "{:?}", ints);
                let floats = [AxisValue::Num(n as f64 * 0.7), AxisValue::Cat(LABELS[r]), AxisValue::Num(k as f64 + 0.5)];
                prop_assert_eq!(c.find(&floats), lookup(&t, &floats), "{:?}", floats);
                let sizes = [AxisValue::Int(n), AxisValue::Int(k)];
                prop_assert_eq!(cn.find(&sizes), lookup(&numeric, &sizes), "{:?}", sizes);
                let mixed = [AxisValue::Int(n), AxisValue::Num(k as f64 - 0.5)];
                prop_assert_eq!(cn.find(&mixed), lookup(&numeric, &mixed), "{:?}", mixed);
            }
        }
    }
}
