//! The per-kernel half of a sweep, implemented by `#[tunable]`'s generated code.

use super::GridValueError;
use crate::registry::GridValue;

/// Builds, runs and checks one kernel's variants for the sweep.
///
/// Generated code implements this for every `#[tunable]` module: `Inputs` is the tuple
/// `#[inputs]` returns (one owned value per parameter), `Ret` the variants' return
/// type, `Output` the `&mut` parameters' values after the run plus the return value.
pub trait Harness {
    /// One grid point's arguments, owned; cloned before every run.
    type Inputs: Clone;
    /// The variants' return type.
    type Ret;
    /// What is compared with the reference: mutated arguments and the return value.
    type Output;

    /// Builds the arguments for a grid point (values in the kernel's axis order).
    fn build(&self, point: &[GridValue]) -> Result<Self::Inputs, InputsError>;

    /// Runs variant `variant` (declaration order) on `inputs`, in place. This is the
    /// timed part; `block_size` is `Some` exactly for variants that take one.
    fn run(&self, variant: usize, block_size: Option<usize>, inputs: &mut Self::Inputs) -> Self::Ret;

    /// Extracts what is compared after a run (not timed).
    fn output(&self, inputs: Self::Inputs, ret: Self::Ret) -> Self::Output;

    /// Ok when `candidate` matches `reference`, else a short description of the first
    /// difference: free text by nature (a `#[verify]` function's own words, or
    /// [`Approx`](super::Approx)'s path to the first differing element), only ever shown
    /// and recorded in the entry's exclusions.
    fn verify(&self, reference: &Self::Output, candidate: &Self::Output) -> Result<(), String>;
}

/// Why a grid point's inputs could not be built. The sweep skips the point and records
/// the reason in the entry's exclusions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputsError {
    /// The point has a different number of values than the kernel has axes.
    #[error("expected {expected} axis values, got {found}")]
    Arity {
        /// The kernel's axes.
        expected: usize,
        /// The point's values.
        found: usize,
    },
    /// One axis's value does not convert to its `#[inputs]` parameter's type.
    #[error("axis `{axis}`: {source}")]
    Axis {
        /// The axis name.
        axis: &'static str,
        /// Why the value does not convert.
        source: GridValueError,
    },
}
