//! The calls updating a node of an executable: per kind, collective nodes included.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use super::{at, local, moved, params_at, parts_at, private_at, Copies, Gen, NodeGen};
use crate::parse::{CollectiveKind, CollectiveOp, NodeOp};

impl Gen<'_> {
    /// The body of `node`'s update function: the node's inputs computed from the params, and
    /// the call updating the executable's node with them.
    ///
    /// For an instance of a node declared in a loop, `index` (an argument of the code around)
    /// says which; the loop variable is bound to it for the operands that name it. For a node
    /// in each copy of an unrolled body, `copy` (an argument too) says which copy.
    pub(in crate::expand) fn update_node(&self, node: &NodeGen) -> TokenStream {
        let site = node.site;
        let s = at(site);
        let (params, parts) = (params_at(site), parts_at(site));
        let index = local("index");
        let (graph_ty, eval, field) = (
            moved(self.graph, site),
            moved(&node.eval, site),
            moved(&node.decl.name, site),
        );
        let allocs = self.eval_args(node, &quote_spanned!(at(site)=> #parts.nodes), &index);
        // The node's handle and launch configuration: an instance's, by its index.
        let (own, launch) = match node.rep {
            Some(_) => (
                quote_spanned!(s=> #parts.nodes.#field[#index]),
                quote_spanned!(s=> #parts.state.launch.#field[#index]),
            ),
            None => (
                quote_spanned!(s=> #parts.nodes.#field),
                quote_spanned!(s=> #parts.state.launch.#field),
            ),
        };
        // A node in each copy of an unrolled body: the copy `copy` (see `tracked`, which
        // updates every copy).
        if let Some(Copies::Each(_)) = node.copies {
            let copy = moved(&local("copy"), site);
            let own = quote_spanned!(s=> #parts.nodes.#field[#copy]);
            return self.update_call(node, &allocs, &params, (&graph_ty, &eval), (&own, &launch));
        }
        let update = self.update_call(node, &allocs, &params, (&graph_ty, &eval), (&own, &launch));
        let Some(rep) = node.rep else {
            return update;
        };
        let var = rep.var;
        quote_spanned! {s=>
            #[allow(unused_variables)]
            let #var: ::core::primitive::usize = #index;
            #update
        }
    }

    /// [`Gen::update_node`]'s driver call.
    /// (`own` and `launch`: the node's handle and launch configuration in the executable.)
    pub(super) fn update_call(
        &self,
        node: &NodeGen,
        allocs: &TokenStream,
        params: &Ident,
        (graph_ty, eval): (&Ident, &Ident),
        (own, launch): (&TokenStream, &TokenStream),
    ) -> TokenStream {
        let site = node.site;
        let (s, parts) = (at(site), parts_at(site));
        match &node.decl.op {
            NodeOp::Kernel(_) => {
                let (kernel, config, args) = (local("kernel"), local("config"), local("args"));
                let (k, c, a) = (
                    moved(&kernel, site),
                    moved(&config, site),
                    moved(&args, site),
                );
                quote_spanned! {s=>
                    let (#kernel, #config, #args) = #graph_ty::#eval(#params #allocs);
                    // `set_kernel`: the kernel param may now hold another function.
                    #parts.exec.set_kernel(#own, #k, #c, #a)?;
                    #launch = #c;
                }
            }
            NodeOp::Memset(_) => {
                quote_spanned!(s=> #parts.exec.set_memset_params(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Memcpy(_) => {
                quote_spanned!(s=> #parts.exec.set_memcpy_params(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Host(_) => {
                let p = private_at(site);
                quote_spanned!(s=> #p::set_host(&mut #parts.exec, #own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Child(_) => {
                quote_spanned!(s=> #parts.exec.set_child_graph(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            // CUDA fixes an allocation when the graph is built: a new length is refused.
            NodeOp::Alloc(_) => {
                let p = private_at(site);
                let name = match node.rep {
                    Some(_) => {
                        let (name, index) = (format!("{}[{{}}]", node.decl.name), local("index"));
                        quote_spanned!(s=> &::std::format!(#name, #index))
                    }
                    None => {
                        let name = &node.name;
                        quote!(#name)
                    }
                };
                quote_spanned!(s=> #p::same_alloc_len(&#own, #graph_ty::#eval(#params #allocs), #name)?;)
            }
            NodeOp::Record(_) => {
                quote_spanned!(s=> #parts.exec.set_event_record(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Wait(_) => {
                quote_spanned!(s=> #parts.exec.set_event_wait(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::SemaphoreSignal(_) => {
                quote_spanned!(s=> #parts.exec.set_semaphore_signal(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::SemaphoreWait(_) => {
                quote_spanned!(s=> #parts.exec.set_semaphore_wait(#own, #graph_ty::#eval(#params #allocs))?;)
            }
            NodeOp::Capture(c) => {
                let (p, declared) = (private_at(site), self.declared_capture_uses(c));
                quote_spanned!(s=> #p::set_declared_capture(&mut #parts.exec, #own, #graph_ty::#eval(#params #allocs), #declared)?;)
            }
            // Nothing to update: a changed communicator, buffer, root or peer is refused.
            NodeOp::Collective(_) => {
                let (p, name) = (private_at(site), &node.name);
                quote_spanned!(s=> #p::same_collective(&#parts.exec, #own, #graph_ty::#eval(#params #allocs), #name)?;)
            }
            NodeOp::Empty(_) | NodeOp::Free(_) | NodeOp::Conditional(_) => TokenStream::new(),
        }
    }

    /// A collective node's eval-function return type and body: its `CollectiveCall` (the
    /// communicator, the operation with its reduction and ranks, the buffers), each part located
    /// at the user's token for it.
    pub(super) fn collective_call(
        &self,
        c: &CollectiveOp,
        life: &syn::Lifetime,
    ) -> (TokenStream, TokenStream) {
        let (comm, src) = (&c.comm, &c.src);
        let (s, ps, params) = (
            at(src.span()),
            private_at(src.span()),
            params_at(src.span()),
        );
        let src_ty = self.model.param(src).map(|i| &self.model.params[i].ty);
        let reduce = c.reduce.as_ref().map(|r| {
            let (rs, rp) = (at(r.span()), private_at(r.span()));
            quote_spanned!(rs=> #rp::ReduceOp::#r)
        });
        let ranks = &c.ranks;
        let (ks, kp) = (at(c.token.span()), private_at(c.token.span()));
        let op = match c.kind {
            CollectiveKind::AllReduce => quote_spanned!(ks=> #kp::CollectiveOp::AllReduce(#reduce)),
            CollectiveKind::AllGather => quote_spanned!(ks=> #kp::CollectiveOp::AllGather),
            CollectiveKind::ReduceScatter => {
                quote_spanned!(ks=> #kp::CollectiveOp::ReduceScatter(#reduce))
            }
            CollectiveKind::Broadcast => {
                quote_spanned!(ks=> #kp::CollectiveOp::Broadcast(#(#ranks),*))
            }
            CollectiveKind::Send => quote_spanned!(ks=> #kp::CollectiveOp::Send(#(#ranks),*)),
            CollectiveKind::Recv => quote_spanned!(ks=> #kp::CollectiveOp::Recv(#(#ranks),*)),
            CollectiveKind::SendRecv => {
                quote_spanned!(ks=> #kp::CollectiveOp::SendRecv(#(#ranks),*))
            }
        };
        let comm_ref = {
            let (cs, cp, cparams) = (
                at(comm.span()),
                private_at(comm.span()),
                params_at(comm.span()),
            );
            quote_spanned!(cs=> #cp::communicator(&#cparams.#comm))
        };
        // Both buffers through the source's type: the destination must have the same.
        let src_ref = quote_spanned!(s=> #ps::collective_buffer(&#params.#src));
        let body = match &c.dst {
            Some(dst) => {
                let dst_ref = {
                    let (ds, dp, dparams) = (
                        at(dst.span()),
                        private_at(dst.span()),
                        params_at(dst.span()),
                    );
                    quote_spanned!(ds=> #dp::collective_buffer(&#dparams.#dst))
                };
                quote_spanned!(s=> #ps::collective_to(#comm_ref, #op, #src_ref, #dst_ref))
            }
            None => quote_spanned!(s=> #ps::collective(#comm_ref, #op, #src_ref)),
        };
        (
            quote_spanned!(s=> #ps::CollectiveCall<#life, <#src_ty as #ps::CollectiveBuffer>::Elem>),
            body,
        )
    }
}
