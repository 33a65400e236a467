//! The copy of the params that a graph keeps and hands to its executable, which owns it from
//! then on: made by `build` from the `&Params` it is given, and again by a whole-graph `update`
//! (the executable takes the source graph's) and `set_params` (for the params that changed). The
//! executable keeps a second copy, the params its nodes were last updated from (`applied`, made
//! when it is instantiated), which a refused change is undone from.
//!
//! A param is copied as its role says (see [`Role`]): a value is cloned, a kernel cloned, a
//! launch configuration copied, a child graph duplicated (which may fail, so child graphs are
//! copied first). The params struct is filled field by field, [`PER_FN`] fields per function,
//! in place on the heap: a struct of thousands of fields built in one function is beyond the
//! optimizer.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::{at, local, params_at, parts_at, private_at, Gen, Role, PER_FN};

/// Where a param is read from.
#[derive(Clone, Copy)]
pub(super) enum Base {
    /// The `&Params` argument ([`params_at`]).
    Params,
    /// The executable's own params (`__cg_parts.state.params`: the code around binds its parts).
    Kept,
    /// The executable's copy of the params its nodes were last updated from
    /// (`__cg_parts.applied`).
    Applied,
}

impl Gen<'_> {
    /// A copy of param `i` of `from`, as its role says. For a child graph the expression is a
    /// `Result` (a duplicate may fail).
    pub(super) fn keep(&self, i: usize, from: Base) -> TokenStream {
        let ty = &self.model.params[i].ty;
        let (span, p) = (at(ty.span()), private_at(ty.span()));
        let field = self.param_at(i, from, ty.span());
        match self.roles[i] {
            Role::Value => quote_spanned!(span=> <#ty as #p::ParamValue>::keep(&#field)),
            Role::Kernel => quote_spanned!(span=> <#ty as #p::KernelType>::keep(&#field)),
            Role::Child => quote_spanned!(span=> {
                use #p::RoleFallback as _;
                <#p::RoleProbe<#ty>>::duplicate(&#field)
            }),
            Role::Config => quote_spanned!(span=> {
                use #p::RoleFallback as _;
                <#p::RoleProbe<#ty>>::keep_config(&#field)
            }),
        }
    }

    /// Whether param `i` of the `&Params` argument is unchanged from the executable's own.
    pub(super) fn unchanged(&self, i: usize) -> TokenStream {
        let ty = &self.model.params[i].ty;
        let (span, p) = (at(ty.span()), private_at(ty.span()));
        let now = self.param_at(i, Base::Params, ty.span());
        let last = self.param_at(i, Base::Kept, ty.span());
        match self.roles[i] {
            Role::Value => quote_spanned!(span=> <#ty as #p::ParamValue>::same(&#now, &#last)),
            Role::Kernel => quote_spanned!(span=>
                <#ty as #p::KernelType>::function_id(&#now)
                    == <#ty as #p::KernelType>::function_id(&#last)
            ),
            Role::Child => quote_spanned!(span=> {
                use #p::RoleFallback as _;
                #p::same_graph(
                    <#p::RoleProbe<#ty>>::identity(&#now),
                    <#p::RoleProbe<#ty>>::identity(&#last),
                )
            }),
            Role::Config => quote_spanned!(span=> {
                use #p::RoleFallback as _;
                <#p::RoleProbe<#ty>>::launch_key(&#now) == <#p::RoleProbe<#ty>>::launch_key(&#last)
            }),
        }
    }

    /// Whether element `k` (an expression) of array param `i` of the `&Params` argument is
    /// unchanged from the executable's own (an array param's elements are values, see
    /// [`Gen::slotted`]).
    pub(super) fn unchanged_elem(&self, i: usize, k: &TokenStream) -> TokenStream {
        let ty = self.model.value_type(i);
        let (span, p) = (at(ty.span()), private_at(ty.span()));
        let now = self.param_at(i, Base::Params, ty.span());
        let last = self.param_at(i, Base::Kept, ty.span());
        quote_spanned!(span=> <#ty as #p::ParamValue>::same(&#now[#k], &#last[#k]))
    }

    /// A copy of element `k` (an expression) of array param `i` of `from`.
    pub(super) fn keep_elem(&self, i: usize, from: Base, k: &TokenStream) -> TokenStream {
        let ty = self.model.value_type(i);
        let (span, p) = (at(ty.span()), private_at(ty.span()));
        let field = self.param_at(i, from, ty.span());
        quote_spanned!(span=> <#ty as #p::ParamValue>::keep(&#field[#k]))
    }

    /// The length of param `i` when each of its elements is a slot of its own (an array param
    /// the macro knows the length of, whose elements are values): `set_params`, the setters and
    /// the tracker take it element by element.
    /// (`check::repetition` refuses an array of child graphs; `Model::arrays` leaves out
    /// `#[indirect]` params.)
    pub(super) fn slotted(&self, i: usize) -> Option<usize> {
        self.model.arrays[i].map(|(_, len)| len)
    }

    /// `<base>.<param i>`, located at `span` (the param's type), so that an error about the
    /// param's type is reported there, once.
    pub(super) fn param_at(&self, i: usize, base: Base, span: Span) -> TokenStream {
        let mut name = self.model.params[i].name.clone();
        name.set_span(at(span));
        let span = at(span);
        let base = match base {
            Base::Params => {
                let params = params_at(span);
                quote!(#params)
            }
            Base::Kept => {
                let parts = parts_at(span);
                quote_spanned!(span=> #parts.state.params)
            }
            Base::Applied => {
                let parts = parts_at(span);
                quote_spanned!(span=> #parts.applied)
            }
        };
        quote_spanned!(span=> #base.#name)
    }

    /// `__cg_parts.state.params.<param i>`: where the executable keeps param `i` (the code
    /// around binds the executable's parts).
    pub(super) fn kept(&self, i: usize) -> TokenStream {
        let (name, parts) = (&self.model.params[i].name, parts_at(Span::call_site()));
        quote!(#parts.state.params.#name)
    }

    /// `__cg_parts.applied.<param i>`: the executable's copy of param `i` as its nodes were last
    /// updated from it.
    pub(super) fn applied(&self, i: usize) -> TokenStream {
        let (name, parts) = (&self.model.params[i].name, parts_at(Span::call_site()));
        quote!(#parts.applied.#name)
    }

    /// The params that are child graphs, whose copies may fail.
    pub(super) fn child_params(&self) -> Vec<usize> {
        (0..self.model.params.len())
            .filter(|&i| self.roles[i] == Role::Child)
            .collect()
    }
}

/// The local holding the copy of child-graph param `i` while the others are copied.
pub(super) fn child_copy(i: usize) -> proc_macro2::Ident {
    format_ident!("__cg_child_{}", i)
}

/// `<Graph>::__cg_own(&params) -> Result<Box<Params>>`: a copy of the params, and its pieces.
pub fn owned(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (pass, graph, params_ty) = (&g.pass, g.graph, &g.params_ty);
    let params = params_at(Span::call_site());
    let (out, dst) = (local("out"), local("dst"));
    let children = g.child_params();
    // Child graphs first: a copy that fails then leaves nothing half made.
    let child_copies = children.iter().map(|&i| {
        let (copy, keep) = (child_copy(i), g.keep(i, Base::Params));
        quote!(let #copy = #keep?;)
    });
    let child_writes = children.iter().map(|&i| {
        let (name, copy) = (&g.model.params[i].name, child_copy(i));
        quote!((&raw mut (*#dst).#name).write(#copy);)
    });
    let others: Vec<usize> = (0..g.model.params.len())
        .filter(|i| !children.contains(i))
        .collect();
    let (mut calls, mut pieces) = (Vec::new(), Vec::new());
    for chunk in others.chunks(PER_FN) {
        let f = format_ident!("__cg_own_{}", chunk[0]);
        let writes = chunk.iter().map(|&i| {
            let (name, keep) = (&g.model.params[i].name, g.keep(i, Base::Params));
            quote!((&raw mut (*#dst).#name).write(#keep);)
        });
        pieces.push(quote! {
            /// Writes a copy of some of the params into `dst` (see `__cg_own`).
            ///
            /// # Safety
            /// `dst` is valid for writes of the params struct.
            #[inline(never)]
            unsafe fn #f(#params: &#params_ty, #dst: *mut #params_ty) {
                // SAFETY: the caller's promise; each field is written in place (no reference
                // to the uninitialised struct is made).
                unsafe {
                    #(#writes)*
                }
            }
        });
        calls.push(quote!(Self::#f(#params, #dst);));
    }
    quote! {
        #(#pass)*
        impl #graph {
            /// A copy of `params`, for the graph and then its executable to keep: made field by
            /// field in place on the heap, a few dozen fields per function.
            #[allow(unused_variables, unused_unsafe)]
            fn __cg_own(#params: &#params_ty) -> #p::Result<#p::Box<#params_ty>> {
                #(#child_copies)*
                let mut #out = #p::Box::<#params_ty>::new_uninit();
                let #dst = #out.as_mut_ptr();
                // SAFETY: `dst` points to the box's memory, valid for writes of the params; the
                // pieces and the writes below write every field once (a param is either a child
                // graph, written here, or in exactly one piece), so the box holds a whole
                // value when it is taken as one. A copy that panics leaves the box to be freed
                // with the fields written so far leaked, never read.
                unsafe {
                    #(#calls)*
                    #(#child_writes)*
                    #p::Result::Ok(#out.assume_init())
                }
            }

            #(#pieces)*
        }
    }
}
