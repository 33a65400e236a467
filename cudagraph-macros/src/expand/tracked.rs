//! Changing the params an executable owns: one setter per param (`exec.set_alpha(v)`; an array
//! param's sets one element, `exec.set_w(3, v)`), the guard
//! of `exec.params_mut()` for several changes at once, and what both rest on: which node reads
//! which param, known here at compile time, so that a change updates exactly the nodes that
//! read the changed params (each once), and nothing else is compared or looked at; and the copy
//! of the params the nodes were last updated from (`applied`), which a change is copied into once
//! made, and undone from when refused (`sync`, `sync_children`).
//!
//! The tracker counts *slots*: a param, or an element of an array param the macro knows the
//! length of (see `Model::slots`), so that a changed element marks only the nodes that read it.
//!
//! The runtime's side is `__private::tracked` (the `Tracked` trait implemented here, `apply`).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::owned::Base;
use super::{
    docs, indirect_key, local, params_at, parts_at, relocated, updatable, update_fn, Gen, Role,
    PER_FN,
};
use crate::model::{name_of, Buffer};
use crate::parse::NodeOp;

/// The executable's `Tracked` implementation, its update function per node, its setters, and
/// the guard type.
pub fn tracked(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, graph, params_ty, exec_ty) = (
        &g.model.decl.vis,
        &g.pass,
        g.graph,
        &g.params_ty,
        &g.exec_ty,
    );
    let guard_ty = &g.guard_ty;
    let exec_name = exec_ty.to_string();
    let params = params_at(Span::call_site());
    let parts = parts_at(Span::call_site());
    let key = local("key");

    // The nodes reading each slot: alloc and collective nodes first (their checks, that CUDA
    // cannot resize an allocation and that NCCL fixed a collective's buffers, come before any
    // update), then the updatable ones, in build order. An
    // `#[indirect]` param is read through its key, which never changes: no node.
    let slot_count = g.model.slot_count();
    let mut readers: Vec<Vec<u32>> = vec![Vec::new(); slot_count];
    for alloc_first in [true, false] {
        for n in &g.nodes {
            let is_alloc = super::checked_only(&n.decl.op);
            if is_alloc != alloc_first || !(is_alloc || updatable(&n.decl.op)) {
                continue;
            }
            // (`slots` leaves out `#[indirect]` params.)
            for &slot in &n.slots {
                readers[slot].push(n.pos as u32);
            }
        }
    }
    // The slots the build-time memory check involves: a change to one runs it again.
    let mut checked = vec![false; slot_count];
    let mut check_buffer = |buffer: Buffer| {
        if let Buffer::Param(i, element) = buffer {
            let slots = g.model.slots(i);
            match element {
                Some(k) if slots.len() > 1 => checked[slots.start + k] = true,
                _ => checked[slots].fill(true),
            }
        }
    };
    for o in &g.analysis.overlaps {
        check_buffer(o.buffer_a);
        check_buffer(o.buffer_b);
    }
    for side in g.analysis.sweeps.iter().flat_map(|s| &s.sides) {
        for &(_, k) in &side.entries {
            check_buffer(Buffer::Param(side.param, side.element.then_some(k)));
        }
    }
    for pair in &g.analysis.children {
        for node in [pair.child, pair.other] {
            if let NodeOp::Child(c) = &g.model.nodes[node].op {
                if let Some(i) = g.param_ident(&c.graph).and_then(|id| g.model.param(id)) {
                    check_buffer(Buffer::Param(i, None));
                }
            }
        }
        for &(buffer, _) in &pair.uses {
            check_buffer(buffer);
        }
    }
    // The slots that are child graphs, whose copies into the applied params may fail
    // (`sync_children`): a setter of one takes the runtime's general way.
    let mut child = vec![false; slot_count];
    for i in g.child_params() {
        child[g.model.slots(i)].fill(true);
    }
    let reader_entries = readers
        .iter()
        .zip(&checked)
        .zip(&child)
        .map(|((nodes, &check), &child)| quote!((&[#(#nodes),*], #check, #child)));

    // One small function per declared node bringing it up to the params, out of line: a call
    // runs the code of the node it updates only. A node declared in a loop has one function for
    // all its instances, called with the instance's index.
    let nothing = format_ident!("__cg_nothing");
    let has_update = |n: &super::NodeGen| updatable(&n.decl.op) || super::checked_only(&n.decl.op);
    let index = local("index");
    let node_fns = g.decl_nodes().filter(|n| has_update(n)).map(|n| {
        let f = update_fn(n.pos);
        let update = relocated(g.update_node(n), n.site);
        // A node in each copy of an unrolled body: a function per copy, called for each; one
        // that fails after others took the change has the node set back whole by the undo.
        if let Some(super::Copies::Each(k)) = n.copies {
            let (one, copy, pos) = (
                format_ident!("__cg_update_copy_{}", n.pos),
                local("copy"),
                n.pos,
            );
            let error = local("error");
            return quote! {
                #[inline(never)]
                #[allow(unused_variables)]
                fn #f(&mut self, #index: ::core::primitive::usize, #key: #p::Internal) -> #p::Result<()> {
                    for #copy in 0..#k {
                        if let #p::Result::Err(#error) = self.#one(#copy, #key) {
                            if #copy > 0 {
                                #p::partly_updated(self, #pos);
                            }
                            return #p::Result::Err(#error);
                        }
                    }
                    #p::Result::Ok(())
                }

                /// Copy `copy` of the node's update (keyed, as the node's: see `__private::apply`).
                #[inline(never)]
                #[allow(unused_variables)]
                fn #one(&mut self, #copy: ::core::primitive::usize, _: #p::Internal) -> #p::Result<()> {
                    // SAFETY: keyed: the runtime's `apply` (or its undo) brings a stale node to
                    // the params, which it checked, and records it; nothing else changes.
                    let #parts = unsafe { self.parts.get_mut() };
                    let #params: &#params_ty = &#parts.state.params;
                    #update
                    #p::Result::Ok(())
                }
            };
        }
        quote! {
            #[inline(never)]
            #[allow(unused_variables)]
            fn #f(&mut self, #index: ::core::primitive::usize, _: #p::Internal) -> #p::Result<()> {
                // SAFETY: keyed: the runtime's `apply` (or its undo) brings a stale node to the
                // params, which it checked, and records it; nothing else changes.
                let #parts = unsafe { self.parts.get_mut() };
                let #params: &#params_ty = &#parts.state.params;
                #update
                #p::Result::Ok(())
            }
        }
    });
    let updates = g.nodes.iter().map(|n| {
        let index = n.rep.map_or(0, |r| r.index) as u32;
        match has_update(n) {
            true => {
                let f = update_fn(n.first);
                quote!((Self::#f, #index))
            }
            false => quote!((Self::#nothing, 0)),
        }
    });

    // Where each slot's value lies in the params struct, for `swap` (see `slots`).
    let count = g.model.params.len();
    let slot = local("slot");
    let indices: Vec<usize> = (0..count).collect();
    let (mut offset_fns, mut offset_arms) = (Vec::new(), Vec::new());
    for chunk in indices.chunks(PER_FN) {
        let f = format_ident!("__cg_slot_offset_{}", chunk[0]);
        let arms = chunk.iter().map(|&i| {
            let name = &g.model.params[i].name;
            let slots = g.model.slots(i);
            let (start, end) = (slots.start, slots.end);
            match g.slotted(i) {
                Some(_) => {
                    let elem = g.model.value_type(i);
                    quote! {
                        #start..#end => #p::offset_of!(#params_ty, #name)
                            + (#slot - #start) * #p::size_of::<#elem>(),
                    }
                }
                None if start < end => quote!(#start => #p::offset_of!(#params_ty, #name),),
                None => quote!(),
            }
        });
        offset_fns.push(quote! {
            #[inline]
            fn #f(#slot: ::core::primitive::usize) -> ::core::primitive::usize {
                match #slot {
                    #(#arms)*
                    _ => ::core::unreachable!(),
                }
            }
        });
        let (start, end) = (
            g.model.slots(chunk[0]).start,
            g.model.slots(chunk[chunk.len() - 1]).end,
        );
        if start < end {
            offset_arms.push(quote!(#start..#end => Self::#f(#slot),));
        }
    }

    let value = local("value");
    let element_readers = |i: usize| -> Vec<u32> {
        let mut all: Vec<u32> = g.model.slots(i).flat_map(|s| readers[s].clone()).collect();
        all.sort_unstable();
        all.dedup();
        all
    };
    // A slot that one node reads, which the memory check leaves alone and that is no child
    // graph: its setter calls the node's update itself (`__private::set_sole_reader`).
    let sole = |slot: usize| match readers[slot].as_slice() {
        [pos] if !checked[slot] && !child[slot] => Some(&g.nodes[*pos as usize]),
        _ => None,
    };
    let exec_param = local("exec");
    let commit = local("commit");
    let setters = (0..count).map(|i| {
        let f = &g.model.params[i];
        let (name, ty) = (&f.name, &f.ty);
        let setter = format_ident!("set_{}", name_of(name), span = name.span());
        let slot = g.model.slots(i).start;
        if let Some(len) = g.slotted(i) {
            let doc = docs::element_setter_doc(g, i, &element_readers(i));
            let (elem, param) = (g.model.value_type(i), name_of(name));
            let apply = match sole_element_reader(&sole, slot, len) {
                Some((first, pos, stride)) => {
                    let (f, applied) = (update_fn(first), g.applied(i));
                    let keep = g.keep_elem(i, Base::Kept, &quote!(#index));
                    quote! {{
                        let #commit = |#exec_param: &mut Self| {
                            // SAFETY: keyed, as `sync`: the element's reader took it.
                            let #parts = unsafe { #exec_param.parts.get_mut() };
                            #applied[#index] = #keep;
                        };
                        // SAFETY: the element's one reader is instance `#index` of the node at
                        // `#pos`, whose update this is (`UPDATES`), and `commit` copies the
                        // element into the applied params.
                        unsafe {
                            #p::set_sole_reader(
                                self,
                                #slot + #index,
                                #pos + #index * #stride,
                                (Self::#f, #index),
                                #commit,
                            )
                        }
                    }}
                }
                None => quote!(#p::set_param(self, #slot + #index)),
            };
            return quote! {
                #[doc = #doc]
                pub fn #setter(&mut self, #index: ::core::primitive::usize, #value: #elem) -> #p::Result<#elem> {
                    #p::element(#param, #index, #len)?;
                    // SAFETY: the change is staged and applied (`set_param`) right after.
                    let old = #p::replace(&mut unsafe { self.parts.get_mut() }.state.params.#name[#index], #value);
                    // Refused: the element has its applied value back (see `__private::apply`).
                    #apply.map(|_| old)
                }
            };
        }
        let doc = docs::setter_doc(g, i, &readers[slot]);
        if g.model.is_indirect(i) {
            let key = indirect_key(name);
            return quote! {
                #[doc = #doc]
                #[inline]
                pub fn #setter(&mut self, #value: #ty) -> #p::Result<#ty> {
                    // SAFETY: written where the launches read it first (no node reads it
                    // otherwise), so the new value is applied: the param and its applied copy
                    // both take it (a swap pending as one record staged first, whose commit
                    // would carry the applied copy over to the other param).
                    let #parts = unsafe { self.parts.get_mut() };
                    #parts.exec.set_indirect(&#parts.nodes.#key, #value)?;
                    #p::before_applied_write::<Self>(&mut #parts.tracker);
                    #parts.applied.#name = #value;
                    #p::Result::Ok(#p::replace(&mut #parts.state.params.#name, #value))
                }
            };
        }
        let apply = match sole(slot) {
            Some(n) => {
                let (pos, f, at) = (n.pos, update_fn(n.first), n.rep.map_or(0, |r| r.index));
                let (applied, keep) = (g.applied(i), g.keep(i, Base::Kept));
                quote! {{
                    let #commit = |#exec_param: &mut Self| {
                        // SAFETY: keyed, as `sync`: the param's reader took it.
                        let #parts = unsafe { #exec_param.parts.get_mut() };
                        #applied = #keep;
                    };
                    // SAFETY: the param's one reader is the node at `#pos`, whose update this is
                    // (`UPDATES`), and `commit` copies the param into the applied params.
                    unsafe { #p::set_sole_reader(self, #slot, #pos, (Self::#f, #at), #commit) }
                }}
            }
            None => quote!(#p::set_param(self, #slot)),
        };
        quote! {
            #[doc = #doc]
            pub fn #setter(&mut self, #value: #ty) -> #p::Result<#ty> {
                // SAFETY: the change is staged and applied (`set_param`) right after.
                let old = #p::replace(&mut unsafe { self.parts.get_mut() }.state.params.#name, #value);
                // Refused: the param has its applied value back (see `__private::apply`).
                #apply.map(|_| old)
            }
        }
    });
    let staged = (0..count).map(|i| {
        let f = &g.model.params[i];
        let (name, ty) = (&f.name, &f.ty);
        let setter = format_ident!("set_{}", name_of(name), span = name.span());
        let slot = g.model.slots(i).start;
        if let Some(len) = g.slotted(i) {
            let doc = docs::staged_element_setter_doc(g, i, &element_readers(i));
            let (elem, param) = (g.model.value_type(i), name_of(name));
            let stage = match sole_element_reader(&sole, slot, len) {
                Some((_, pos, stride)) => quote! {
                    // SAFETY: the element's one reader is instance `#index` of the node at
                    // `#pos`.
                    unsafe { #p::stage_sole_reader(self.exec, #slot + #index, #pos + #index * #stride) };
                },
                None => quote!(#p::stage(self.exec, #slot + #index);),
            };
            return quote! {
                #[doc = #doc]
                #[inline]
                pub fn #setter(&mut self, #index: ::core::primitive::usize, #value: #elem) -> #p::Result<#elem> {
                    #p::element(#param, #index, #len)?;
                    // SAFETY: the change is staged right after.
                    let old = #p::replace(&mut unsafe { self.exec.parts.get_mut() }.state.params.#name[#index], #value);
                    #stage
                    #p::Result::Ok(old)
                }
            };
        }
        let doc = docs::staged_setter_doc(g, i, &readers[slot]);
        let stage = if g.model.is_indirect(i) {
            let key = indirect_key(name);
            quote! {
                // SAFETY: written where the launches read it (no node reads it otherwise), so
                // the new value is applied: its applied copy takes it too (what an undo gives
                // back), a swap pending as one record staged first (its commit, a swap of the
                // applied params, would carry that copy over to the other param).
                let #parts = unsafe { self.exec.parts.get_mut() };
                #p::write_indirect(&mut #parts.exec, &#parts.nodes.#key, #value);
                #p::before_applied_write::<#exec_ty>(&mut #parts.tracker);
                #parts.applied.#name = #value;
            }
        } else if let Some(n) = sole(slot) {
            let pos = n.pos;
            quote! {
                // SAFETY: the param's one reader is the node at `#pos`.
                unsafe { #p::stage_sole_reader(self.exec, #slot, #pos) };
            }
        } else {
            quote!(#p::stage(self.exec, #slot);)
        };
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #setter(&mut self, #value: #ty) -> #ty {
                // SAFETY: the change is staged (or, for an `#[indirect]` param, written where
                // the launches read it) right after.
                let old = #p::replace(&mut unsafe { self.exec.parts.get_mut() }.state.params.#name, #value);
                #stage
                old
            }
        }
    });
    // After a swap of `#[indirect]` params: their values written where the launches read them.
    let indirect_writes = (0..count).filter(|&i| g.model.is_indirect(i)).map(|i| {
        let name = &g.model.params[i].name;
        let key = indirect_key(name);
        let slot = g.model.slots(i).start;
        quote! {
            if param == #slot {
                #p::write_indirect(&mut #parts.exec, &#parts.nodes.#key, #parts.state.params.#name);
            }
        }
    });
    // SAFETY (for `write_indirect`): keyed: the runtime writes an `#[indirect]` param's value
    // where the launches read it once the value changed; nothing else changes.
    let indirect_parts = (0..count)
        .any(|i| g.model.is_indirect(i))
        .then(|| quote!(let #parts = unsafe { self.parts.get_mut() };));
    let (sync_fns, sync_dispatch) = sync(g);
    let sync_children = sync_children(g);
    let guard_doc = docs::guard_doc(g);
    let guard_name = guard_ty.to_string();
    let pick = local("pick");
    let slots_ty = &g.slots_ty;
    let swap_doc = docs::swap_doc(g);
    let exec_swap_doc = docs::exec_swap_doc(g);
    let slots = slots(g);
    quote! {
        #slots

        #(#pass)*
        // SAFETY: `#slots_ty` is `#[repr(C)]`, made of `Slot`s only, one byte per slot in slot
        // order (asserted where it is declared), each a `Slot` of its slot's value type, which
        // lies where `slot_offset` says: the field of the param, or its element.
        unsafe impl #p::Tracked for #exec_ty {
            type Params = #params_ty;
            type Slots = #slots_ty;
            const NAME: &'static ::core::primitive::str = #exec_name;
            #[allow(clippy::type_complexity)]
            const UPDATES: &'static [(
                fn(&mut Self, ::core::primitive::usize, #p::Internal) -> #p::Result<()>,
                ::core::primitive::u32,
            )] = &[#(#updates),*];
            const READERS: &'static [(
                &'static [::core::primitive::u32],
                ::core::primitive::bool,
                ::core::primitive::bool,
            )] =
                &[#(#reader_entries),*];

            #[inline(always)]
            fn tracker(&mut self, _: #p::Internal) -> &mut #p::Tracker {
                // SAFETY: keyed: only the runtime's tracking functions change the tracker.
                &mut unsafe { self.parts.get_mut() }.tracker
            }

            #[inline(always)]
            fn params_mut(&mut self, _: #p::Internal) -> &mut #params_ty {
                // SAFETY: keyed: the runtime stages every change it makes (`stage_swap`).
                &mut unsafe { self.parts.get_mut() }.state.params
            }

            #[inline(always)]
            fn applied_mut(&mut self, _: #p::Internal) -> &mut #params_ty {
                // SAFETY: keyed: the runtime changes the applied params only to the values the
                // nodes were updated from (`swap_params`).
                &mut unsafe { self.parts.get_mut() }.applied
            }

            fn check(&self) -> #p::Result<()> {
                #graph::__cg_check_overlaps(&self.parts.state.params)
            }

            #[inline]
            fn slot_offset(#slot: ::core::primitive::usize) -> ::core::primitive::usize {
                match #slot {
                    #(#offset_arms)*
                    _ => ::core::unreachable!(),
                }
            }

            #[allow(unused_variables)]
            fn write_indirect(&mut self, param: ::core::primitive::usize, _: #p::Internal) {
                #indirect_parts
                #(#indirect_writes)*
            }

            #[inline]
            #[allow(unused_variables)]
            fn sync(
                &mut self,
                param: ::core::primitive::usize,
                commit: ::core::primitive::bool,
                key: #p::Internal,
            ) {
                #sync_dispatch
            }

            #sync_children
        }

        #(#pass)*
        // The setters spell out the params' types (kernels' parameter tuples among them).
        #[allow(clippy::type_complexity)]
        impl #exec_ty {
            #(#setters)*

            #[doc = #exec_swap_doc]
            pub fn swap<S: #p::Pick>(
                &mut self,
                #pick: impl FnOnce(&mut #slots_ty) -> (&mut S, &mut S),
            ) -> #p::Result<::core::primitive::usize> {
                #p::swap_params(self, #pick)
            }

            /// The update of a node CUDA updates nothing of.
            #[allow(dead_code)]
            fn #nothing(&mut self, _: ::core::primitive::usize, _: #p::Internal) -> #p::Result<()> {
                #p::Result::Ok(())
            }

            #(#node_fns)*

            #(#offset_fns)*

            #(#sync_fns)*
        }

        #(#pass)*
        #[doc = #guard_doc]
        #[must_use = "changes made through the guard are applied by `apply`, or by the next launch"]
        #vis struct #guard_ty<'a> {
            exec: &'a mut #exec_ty,
        }

        #(#pass)*
        impl #p::Deref for #guard_ty<'_> {
            type Target = #params_ty;
            fn deref(&self) -> &#params_ty {
                &self.exec.parts.state.params
            }
        }

        #(#pass)*
        #[allow(clippy::type_complexity)]
        impl #guard_ty<'_> {
            #(#staged)*

            #[doc = #swap_doc]
            pub fn swap<S: #p::Pick>(
                &mut self,
                #pick: impl FnOnce(&mut #slots_ty) -> (&mut S, &mut S),
            ) -> #p::Result<()> {
                #p::stage_swap(self.exec, #pick)
            }

            /// Updates the nodes that read the params changed so far, each once; returns how
            /// many it updated. All or nothing: an update that fails is reported, naming its
            /// node, and the changes are undone (the params get back the values the nodes were
            /// last updated from, the nodes updated before the refusal are set back, nothing
            /// stays pending), so the executable runs as it did before them.
            pub fn apply(self) -> #p::Result<::core::primitive::usize> {
                #p::apply(self.exec)
            }
        }

        #(#pass)*
        impl #p::fmt::Debug for #guard_ty<'_> {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#guard_name).finish_non_exhaustive()
            }
        }
    }
}

