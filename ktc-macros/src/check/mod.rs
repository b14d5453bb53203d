//! Validation of the model, in one pass; every problem is reported at its tokens into
//! the [`Ctxt`], with a message that says what to write instead. Code generation runs
//! only on a model this accepted. One file per part of the kernel: the axes and grids,
//! the variants, the helper functions (`#[inputs]`, `#[verify]`), the names the
//! expansion takes.

mod axes;
mod functions;
mod names;
mod variants;

use quote::ToTokens;
use syn::Ident;

use crate::ctxt::Ctxt;
use crate::model::{Kernel, Variant, number_literal};

/// The capabilities `requires = ...` accepts, as (name, `ktc::Capability` variant).
/// The test `capabilities_are_the_runtimes` pins this to `ktc::Capability::ALL`.
pub(crate) const CAPABILITIES: &[(&str, &str)] = &[("cuda", "Cuda")];

/// Checks the whole kernel.
pub(crate) fn kernel(k: &Kernel, cx: &Ctxt) {
    options(k, cx);
    axes::axes(k, cx);
    variants::variants(k, cx);
    functions::inputs(k, cx);
    functions::verify(k, cx);
    names::generated_names(k, cx);
}

fn options(k: &Kernel, cx: &Ctxt) {
    if let Some(lit) = &k.name_lit {
        let v = lit.value();
        if v.is_empty() || !v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            cx.error_spanned_by(
                lit,
                "the kernel name names a cache folder: use letters, digits, `_` and `-` only",
            );
        }
    }
    if let Some(tol) = k.tolerance.as_ref().filter(|t| number_literal(t).is_none()) {
        cx.error_spanned_by(
            tol,
            "expected a number literal for the relative tolerance, e.g. `tolerance = 1e-6`",
        );
    }
    if let Some(pause) = &k.after_pause_ms {
        match number_literal(pause) {
            None => cx.error_spanned_by(
                pause,
                "expected the pause in milliseconds as a number literal, e.g. `after_pause_ms = 20`",
            ),
            // `ktc::CallPattern::MIN_PAUSE..=MAX_PAUSE`; the runtime's const
            // `CallPattern::declared` asserts the same where the value lands, so a
            // change there that this misses still fails to compile.
            Some(ms) if !(1.0..=1000.0).contains(&ms) => cx.error_spanned_by(
                pause,
                format!("a pause is 1 to 1000 ms, not {ms}: a shorter one finds a thread pool still awake, a longer one makes every sample sleep as long"),
            ),
            Some(_) => {}
        }
    }
}

pub(super) fn reference(k: &Kernel) -> Option<&Variant> {
    k.variants.iter().find(|v| v.args.reference.is_some())
}

/// Tokens as a person writes them (`data: &[u32]`, not `data : & [u32]`), for messages.
/// The comparison itself is on the tokens' own text, so this only affects what is shown.
pub(super) fn tokens_text(tokens: &impl ToTokens) -> String {
    let mut text = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :", ":"),
        (" ,", ","),
        ("& ", "&"),
        ("[ ", "["),
        (" ]", "]"),
        ("( ", "("),
        (" )", ")"),
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (":: ", "::"),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// `` `a`, `b` `` for a message.
pub(super) fn names<'a>(idents: impl Iterator<Item = &'a Ident>) -> String {
    idents.map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    /// The macro's list and the runtime's enum name the same capabilities, in order.
    #[test]
    fn capabilities_are_the_runtimes() {
        let runtime: Vec<(&str, String)> =
            ktc::Capability::ALL.iter().map(|c| (c.name(), format!("{c:?}"))).collect();
        let macros: Vec<(&str, String)> =
            super::CAPABILITIES.iter().map(|(n, v)| (*n, v.to_string())).collect();
        assert_eq!(macros, runtime);
    }
}
