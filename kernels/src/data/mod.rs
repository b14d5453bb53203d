//! Data for MRMR: tables as read from files ([`Table`]), made discrete ([`encode`])
//! into data sets ([`Dataset`]); CSV (module `csv`, feature `csv`) and Parquet / Arrow
//! (module `parquet`, feature `parquet`) readers; a seeded synthetic set with planted
//! informative and redundant features ([`synthetic`]); the PRNG behind it
//! ([`SplitMix64`]).

#[cfg(any(feature = "csv", feature = "parquet"))]
mod builder;
#[cfg(feature = "csv")]
pub mod csv;
mod dataset;
mod encode;
mod error;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod synthetic;
mod table;

pub use crate::rng::SplitMix64;
pub use dataset::{ColumnKind, Dataset};
pub use encode::{EncodeOptions, encode};
pub use error::DataError;
pub use table::{Column, Table};