/// `Tracked::sync`'s body, and the functions it calls: each copies the params of a chunk of
/// [`PER_FN`] (a match over them, a function per chunk: a function per param would be thousands
/// of items, one match over all of them a function beyond the optimizer) between the params and
/// the applied params. Child graphs are left to [`sync_children`].
/// For an array param whose `len` elements from slot `start` on are each read by one node
/// (`sole`), all instances of one declaration in a `for` loop, element `k` by instance `k`, at
/// positions `pos + k * stride`: the declaration's first position, `pos` and `stride`. Its
/// element setter then calls the reader's update itself.
fn sole_element_reader<'g>(
    sole: &dyn Fn(usize) -> Option<&'g super::NodeGen<'g>>,
    start: usize,
    len: usize,
) -> Option<(usize, usize, usize)> {
    let first = match len {
        0 => return None,
        _ => sole(start)?,
    };
    let stride = match len {
        1 => 0,
        _ => sole(start + 1)?.pos.checked_sub(first.pos)?,
    };
    (0..len)
        .all(|k| {
            sole(start + k).is_some_and(|n| {
                n.first == first.first
                    && n.rep.map_or(k == 0, |r| r.index == k)
                    && n.pos == first.pos + k * stride
            })
        })
        .then_some((first.first, first.pos, stride))
}

