//! The `#[tunable]` attribute of [ktc](https://docs.rs/ktc), the kernel tuning cache.
//!
//! Use it through `ktc` (`#[ktc::tunable(...)]`): the generated code names the runtime
//! as `::ktc::...`, so this crate is never a direct dependency.
//!
//! The stages, each in its own module: `args` and `model` parse the attribute and
//! the module into a typed model, `check` validates it in one pass (collecting every
//! error at its tokens), and `expand` generates code from the validated model only.

mod args;
mod check;
mod ctxt;
mod expand;
mod lockfile;
mod model;
#[cfg(test)]
mod snapshot;
mod sources;

use proc_macro::TokenStream;

/// Turns a module of kernel variants into a tuned kernel.
///
/// ```text
/// #[ktc::tunable(
///     axes(n = data.len(), k = bins),                  // each axis: an expression over the parameters
///     sweep(n = [1_000, 100_000], k = [4, 64]),        // integers: numeric axis; `host`/"host": categorical
///     name = "histogram",                              // optional: kernel name (default: the module's)
///     tolerance = 1e-6,                                // optional: compare outputs with `ktc::sweep::Approx`
///     after_pause_ms = 20,                             // optional: called now and then (1–1000 ms apart):
///                                                      //   sweeps time one call after each such pause
///     crate = ::ktc,                                   // optional: where the runtime is
/// )]
/// pub mod histogram {
///     #[inputs]       // one parameter per axis (same names, same order); one owned value per parameter
///     pub fn inputs(n: usize, k: usize) -> (Vec<u32>, usize, Vec<u64>) { /* ... */ }
///
///     #[variant(reference)]                            // exactly one: the others are verified against it
///     pub fn serial(data: &[u32], bins: usize, out: &mut [u64]) { /* ... */ }
///
///     #[variant(block_size = [4096, 65536])]           // needs a last parameter `block_size: usize`
///     pub fn parallel(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) { /* ... */ }
///
///     #[variant(requires = cuda, block_size = [128, 256], default)]  // `default`: the fallback
///     pub fn gpu(data: &[u32], bins: usize, out: &mut [u64], block_size: usize) { /* ... */ }
///
///     #[verify]       // optional: instead of `==` or `tolerance`
///     fn check(reference: &(Vec<u64>, ()), candidate: &(Vec<u64>, ())) -> Result<(), String> { /* ... */ }
/// }
///
/// histogram::call(&data, 64, &mut out);                // the measured-fastest variant
/// histogram::call_with(histogram::Variant::Serial, None, &data, 64, &mut out);
/// println!("{}", histogram::explain(&data, 64, &mut out));
/// ```
///
/// Generated inside the module: `Variant` (with `ALL`, `name()`, `block_sizes()`,
/// `FromStr`, `Display`), `call`, `call_with`, `explain`, a `KernelInfo` registered in
/// `ktc::KERNELS`, a sweep harness, and a `#[test]` that tunes the host under
/// `cargo test`. Every variant takes the same parameters (plain names) apart from the
/// trailing `block_size`, and returns the same type; generic, async, unsafe and `self`
/// functions are rejected. Misuse is a compile error at the offending tokens, and the
/// module is still emitted so the rest of the crate compiles.
#[proc_macro_attribute]
pub fn tunable(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tunable(args.into(), item.into()).into()
}
