//! PLACEHOLDER (helper H3 replaces this file)
/// The store.
#[derive(Debug)]
pub struct KernelTuningCache;
/// Lookup result.
#[derive(Debug)]
pub struct Lookup;
/// Status.
#[derive(Debug)]
pub enum LookupStatus {}
/// A skipped file.
#[derive(Debug)]
pub struct Skipped;
