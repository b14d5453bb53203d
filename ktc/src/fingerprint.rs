//! PLACEHOLDER (helper H1 replaces this file)
/// This host's fingerprint.
pub fn hw_fingerprint() -> &'static str { todo!() }
/// Fingerprint for a GPU ordinal.
pub fn hw_fingerprint_for(_device: usize) -> String { todo!() }
/// CPU model → slug.
pub fn normalize_cpu_model(_model: &str) -> String { todo!() }
