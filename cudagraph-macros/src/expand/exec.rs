//! The executable type: launch, whole-graph update (same declaration only), the `set_params`
//! fast path and one handle method per node.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::{docs, local, params_at, relocated, Base, Gen};
use crate::parse::NodeOp;

pub fn exec_type(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass) = (&g.model.decl.vis, &g.pass);
    let (graph, params_ty, exec_ty, nodes_ty, state_ty) =
        (g.graph, &g.params_ty, &g.exec_ty, &g.nodes_ty, &g.state_ty);
    let count = g.nodes.len();
    let exec_name = exec_ty.to_string();
    let (params, stream, source, changed, updated) = (
        params_at(Span::call_site()),
        local("stream"),
        local("source"),
        local("changed"),
        local("updated"),
    );
    let same = local("__CgSame");

    let compare = (0..g.model.params.len()).map(|i| {
        let unchanged = g.unchanged(i);
        quote!(!(#unchanged))
    });
    let param_count = g.model.params.len();
    let updates = g
        .nodes
        .iter()
        .filter(|n| !matches!(n.decl.op, NodeOp::Empty(_)))
        .map(|n| {
            let pos = n.pos;
            let inputs = n.mentions.iter().map(|i| quote!(|| #changed[#i]));
            let update = g.update_node(n);
            relocated(
                quote! {
                    if self.dirty[#pos] #(#inputs)* {
                        // Dirty until the whole call succeeds: if a later node is refused, the
                        // next call must set this one again (its params are not committed).
                        self.dirty[#pos] = true;
                        #update
                        #updated += 1;
                    }
                },
                n.site,
            )
        });
    let commits = g.model.params.iter().enumerate().map(|(i, f)| {
        let name = &f.name;
        let take = g.keep(i, Base::Params);
        quote! {
            if #changed[#i] {
                self.state.params.#name = #take;
            }
        }
    });
    let accessors = g.nodes.iter().map(|n| {
        let (name, handle) = (&n.decl.name, &n.handle);
        let doc = docs::accessor_doc(g, n);
        quote! {
            #[doc = #doc]
            pub fn #name(&mut self) -> #handle<'_> {
                #handle { exec: self }
            }
        }
    });
    let doc = docs::exec_doc(g);
    let update_doc = format!(
        "Whole-graph update from a [`{graph}`] built with other params (`cuGraphExecUpdate`).\n\n\
         Only a graph of this declaration is accepted: it was built by the same sequence of calls, so \
         its nodes pair with this executable's ([whole-graph update](https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#whole-graph-update)). Afterwards the executable runs that graph's \
         params, and [`set_params`](Self::set_params) compares with them."
    );
    let set_params_doc = format!(
        "Makes the executable's nodes what [`{graph}::build`] would make from `params`, with one \
         single-node update per node whose inputs changed since the last build, update or \
         `set_params` (or that was set through its handle since). Returns how many nodes it \
         updated. Enabled/disabled states are kept.\n\n\
         A param is compared with `PartialEq`, a kernel by function, a declared graph by identity; a \
         runtime `Graph` counts as changed every time. A kernel param may change function (same \
         parameter list, same context): the node's single-node update switches it."
    );

    quote! {
        #(#pass)*
        #[doc = #doc]
        #vis struct #exec_ty {
            exec: #p::GraphExec<'static>,
            nodes: #p::Box<#p::ManuallyDrop<#nodes_ty>>,
            state: #state_ty,
            /// Nodes set through their handles since the last `set_params`: it sets them again.
            dirty: [bool; #count],
        }

        #(#pass)*
        impl #exec_ty {
            /// Launches the graph into `stream`.
            pub fn launch(&mut self, #stream: &#p::Arc<#p::CudaStream>) -> #p::Result<()> {
                self.exec.launch(#stream)
            }

            /// Uploads the executable ahead of its first launch.
            pub fn upload(&self, #stream: &#p::CudaStream) -> #p::Result<()> {
                self.exec.upload(#stream)
            }

            #[doc = #update_doc]
            pub fn update<#same: #p::SameDeclaration<#graph>>(&mut self, #source: &#same) -> #p::Result<()> {
                let #source: &#graph = #p::SameDeclaration::same(#source);
                self.exec.update(&#source.graph)?;
                self.state = #source.state.clone();
                self.dirty = [false; #count];
                #p::Result::Ok(())
            }

            #[doc = #set_params_doc]
            pub fn set_params(&mut self, #params: &#params_ty) -> #p::Result<usize> {
                #graph::__cg_check_overlaps(#params)?;
                #[allow(unused_variables)]
                let #changed: [bool; #param_count] = [#(#compare),*];
                let mut #updated = 0usize;
                #(#updates)*
                #(#commits)*
                self.dirty = [false; #count];
                #p::Result::Ok(#updated)
            }

            /// The runtime executable, for what the typed API does not cover (read-only).
            pub fn as_exec(&self) -> &#p::GraphExec<'static> {
                &self.exec
            }

            #(#accessors)*
        }

        #(#pass)*
        impl #p::fmt::Debug for #exec_ty {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#exec_name).field("exec", &self.exec).finish_non_exhaustive()
            }
        }
    }
}