fn sync(g: &Gen) -> (Vec<TokenStream>, TokenStream) {
    let (p, parts) = (&g.p, parts_at(Span::call_site()));
    let count = g.model.params.len();
    let indices: Vec<usize> = (0..count).collect();
    let (mut fns, mut arms) = (Vec::new(), Vec::new());
    for chunk in indices.chunks(PER_FN) {
        let f = format_ident!("__cg_sync_{}", chunk[0]);
        let copies = chunk
            .iter()
            .filter(|&&i| g.roles[i] != Role::Child)
            .map(|&i| {
                let (kept, applied) = (g.kept(i), g.applied(i));
                let slots = g.model.slots(i);
                if g.slotted(i).is_some() {
                    // An element: `param` is its slot.
                    let (start, end) = (slots.start, slots.end);
                    let k = quote!(param - #start);
                    let (to_applied, to_kept) = (
                        g.keep_elem(i, Base::Kept, &k),
                        g.keep_elem(i, Base::Applied, &k),
                    );
                    return quote! {
                        #start..#end => if commit {
                            #applied[#k] = #to_applied;
                        } else {
                            #kept[#k] = #to_kept;
                        }
                    };
                }
                let slot = slots.start;
                let (to_applied, to_kept) = (g.keep(i, Base::Kept), g.keep(i, Base::Applied));
                quote! {
                    #slot => if commit { #applied = #to_applied; } else { #kept = #to_kept; }
                }
            });
        fns.push(quote! {
            /// `Tracked::sync` for this chunk's params (keyed, as it).
            #[inline(never)]
            #[allow(unused_variables)]
            fn #f(
                &mut self,
                param: ::core::primitive::usize,
                commit: ::core::primitive::bool,
                _: #p::Internal,
            ) {
                // SAFETY: keyed: the runtime copies a changed param into the applied params
                // once its nodes took it, or back from them when they refused it.
                let #parts = unsafe { self.parts.get_mut() };
                match param {
                    #(#copies)*
                    _ => {}
                }
            }
        });
        // The chunk's slots: its first param's first to its last param's last.
        let (start, end) = (
            g.model.slots(chunk[0]).start,
            g.model.slots(chunk[chunk.len() - 1]).end,
        );
        if start < end {
            arms.push(quote!(#start..#end => self.#f(param, commit, key),));
        }
    }
    let dispatch = quote! {
        match param {
            #(#arms)*
            _ => {}
        }
    };
    (fns, dispatch)
}

/// `Tracked::sync_children`: the changed params that are child graphs, whose copies may fail,
/// copied all before any is stored (as `set_params` copies them), or swapped.
fn sync_children(g: &Gen) -> TokenStream {
    let (p, parts) = (&g.p, parts_at(Span::call_site()));
    let children = g.child_params();
    let how = local("how");
    if children.is_empty() {
        return quote! {
            #[inline(always)]
            fn sync_children(&mut self, #how: #p::SyncChildren, _: #p::Internal) -> #p::Result<()> {
                let _ = #how;
                #p::Result::Ok(())
            }
        };
    }
    let swaps = children.iter().map(|&i| {
        let (kept, applied, slot) = (g.kept(i), g.applied(i), g.model.slots(i).start);
        quote! {
            if #parts.tracker.is_changed(#slot) {
                #p::swap(&mut #kept, &mut #applied);
            }
        }
    });
    let copies = children.iter().map(|&i| {
        let copy = super::owned::child_copy(i);
        let (to_applied, to_kept) = (g.keep(i, Base::Kept), g.keep(i, Base::Applied));
        let slot = g.model.slots(i).start;
        quote! {
            let #copy = match #parts.tracker.is_changed(#slot) {
                false => #p::Option::None,
                true if commit => #p::Option::Some(#to_applied?),
                true => #p::Option::Some(#to_kept?),
            };
        }
    });
    let stores = children.iter().map(|&i| {
        let (copy, kept, applied) = (super::owned::child_copy(i), g.kept(i), g.applied(i));
        quote! {
            if let #p::Option::Some(copy) = #copy {
                if commit { #applied = copy; } else { #kept = copy; }
            }
        }
    });
    quote! {
        fn sync_children(&mut self, #how: #p::SyncChildren, _: #p::Internal) -> #p::Result<()> {
            // SAFETY: keyed: the runtime commits the changed child graphs into the applied
            // params once their nodes took them, or puts them back when they refused.
            let #parts = unsafe { self.parts.get_mut() };
            if #how == #p::SyncChildren::Swap {
                #(#swaps)*
                return #p::Result::Ok(());
            }
            let commit = #how == #p::SyncChildren::Commit;
            #(#copies)*
            #(#stores)*
            #p::Result::Ok(())
        }
    }
}

