//! The kernel registry: every `#[tunable]` kernel registers a [`KernelInfo`] descriptor in
//! the [`KERNELS`] distributed slice, so any binary that names the kernel's crate can
//! list and re-tune it.

use crate::cuda::Capability;
use crate::decision::{Axis, AxisKind, KernelSchema};
use crate::job::{SweepOptions, SweepReport};
use crate::provenance::KernelIdentity;

/// One axis of a registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct AxisInfo {
    /// The axis name.
    pub name: &'static str,
    /// Numeric or categorical.
    pub kind: AxisKind,
    /// The values the sweep measures on this axis, in order.
    pub grid: &'static [GridValue],
}

/// One value of a sweep grid: an integer problem size or a categorical label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridValue {
    /// A numeric axis value: grids hold integer problem sizes.
    Int(u64),
    /// A categorical axis value (`host`, `device`, ...).
    Label(&'static str),
}

/// The value as grids and reports write it: `250000`, `host`.
impl std::fmt::Display for GridValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GridValue::Int(n) => write!(f, "{n}"),
            GridValue::Label(l) => f.write_str(l),
        }
    }
}

impl GridValue {
    /// The value as a query value.
    pub fn axis_value(self) -> crate::AxisValue<'static> {
        match self {
            GridValue::Int(v) => crate::AxisValue::Int(v),
            GridValue::Label(l) => crate::AxisValue::Cat(l),
        }
    }
}

/// One variant of a registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    /// The variant name (the function's name).
    pub name: &'static str,
    /// Allowed block sizes; empty when the variant takes none.
    pub block_sizes: &'static [usize],
    /// Capabilities the variant needs (CUDA, ...).
    pub requires: &'static [Capability],
    /// Whether this is the reference variant others are verified against.
    pub reference: bool,
    /// Whether this is the declared fallback (`#[variant(default)]`); without one the
    /// reference is the fallback.
    pub default: bool,
}

/// A registered kernel: a const-constructible descriptor and its sweep entry point.
#[derive(Clone, Copy, Debug)]
pub struct KernelInfo {
    /// The kernel name (the module's name).
    pub name: &'static str,
    /// Where the kernel is defined (`module_path!()`).
    pub module_path: &'static str,
    /// The defining crate and source hash.
    pub identity: KernelIdentity,
    /// The axes, in order.
    pub axes: &'static [AxisInfo],
    /// The variants, in declaration order.
    pub variants: &'static [VariantInfo],
    /// Runs the kernel's sweep and writes an entry.
    pub sweep: fn(&SweepOptions) -> Result<SweepReport, crate::Error>,
    /// How the kernel's callers call it, as the kernel declares it
    /// (`#[tunable(after_pause_ms = 20)]`, else in a loop): the pattern its sweeps time
    /// where the options name none ([`SweepOptions::calls`]).
    pub calls: crate::job::CallPattern,
}

impl KernelInfo {
    /// The index of the reference variant.
    pub fn reference_index(&self) -> usize {
        self.variants.iter().position(|v| v.reference).unwrap_or(0)
    }

    /// The index of the variant dispatch falls back to: the declared default when its
    /// capabilities are present, else the reference.
    pub fn fallback_index(&self) -> usize {
        self.variants
            .iter()
            .position(|v| v.default && v.requires.iter().all(|c| crate::capability_available(*c).is_ok()))
            .unwrap_or_else(|| self.reference_index())
    }

    /// Why variant `index` cannot run here, or `None` when it can.
    pub fn unavailable_reason(&self, index: usize) -> Option<crate::Unavailable> {
        let variant = self.variants.get(index)?;
        variant.requires.iter().find_map(|c| crate::capability_available(*c).err())
    }

    /// The schema a stored table for this kernel is validated against.
    pub fn schema(&self) -> KernelSchema {
        KernelSchema {
            axes: self.axes.iter().map(|a| Axis { name: a.name.to_string(), kind: a.kind }).collect(),
            variants: self.variants.iter().map(|v| (v.name.to_string(), v.block_sizes.to_vec())).collect(),
        }
    }
}

/// Every kernel linked into this binary. A crate's kernels are linked only when the
/// binary names that crate (`use my_kernels as _;` is enough).
#[linkme::distributed_slice]
pub static KERNELS: [KernelInfo];

/// The registered kernels, sorted by module path and name.
pub fn discover_kernels() -> Vec<&'static KernelInfo> {
    let mut kernels: Vec<&'static KernelInfo> = KERNELS.iter().collect();
    kernels.sort_by_key(|t| (t.module_path, t.name));
    kernels
}
