//! The `cuda_graph!` macro (being written; see the macro issue).

use proc_macro::TokenStream;

/// Declares a CUDA graph. Not implemented yet.
#[proc_macro]
pub fn cuda_graph(input: TokenStream) -> TokenStream {
    let _ = input;
    quote::quote!(compile_error!("cuda_graph! is not implemented yet");).into()
}
