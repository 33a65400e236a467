//! What the rules leave to the type system and to the values: constant assertions over
//! `cudagraph_runtime::__private`'s probes (a param's type is memory or not, a kernel parameter
//! reads, writes or takes a value, a child graph holds a node CUDA forbids in a body), located
//! at the user's tokens with the macro's own message; and the checks `build` and `set_params`
//! make of memory only values show (two params that share memory, a child graph's uses).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

use super::{at, params_at, private_at, Gen};
use crate::check::hazards::{race_key, race_message, used_here};
use crate::model::hazards::{Analysis, NodeUse, Overlap, OverlapSweep, Race, SweepSide};
use crate::model::{
    kernel_params, name_of, spelled, spelled_slot, Access, Buffer, Mem, Opaque, Spelled,
    POINTER_FORMS,
};
use crate::parse::NodeOp;
use crate::text::pretty;

/// The probes' fallback traits, which the probes need in scope.
pub(super) fn fallbacks(p: &TokenStream) -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use #p::{ArgsFallback as _, BodyFallback as _, ParamFallback as _, SlotFallback as _};
    }
}

impl Gen<'_> {
    /// A node's accesses to one buffer as a constant `u8` (`VALUE`, `READ` or `WRITE`).
    fn access_expr(&self, u: &NodeUse) -> TokenStream {
        let p = &self.p;
        let each = u.accesses.iter().map(|a| match *a {
            Access::Read => quote!(#p::READ),
            Access::Write => quote!(#p::WRITE),
            Access::Slot { kernel, arg } => {
                let ty = &self.model.params[kernel].ty;
                match kernel_params(ty).and_then(|types| types.get(arg).copied()) {
                    Some(slot) => quote!(<#p::SlotProbe<#slot>>::ACCESS),
                    None => quote!(#p::slot(<#p::ArgsProbe<#ty>>::ACCESS, #arg)),
                }
            }
        });
        quote!(#p::access_max(&[#(#each),*]))
    }

    /// Whether param `index` is memory (its elements, for an array param), as a constant
    /// `bool`.
    fn memory_expr(&self, index: usize, mem: Mem) -> TokenStream {
        let p = &self.p;
        let ty = self.model.value_type(index);
        match mem {
            Mem::Yes => quote!(true),
            Mem::Probe => quote!(<#p::ParamProbe<#ty>>::IS_MEMORY),
        }
    }

    /// `ParamProbe::bytes` of param `index` of the `&Params` argument, or of its element
    /// `element` (an expression).
    pub(super) fn bytes_expr(&self, index: usize, element: Option<TokenStream>) -> TokenStream {
        let p = &self.p;
        let (name, ty) = (&self.model.params[index].name, self.model.value_type(index));
        let params = params_at(Span::call_site());
        match element {
            Some(k) => quote!(<#p::ParamProbe<#ty>>::bytes(&#params.#name[#k])),
            None => quote!(<#p::ParamProbe<#ty>>::bytes(&#params.#name)),
        }
    }

    /// `ParamProbe::bytes` of the memory of a param `buffer`, one expression per element it may
    /// be (every element of an array param whose element the macro cannot tell).
    fn buffer_bytes(&self, buffer: Buffer) -> Vec<TokenStream> {
        match buffer {
            Buffer::Param(i, Some(k)) => vec![self.bytes_expr(i, Some(quote!(#k)))],
            Buffer::Param(i, None) => match self.model.arrays[i] {
                Some((_, len)) => (0..len)
                    .map(|k| self.bytes_expr(i, Some(quote!(#k))))
                    .collect(),
                None => vec![self.bytes_expr(i, None)],
            },
            Buffer::Alloc(_) => Vec::new(),
        }
    }
}

/// Constant assertions: races and kernel arguments that the types decide, params that are
/// conditional handles, and CUDA's body rule for the child graphs that bodies embed.
pub fn assertions(g: &Gen, analysis: &Analysis) -> TokenStream {
    let mut out = TokenStream::new();
    // One assertion per pair of declarations racing on one param: the types are the same in
    // every iteration.
    let mut asserted = std::collections::BTreeSet::new();
    for race in &analysis.typed {
        if asserted.insert(race_key(g.model, race)) {
            out.extend(race_assertion(g, race));
        }
    }
    for probe in &analysis.probes {
        let p = private_at(probe.span);
        let ty = g.model.value_type(probe.param);
        let access = g.access_expr(&NodeUse {
            accesses: probe.accesses.clone(),
            span: probe.span,
            mem: Mem::Probe,
        });
        let message = format!(
            "param `{}` is named in a pointer argument of node `{}`, but its type (`{}`) is \
             neither a buffer (`DeviceBuffer<T>`, `HostBuffer<T>`, a raw pointer, or a reference \
             to one) nor a plain value (a number, `bool`, a `KernelParam` type): `cuda_graph!` \
             finds data races through buffer params, and cannot see the memory this one may \
             hold; make each buffer a param of its own",
            g.model.params[probe.param].name,
            g.model.nodes[probe.node].decl.name,
            pretty(ty.to_token_stream())
        );
        out.extend(assertion(
            &p,
            probe.span,
            quote! {
                !<#p::ParamProbe<#ty>>::IS_MEMORY
                    && !<#p::ParamProbe<#ty>>::IS_VALUE
                    && #access != #p::VALUE
            },
            quote!(#message),
        ));
    }
    out.extend(pointer_arg_assertions(g, analysis));
    // A conditional handle as a param (spelled out, the conditional rule reports it; under a
    // memory type's name, `spelling_assertions`).
    for (i, param) in g.model.params.iter().enumerate() {
        if g.model.param_spelled(i) != Spelled::Unknown {
            continue;
        }
        let (ty, p) = (g.model.value_type(i), private_at(param.ty.span()));
        let message = format!(
            "param `{}` is a `ConditionalHandle`: a handle is made by the conditional node that \
             reads it (`name: while {} {{ ... }}`), since one made for another graph would be set \
             where no node reads it",
            param.name, param.name
        );
        out.extend(assertion(
            &p,
            param.ty.span(),
            quote!(<#p::ParamProbe<#ty>>::IS_HANDLE),
            quote!(#message),
        ));
    }
    // A capture node's declared uses, when their types are not written out: buffers.
    for (index, node) in g.model.nodes.iter().enumerate() {
        let NodeOp::Capture(c) = &node.op else {
            continue;
        };
        if !g.model.first_of_decl(index) {
            continue;
        }
        for b in c.uses.iter().flat_map(|u| &u.buffers) {
            let Some(i) = g.model.param(&b.name) else {
                continue;
            };
            if g.model.param_spelled(i) != Spelled::Unknown {
                continue;
            }
            let (ty, p) = (g.model.value_type(i), private_at(b.name.span()));
            let message = format!(
                "`{}` is not a buffer param: capture node `{}` declares the buffer params \
                 (`DeviceBuffer<T>`, `HostBuffer<T>`, raw pointers) its work reads and writes",
                b.name, node.decl.name
            );
            out.extend(assertion(
                &p,
                b.name.span(),
                quote!(!<#p::ParamProbe<#ty>>::IS_MEMORY),
                quote!(#message),
            ));
        }
    }
    out.extend(spelling_assertions(g));
    out.extend(body_assertions(g));
    out
}

/// The kernel arguments whose memory the types decide (see `model::hazards::pointer_args`): one
/// for a parameter behind an alias that is not in the forms whose memory is what they name is
/// refused when the parameter is a pointer; `y.slice(range)` giving memory is refused unless
/// `y` is a `DeviceBuffer<T>` or `HostBuffer<T>` (by value or reference), whose inherent `slice`
/// the call then is (a name may be an import of another type, whose `slice` could return any
/// memory).
fn pointer_arg_assertions(g: &Gen, analysis: &Analysis) -> TokenStream {
    let model = g.model;
    let mut out = TokenStream::new();
    let arg_of = |node: usize, arg: usize| match &model.nodes[node].op {
        NodeOp::Kernel(k) => k.args.iter().nth(arg).map(|e| pretty(e.to_token_stream())),
        _ => None,
    };
    for value in &analysis.values {
        let p = private_at(value.span);
        let access = g.access_expr(&NodeUse {
            accesses: vec![value.access],
            span: value.span,
            mem: Mem::Probe,
        });
        let node = &model.nodes[value.node];
        let slot = match value.access {
            Access::Slot { kernel, arg } => match kernel_params(&model.params[kernel].ty)
                .and_then(|types| types.get(arg).copied())
            {
                Some(ty) => format!("a `{}` parameter", pretty(ty.to_token_stream())),
                None => format!(
                    "parameter {} of kernel `{}` (`{}`)",
                    arg + 1,
                    model.params[kernel].name,
                    pretty(model.params[kernel].ty.to_token_stream())
                ),
            },
            _ => continue,
        };
        let message = format!(
            "kernel argument `{}` of node `{}` is passed to {slot}, which is a pointer, but it is \
             not one of the forms whose memory `cuda_graph!` can see: {POINTER_FORMS}. The \
             data-race rule judges a node by the memory its arguments name, and any other \
             expression may compute memory the rule would not see; declare the memory as a param \
             (`name: DeviceBuffer<T>`) and pass the param here",
            arg_of(value.node, value.arg).unwrap_or_default(),
            node.decl.name,
        );
        out.extend(assertion(
            &p,
            value.span,
            quote!(#access != #p::VALUE),
            quote!(#message),
        ));
        // A device graph's handle must be a param too: what the launched graph uses is checked
        // through it (`launch_checks`).
        let Access::Slot { kernel, arg } = value.access else {
            continue;
        };
        let ty = &model.params[kernel].ty;
        let launches = match kernel_params(ty).and_then(|types| types.get(arg).copied()) {
            Some(slot) => quote!(<#p::SlotProbe<#slot>>::LAUNCHES),
            None => quote!(#p::slot_launches(<#p::ArgsProbe<#ty>>::LAUNCHES, #arg)),
        };
        let message = format!(
            "kernel argument `{}` of node `{}` is passed to {slot}, a device graph the kernel may \
             launch, but it does not name a param: the data-race rule checks the memory a \
             launched graph uses, beside the nodes not ordered before the launching kernel, \
             through the param that gives the kernel its handle; declare the handle as a param \
             (`worker: SharedDeviceGraph`) and pass the param here",
            arg_of(value.node, value.arg).unwrap_or_default(),
            node.decl.name,
        );
        out.extend(assertion(&p, value.span, launches, quote!(#message)));
    }
    for slice in &analysis.slices {
        let p = private_at(slice.span);
        let access = g.access_expr(&NodeUse {
            accesses: vec![slice.access],
            span: slice.span,
            mem: Mem::Probe,
        });
        let (name, ty) = (
            &model.params[slice.param].name,
            model.value_type(slice.param),
        );
        let message = format!(
            "kernel argument `{}` of node `{}` takes `slice` of param `{name}`, a `{}`, which is \
             not a `DeviceBuffer<T>` or `HostBuffer<T>` (or a reference to one): this `slice` is \
             not the runtime's sub-range of `{name}`, so `cuda_graph!` cannot see which memory \
             it gives the kernel, and the data-race rule judges nodes by that memory; declare the \
             memory as a `DeviceBuffer<T>` param and pass it, or its `.slice(range)`",
            arg_of(slice.node, slice.arg).unwrap_or_default(),
            model.nodes[slice.node].decl.name,
            pretty(ty.to_token_stream()),
        );
        out.extend(assertion(
            &p,
            slice.span,
            quote!(({
                use #p::SliceFallback as _;
                #access != #p::VALUE && !<#p::SliceProbe<#ty>>::OWN_SLICE
            })),
            quote!(#message),
        ));
    }
    out
}

/// What the rules read from a type's name, checked against the type: a param or kernel
/// parameter type written as a primitive (`u32`) is taken for a plain value, a kernel parameter
/// written `DevicePtr<T>` for one the kernel only reads, one written `ConditionalHandle` for no
/// memory. An alias or import that gives such a name to another type
/// (`use cudagraph_runtime::DevicePtrMut as DevicePtr;`, `type u32 = DeviceBuffer<f32>;`) would
/// hide writes from the race rule: each name read so is asserted here, once per declaration.
/// A param type written as a memory type (`DeviceBuffer<T>`, ...) is taken for memory, which
/// adds checks, but is not asked whether it is a device graph's handle, whose launches the race
/// rule checks (`use cudagraph_runtime::SharedDeviceGraph as DeviceBuffer;` would hide them):
/// asserted not to be one.
fn spelling_assertions(g: &Gen) -> TokenStream {
    let model = g.model;
    let mut out = TokenStream::new();
    let mut launch_asserted = std::collections::BTreeSet::new();
    for i in (0..model.params.len()).filter(|&i| model.param_spelled(i) != Spelled::Plain) {
        let ty = model.value_type(i);
        if !matches!(spelled(ty), Spelled::Memory(_)) {
            continue;
        }
        let written = pretty(ty.to_token_stream());
        if !launch_asserted.insert(written.clone()) {
            continue;
        }
        let s = match ty {
            syn::Type::Path(path) => path.path.segments.last().map(|last| last.ident.span()),
            _ => None,
        }
        .unwrap_or_else(|| ty.span());
        let p = private_at(s);
        let launch = format!(
            "`{written}` here is a device graph's handle, not memory: `cuda_graph!` takes a type \
             written `{written}` for memory, and would not check what a kernel given it may \
             launch; give the import or alias another name"
        );
        // A conditional handle so named would escape the rule that handles are the conditional
        // nodes' own (a param written `ConditionalHandle` is refused, `check::conditionals`).
        let handle = format!(
            "`{written}` here is a `ConditionalHandle`, not memory: `cuda_graph!` takes a type \
             written `{written}` for memory, and a handle is made by the conditional node that \
             reads it (`name: while h {{ ... }}`), never a param; remove the param, and give the \
             import or alias another name"
        );
        out.extend(assertion(
            &p,
            s,
            quote!(({
                use #p::LaunchFallback as _;
                <#p::LaunchProbe<#ty>>::IS_LAUNCH || <#p::ParamProbe<#ty>>::IS_HANDLE
            })),
            quote!(({
                use #p::LaunchFallback as _;
                if <#p::LaunchProbe<#ty>>::IS_LAUNCH { #launch } else { #handle }
            })),
        ));
    }
    let mut types: Vec<&syn::Type> = (0..model.params.len())
        .filter(|&i| model.param_spelled(i) == Spelled::Plain)
        .map(|i| model.value_type(i))
        .collect();
    types.extend(
        model
            .params
            .iter()
            .filter_map(|param| kernel_params(&param.ty))
            .flatten(),
    );
    let mut asserted = std::collections::BTreeSet::new();
    for ty in types {
        let written = pretty(ty.to_token_stream());
        // At the name read (the last segment of a path).
        let s = match ty {
            syn::Type::Path(path) => path.path.segments.last().map(|last| last.ident.span()),
            _ => None,
        }
        .unwrap_or_else(|| ty.span());
        let p = private_at(s);
        let plain = match ty {
            syn::Type::Path(path) if spelled(ty) == Spelled::Plain => path.path.get_ident(),
            _ => None,
        };
        let (condition, message) = if let Some(primitive) = plain {
            let mut primitive = primitive.clone();
            primitive.set_span(s);
            (
                quote!(({
                    use #p::SameFallback as _;
                    !<#p::SameProbe<#ty, ::core::primitive::#primitive>>::SAME
                })),
                format!(
                    "`{written}` here is not the primitive `{written}`: `cuda_graph!` takes a \
                     type written `{written}` for that primitive, a plain value that holds no \
                     memory, and an alias or import that gives the name to another type would \
                     hide the memory it holds from the data-race rule; give that type another \
                     name"
                ),
            )
        } else {
            match spelled_slot(ty) {
                Some(Some(false)) => (
                    quote!(<#p::SlotProbe<#ty>>::ACCESS == #p::WRITE),
                    format!(
                        "kernel parameter type `{written}` is written as a `DevicePtr`, which \
                         the kernel only reads, but names a pointer it writes through (a \
                         `DevicePtrMut`): `cuda_graph!` finds data races by what each kernel \
                         parameter is called; write it `DevicePtrMut<T>`, or give the alias or \
                         import another name"
                    ),
                ),
                Some(None) => (
                    quote!(<#p::SlotProbe<#ty>>::ACCESS != #p::VALUE),
                    format!(
                        "kernel parameter type `{written}` is written as a \
                         `ConditionalHandle`, which holds no memory, but names a pointer: \
                         `cuda_graph!` finds data races by what each kernel parameter is \
                         called; write it `DevicePtr<T>` or `DevicePtrMut<T>`, or give the \
                         alias or import another name"
                    ),
                ),
                _ => continue,
            }
        };
        if asserted.insert(written) {
            out.extend(assertion(&p, s, condition, quote!(#message)));
        }
    }
    // The `usize` an index the macro computes casts to: the generated code computes the index
    // again, and a cast to an alias of that name (`type usize = u8;`) would truncate the value
    // where the macro does not, picking another element than the one the rules judged.
    let mut casts = std::collections::BTreeSet::new();
    for ty in model.index_casts() {
        let written = pretty(ty.to_token_stream());
        if !casts.insert(written.clone()) {
            continue;
        }
        let s = match &ty {
            syn::Type::Path(path) => path.path.segments.last().map(|last| last.ident.span()),
            _ => None,
        }
        .unwrap_or_else(|| ty.span());
        let p = private_at(s);
        let message = format!(
            "`{written}` here is not the primitive `usize`: `cuda_graph!` computes an index cast \
             to `{written}` as a `usize` to know which element a node uses, and a cast to \
             another type would pick another; give that type another name, or write \
             `::core::primitive::usize`"
        );
        out.extend(assertion(
            &p,
            s,
            quote!(({
                use #p::SameFallback as _;
                !<#p::SameProbe<#ty, ::core::primitive::usize>>::SAME
            })),
            quote!(#message),
        ));
    }
    out
}

/// `const _: () = if condition { panic!("{}", message) };`, the panic at `span`.
pub(super) fn assertion(
    p: &TokenStream,
    span: Span,
    condition: TokenStream,
    message: TokenStream,
) -> TokenStream {
    let s = at(span);
    let fallbacks = fallbacks(p);
    let panic = quote_spanned!(s=> #p::fail(#message));
    quote! {
        const _: () = {
            #fallbacks
            if #condition {
                #panic
            }
        };
    }
}

/// A race whose accesses or memory the types decide.
fn race_assertion(g: &Gen, race: &Race) -> TokenStream {
    let p = private_at(race.use_b.span);
    let (a, b) = (g.access_expr(&race.use_a), g.access_expr(&race.use_b));
    let mem = match race.buffer {
        Buffer::Param(i, _) => g.memory_expr(i, race.use_a.mem),
        Buffer::Alloc(_) => quote!(true),
    };
    let note = used_here(g.model, race);
    let messages = [(true, false), (false, true), (true, true)]
        .map(|(wa, wb)| format!("{} ({note})", race_message(g.model, race, wa, wb)));
    let [wr, rw, ww] = messages;
    let s = at(race.use_b.span);
    let fallbacks = fallbacks(&p);
    let panic = quote_spanned!(s=> #p::fail(#p::race_message(A, B, [#wr, #rw, #ww])));
    quote! {
        const _: () = {
            #fallbacks
            const A: ::core::primitive::u8 = #a;
            const B: ::core::primitive::u8 = #b;
            if #mem && #p::races(A, B) {
                #panic
            }
        };
    }
}

/// CUDA's body rule through child graphs: the declaration's `BodyRules` (what it holds that a
/// body may not, for the declarations that embed it), and an assertion per child node in one
/// of its own bodies.
fn body_assertions(g: &Gen) -> TokenStream {
    let mut out = TokenStream::new();
    let model = g.model;
    for (index, node) in model.nodes.iter().enumerate() {
        let (NodeOp::Child(c), Some((cond, _))) = (&node.op, model.scopes[index]) else {
            continue;
        };
        let Some(ty) = g.param_type(&c.graph) else {
            continue;
        };
        let p = private_at(c.graph.span());
        let prefix = format!(
            "node `{}` in the body of conditional node `{}` embeds a `{}` (param `{}`), which ",
            node.decl.name,
            model.nodes[cond].name,
            pretty(ty.to_token_stream()),
            pretty(c.graph.to_token_stream()),
        );
        let suffix = ": CUDA allows only kernel, empty, child, memset, memcpy and conditional \
                      nodes in a conditional body, in the graphs it embeds too (https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#conditional-node-body-graph-requirements), \
                      and no NCCL collective runs there (whether a body runs is decided on each \
                      device, so one rank could skip a collective its peers wait in); embed the \
                      graph before or after the conditional node";
        let s = at(c.graph.span());
        let fallbacks = fallbacks(&p);
        let panic = quote_spanned!(s=> #p::fail(message.as_str()));
        out.extend(quote! {
            const _: () = {
                #fallbacks
                if let #p::Option::Some(why) = <#p::BodyProbe<#ty>>::FORBIDDEN_IN_BODY {
                    let message = #p::ConstMessage::join(&[#prefix, why, #suffix]);
                    #panic
                }
            };
        });
    }
    out
}

/// `impl BodyRules` for an embeddable declaration: the first node CUDA forbids in a body (or
/// collective node, which no body may run) that it holds, or that a graph it embeds holds.
pub fn body_rules(g: &Gen) -> TokenStream {
    let (p, graph, pass) = (&g.p, g.graph, &g.pass);
    let mut found = Vec::new();
    for node in g.decl_nodes() {
        let node = node.decl;
        // (Alloc and free nodes are refused too, but make a graph that no child node embeds.)
        let kind = match &node.op {
            NodeOp::Child(c) => {
                let Some(ty) = g.param_type(&c.graph) else {
                    continue;
                };
                let prefix = format!(
                    "embeds a `{}` in child node `{}`, which ",
                    pretty(ty.to_token_stream()),
                    name_of(&node.name)
                );
                found.push(quote! {{
                    const INNER: #p::Option<&'static ::core::primitive::str> = <#p::BodyProbe<#ty>>::FORBIDDEN_IN_BODY;
                    const JOINED: &#p::ConstMessage = &#p::ConstMessage::join(&[
                        #prefix,
                        match INNER { #p::Option::Some(inner) => inner, #p::Option::None => "" },
                    ]);
                    if INNER.is_some() { #p::Option::Some(JOINED.as_str()) } else { #p::Option::None }
                }});
                continue;
            }
            // Refused in a body by a rule of its own (NCCL's, not CUDA's list of body kinds:
            // `check::conditionals`), in the graphs a body embeds too: a collective is a child
            // graph to CUDA, and the runtime would refuse the embedding child node only when
            // the graph is built.
            NodeOp::Collective(_) => "collective",
            op => match op.kind().refused_in_body {
                Some(kind) => kind,
                None => continue,
            },
        };
        let text = format!("holds {kind} node `{}`", name_of(&node.name));
        found.push(quote!(#p::Option::Some(#text)));
    }
    let fallbacks = fallbacks(p);
    quote! {
        #(#pass)*
        impl #p::BodyRules for #graph {
            const FORBIDDEN_IN_BODY: #p::Option<&'static ::core::primitive::str> = {
                #fallbacks
                #p::first_forbidden(&[#(#found),*])
            };
        }
    }
}

/// The overlaps to check, grouped by what makes their code: the two declarations, the two
/// params (and whether each use names an element), the accesses. Instances of repeated nodes
/// make one group, checked by one piece of code over a table of the instances, not one per pair.
fn overlap_groups<'a>(g: &Gen, analysis: &'a Analysis) -> Vec<Vec<&'a Overlap>> {
    type Key<'k> = (
        *const crate::parse::NodeDecl,
        *const crate::parse::NodeDecl,
        (usize, bool),
        (usize, bool),
        &'k [Access],
        &'k [Access],
    );
    let key = |o: &'a Overlap| -> Key<'a> {
        let element = |b: Buffer| match b {
            Buffer::Param(p, k) => (p, k.is_some()),
            Buffer::Alloc(_) => (usize::MAX, false),
        };
        (
            g.model.nodes[o.a].decl,
            g.model.nodes[o.b].decl,
            element(o.buffer_a),
            element(o.buffer_b),
            &o.use_a.accesses,
            &o.use_b.accesses,
        )
    };
    let mut order: Vec<Key> = Vec::new();
    let mut groups: std::collections::BTreeMap<Key, Vec<&Overlap>> = Default::default();
    for o in &analysis.overlaps {
        let k = key(o);
        if !groups.contains_key(&k) {
            order.push(k);
        }
        groups.entry(k).or_default().push(o);
    }
    order
        .into_iter()
        .filter_map(|k| groups.remove(&k))
        .collect()
}

/// The check of one overlap between two nodes declared outside loops.
fn one_overlap(g: &Gen, o: &Overlap, (aa, ab): (&TokenStream, &TokenStream)) -> TokenStream {
    let p = &g.p;
    let (na, nb) = (&g.model.nodes[o.a].name, &g.model.nodes[o.b].name);
    let (sa, sb) = (
        g.model.buffer_name(o.buffer_a),
        g.model.buffer_name(o.buffer_b),
    );
    // Each memory either may be (every element, where the macro cannot tell which).
    let (ba, bb) = (g.buffer_bytes(o.buffer_a), g.buffer_bytes(o.buffer_b));
    let overlap = match (ba.as_slice(), bb.as_slice()) {
        ([ba], [bb]) => quote!(#p::overlap_bytes(#ba, #bb)),
        _ => quote! {
            [#(#ba),*].iter().any(|a| [#(#bb),*].iter().any(|b| #p::overlap_bytes(*a, *b)))
        },
    };
    quote! {
        if #p::races(#aa, #ab) && #overlap {
            return #p::Result::Err(#p::overlap_error(#na, #sa, #nb, #sb));
        }
    }
}

/// The check of an [`OverlapSweep`]: each side's memories, sorted with the other's, the first two
/// of different nodes that overlap refused, naming their nodes (the one added first first, as a
/// table's pair).
fn overlap_sweep(g: &Gen, sweep: &OverlapSweep) -> TokenStream {
    let p = &g.p;
    let k = crate::expand::local("k");
    let (first, second) = (
        &sweep.sides[0],
        sweep.sides.last().unwrap_or(&sweep.sides[0]),
    );
    let (aa, ab) = (g.access_expr(&first.use_), g.access_expr(&second.use_));
    // Per side: its uses (node, position, element) and memories, and a use's name.
    let side = |side: &SweepSide, (table, memories, at): (&Ident, &Ident, &Ident)| {
        let entries = side.entries.iter().map(|&(node, e)| {
            let position = g.position[node];
            quote!((#node, #position, #e))
        });
        let (bytes, name) = if side.element {
            let format = format!("{}[{{}}]", name_of(&g.model.params[side.param].name));
            (
                g.bytes_expr(side.param, Some(quote!(#k))),
                quote!(&::std::format!(#format, #table[#at].2)),
            )
        } else {
            let name = g.model.buffer_name(Buffer::Param(side.param, None));
            (g.bytes_expr(side.param, None), quote!(#name))
        };
        let code = quote! {
            const #table: &[(::core::primitive::usize, ::core::primitive::usize, ::core::primitive::usize)] = &[#(#entries),*];
            let #memories: #p::Vec<_> = #table.iter().map(|&(node, _, #k)| (node, #bytes)).collect();
        };
        (code, name)
    };
    let (t0, m0, t1, m1) = (
        crate::expand::local("FIRST"),
        crate::expand::local("first"),
        crate::expand::local("SECOND"),
        crate::expand::local("second"),
    );
    let (i, j) = (
        Ident::new("i", Span::call_site()),
        Ident::new("j", Span::call_site()),
    );
    let (code0, name0) = side(first, (&t0, &m0, &i));
    // One side: its uses against each other.
    let (t1, m1) = if sweep.sides.len() == 2 {
        (t1, m1)
    } else {
        (t0.clone(), m0.clone())
    };
    let (code1, name1) = side(second, (&t1, &m1, &j));
    let code1 = if sweep.sides.len() == 2 {
        code1
    } else {
        TokenStream::new()
    };
    quote! {
        if #p::races(#aa, #ab) {
            #code0
            #code1
            if let #p::Option::Some((i, j)) = #p::first_overlap_between(&#m0, &#m1) {
                let (first, second) = (#t0[i], #t1[j]);
                let (a, b) = (#name0, #name1);
                return #p::Result::Err(if first.0 < second.0 {
                    #p::overlap_error(Self::TOPOLOGY.nodes[first.1].0, a, Self::TOPOLOGY.nodes[second.1].0, b)
                } else {
                    #p::overlap_error(Self::TOPOLOGY.nodes[second.1].0, b, Self::TOPOLOGY.nodes[first.1].0, a)
                });
            }
        }
    }
}

/// The check of a group by a table of its pairs: each pair's two nodes (positions) and the
/// elements their uses name (0 for a use of a whole param).
fn overlap_table(
    g: &Gen,
    group: &[&Overlap],
    (aa, ab): (&TokenStream, &TokenStream),
) -> TokenStream {
    let p = &g.p;
    let o = group[0];
    // One side's memory (a slice of the one or more memories it may be) and name, by element.
    let side = |buffer: Buffer, k: &proc_macro2::Ident| match buffer {
        Buffer::Param(i, Some(_)) => {
            let bytes = g.bytes_expr(i, Some(quote!(#k)));
            let format = format!("{}[{{}}]", name_of(&g.model.params[i].name));
            (quote!([#bytes]), quote!(&::std::format!(#format, #k)))
        }
        whole => {
            let bytes = g.buffer_bytes(whole);
            let name = g.model.buffer_name(whole);
            (quote!([#(#bytes),*]), quote!(#name))
        }
    };
    let (ka, kb) = (crate::expand::local("ka"), crate::expand::local("kb"));
    let ((bytes_a, name_a), (bytes_b, name_b)) = (side(o.buffer_a, &ka), side(o.buffer_b, &kb));
    let element = |b: Buffer| match b {
        Buffer::Param(_, Some(k)) => k,
        _ => 0,
    };
    let pairs = group.iter().map(|o| {
        let (na, ea, nb, eb) = (
            g.position[o.a],
            element(o.buffer_a),
            g.position[o.b],
            element(o.buffer_b),
        );
        quote!((#na, #ea, #nb, #eb))
    });
    quote! {
        if #p::races(#aa, #ab) {
            const PAIRS: &[(::core::primitive::usize, ::core::primitive::usize, ::core::primitive::usize, ::core::primitive::usize)] = &[#(#pairs),*];
            for &(a, #ka, b, #kb) in PAIRS {
                let (x, y) = (#bytes_a, #bytes_b);
                if x.iter().any(|x| y.iter().any(|y| #p::overlap_bytes(*x, *y))) {
                    return #p::Result::Err(#p::overlap_error(
                        Self::TOPOLOGY.nodes[a].0,
                        #name_a,
                        Self::TOPOLOGY.nodes[b].0,
                        #name_b,
                    ));
                }
            }
        }
    }
}

/// `__cg_check_overlaps(params)`: what `build` and `set_params` check of memory that only the
/// values show. Two nodes no edge orders that use two *different* params, one writing, may not
/// get params that share memory; a child node's graph may not use memory that a node no edge
/// orders with it uses, one of them writing.
pub fn overlap_check(g: &Gen, analysis: &Analysis) -> TokenStream {
    let p = &g.p;
    let params = params_at(Span::call_site());
    let node = |i: usize| g.model.nodes[i].name.clone();
    let overlaps = overlap_groups(g, analysis).into_iter().map(|group| {
        let o = group[0];
        let (aa, ab) = (g.access_expr(&o.use_a), g.access_expr(&o.use_b));
        if let [o] = group.as_slice() {
            if g.model.nodes[o.a].rep.is_none() && g.model.nodes[o.b].rep.is_none() {
                return one_overlap(g, o, (&aa, &ab));
            }
        }
        overlap_table(g, &group, (&aa, &ab))
    });
    let sweeps = analysis.sweeps.iter().map(|sweep| overlap_sweep(g, sweep));
    let child_graph = |i: usize| child_graph(g, i);
    let children = analysis.children.iter().filter_map(|pair| {
        let child = child_graph(pair.child)?;
        let exempt = pair
            .exempt
            .iter()
            .flat_map(|&i| g.buffer_bytes(Buffer::Param(i, None)));
        let names = (node(pair.child), node(pair.other));
        let (nc, no) = names;
        if g.model.opaque(&g.model.nodes[pair.other]) == Some(Opaque::Child) {
            let other = child_graph(pair.other)?;
            return Some(quote! {
                #p::check_children((#child, #other), &[#(#exempt),*], (#nc, #no))?;
            });
        }
        let uses = pair.uses.iter().flat_map(|(buffer, u)| {
            let access = g.access_expr(u);
            g.buffer_bytes(*buffer)
                .into_iter()
                .map(move |bytes| quote!(#p::declared_use(#access, #bytes)))
        });
        Some(quote! {
            #p::check_child_uses(#child, &[#(#uses),*], &[#(#exempt),*], (#nc, #no))?;
        })
    });
    let launches = launch_checks(g, analysis);
    let params_ty = &g.params_ty;
    let fallbacks = fallbacks(p);
    quote! {
        /// Refuses params under which two nodes that may run at the same time share memory, one
        /// writing it.
        #[allow(unused_variables)]
        #[inline]
        fn __cg_check_overlaps(#params: &#params_ty) -> #p::Result<()> {
            #fallbacks
            #(#sweeps)*
            #(#overlaps)*
            #(#children)*
            #launches
            #p::Result::Ok(())
        }
    }
}

/// `ChildGraph::graph` of the param that child node `i` embeds (the element this instance
/// embeds, for an array param).
fn child_graph(g: &Gen, i: usize) -> Option<TokenStream> {
    let inst = &g.model.nodes[i];
    let NodeOp::Child(c) = &inst.op else {
        return None;
    };
    let (ident, index) = crate::model::operand_name(&c.graph)?;
    let (s, ps, params) = (
        at(c.graph.span()),
        private_at(c.graph.span()),
        params_at(c.graph.span()),
    );
    // An element of an array param: the one this instance embeds.
    let element = match index {
        Some(index) => {
            let k = g.model.element(g.model.param(ident)?, index, inst.rep)?;
            quote_spanned!(s=> [#k])
        }
        None => TokenStream::new(),
    };
    Some(quote_spanned!(s=> #ps::ChildGraph::graph(&#params.#ident #element)))
}

/// The checks of what the device graphs a kernel may launch use (see
/// `model::hazards::Launcher`): per launching node, what its handle params launch
/// (`LaunchProbe`, nothing for a param of another type); per node they may run beside, its
/// memory against theirs.
fn launch_checks(g: &Gen, analysis: &Analysis) -> TokenStream {
    if analysis.launchers.is_empty() {
        return TokenStream::new();
    }
    let p = &g.p;
    let params = params_at(Span::call_site());
    let var = |i: usize| crate::expand::local(&format!("launched_{i}"));
    let node = |i: usize| g.model.nodes[i].name.clone();
    let launched = analysis.launchers.iter().enumerate().map(|(i, l)| {
        let v = var(i);
        let adds = l.handles.iter().flat_map(|&buffer| {
            let Buffer::Param(index, element) = buffer else {
                return Vec::new();
            };
            let (name, ty) = (&g.model.params[index].name, g.model.value_type(index));
            let elements: Vec<TokenStream> = match (element, g.model.arrays[index]) {
                (Some(k), _) => vec![quote!([#k])],
                (None, Some((_, len))) => (0..len).map(|k| quote!([#k])).collect(),
                (None, None) => vec![TokenStream::new()],
            };
            elements
                .into_iter()
                .map(|k| quote!(<#p::LaunchProbe<#ty>>::add(&#params.#name #k, &mut #v);))
                .collect()
        });
        let adds: Vec<TokenStream> = adds.collect();
        // A child node: what the kernels of its graph may launch.
        let child = child_graph(g, l.node).map(|child| quote!(#v.add_child(#child);));
        // Several graphs one kernel may launch at the same time: compared with each other.
        let among = (adds.len() > 1).then(|| {
            let exempt = l
                .exempt
                .iter()
                .flat_map(|&i| g.buffer_bytes(Buffer::Param(i, None)));
            let name = node(l.node);
            quote!(#p::check_launched_among(&#v, &[#(#exempt),*], #name)?;)
        });
        quote! {
            let mut #v = #p::Launched::new();
            #(#adds)*
            #child
            #among
        }
    });
    let pairs = analysis.launch_pairs.iter().map(|pair| {
        let launcher = &analysis.launchers[pair.launcher];
        let v = var(pair.launcher);
        let names = (node(launcher.node), node(pair.other));
        let (nl, no) = names;
        let exempt: Vec<TokenStream> = pair
            .exempt
            .iter()
            .flat_map(|&i| g.buffer_bytes(Buffer::Param(i, None)))
            .collect();
        let mut out = TokenStream::new();
        if !pair.uses.is_empty() {
            let uses = pair.uses.iter().flat_map(|(buffer, u)| {
                let access = g.access_expr(u);
                g.buffer_bytes(*buffer)
                    .into_iter()
                    .map(move |bytes| quote!(#p::declared_use(#access, #bytes)))
            });
            out.extend(quote! {
                #p::check_launched_uses(&#v, &[#(#uses),*], &[#(#exempt),*], (#nl, #no))?;
            });
        }
        match g.model.opaque(&g.model.nodes[pair.other]) {
            Some(Opaque::Child) => {
                if let Some(child) = child_graph(g, pair.other) {
                    out.extend(quote! {
                        #p::check_launched_child(&#v, #child, &[#(#exempt),*], (#nl, #no))?;
                    });
                }
            }
            Some(Opaque::Capture) => out.extend(quote! {
                #p::check_launched_capture(&#v, &[#(#exempt),*], (#nl, #no))?;
            }),
            None => {}
        }
        if let Some(other) = pair.other_launches {
            let w = var(other);
            out.extend(quote! {
                #p::check_launched_pair(&#v, &#w, &[#(#exempt),*], (#nl, #no))?;
            });
        }
        out
    });
    quote! {
        {
            #[allow(unused_imports)]
            use #p::LaunchFallback as _;
            #(#launched)*
            #(#pairs)*
        }
    }
}
