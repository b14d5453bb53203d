//! The axes and their sweep grids.

use std::collections::HashSet;

use proc_macro2::Span;
use syn::visit::Visit;
use syn::{Expr, Ident};

use super::{names, reference};
use crate::ctxt::Ctxt;
use crate::model::{GridValue, Kernel};

pub(super) fn axes(k: &Kernel, cx: &Ctxt) {
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
    let numeric = first.is_int();
    let mut seen = Vec::new();
    for v in &grid.values {
        match v {
            GridValue::Invalid(_) => invalid_value(v, cx),
            GridValue::Int(_, span) | GridValue::Label(_, span) if v.is_int() != numeric => {
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
            GridValue::Int(n, span) => {
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
