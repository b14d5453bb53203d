//! Code generation. [`tunable`] drives the three stages; the submodules each generate
//! one concern from the validated model: the `Variant` enum, the dispatcher, the
//! registered descriptor and the sweep harness. All of it goes inside the user's module,
//! after the user's items.

mod dispatcher;
mod r#enum;
mod registry;
mod sweep;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::{Ident, Item, ItemMod, Path, Type};

use crate::args;
use crate::check;
use crate::ctxt::Ctxt;
use crate::model::{self, Kernel, Mode, Variant};
use crate::sources::CrateSources;

/// `#[tunable(args)] item` → the module with the generated items, or the module as
/// written (minus helper attributes) beside a `compile_error!` for every problem found.
pub(crate) fn tunable(args: TokenStream, item: TokenStream) -> TokenStream {
    tunable_in(args, item, &CrateSources::of_current_crate())
}

/// [`tunable`] for a kernel whose crate has these sources.
pub(crate) fn tunable_in(args: TokenStream, item: TokenStream, sources: &CrateSources) -> TokenStream {
    let mut module = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Mod(m)) => m,
        Ok(other) => return with_error(item, not_a_module(&other)),
        Err(e) => return with_error(item, e),
    };
    if module.content.is_none() {
        let (m, ident, semi) = (&module.mod_token, &module.ident, &module.semi);
        let msg = format!(
            "`#[tunable]` needs the variants inside the module: write `mod {ident} {{ ... }}` (an inline module)"
        );
        return syn::Error::new_spanned(quote!(#m #ident #semi), msg).into_compile_error();
    }
    let cx = Ctxt::default();
    let parsed = match args::parse_tunable(args.clone(), &cx) {
        Ok(parsed) => parsed,
        Err(e) => {
            cx.syn_error(e);
            model::strip_helpers(&mut module);
            return with_errors(module.into_token_stream(), cx);
        }
    };
    let kernel = model::kernel(parsed, module, &[&args, &item], &cx);
    check::kernel(&kernel, &cx);
    if !cx.is_ok() {
        return with_errors(kernel.module.into_token_stream(), cx);
    }
    generate(&kernel, sources)
}

fn with_error(item: TokenStream, error: syn::Error) -> TokenStream {
    let mut out = item;
    out.extend(error.into_compile_error());
    out
}

fn with_errors(item: TokenStream, cx: Ctxt) -> TokenStream {
    match cx.check() {
        Ok(()) => item,
        Err(e) => with_error(item, e),
    }
}

fn not_a_module(item: &Item) -> syn::Error {
    let msg = "`#[tunable]` applies to a module holding the kernel's functions: \
               `mod name { #[inputs] fn ..., #[variant(reference)] fn ..., ... }`";
    match item {
        Item::Fn(f) => {
            let (fn_token, ident) = (&f.sig.fn_token, &f.sig.ident);
            syn::Error::new_spanned(quote!(#fn_token #ident), msg)
        }
        _ => syn::Error::new(Span::call_site(), msg),
    }
}

/// The user's module with every generated item appended.
pub(crate) fn generate(k: &Kernel, sources: &CrateSources) -> TokenStream {
    let g = Gen::new(k, sources);
    let generated =
        [r#enum::variant_enum(&g), dispatcher::dispatcher(&g), registry::kernel_info(&g), sweep::harness(&g)];
    let mut module: ItemMod = k.module.clone();
    let items = &mut module.content.as_mut().expect("an inline module").1;
    items.extend(generated.into_iter().map(Item::Verbatim));
    module.into_token_stream()
}

/// What every generator needs, derived once from the validated model.
pub(crate) struct Gen<'a> {
    pub(crate) k: &'a Kernel,
    /// The runtime's path (`::ktc`).
    pub(crate) krate: &'a Path,
    /// The reference variant's index and the variant itself.
    pub(crate) reference: (usize, &'a Variant),
    /// The dispatcher's parameters: the reference's, without `block_size`.
    pub(crate) params: Vec<(&'a Ident, &'a Type, &'a Mode)>,
    /// The variants' return type, `()` when they return nothing.
    pub(crate) ret: TokenStream,
    /// The kernel crate's source files and dependencies.
    pub(crate) sources: &'a CrateSources,
}

impl<'a> Gen<'a> {
    fn new(k: &'a Kernel, sources: &'a CrateSources) -> Gen<'a> {
        let reference =
            k.variants.iter().enumerate().find(|(_, v)| v.args.reference.is_some()).expect("checked");
        let params =
            reference.1.params.iter().map(|p| (p.ident.as_ref().expect("checked"), &p.ty, &p.mode)).collect();
        let ret = reference.1.ret().map_or_else(|| quote!(()), ToTokens::to_token_stream);
        Gen { k, krate: &k.krate, reference, params, ret, sources }
    }

    /// The parameter names, in order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'a Ident> + '_ {
        self.params.iter().map(|(i, _, _)| *i)
    }

    /// The variants other than the reference, with their indices.
    pub(crate) fn others(&self) -> impl Iterator<Item = (usize, &'a Variant)> + '_ {
        self.k.variants.iter().enumerate().filter(|(i, _)| *i != self.reference.0)
    }

    /// Whether any variant takes a block size.
    pub(crate) fn any_block_size(&self) -> bool {
        self.k.variants.iter().any(|v| v.block_size_param.is_some())
    }

    /// `-> Ret`, or nothing.
    pub(crate) fn output(&self) -> &'a syn::ReturnType {
        &self.reference.1.sig.output
    }
}

/// A `usize` literal without a suffix.
pub(crate) fn usize_lit(v: u64) -> proc_macro2::Literal {
    proc_macro2::Literal::u64_unsuffixed(v)
}
