//! Error collection: every stage reports into one context, so the user sees all the
//! problems of a module at once, each at its own tokens (serde's `internals/ctxt.rs`).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects errors; [`Ctxt::check`] combines them into one `syn::Error`.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An error spanning `tokens`.
    pub(crate) fn error_spanned_by(&self, tokens: impl ToTokens, message: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at a span.
    pub(crate) fn error_at(&self, span: proc_macro2::Span, message: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new(span, message));
    }

    /// An error from syn (a parse failure), kept as it is.
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// Whether nothing has been reported yet.
    pub(crate) fn is_ok(&self) -> bool {
        self.errors.borrow().is_empty()
    }

    /// All the errors reported, combined; `Ok` when there were none.
    pub(crate) fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else { return Ok(()) };
        for e in errors {
            combined.combine(e);
        }
        Err(combined)
    }
}
