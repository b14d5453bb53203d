//! The sweep harness: times every available (variant, block size) over a grid of
//! problem sizes, verifies outputs against the reference and writes one entry.
//!
//! Generated code implements [`Harness`] for a kernel (building a grid point's
//! arguments, running one variant on them, extracting the outputs) and calls [`run`];
//! everything else — timing, interleaving, verification bookkeeping, choosing
//! winners, deriving regions, writing the entry — lives here.

mod approx;
mod derive;
mod explore;
mod harness;
mod lattice;
mod look;
mod measure;
mod nearby;
mod plan;
mod progress;
mod refine;
mod release;
mod reproduce;
mod reseed;
mod rng;
mod rounds;
mod run;
mod sample;
mod settle;
mod stack;
mod state;
mod sweeper;
mod timing;
mod tune;
mod tune_in_test;
mod values;
mod verify;

pub use crate::job::{CallPattern, ProgressGroup, SweepMode, SweepOptions, SweepReport, SweepTask};
pub use approx::Approx;
pub use harness::{Harness, InputsError};
pub use release::{RELEASE_VAR, TestBuild};
pub use run::run;
pub use tune_in_test::tune_in_test;
pub use values::{FromGridValue, GridValueError};
