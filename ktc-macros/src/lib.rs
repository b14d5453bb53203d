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
mod model;
#[cfg(test)]
mod snapshot;

use proc_macro::TokenStream;

/// Turns a module of kernel variants into a tuned kernel: a `Variant` enum, a
/// dispatcher `call(...)` that runs the measured-fastest variant, a tuner registered
/// in `ktc::TUNERS`, a sweep harness and a `#[test]` that tunes the host.
///
/// See `ktc::tunable` for the attribute's grammar and examples.
#[proc_macro_attribute]
pub fn tunable(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tunable(args.into(), item.into()).into()
}
