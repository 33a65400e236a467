//! The `cuda_graph!` macro (docs to come).
#![deny(missing_docs)]

mod check;
pub(crate) mod expand;
mod model;
mod parse;
#[cfg(test)]
mod robustness;
mod text;

use proc_macro::TokenStream;

/// Declares a CUDA graph whose topology is checked at compile time; see the crate docs.
#[proc_macro]
pub fn cuda_graph(input: TokenStream) -> TokenStream {
    syn::parse::<parse::Input>(input)
        .and_then(expand::expand)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
