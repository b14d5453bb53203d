//! The helper functions: `#[inputs]` (exactly one, building a grid point's
//! arguments) and `#[verify]` (at most one).

use quote::ToTokens;
use syn::{FnArg, ReturnType, Type};

use super::variants::signature_shape;
use super::{names, reference};
use crate::ctxt::Ctxt;
use crate::model::Kernel;

pub(super) fn inputs(k: &Kernel, cx: &Ctxt) {
    let axes = k.axes.iter().map(|a| a.name.to_string()).collect::<Vec<_>>();
    let axis_list = names(k.axes.iter().map(|a| &a.name));
    let Some(sig) = k.inputs.first() else {
        let params = axes.iter().map(|a| format!("{a}: usize")).collect::<Vec<_>>().join(", ");
        cx.error_spanned_by(
            &k.module.ident,
            format!("missing `#[inputs]` function: add `#[inputs] fn inputs({params}) -> (...)` that builds one grid point's arguments"),
        );
        return;
    };
    for extra in &k.inputs[1..] {
        cx.error_spanned_by(
            &extra.ident,
            format!("`{}` is already the `#[inputs]` function; keep one", sig.ident),
        );
    }
    signature_shape(sig, "`#[inputs]` function", cx);
    let params: Vec<String> = sig
        .inputs
        .iter()
        .map(|a| match a {
            FnArg::Typed(pt) => pt.pat.to_token_stream().to_string(),
            FnArg::Receiver(_) => "self".into(),
        })
        .collect();
    if params != axes {
        cx.error_spanned_by(
            &sig.inputs,
            format!(
                "`#[inputs]` takes one parameter per axis, named and ordered as in `axes(...)`: {axis_list}"
            ),
        );
    }
    let Some(reference) = reference(k).or(k.variants.first()) else { return };
    let expected = reference.params.len();
    match &sig.output {
        ReturnType::Type(_, ty) => match &**ty {
            Type::Tuple(t) if t.elems.len() == expected => {}
            other => cx.error_spanned_by(
                other,
                format!(
                    "`#[inputs]` returns a tuple written out with one owned value per variant parameter ({expected}, `block_size` excluded), e.g. `(Vec<u32>, usize)`"
                ),
            ),
        },
        ReturnType::Default => cx.error_spanned_by(
            &sig.ident,
            format!("`#[inputs]` returns a tuple with one owned value per variant parameter ({expected}, `block_size` excluded)"),
        ),
    }
}

pub(super) fn verify(k: &Kernel, cx: &Ctxt) {
    if let Some(sig) = k.verify.first() {
        for extra in &k.verify[1..] {
            cx.error_spanned_by(
                &extra.ident,
                format!("`{}` is already the `#[verify]` function; keep one", sig.ident),
            );
        }
        signature_shape(sig, "`#[verify]` function", cx);
        if let Some(tol) = &k.tolerance {
            cx.error_spanned_by(
                tol,
                format!("`tolerance` is unused: `#[verify]` `{}` compares the outputs; drop one", sig.ident),
            );
        }
    }
}