/// `<Graph>Slots`, what the guard's `swap` lends its `pick` instead of the params: a struct of
/// the params' names whose fields are slot tokens (`__private::Slot`, see `__private::swap`),
/// one per slot (an array param the macro knows the length of: an array of them, one per
/// element), so that `pick` can name params and change none. The runtime knows a token by its
/// place: the struct is `#[repr(C)]` with one byte per slot in slot order, which a const asserts
/// (each param's field at its first slot, the struct as long as the slots).
fn slots(g: &Gen) -> TokenStream {
    let p = &g.p;
    let (vis, pass, slots_ty, params_ty) = (&g.model.decl.vis, &g.pass, &g.slots_ty, &g.params_ty);
    let fields = g.model.params.iter().enumerate().map(|(i, f)| {
        let name = &f.name;
        let ty = match (g.slotted(i), array_type(&f.ty)) {
            // The array's own length expression: the const below asserts that it is the macro's,
            // which `slot_offset` counts elements by.
            (Some(_), Some(array)) => {
                let (elem, len) = (&array.elem, &array.len);
                quote!([#p::Slot<#elem>; #len])
            }
            // (`Model::arrays` finds arrays as `array_type` does: not reached.)
            (Some(_), None) => {
                quote!(::core::compile_error!(
                    "cuda_graph!: an array param without its array type"
                ))
            }
            (None, _) => {
                let ty = &f.ty;
                quote!(#p::Slot<#ty>)
            }
        };
        let doc = format!(
            "Param [`{param}`]({params_ty}::{param}), to swap.",
            param = name_of(name)
        );
        let vis = quote_spanned!(name.span()=> pub);
        quote!(#[doc = #doc] #vis #name: #ty,)
    });
    let layout = (0..g.model.params.len()).map(|i| {
        let (name, start) = (&g.model.params[i].name, g.model.slots(i).start);
        quote!(::core::assert!(#p::offset_of!(#slots_ty, #name) == #start);)
    });
    // Each slot token of the param's own type (see `__private::slot_of`).
    let (slots, params) = (local("slots"), local("params"));
    let same = g.model.params.iter().enumerate().map(|(i, f)| {
        let name = &f.name;
        match (g.slotted(i), array_type(&f.ty)) {
            (Some(_), Some(_)) => quote!(#p::slots_of(&#slots.#name, &#params.#name);),
            (Some(_), None) => quote!(),
            (None, _) => quote!(#p::slot_of(&#slots.#name, &#params.#name);),
        }
    });
    let slot_count = g.model.slot_count();
    let doc = docs::slots_doc(g);
    let name = slots_ty.to_string();
    quote! {
        #(#pass)*
        #[doc = #doc]
        #[repr(C)]
        #[allow(clippy::type_complexity)]
        #vis struct #slots_ty {
            #(#fields)*
        }

        #(#pass)*
        // The layout `Tracked` promises: each param's slots where its field lies, one byte each.
        const _: () = {
            #(#layout)*
            ::core::assert!(#p::size_of::<#slots_ty>() == #slot_count);
        };

        #(#pass)*
        // Each slot token stands for its param's own type (never called: it only compiles).
        const _: fn(&#slots_ty, &#params_ty) = |#slots, #params| {
            #(#same)*
        };

        #(#pass)*
        impl #p::fmt::Debug for #slots_ty {
            fn fmt(&self, f: &mut #p::fmt::Formatter<'_>) -> #p::fmt::Result {
                f.debug_struct(#name).finish_non_exhaustive()
            }
        }
    }
}

/// The array type `ty` is, inside parentheses or the invisible group of a `macro_rules!`
/// substitution (as `repeat::array_of` finds it).
fn array_type(ty: &syn::Type) -> Option<&syn::TypeArray> {
    match ty {
        syn::Type::Array(array) => Some(array),
        syn::Type::Group(group) => array_type(&group.elem),
        syn::Type::Paren(paren) => array_type(&paren.elem),
        _ => None,
    }
}
