//! The sweep harness: builds a grid point's arguments with `#[inputs]`, runs a variant
//! on them, extracts the compared output and verifies it against the reference; plus
//! the sweep entry point and the `#[test]` that tunes the host under `cargo test`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{FnArg, Index, ReturnType, Type};

use super::{Gen, usize_lit};
use crate::model::{Mode, Variant};

pub(super) fn harness(g: &Gen) -> TokenStream {
    let krate = g.krate;
    let inputs = g.k.inputs.first().expect("checked");
    let elems: Vec<&Type> = match &inputs.output {
        ReturnType::Type(_, ty) => match &**ty {
            Type::Tuple(t) => t.elems.iter().collect(),
            _ => unreachable!("checked"),
        },
        ReturnType::Default => unreachable!("checked"),
    };
    let inputs_ty = quote!((#(#elems,)*));
    let ret = &g.ret;
    let mut_elems =
        g.params.iter().zip(&elems).filter(|((_, _, m), _)| matches!(m, Mode::Mut(_))).map(|(_, e)| e);
    let mut_fields = g
        .params
        .iter()
        .enumerate()
        .filter(|(_, (_, _, m))| matches!(m, Mode::Mut(_)))
        .map(|(i, _)| Index::from(i));
    let inputs_arg = if g.params.iter().any(|(_, _, m)| matches!(m, Mode::Mut(_))) {
        quote!(__ktc_inputs)
    } else {
        quote!(_)
    };
    let build = build(g, inputs);
    let run = run(g);
    let verify = verify(g);
    quote! {
        /// Builds, runs and checks this kernel's variants for the sweep.
        #[doc(hidden)]
        struct __KtcHarness;

        #[automatically_derived]
        impl #krate::__private::Harness for __KtcHarness {
            type Inputs = #inputs_ty;
            type Ret = #ret;
            type Output = (#(#mut_elems,)* #ret,);

            #build
            #run

            fn output(&self, #inputs_arg: Self::Inputs, __ktc_ret: Self::Ret) -> Self::Output {
                (#(__ktc_inputs.#mut_fields,)* __ktc_ret,)
            }

            #verify
        }

        /// Sweeps this kernel and writes a tuning entry.
        #[doc(hidden)]
        fn __ktc_sweep(
            options: &#krate::__private::SweepOptions,
        ) -> ::core::result::Result<#krate::__private::SweepReport, #krate::__private::Error> {
            #krate::__private::sweep(&__KTC_KERNEL, &__KtcHarness, options)
        }

        /// Tunes this kernel on the host running `cargo test` (in an optimised build).
        #[cfg(test)]
        #[test]
        fn ktc_sweep() {
            #krate::__private::tune_in_test(&__KTC_KERNEL, #krate::__private::test_build!())
        }
    }
}

/// `build`: converts each grid value to its `#[inputs]` parameter's type, then calls it.
fn build(g: &Gen, inputs: &syn::Signature) -> TokenStream {
    let krate = g.krate;
    let f = &inputs.ident;
    let count = usize_lit(g.k.axes.len() as u64);
    let args = inputs.inputs.iter().enumerate().map(|(i, arg)| {
        let FnArg::Typed(pt) = arg else { unreachable!("checked") };
        let ty = &pt.ty;
        let axis = g.k.axes[i].name.to_string();
        let i = usize_lit(i as u64);
        quote! {
            <#ty as #krate::__private::FromGridValue>::from_grid_value(__ktc_point[#i])
                .map_err(|source| #krate::__private::InputsError::Axis { axis: #axis, source })?
        }
    });
    quote! {
        fn build(
            &self,
            __ktc_point: &[#krate::__private::GridValue],
        ) -> ::core::result::Result<Self::Inputs, #krate::__private::InputsError> {
            if __ktc_point.len() != #count {
                return ::core::result::Result::Err(#krate::__private::InputsError::Arity {
                    expected: #count,
                    found: __ktc_point.len(),
                });
            }
            ::core::result::Result::Ok(#f(#(#args),*))
        }
    }
}

/// `run`: the timed call, each argument borrowed or cloned from the owned inputs by its
/// parameter's mode.
fn run(g: &Gen) -> TokenStream {
    let args: Vec<TokenStream> = g
        .params
        .iter()
        .enumerate()
        .map(|(i, (_, _, mode))| {
            let i = Index::from(i);
            match mode {
                Mode::Shared(t) => quote!(::core::borrow::Borrow::<#t>::borrow(&__ktc_inputs.#i)),
                Mode::Mut(t) => quote!(::core::borrow::BorrowMut::<#t>::borrow_mut(&mut __ktc_inputs.#i)),
                Mode::Value => quote!(::core::clone::Clone::clone(&__ktc_inputs.#i)),
            }
        })
        .collect();
    let call = |v: &Variant| {
        let f = v.ident();
        let block = v.block_sizes().first().map(|&b| {
            let b = usize_lit(b);
            quote!(, __ktc_block.unwrap_or(#b))
        });
        quote!(#f(#(#args),* #block))
    };
    let arms = g.others().map(|(i, v)| {
        let (i, call) = (usize_lit(i as u64), call(v));
        quote!(#i => #call,)
    });
    let reference = call(g.reference.1);
    let block = if g.any_block_size() { quote!(__ktc_block) } else { quote!(_) };
    quote! {
        fn run(
            &self,
            __ktc_variant: usize,
            #block: ::core::option::Option<usize>,
            __ktc_inputs: &mut Self::Inputs,
        ) -> Self::Ret {
            match __ktc_variant {
                #(#arms)*
                _ => #reference,
            }
        }
    }
}

/// `verify`: the `#[verify]` function, else `Approx` within `tolerance`, else `==`.
fn verify(g: &Gen) -> TokenStream {
    let krate = g.krate;
    let body = if let Some(f) = g.k.verify.first() {
        let f = &f.ident;
        quote!(#f(__ktc_reference, __ktc_candidate))
    } else if let Some(tol) = &g.k.tolerance {
        let tol = f64_literal(tol);
        quote!(#krate::__private::Approx::approx_eq(__ktc_reference, __ktc_candidate, #tol))
    } else {
        quote! {
            if __ktc_reference == __ktc_candidate {
                ::core::result::Result::Ok(())
            } else {
                ::core::result::Result::Err(::std::string::String::from("outputs differ from the reference"))
            }
        }
    };
    quote! {
        fn verify(
            &self,
            __ktc_reference: &Self::Output,
            __ktc_candidate: &Self::Output,
        ) -> ::core::result::Result<(), ::std::string::String> {
            #body
        }
    }
}

/// A checked number literal (the tolerance, the pause) as an `f64` literal (an integer
/// literal would not type-check as one).
pub(super) fn f64_literal(expr: &syn::Expr) -> TokenStream {
    let lit = proc_macro2::Literal::f64_unsuffixed(crate::model::number_literal(expr).expect("checked"));
    quote!(#lit)
}
