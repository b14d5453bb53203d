//! Validation of the model, in one pass; every problem is reported at its tokens into
//! the [`Ctxt`], with a message that says what to write instead. Code generation runs
//! only on a model this accepted.

use std::collections::HashSet;

use proc_macro2::Span;
use quote::ToTokens;
use syn::visit::Visit;
use syn::{Expr, FnArg, Ident, Lit, ReturnType, Signature, Type};

use crate::ctxt::Ctxt;
use crate::model::{GridValue, Kernel, Variant};

/// The capabilities `requires = ...` accepts (mirrors `ktc::Capability::ALL`).
pub(crate) const CAPABILITIES: &[(&str, &str)] = &[("cuda", "Cuda")];

/// Checks the whole kernel.
pub(crate) fn kernel(k: &Kernel, cx: &Ctxt) {
    options(k, cx);
    axes(k, cx);
    variants(k, cx);
    inputs(k, cx);
    verify(k, cx);
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
    if let Some(tol) = &k.tolerance {
        let numeric = matches!(tol, Expr::Lit(l) if matches!(l.lit, Lit::Float(_) | Lit::Int(_)));
        if !numeric {
            cx.error_spanned_by(
                tol,
                "expected a number literal for the relative tolerance, e.g. `tolerance = 1e-6`",
            );
        }
    }
}

fn axes(k: &Kernel, cx: &Ctxt) {
    let Some(axes_kw) = &k.axes_kw else {
        cx.error_at(Span::call_site(), "missing `axes(...)`: name each axis and compute it from the parameters, e.g. `axes(n = data.len())`");
        return;
    };
    if k.axes.is_empty() {
        cx.error_spanned_by(
            axes_kw,
            "`axes(...)` is empty: name at least one axis, e.g. `axes(n = data.len())`",
        );
    }
    let axis_names = names(k.axes.iter().map(|a| &a.name));
    let mut seen = HashSet::new();
    for axis in &k.axes {
        if !seen.insert(axis.name.to_string()) {
            cx.error_spanned_by(&axis.name, format!("axis `{}` is declared twice", axis.name));
        }
        if k.sweep_kw.is_some() && !k.grids.iter().any(|g| g.name == axis.name) {
            cx.error_spanned_by(
                &axis.name,
                format!("axis `{}` has no grid: add `{} = [...]` to `sweep(...)`", axis.name, axis.name),
            );
        }
        axis_expr_names_a_parameter(k, &axis.name, &axis.expr, cx);
    }
    let Some(sweep_kw) = &k.sweep_kw else {
        cx.error_at(Span::call_site(), "missing `sweep(...)`: give each axis the values to measure, e.g. `sweep(n = [1_000, 1_000_000])`");
        return;
    };
    if k.grids.is_empty() {
        cx.error_spanned_by(
            sweep_kw,
            "`sweep(...)` is empty: give each axis its grid, e.g. `n = [1_000, 1_000_000]`",
        );
    }
    let mut seen = HashSet::new();
    for grid in &k.grids {
        if !k.axes.iter().any(|a| a.name == grid.name) {
            cx.error_spanned_by(
                &grid.name,
                format!(
                    "`{}` is not an axis; declare it in `axes(...)` (the axes are {axis_names})",
                    grid.name
                ),
            );
        } else if !seen.insert(grid.name.to_string()) {
            cx.error_spanned_by(&grid.name, format!("axis `{}` has two grids; give one", grid.name));
        }
        grid_values(grid, cx);
    }
}

fn grid_values(grid: &crate::model::Grid, cx: &Ctxt) {
    let Some(first) = grid.values.iter().find(|v| !matches!(v, GridValue::Invalid(_))) else {
        if grid.values.is_empty() {
            cx.error_at(
                grid.bracket,
                format!("empty grid for axis `{}`: list at least one value", grid.name),
            );
        }
        for v in &grid.values {
            invalid_value(v, cx);
        }
        return;
    };
    let numeric = first.is_num();
    let mut seen = Vec::new();
    for v in &grid.values {
        match v {
            GridValue::Invalid(_) => invalid_value(v, cx),
            GridValue::Num(_, span) | GridValue::Label(_, span) if v.is_num() != numeric => {
                let (this, other) =
                    if numeric { ("a label", "numeric") } else { ("a number", "categorical") };
                cx.error_at(
                    *span,
                    format!(
                        "{this} in the grid of {other} axis `{}`: an axis takes integers or labels, not both",
                        grid.name
                    ),
                );
            }
            GridValue::Num(n, span) => {
                if seen.contains(&n.to_string()) {
                    cx.error_at(*span, format!("`{n}` is listed twice in the grid of axis `{}`", grid.name));
                }
                seen.push(n.to_string());
            }
            GridValue::Label(l, span) => {
                if seen.contains(l) {
                    cx.error_at(*span, format!("`{l}` is listed twice in the grid of axis `{}`", grid.name));
                }
                seen.push(l.clone());
            }
        }
    }
}

fn invalid_value(v: &GridValue, cx: &Ctxt) {
    if let GridValue::Invalid(expr) = v {
        cx.error_spanned_by(
            expr,
            "a grid value is a non-negative integer (numeric axis, e.g. `1_000`) or an identifier or string (categorical axis, e.g. `host`)",
        );
    }
}

/// An axis is a function of the call's arguments: its expression must use one.
fn axis_expr_names_a_parameter(k: &Kernel, axis: &Ident, expr: &Expr, cx: &Ctxt) {
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            if let Some(first) = path.segments.first() {
                self.0.push(first.ident.to_string());
            }
            syn::visit::visit_path(self, path);
        }
    }
    let Some(reference) = reference(k).or(k.variants.first()) else { return };
    let params: Vec<String> =
        reference.params.iter().filter_map(|p| p.ident.as_ref()).map(Ident::to_string).collect();
    let mut found = Names(Vec::new());
    found.visit_expr(expr);
    if !found.0.iter().any(|n| params.contains(n)) {
        let list = params.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ");
        cx.error_spanned_by(
            expr,
            format!("the expression of axis `{axis}` uses no parameter of the variants ({list}); compute it from the arguments, e.g. `{axis} = data.len()`"),
        );
    }
}

fn reference(k: &Kernel) -> Option<&Variant> {
    k.variants.iter().find(|v| v.args.reference.is_some())
}

fn variants(k: &Kernel, cx: &Ctxt) {
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
fn signature_shape(sig: &Signature, what: &str, cx: &Ctxt) {
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

fn inputs(k: &Kernel, cx: &Ctxt) {
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

fn verify(k: &Kernel, cx: &Ctxt) {
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

/// Tokens as a person writes them (`data: &[u32]`, not `data : & [u32]`), for messages.
/// The comparison itself is on the tokens' own text, so this only affects what is shown.
fn tokens_text(tokens: &impl ToTokens) -> String {
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
fn names<'a>(idents: impl Iterator<Item = &'a Ident>) -> String {
    idents.map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}
