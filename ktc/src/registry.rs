//! The tuner registry: every `#[tunable]` kernel registers a [`Tuner`] descriptor in
//! the [`TUNERS`] distributed slice, so any binary that names the kernel's crate can
//! list and re-tune it.

use crate::cuda::Capability;
use crate::decision::{Axis, AxisKind, KernelSchema};
use crate::provenance::KernelIdentity;

/// One axis of a registered kernel.
#[derive(Clone, Copy, Debug)]
pub struct TunerAxis {
    /// The axis name.
    pub name: &'static str,
    /// Numeric or categorical.
    pub kind: AxisKind,
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
    pub sweep: fn(&crate::sweep::SweepOptions) -> Result<crate::sweep::SweepReport, crate::Error>,
}

impl Tuner {
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
