//! Data for MRMR: discrete data sets ([`Dataset`]), a seeded synthetic set with planted
//! informative and redundant features ([`synthetic`]), CSV loading with discrete-column
//! detection and quantile binning ([`csv`]), and the PRNG behind them ([`SplitMix64`]).

pub mod csv;
mod dataset;
mod encode;
mod error;
mod rng;
pub mod synthetic;

pub use dataset::{ColumnKind, Dataset};
pub use error::DataError;
pub use rng::SplitMix64;
