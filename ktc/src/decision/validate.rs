//! Validation of a decision table read from disk, before anything is served from it.

use super::{AxisKind, Condition, DecisionTable};

/// What a kernel declares, against which a stored table is checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelSchema {
    /// The kernel's axes, in order.
    pub axes: Vec<super::Axis>,
    /// Each variant's name and allowed block sizes (empty: the variant takes none).
    pub variants: Vec<(String, Vec<usize>)>,
}

/// Why a decision table was rejected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InvalidTable {
    /// The table has no region at all.
    #[error("the table has no region")]
    Empty,
    /// An axis name appears twice in the table's axes.
    #[error("axis `{0}` is declared twice")]
    DuplicateAxis(String),
    /// The table's axes differ from the kernel's.
    #[error("axes {found:?} differ from the kernel's {expected:?}")]
    AxesMismatch {
        /// The kernel's axes.
        expected: Vec<String>,
        /// The table's axes.
        found: Vec<String>,
    },
    /// A region names an axis the table does not declare.
    #[error("region {region} names unknown axis `{axis}`")]
    UnknownAxis {
        /// Region index.
        region: usize,
        /// The axis named.
        axis: String,
    },
    /// A condition's kind does not match its axis' kind.
    #[error("region {region}: condition on `{axis}` does not match the axis kind {kind:?}")]
    KindMismatch {
        /// Region index.
        region: usize,
        /// The axis.
        axis: String,
        /// The axis' declared kind.
        kind: AxisKind,
    },
    /// A numeric bound is NaN, infinite or negative.
    #[error("region {region}: bound on `{axis}` is {bound}, not a finite number ≥ 0")]
    BadBound {
        /// Region index.
        region: usize,
        /// The axis.
        axis: String,
        /// The offending bound.
        bound: f64,
    },
    /// The last region has conditions, so some queries match no region.
    #[error("the last region is not a catch-all (a region without conditions)")]
    NoCatchAll,
    /// A region's variant name is empty.
    #[error("region {0} has an empty variant name")]
    EmptyVariant(usize),
    /// A region names a variant the kernel does not have.
    #[error("region {region} names unknown variant `{variant}`")]
    UnknownVariant {
        /// Region index.
        region: usize,
        /// The variant named.
        variant: String,
    },
    /// A region's block size is zero, missing, present for a variant without block
    /// sizes, or outside the variant's allowed set.
    #[error(
        "region {region}: block size {block_size:?} is not allowed for `{variant}` (allowed: {allowed:?})"
    )]
    BadBlockSize {
        /// Region index.
        region: usize,
        /// The variant.
        variant: String,
        /// The block size in the table.
        block_size: Option<usize>,
        /// The allowed set (empty: the variant takes none; unknown kernel: any non-zero).
        allowed: Vec<usize>,
    },
    /// More regions than [`CompiledTable::MAX_REGIONS`](super::CompiledTable::MAX_REGIONS):
    /// no sweep writes so many, and compiling them would cost the first call dearly.
    #[error("the table has {count} regions; at most {max} are allowed")]
    TooManyRegions {
        /// The table's region count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// The product of the axes' distinct bounds and labels (the compiled grid) exceeds
    /// [`CompiledTable::MAX_CELLS`](super::CompiledTable::MAX_CELLS).
    #[error("the table's distinct bounds make a grid of more than {max} cells")]
    TooManyCells {
        /// The limit.
        max: usize,
    },
}

impl DecisionTable {
    /// Checks the table's own consistency and, where the kernel is known, its axes,
    /// variant names and block sizes against `schema`.
    ///
    /// A valid table compiles ([`CompiledTable::compile`](super::CompiledTable::compile)):
    /// its region count and grid size are within the compiled table's limits.
    pub fn validate(&self, schema: Option<&KernelSchema>) -> Result<(), InvalidTable> {
        self.check_axes(schema)?;
        if self.regions.is_empty() {
            return Err(InvalidTable::Empty);
        }
        self.check_shape()?;
        for (i, region) in self.regions.iter().enumerate() {
            check_decision(i, region, schema)?;
        }
        if !self.regions.last().is_some_and(|r| r.is_catch_all()) {
            return Err(InvalidTable::NoCatchAll);
        }
        super::compiled::check_cells(self)
    }

    /// What compiling needs: distinct axes, conditions of their axis' kind with finite
    /// bounds ≥ 0, and no more regions than the compiled table indexes.
    pub(super) fn check_shape(&self) -> Result<(), InvalidTable> {
        self.check_axes(None)?;
        let max = super::CompiledTable::MAX_REGIONS;
        if self.regions.len() > max {
            return Err(InvalidTable::TooManyRegions { count: self.regions.len(), max });
        }
        for (i, region) in self.regions.iter().enumerate() {
            self.check_conditions(i, region)?;
        }
        Ok(())
    }

    fn check_axes(&self, schema: Option<&KernelSchema>) -> Result<(), InvalidTable> {
        for (i, axis) in self.axes.iter().enumerate() {
            if self.axes[..i].iter().any(|a| a.name == axis.name) {
                return Err(InvalidTable::DuplicateAxis(axis.name.clone()));
            }
        }
        if let Some(schema) = schema
            && schema.axes != self.axes
        {
            return Err(InvalidTable::AxesMismatch {
                expected: schema.axes.iter().map(|a| a.name.clone()).collect(),
                found: self.axes.iter().map(|a| a.name.clone()).collect(),
            });
        }
        Ok(())
    }

    fn check_conditions(&self, region_index: usize, region: &super::Region) -> Result<(), InvalidTable> {
        for (name, cond) in &region.when {
            let axis = self
                .axes
                .iter()
                .find(|a| &a.name == name)
                .ok_or_else(|| InvalidTable::UnknownAxis { region: region_index, axis: name.clone() })?;
            match (cond, axis.kind) {
                (Condition::Le(bound), AxisKind::Numeric) => {
                    if !bound.is_finite() || *bound < 0.0 {
                        return Err(InvalidTable::BadBound {
                            region: region_index,
                            axis: name.clone(),
                            bound: *bound,
                        });
                    }
                }
                (Condition::Eq(_), AxisKind::Categorical) => {}
                _ => {
                    return Err(InvalidTable::KindMismatch {
                        region: region_index,
                        axis: name.clone(),
                        kind: axis.kind,
                    });
                }
            }
        }
        Ok(())
    }
}

fn check_decision(
    i: usize,
    region: &super::Region,
    schema: Option<&KernelSchema>,
) -> Result<(), InvalidTable> {
    if region.variant.is_empty() {
        return Err(InvalidTable::EmptyVariant(i));
    }
    let bad_block = |allowed: &[usize]| InvalidTable::BadBlockSize {
        region: i,
        variant: region.variant.clone(),
        block_size: region.block_size,
        allowed: allowed.to_vec(),
    };
    let Some(schema) = schema else {
        return match region.block_size {
            Some(0) => Err(bad_block(&[])),
            _ => Ok(()),
        };
    };
    let (_, allowed) = schema
        .variants
        .iter()
        .find(|(name, _)| *name == region.variant)
        .ok_or_else(|| InvalidTable::UnknownVariant { region: i, variant: region.variant.clone() })?;
    let ok = match region.block_size {
        None => allowed.is_empty(),
        Some(b) => allowed.contains(&b),
    };
    if ok { Ok(()) } else { Err(bad_block(allowed)) }
}
