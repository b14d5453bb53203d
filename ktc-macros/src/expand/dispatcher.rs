//! The dispatcher: `call` (the hot path: compute the axes, look the region up, call),
//! `call_with` (a chosen variant), `explain` (what `call` would pick and why).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, usize_lit};
use crate::model::Variant;

pub(super) fn dispatcher(g: &Gen) -> TokenStream {
    let krate = g.krate;
    let params: Vec<_> = g.params.iter().map(|(ident, ty, _)| quote!(#ident: #ty)).collect();
    let output = g.output();
    let axes = axis_values(g);
    let reference = g.reference.1.ident();
    let args: Vec<_> = g.names().collect();
    let block = if g.any_block_size() { quote!(__ktc_b) } else { quote!(_) };
    let arms = g.others().map(|(i, v)| {
        let (f, i) = (v.ident(), usize_lit(i as u64));
        let b = v.block_size_param.as_ref().map(|_| quote!(, __ktc_b));
        quote!(#i => #f(#(#args),* #b),)
    });
    let with_arms = g.k.variants.iter().map(|v| call_with_arm(g, v));
    let unused_block = (!g.any_block_size()).then(|| quote!(let _ = block_size;));
    quote! {
        static __KTC_DISPATCH: #krate::__private::OnceLock<#krate::__private::Dispatch> = #krate::__private::OnceLock::new();

        /// The decision table this kernel dispatches with, loaded on first use.
        #[doc(hidden)]
        #[inline]
        pub fn __ktc_dispatch() -> &'static #krate::__private::Dispatch {
            __KTC_DISPATCH.get_or_init(|| #krate::__private::Dispatch::load(&__KTC_KERNEL))
        }

        /// Runs the variant (and block size) measured fastest on this host for these
        /// arguments; without a usable stored tuning, the fallback variant.
        #[inline]
        pub fn call(#(#params),*) #output {
            // The hot path, inlined into the caller: look the cell up in the loaded
            // table and tail-call the variant. Anything else (the first call, another
            // device, a table or query the inline index does not serve) goes out of
            // line, so that this path needs no stack frame.
            match __KTC_DISPATCH.get().and_then(|d| d.choose_inline(&[#(#axes),*])) {
                ::core::option::Option::Some((__ktc_v, __ktc_b)) => __ktc_run(__ktc_v, __ktc_b, #(#args),*),
                ::core::option::Option::None => __ktc_call_general(#(#args),*),
            }
        }

        /// [`call`] for every table, query and device: loads the table on first use.
        #[inline(never)]
        fn __ktc_call_general(#(#params),*) #output {
            let (__ktc_v, __ktc_b) = __ktc_dispatch().choose(&[#(#axes),*]);
            __ktc_run(__ktc_v, __ktc_b, #(#args),*)
        }

        /// Runs variant `__ktc_v` as the table chose it.
        #[inline(always)]
        fn __ktc_run(__ktc_v: usize, #block: usize, #(#params),*) #output {
            match __ktc_v {
                #(#arms)*
                _ => #reference(#(#args),*),
            }
        }

        /// Runs `variant`, bypassing the tuning. `block_size: None` takes the variant's
        /// first declared block size; variants without block sizes ignore it.
        pub fn call_with(variant: Variant, block_size: ::core::option::Option<usize>, #(#params),*) #output {
            #unused_block
            match variant {
                #(#with_arms)*
            }
        }

        /// Which variant and block size [`call`] takes for these arguments, and why.
        #[allow(unused_variables)]
        pub fn explain(#(#params),*) -> #krate::Choice {
            __ktc_dispatch().explain(&[#(#axes),*])
        }
    }
}

/// `::ktc::__private::AxisValue::from(<axis expression>)`, per axis in order.
fn axis_values(g: &Gen) -> Vec<TokenStream> {
    let krate = g.krate;
    g.k.axes
        .iter()
        .map(|a| {
            let expr = &a.expr;
            quote!(#krate::__private::AxisValue::from(#expr))
        })
        .collect()
}

fn call_with_arm(g: &Gen, v: &Variant) -> TokenStream {
    let (camel, f) = (v.camel(), v.ident());
    let args = g.names();
    let block = v.block_sizes().first().map(|&first| {
        let first = usize_lit(first);
        quote!(, block_size.unwrap_or(#first))
    });
    quote!(Variant::#camel => #f(#(#args),* #block),)
}
