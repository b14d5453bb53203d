//! The typed model of a `#[tunable]` module: the attribute's arguments, the `#[inputs]`
//! function, the variants with their parameters, and the `#[verify]` function. Built
//! without judging it (that is [`crate::check`]'s job), except for what cannot be
//! represented at all (a malformed helper attribute).

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, Expr, FnArg, Ident, Item, ItemMod, Lit, Meta, Pat, Path, ReturnType, Signature, Type};

use crate::args::{self, Args, AxisArg, VariantArgs};
use crate::ctxt::Ctxt;

/// A `#[tunable]` module.
pub(crate) struct Kernel {
    /// The module as the user wrote it, minus the helper attributes; emitted unchanged.
    pub(crate) module: ItemMod,
    /// The kernel name: `name = "..."` or the module's name.
    pub(crate) name: String,
    /// The `name = "..."` literal, when given.
    pub(crate) name_lit: Option<syn::LitStr>,
    /// Where the runtime lives: `::ktc` or `crate = path`.
    pub(crate) krate: Path,
    /// The `axes` keyword, when given.
    pub(crate) axes_kw: Option<Ident>,
    /// `axes(name = expr, ...)`, in order.
    pub(crate) axes: Vec<AxisArg>,
    /// The `sweep` keyword, when given.
    pub(crate) sweep_kw: Option<Ident>,
    /// `sweep(name = [...], ...)`, as written.
    pub(crate) grids: Vec<Grid>,
    /// `tolerance = ...`.
    pub(crate) tolerance: Option<Expr>,
    /// `after_pause_ms = ...`: the kernel is called now and then, after pauses this long.
    pub(crate) after_pause_ms: Option<Expr>,
    /// Every function marked `#[inputs]` (exactly one is valid).
    pub(crate) inputs: Vec<Signature>,
    /// Every function marked `#[variant]`, in declaration order.
    pub(crate) variants: Vec<Variant>,
    /// Every function marked `#[verify]` (at most one is valid).
    pub(crate) verify: Vec<Signature>,
    /// A hash of the module's and the attribute's tokens, 16 hex digits.
    pub(crate) source_hash: String,
}

/// One axis's grid in `sweep(...)`.
pub(crate) struct Grid {
    pub(crate) name: Ident,
    pub(crate) bracket: Span,
    pub(crate) values: Vec<GridValue>,
}

/// One grid value, classified.
pub(crate) enum GridValue {
    /// An integer: a numeric axis.
    Int(u64, Span),
    /// An identifier or string: a categorical axis.
    Label(String, Span),
    /// Anything else (a float, a negative number, an expression).
    Invalid(Expr),
}

impl GridValue {
    pub(crate) fn is_int(&self) -> bool {
        matches!(self, GridValue::Int(..))
    }
}

/// A `#[variant]` function.
pub(crate) struct Variant {
    pub(crate) sig: Signature,
    /// `#[variant(...)]`'s options.
    pub(crate) args: VariantArgs,
    /// The parameters, without a trailing `block_size`.
    pub(crate) params: Vec<Param>,
    /// The trailing `block_size` parameter, when there is one.
    pub(crate) block_size_param: Option<Param>,
}

impl Variant {
    pub(crate) fn ident(&self) -> &Ident {
        &self.sig.ident
    }

    /// The enum variant's name: the function's name in UpperCamelCase.
    pub(crate) fn camel(&self) -> Ident {
        Ident::new(&upper_camel(&self.sig.ident.to_string()), self.sig.ident.span())
    }

    /// The declared block sizes (valid ones only; the check reports the rest).
    pub(crate) fn block_sizes(&self) -> Vec<u64> {
        let Some((_, _, values)) = &self.args.block_size else { return Vec::new() };
        values.iter().filter_map(int_literal).collect()
    }

    /// The return type, `None` for `()` written as nothing.
    pub(crate) fn ret(&self) -> Option<&Type> {
        match &self.sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, ty) => Some(ty),
        }
    }
}

