//! The `Variant` enum: one value per variant, with names, block sizes and parsing.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, usize_lit};

pub(super) fn variant_enum(g: &Gen) -> TokenStream {
    let krate = g.krate;
    let variants = &g.k.variants;
    let camels: Vec<_> = variants.iter().map(|v| v.camel()).collect();
    let names: Vec<String> = variants.iter().map(|v| v.ident().to_string()).collect();
    let docs = names.iter().map(|n| format!("The `{n}` variant."));
    let sizes = variants.iter().map(|v| {
        let sizes = v.block_sizes().into_iter().map(usize_lit);
        quote!(&[#(#sizes),*])
    });
    let count = usize_lit(variants.len() as u64);
    let valid = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let unknown = format!("unknown variant `{{}}` of kernel `{}`; expected one of {valid}", g.k.name);
    quote! {
        /// The variants of this kernel, in declaration order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            #( #[doc = #docs] #camels, )*
        }

        impl Variant {
            /// Every variant, in declaration order.
            pub const ALL: [Variant; #count] = [#(Variant::#camels),*];

            /// The variant's name: its function's name.
            pub const fn name(self) -> &'static str {
                match self {
                    #(Variant::#camels => #names,)*
                }
            }

            /// The variant's index in declaration order, as `Choice::variant_index` and
            /// the kernel's descriptor count it.
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The kernel's descriptor: name, axes, variants and identity, as
            /// registered for `ktc retune` and the sweep.
            pub const fn kernel() -> &'static #krate::KernelInfo {
                &__KTC_KERNEL
            }

            /// The block sizes the sweep measures the variant with; empty when it takes none.
            pub const fn block_sizes(self) -> &'static [usize] {
                match self {
                    #(Variant::#camels => #sizes,)*
                }
            }
        }

        #[automatically_derived]
        impl ::core::str::FromStr for Variant {
            type Err = ::std::string::String;

            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                match s {
                    #(#names => ::core::result::Result::Ok(Variant::#camels),)*
                    _ => ::core::result::Result::Err(::std::format!(#unknown, s)),
                }
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Display for Variant {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }
    }
}
