//! The variants: one reference, distinct names, plain functions with the reference's
//! signature, block sizes and capabilities.

use quote::ToTokens;
use syn::{FnArg, Ident, ReturnType, Signature, Type};

use super::{CAPABILITIES, tokens_text};
use crate::ctxt::Ctxt;
use crate::model::{Kernel, Variant};

pub(super) fn variants(k: &Kernel, cx: &Ctxt) {
    let module = &k.module.ident;
    if k.variants.is_empty() {
        cx.error_spanned_by(module, "no variants: mark each implementation of the kernel `#[variant]`, and one `#[variant(reference)]`");
        return;
    }
    let references: Vec<&Variant> = k.variants.iter().filter(|v| v.args.reference.is_some()).collect();
    match references.as_slice() {
        [] => cx.error_spanned_by(
            module,
            "no reference variant: mark the variant the others are verified against `#[variant(reference)]`",
        ),
        [_] => {}
        [first, rest @ ..] => {
            for v in rest {
                cx.error_spanned_by(
                    &v.args.reference,
                    format!(
                        "`{}` is already the reference variant; keep `reference` on one variant only",
                        first.ident()
                    ),
                );
            }
        }
    }
    let defaults: Vec<&Variant> = k.variants.iter().filter(|v| v.args.default.is_some()).collect();
    for v in defaults.iter().skip(1) {
        cx.error_spanned_by(
            &v.args.default,
            format!(
                "`{}` is already the default variant; keep `default` on one variant only",
                defaults[0].ident()
            ),
        );
    }
    let mut names: Vec<(String, &Ident)> = Vec::new();
    for v in &k.variants {
        let camel = v.camel().to_string();
        if let Some((_, earlier)) = names.iter().find(|(n, _)| *n == camel) {
            cx.error_spanned_by(
                v.ident(),
                format!("variant `{}` and `{earlier}` both become `Variant::{camel}`; rename one", v.ident()),
            );
        } else {
            names.push((camel, v.ident()));
        }
        signature_shape(&v.sig, "variant", cx);
        block_size(v, cx);
        requires(v, cx);
    }
    if let Some(reference) = references.first() {
        for v in &k.variants {
            if !std::ptr::eq(v, *reference) {
                same_signature(reference, v, cx);
            }
        }
    }
}

/// What a kernel function cannot be: the dispatcher calls it as a plain function.
pub(super) fn signature_shape(sig: &Signature, what: &str, cx: &Ctxt) {
    let name = &sig.ident;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        cx.error_spanned_by(
            &sig.generics,
            format!("{what} `{name}` is generic; a kernel's functions take concrete types (the dispatcher calls them directly)"),
        );
    }
    if let Some(a) = &sig.asyncness {
        cx.error_spanned_by(a, format!("{what} `{name}` is async; a kernel's functions are synchronous"));
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        cx.error_spanned_by(u, format!("{what} `{name}` is unsafe; wrap the unsafe call in a safe function"));
    }
    if let Some(v) = &sig.variadic {
        cx.error_spanned_by(v, format!("{what} `{name}` is variadic; list its parameters"));
    }
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => cx.error_spanned_by(
                r,
                format!("{what} `{name}` takes `self`; a kernel's functions are free functions"),
            ),
            FnArg::Typed(pt) => {
                let plain =
                    matches!(&*pt.pat, syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none());
                if !plain {
                    cx.error_spanned_by(
                        &pt.pat,
                        "a kernel parameter must be a plain name (the dispatcher passes it on by name)",
                    );
                }
                if let Type::ImplTrait(t) = &*pt.ty {
                    cx.error_spanned_by(
                        t,
                        format!("{what} `{name}` is generic (`impl Trait`); use a concrete type"),
                    );
                }
            }
        }
    }
}

fn block_size(v: &Variant, cx: &Ctxt) {
    let name = v.ident();
    match (&v.args.block_size, &v.block_size_param) {
        (Some((_, bracket, values)), Some(_)) => {
            if values.is_empty() {
                cx.error_at(*bracket, "empty `block_size` list: give the sizes to measure, e.g. `block_size = [256, 1024]`");
            }
            for value in values {
                match crate::model::int_literal(value) {
                    Some(0) => cx.error_spanned_by(value, "a block size must be at least 1"),
                    Some(b) if usize::try_from(b).is_err() => cx.error_spanned_by(value, "this block size does not fit in usize"),
                    Some(_) => {}
                    None => cx.error_spanned_by(value, "a block size is a positive integer literal, e.g. `256`"),
                }
            }
        }
        (Some((key, ..)), None) => cx.error_spanned_by(
            key,
            format!("`block_size = [...]` needs a last parameter `block_size: usize` on `{name}`; add it, or drop the list"),
        ),
        (None, Some(p)) => cx.error_spanned_by(
            &p.arg,
            format!("`{name}` takes a `block_size` but declares no sizes: add `block_size = [...]` to its `#[variant(...)]`"),
        ),
        (None, None) => {}
    }
    if let Some(p) = &v.block_size_param
        && p.ty.to_token_stream().to_string() != "usize"
    {
        cx.error_spanned_by(&p.ty, "the `block_size` parameter must be a `usize`");
    }
}

fn requires(v: &Variant, cx: &Ctxt) {
    for cap in &v.args.requires {
        if !CAPABILITIES.iter().any(|(name, _)| cap == name) {
            let valid = CAPABILITIES.iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", ");
            cx.error_spanned_by(cap, format!("unknown capability `{cap}`; expected one of {valid}"));
        }
    }
}

/// Every variant takes the reference's parameters (names and types, as tokens) and
/// returns its type: the dispatcher passes the same arguments to whichever it picks.
fn same_signature(reference: &Variant, v: &Variant, cx: &Ctxt) {
    let (r, name) = (reference.ident(), v.ident());
    if v.params.len() != reference.params.len() {
        cx.error_spanned_by(
            &v.sig.inputs,
            format!(
                "`{name}` takes {} parameters besides `block_size`, the reference `{r}` takes {}; every variant takes the same parameters",
                v.params.len(),
                reference.params.len()
            ),
        );
    } else {
        for (p, rp) in v.params.iter().zip(&reference.params) {
            let text = |p: &crate::model::Param| tokens_text(&p.arg);
            if text(p) != text(rp) {
                cx.error_spanned_by(
                    &p.arg,
                    format!("`{}` differs from the reference `{r}`'s parameter `{}`; every variant takes the same parameters", text(p), text(rp)),
                );
            }
        }
    }
    let ret = |v: &Variant| v.ret().map(tokens_text).unwrap_or_else(|| "()".into());
    if ret(v) != ret(reference) {
        let at: &dyn ToTokens = match &v.sig.output {
            ReturnType::Default => &v.sig.ident,
            ReturnType::Type(_, ty) => ty,
        };
        cx.error_spanned_by(
            at,
            format!("`{name}` returns `{}`, the reference `{r}` returns `{}`; every variant returns the same type", ret(v), ret(reference)),
        );
    }
}
