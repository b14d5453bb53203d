//! Parsing the attribute arguments: `tunable(...)` on the module and the helper
//! attributes `#[variant(...)]` on its functions. Syntax errors stop the parse; unknown
//! or repeated options are reported into the [`Ctxt`] and skipped, so every one of them
//! is shown at once.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, LitStr, Path, Token, bracketed, parenthesized};

use crate::ctxt::Ctxt;

/// The options `tunable(...)` accepts, as the unknown-option message lists them.
const TUNABLE_OPTIONS: &str = "`axes`, `sweep`, `name`, `tolerance`, `after_pause_ms`, `crate`";
/// The options `variant(...)` accepts.
const VARIANT_OPTIONS: &str = "`reference`, `default`, `block_size`, `requires`";

/// `#[tunable(...)]`'s arguments, as written.
#[derive(Default)]
pub(crate) struct Args {
    /// `axes(name = expr, ...)`, with the `axes` keyword for spans.
    pub(crate) axes: Option<(Ident, Vec<AxisArg>)>,
    /// `sweep(name = [values], ...)`, with the `sweep` keyword.
    pub(crate) sweep: Option<(Ident, Vec<SweepArg>)>,
    /// `name = "..."`.
    pub(crate) name: Option<LitStr>,
    /// `tolerance = 1e-6`.
    pub(crate) tolerance: Option<Expr>,
    /// `after_pause_ms = 20`.
    pub(crate) after_pause_ms: Option<Expr>,
    /// `crate = path` or `crate = "path"`.
    pub(crate) krate: Option<Path>,
}

/// One `name = expr` in `axes(...)`.
pub(crate) struct AxisArg {
    pub(crate) name: Ident,
    pub(crate) expr: Expr,
}

/// One `name = [v, ...]` in `sweep(...)`.
pub(crate) struct SweepArg {
    pub(crate) name: Ident,
    /// The brackets' span, for an empty grid.
    pub(crate) bracket: Span,
    pub(crate) values: Vec<Expr>,
}

/// `#[variant(...)]`'s arguments, as written.
#[derive(Default)]
pub(crate) struct VariantArgs {
    /// The `reference` keyword, when present.
    pub(crate) reference: Option<Ident>,
    /// The `default` keyword, when present.
    pub(crate) default: Option<Ident>,
    /// `block_size = [...]`: the keyword, the brackets' span and the values.
    pub(crate) block_size: Option<(Ident, Span, Vec<Expr>)>,
    /// `requires = cuda` or `requires = [cuda, ...]`.
    pub(crate) requires: Vec<Ident>,
}

/// Parses `tunable(...)`'s arguments; unknown and repeated options go to `cx`.
pub(crate) fn parse_tunable(tokens: TokenStream, cx: &Ctxt) -> syn::Result<Args> {
    (|input: ParseStream| tunable_args(input, cx)).parse2(tokens)
}

/// Parses `variant(...)`'s arguments; unknown and repeated options go to `cx`.
pub(crate) fn parse_variant(tokens: TokenStream, cx: &Ctxt) -> syn::Result<VariantArgs> {
    (|input: ParseStream| variant_args(input, cx)).parse2(tokens)
}

fn tunable_args(input: ParseStream, cx: &Ctxt) -> syn::Result<Args> {
    let mut args = Args::default();
    while !input.is_empty() {
        let key = input.call(Ident::parse_any)?;
        match key.to_string().as_str() {
            "axes" => {
                let content;
                parenthesized!(content in input);
                let list = Punctuated::<AxisArg, Token![,]>::parse_terminated_with(&content, axis_arg)?;
                set_once(cx, &mut args.axes, &key, (key.clone(), list.into_iter().collect()));
            }
            "sweep" => {
                let content;
                parenthesized!(content in input);
                let list = Punctuated::<SweepArg, Token![,]>::parse_terminated_with(&content, sweep_arg)?;
                set_once(cx, &mut args.sweep, &key, (key.clone(), list.into_iter().collect()));
            }
            "name" => {
                input.parse::<Token![=]>()?;
                let name = input.parse()?;
                set_once(cx, &mut args.name, &key, name);
            }
            "tolerance" => {
                input.parse::<Token![=]>()?;
                let tolerance = input.parse()?;
                set_once(cx, &mut args.tolerance, &key, tolerance);
            }
            "after_pause_ms" => {
                input.parse::<Token![=]>()?;
                let pause = input.parse()?;
                set_once(cx, &mut args.after_pause_ms, &key, pause);
            }
            "crate" => {
                input.parse::<Token![=]>()?;
                let path = if input.peek(LitStr) {
                    input.parse::<LitStr>()?.parse()?
                } else {
                    input.call(Path::parse_mod_style)?
                };
                set_once(cx, &mut args.krate, &key, path);
            }
            _ => {
                cx.error_spanned_by(
                    &key,
                    format!("unknown option `{key}` in `tunable(...)`; expected one of {TUNABLE_OPTIONS}"),
                );
                skip_to_comma(input)?;
            }
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(args)
}

fn axis_arg(input: ParseStream) -> syn::Result<AxisArg> {
    let name = input.parse()?;
    input.parse::<Token![=]>()?;
    Ok(AxisArg { name, expr: input.parse()? })
}

fn sweep_arg(input: ParseStream) -> syn::Result<SweepArg> {
    let name = input.parse()?;
    input.parse::<Token![=]>()?;
    let content;
    let bracket = bracketed!(content in input);
    let values = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
    Ok(SweepArg { name, bracket: bracket.span.join(), values: values.into_iter().collect() })
}

fn variant_args(input: ParseStream, cx: &Ctxt) -> syn::Result<VariantArgs> {
    let mut args = VariantArgs::default();
    while !input.is_empty() {
        let key = input.call(Ident::parse_any)?;
        match key.to_string().as_str() {
            "reference" => set_once(cx, &mut args.reference, &key, key.clone()),
            "default" => set_once(cx, &mut args.default, &key, key.clone()),
            "block_size" => {
                input.parse::<Token![=]>()?;
                let content;
                let bracket = bracketed!(content in input);
                let values = Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
                let value = (key.clone(), bracket.span.join(), values.into_iter().collect());
                set_once(cx, &mut args.block_size, &key, value);
            }
            "requires" => {
                input.parse::<Token![=]>()?;
                if !args.requires.is_empty() {
                    cx.error_spanned_by(
                        &key,
                        "duplicate option `requires`; list every capability once: `requires = [cuda, ...]`",
                    );
                }
                if input.peek(syn::token::Bracket) {
                    let content;
                    bracketed!(content in input);
                    args.requires.extend(Punctuated::<Ident, Token![,]>::parse_terminated(&content)?);
                } else {
                    args.requires.push(input.parse()?);
                }
            }
            _ => {
                cx.error_spanned_by(
                    &key,
                    format!("unknown option `{key}` in `variant(...)`; expected one of {VARIANT_OPTIONS}"),
                );
                skip_to_comma(input)?;
            }
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(args)
}

/// Stores an option's value, or reports a repeated option at its second keyword.
fn set_once<T>(cx: &Ctxt, slot: &mut Option<T>, key: &Ident, value: T) {
    if slot.is_some() {
        cx.error_spanned_by(key, format!("duplicate option `{key}`; give it once"));
    } else {
        *slot = Some(value);
    }
}

/// Skips an unknown option's value, up to the next top-level comma.
fn skip_to_comma(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}
