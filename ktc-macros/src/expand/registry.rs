//! The kernel descriptor, registered in `ktc::KERNELS` so any binary that names the
//! kernel's crate can list and re-tune it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{Gen, usize_lit};
use crate::check::CAPABILITIES;
use crate::model::{GridValue, Variant};

pub(super) fn kernel_info(g: &Gen) -> TokenStream {
    let krate = g.krate;
    let name = &g.k.name;
    let hash = &g.k.source_hash;
    let axes = g.k.axes.iter().map(|a| {
        let grid = g.k.grids.iter().find(|grid| grid.name == a.name).expect("checked");
        let numeric = grid.values.first().is_some_and(GridValue::is_int);
        let kind = if numeric { quote!(Numeric) } else { quote!(Categorical) };
        let values = grid.values.iter().map(|v| match v {
            GridValue::Int(n, _) => {
                let n = proc_macro2::Literal::u64_unsuffixed(*n);
                quote!(#krate::__private::GridValue::Int(#n))
            }
            GridValue::Label(l, _) => quote!(#krate::__private::GridValue::Label(#l)),
            GridValue::Invalid(_) => unreachable!("checked"),
        });
        let axis = a.name.to_string();
        quote!(#krate::__private::AxisInfo { name: #axis, kind: #krate::__private::AxisKind::#kind, grid: &[#(#values),*] })
    });
    let variants = g.k.variants.iter().map(|v| variant(g, v));
    let files = g.sources.files.iter().map(|(path, hash)| quote!((#path, #hash)));
    let deps = g.sources.dependencies.iter().map(|(name, version)| quote!((#name, #version)));
    let features = g.sources.features.iter().map(|f| quote!((#f, ::core::cfg!(feature = #f))));
    let tracked = tracked_files(g);
    let calls = calls(g);
    quote! {
        #tracked

        /// This kernel's registration in the kernel registry.
        #[doc(hidden)]
        #[#krate::__private::linkme::distributed_slice(#krate::__private::KERNELS)]
        #[linkme(crate = #krate::__private::linkme)]
        pub static __KTC_KERNEL: #krate::__private::KernelInfo = #krate::__private::KernelInfo {
            name: #name,
            module_path: ::core::module_path!(),
            identity: #krate::__private::KernelIdentity {
                crate_name: ::core::env!("CARGO_PKG_NAME"),
                crate_version: ::core::env!("CARGO_PKG_VERSION"),
                source_hash: #hash,
                sources: &[#(#files),*],
                dependencies: &[#(#deps),*],
                features: &[#(#features),*],
                build: #krate::__private::build_info!(),
            },
            axes: &[#(#axes),*],
            variants: &[#(#variants),*],
            sweep: __ktc_sweep,
            calls: #calls,
        };
    }
}

/// The kernel's declared call pattern: `after_pause_ms`'s pause (its range checked in
/// `check`, and again by the runtime's const `CallPattern::declared` where the `static`
/// is evaluated, spanned at the literal), else in a loop.
fn calls(g: &Gen) -> TokenStream {
    let krate = g.krate;
    match &g.k.after_pause_ms {
        Some(ms) => {
            let lit = super::sweep::f64_literal(ms);
            quote_spanned!(ms.span()=> #krate::__private::CallPattern::declared(#lit))
        }
        None => quote!(#krate::__private::CallPattern::InALoop),
    }
}

/// Every hashed source file, included (and dropped), so that cargo rebuilds the
/// kernel's crate, and this macro hashes afresh, when any of them changes, even a file
/// that is not one of this crate's modules.
fn tracked_files(g: &Gen) -> TokenStream {
    if g.sources.files.is_empty() {
        return TokenStream::new();
    }
    let paths = g.sources.files.iter().map(|(path, _)| {
        let rel = format!("/{path}");
        quote!(::core::include_bytes!(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), #rel)))
    });
    quote! {
        const _: &[&[u8]] = &[#(#paths),*];
    }
}

fn variant(g: &Gen, v: &Variant) -> TokenStream {
    let krate = g.krate;
    let name = v.ident().to_string();
    let sizes = v.block_sizes().into_iter().map(usize_lit);
    let requires = v.args.requires.iter().map(|cap| {
        let (_, variant) = CAPABILITIES.iter().find(|(n, _)| cap == n).expect("checked");
        let variant = syn::Ident::new(variant, cap.span());
        quote!(#krate::__private::Capability::#variant)
    });
    let reference = v.args.reference.is_some();
    let default = v.args.default.is_some();
    quote! {
        #krate::__private::VariantInfo {
            name: #name,
            block_sizes: &[#(#sizes),*],
            requires: &[#(#requires),*],
            reference: #reference,
            default: #default,
        }
    }
}