/// One parameter of a variant.
pub(crate) struct Param {
    /// The whole `pat: ty`, for spans.
    pub(crate) arg: FnArg,
    /// The name, when the pattern is a plain identifier.
    pub(crate) ident: Option<Ident>,
    pub(crate) ty: Type,
    pub(crate) mode: Mode,
}

/// How a parameter is passed, which decides how the sweep passes the owned input.
pub(crate) enum Mode {
    /// `&T`: borrowed from the owned input.
    Shared(Type),
    /// `&mut T`: borrowed mutably, and part of the compared output.
    Mut(Type),
    /// By value: cloned from the owned input.
    Value,
}

/// Builds the model of `item` (already known to be an inline module).
pub(crate) fn kernel(args: Args, mut module: ItemMod, hash_input: &[&TokenStream], cx: &Ctxt) -> Kernel {
    let mut inputs = Vec::new();
    let mut variants = Vec::new();
    let mut verify = Vec::new();
    let items = &mut module.content.as_mut().expect("an inline module").1;
    for item in items.iter_mut() {
        let Item::Fn(f) = item else { continue };
        let helpers = take_helpers(&mut f.attrs);
        if helpers.len() > 1 {
            cx.error_spanned_by(
                &helpers[1],
                "a function takes one of `#[inputs]`, `#[variant]`, `#[verify]`, not several",
            );
        }
        let Some(helper) = helpers.into_iter().next() else { continue };
        match helper_name(&helper).as_str() {
            "inputs" => {
                no_arguments(&helper, cx);
                inputs.push(f.sig.clone());
            }
            "verify" => {
                no_arguments(&helper, cx);
                verify.push(f.sig.clone());
            }
            _ => variants.push(variant(&helper, &f.sig, cx)),
        }
    }
    let name_lit = args.name;
    let name = name_lit.as_ref().map_or_else(|| module.ident.to_string(), syn::LitStr::value);
    let (axes_kw, axes) = args.axes.map_or((None, Vec::new()), |(kw, a)| (Some(kw), a));
    let (sweep_kw, sweep) = args.sweep.map_or((None, Vec::new()), |(kw, s)| (Some(kw), s));
    let grids = sweep
        .into_iter()
        .map(|s| Grid {
            name: s.name,
            bracket: s.bracket,
            values: s.values.into_iter().map(grid_value).collect(),
        })
        .collect();
    Kernel {
        module,
        name,
        name_lit,
        krate: args.krate.unwrap_or_else(|| syn::parse_quote!(::ktc)),
        axes_kw,
        axes,
        sweep_kw,
        grids,
        tolerance: args.tolerance,
        after_pause_ms: args.after_pause_ms,
        inputs,
        variants,
        verify,
        source_hash: source_hash(hash_input),
    }
}

/// Removes the helper attributes from a function (they are not real attributes, so the
/// emitted module must not keep them) and returns them.
pub(crate) fn take_helpers(attrs: &mut Vec<Attribute>) -> Vec<Attribute> {
    let (helpers, rest) = std::mem::take(attrs).into_iter().partition(is_helper);
    *attrs = rest;
    helpers
}

/// Strips the helper attributes from every function of an inline module.
pub(crate) fn strip_helpers(module: &mut ItemMod) {
    if let Some((_, items)) = &mut module.content {
        for item in items {
            if let Item::Fn(f) = item {
                take_helpers(&mut f.attrs);
            }
        }
    }
}

fn is_helper(attr: &Attribute) -> bool {
    ["inputs", "variant", "verify"].contains(&helper_name(attr).as_str())
}

fn helper_name(attr: &Attribute) -> String {
    attr.path().get_ident().map(Ident::to_string).unwrap_or_default()
}

