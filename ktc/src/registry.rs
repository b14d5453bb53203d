//! The tuner registry: every `#[tunable]` kernel registers a [`Tuner`] descriptor in
//! the [`TUNERS`] distributed slice, so any binary that names the kernel's crate can
//! list and re-tune it.

use crate::cuda::Capability;
use crate::decision::{Axis, AxisKind, KernelSchema};
use crate::job::{SweepOptions, SweepReport};
use crate::provenance::KernelIdentity;

/// One axis of a registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct TunerAxis {
    /// The axis name.
    pub name: &'static str,
    /// Numeric or categorical.
    pub kind: AxisKind,
    /// The values the sweep measures on this axis, in order.
    pub grid: &'static [SweepValue],
}

/// One value of a sweep grid: an integer problem size or a categorical label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SweepValue {
    /// A numeric axis value.
    Num(u64),
    /// A categorical axis value (`host`, `device`, ...).
    Label(&'static str),
}

impl SweepValue {
    /// The value as a query value.
    pub fn axis_value(self) -> crate::AxisValue<'static> {
        match self {
            SweepValue::Num(v) => crate::AxisValue::Int(v),
            SweepValue::Label(l) => crate::AxisValue::Cat(l),
        }
    }
}

/// One variant of a registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct TunerVariant {
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
pub struct Tuner {
    /// The kernel name (the module's name).
    pub name: &'static str,
    /// Where the kernel is defined (`module_path!()`).
    pub module_path: &'static str,
    /// The defining crate and source hash.
    pub identity: KernelIdentity,
    /// The axes, in order.
    pub axes: &'static [TunerAxis],
    /// The variants, in declaration order.
    pub variants: &'static [TunerVariant],
    /// Runs the kernel's sweep and writes an entry.
    pub sweep: fn(&SweepOptions) -> Result<SweepReport, crate::Error>,
}

impl Tuner {
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
    pub fn unavailable_reason(&self, index: usize) -> Option<String> {
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

/// Every tuner linked into this binary. A crate's tuners are linked only when the
/// binary names that crate (`use my_kernels as _;` is enough).
#[linkme::distributed_slice]
pub static TUNERS: [Tuner];

/// The registered tuners, sorted by module path and name.
pub fn discover_tuners() -> Vec<&'static Tuner> {
    let mut tuners: Vec<&'static Tuner> = TUNERS.iter().collect();
    tuners.sort_by_key(|t| (t.module_path, t.name));
    tuners
}
