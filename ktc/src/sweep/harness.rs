//! The per-kernel half of a sweep, implemented by `#[tunable]`'s generated code.

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
    fn build(&self, point: &[GridValue]) -> Result<Self::Inputs, String>;

    /// Runs variant `variant` (declaration order) on `inputs`, in place. This is the
    /// timed part; `block_size` is `Some` exactly for variants that take one.
    fn run(&self, variant: usize, block_size: Option<usize>, inputs: &mut Self::Inputs) -> Self::Ret;

    /// Extracts what is compared after a run (not timed).
    fn output(&self, inputs: Self::Inputs, ret: Self::Ret) -> Self::Output;

    /// Ok when `candidate` matches `reference`, else a short description of the first
    /// difference.
    fn verify(&self, reference: &Self::Output, candidate: &Self::Output) -> Result<(), String>;
}
