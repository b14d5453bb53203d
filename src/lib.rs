//! The workspace's root package: it owns `examples/`, `tests/` and `benches/`, and the
//! small demonstration kernels they share. Never published.

pub mod demo;