fn no_arguments(attr: &Attribute, cx: &Ctxt) {
    if !matches!(attr.meta, Meta::Path(_)) {
        cx.error_spanned_by(&attr.meta, format!("`#[{}]` takes no arguments", helper_name(attr)));
    }
}

fn variant(attr: &Attribute, sig: &Signature, cx: &Ctxt) -> Variant {
    let args = match &attr.meta {
        Meta::Path(_) => VariantArgs::default(),
        Meta::List(list) => args::parse_variant(list.tokens.clone(), cx).unwrap_or_else(|e| {
            cx.syn_error(e);
            VariantArgs::default()
        }),
        Meta::NameValue(nv) => {
            cx.error_spanned_by(nv, "expected `#[variant]` or `#[variant(...)]`");
            VariantArgs::default()
        }
    };
    let mut params: Vec<Param> = sig.inputs.iter().map(param).collect();
    let block_size_param = match params.last() {
        Some(p) if p.ident.as_ref().is_some_and(|i| i == "block_size") => params.pop(),
        _ => None,
    };
    Variant { sig: sig.clone(), args, params, block_size_param }
}

fn param(arg: &FnArg) -> Param {
    let (ident, ty) = match arg {
        FnArg::Typed(pt) => {
            let ident = match &*pt.pat {
                Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(pi.ident.clone()),
                _ => None,
            };
            (ident, (*pt.ty).clone())
        }
        FnArg::Receiver(_) => (None, syn::parse_quote!(Self)),
    };
    let mode = match &ty {
        Type::Reference(r) if r.mutability.is_some() => Mode::Mut((*r.elem).clone()),
        Type::Reference(r) => Mode::Shared((*r.elem).clone()),
        _ => Mode::Value,
    };
    Param { arg: arg.clone(), ident, ty, mode }
}

fn grid_value(expr: Expr) -> GridValue {
    let span = expr_span(&expr);
    if let Some(v) = int_literal(&expr) {
        return GridValue::Int(v, span);
    }
    match &expr {
        Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
            Some(ident) => GridValue::Label(ident.to_string(), span),
            None => GridValue::Invalid(expr),
        },
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => GridValue::Label(s.value(), span),
            _ => GridValue::Invalid(expr),
        },
        _ => GridValue::Invalid(expr),
    }
}

/// The value of a non-negative integer literal without a suffix or with an integer one.
pub(crate) fn int_literal(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

fn expr_span(expr: &Expr) -> Span {
    syn::spanned::Spanned::span(expr)
}

/// `parallel_private` → `ParallelPrivate`.
fn upper_camel(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

/// The hash of the module's and the attribute's tokens (doc comments left out, so a
/// comment edit keeps the tuning): any edit to the code marks stored tunings stale.
fn source_hash(parts: &[&TokenStream]) -> String {
    crate::sources::token_hash(parts)
}

/// The value of a number literal (`1e-6`, `20`), the form `tolerance` and
/// `after_pause_ms` take; `None` for anything else, and for an integer too large to
/// read.
pub(crate) fn number_literal(expr: &Expr) -> Option<f64> {
    let Expr::Lit(l) = expr else { return None };
    match &l.lit {
        Lit::Float(f) => f.base10_parse::<f64>().ok(),
        Lit::Int(i) => i.base10_parse::<u64>().ok().map(|v| v as f64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case() {
        assert_eq!(upper_camel("serial"), "Serial");
        assert_eq!(upper_camel("parallel_private"), "ParallelPrivate");
        assert_eq!(upper_camel("gpu_1"), upper_camel("gpu1"));
    }

    #[test]
    fn hash_is_stable_and_sensitive() {
        let a: TokenStream = "fn f() { 1 }".parse().unwrap();
        let b: TokenStream = "fn f() { 2 }".parse().unwrap();
        assert_eq!(source_hash(&[&a]), source_hash(&[&a]));
        assert_ne!(source_hash(&[&a]), source_hash(&[&b]));
        assert_eq!(source_hash(&[&a]).len(), 16);
    }
}
