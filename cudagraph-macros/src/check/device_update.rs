// Rationale: a kernel of a graph may change another kernel node's value parameters, grid and
// enabled state from the device (CUDA 12.4+), through the node's device handle; CUDA gives a
// handle only for a node made device-updatable
// (`CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE`), and a graph with one may then not be
// instantiated twice, nor given to a whole-graph update, and must be uploaded again after
// host-side updates before it is launched ([the attribute's rules]). The runtime meets those
// rules for graphs instantiated for device launch (`Graph::instantiate_for_device_launch`, whose
// executable re-uploads after each update, and which is the only instantiation it allows for
// such a graph), so `#[device_updatable]` goes only in a `#[device_launch]` declaration, on a
// kernel node at the top of the graph (the runtime refuses one in a conditional body), not in a
// `for` loop (each instance would need its own handle, which no argument could name).
//
// `device_node(x)` and `param_offset(x, i)` are kernel arguments the macro reads: the handle
// exists once `x` is added, and nodes are added after their dependencies, so the kernel that
// takes it must come after `x` (a path of edges from `x` to it, which also keeps it from
// changing `x` while `x` runs). `param_offset`'s index is checked here when the kernel's
// parameter types are written out (a pointer or handle parameter is not device-settable: the
// memory a node uses stays what the host gave it), and by the type checker otherwise.
//
// [the attribute's rules]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html

use super::Ctxt;
use crate::model::{kernel_params, last_segment, name_of, DeviceArg, Model};
use crate::parse::NodeOp;

const RULES: &str =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-side-node-updates";

/// Parameter types that hold memory or a handle: never device-settable.
const NOT_SETTABLE: [&str; 5] = [
    "DevicePtr",
    "DevicePtrMut",
    "DeviceNode",
    "DeviceGraph",
    "ConditionalHandle",
];

pub fn check(model: &Model, cx: &mut Ctxt) {
    let graph = &model.decl.name;
    for index in 0..model.nodes.len() {
        let Some(attr) = model.device_updatable_attr(index) else {
            continue;
        };
        if !model.first_of_decl(index) {
            continue; // reported at the declaration's first instance
        }
        let node = &model.nodes[index];
        let name = name_of(&node.decl.name);
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            cx.error_spanned(attr, "`#[device_updatable]` takes no arguments");
        } else if !model.is_kernel(index) {
            cx.error_spanned(
                attr,
                format!(
                    "`#[device_updatable]` makes a kernel node's parameters, grid and enabled \
                     state changeable from the device, but `{name}` is not a kernel node (it is \
                     `{}`): only kernel nodes take it",
                    node.op.kind().name
                ),
            );
        } else if model.device_launch().is_none() {
            cx.error_spanned(
                attr,
                format!(
                    "`#[device_updatable]` node `{name}` in graph `{graph}`, which is not \
                     `#[device_launch]`: a graph with device-updatable nodes is instantiated \
                     only for device launch (`instantiate_for_device_launch`, whose executable \
                     is uploaded again after each host-side update, as CUDA requires of such a \
                     graph: {RULES}); declare `{graph}` `#[device_launch]`"
                ),
            );
        } else if node.rep.is_some() {
            cx.error_spanned(
                attr,
                format!(
                    "`#[device_updatable]` cannot be declared on `{name}`, a node of a `for` \
                     loop: each instance would have its own device handle, and \
                     `device_node({name})` could not say which; declare the kernel outside \
                     the loop"
                ),
            );
        } else if let Some((cond, _)) = model.scopes[index] {
            cx.error_spanned(
                attr,
                format!(
                    "`#[device_updatable]` node `{name}` is in a body of conditional node \
                     `{}`: CUDA makes kernel nodes device-updatable in the graph itself, not \
                     in a conditional body; move `{name}` out of the body",
                    model.nodes[cond].written
                ),
            );
        }
    }
    for index in 0..model.nodes.len() {
        for arg in model.device_args(index) {
            device_arg(model, cx, index, arg);
        }
    }
}

/// One reserved argument of node `index`'s kernel.
fn device_arg(model: &Model, cx: &mut Ctxt, index: usize, arg: DeviceArg) {
    let node = &model.nodes[index];
    let key = |what: &str| format!("device_update {} {what}", name_of(&node.decl.name));
    let (target, offset) = match arg {
        DeviceArg::Malformed(call, form) => {
            let usage = match form {
                "device_node" => {
                    "`device_node(x)`, with `x` the name of a `#[device_updatable]` \
                                  kernel node, gives the kernel `x`'s device handle"
                }
                _ => {
                    "`param_offset(x, i)`, with `x` the name of a `#[device_updatable]` kernel \
                      node and `i` an integer literal, gives the kernel the byte offset of \
                      parameter `i` of `x`'s kernel"
                }
            };
            let text = quote::ToTokens::to_token_stream(call).to_string();
            cx.error_spanned_once(key(&text), call, usage);
            return;
        }
        DeviceArg::Node(target) => (target, None),
        DeviceArg::Offset(target, i) => (target, Some(i)),
    };
    let form = if offset.is_some() {
        "param_offset"
    } else {
        "device_node"
    };
    let Some(t) = model.node(target) else {
        let message = if model.repeated(target).is_some() {
            format!(
                "`{form}({target}, ..)`: `{target}` is declared in a `for` loop, and a loop's \
                 nodes cannot be device-updatable; name a `#[device_updatable]` kernel node \
                 declared outside loops"
            )
        } else {
            format!(
                "`{form}`: no node named `{target}`; name a `#[device_updatable]` kernel node \
                 of graph `{}`",
                model.decl.name
            )
        };
        cx.error_once(key(&target.to_string()), target.span(), message);
        return;
    };
    if !model.is_device_updatable(t) {
        cx.error_once(
            key(&target.to_string()),
            target.span(),
            format!(
                "`{form}({target}{})`: `{target}` is not a device-updatable kernel node; \
                 declare it `#[device_updatable] {target}: kernel ...` (kernel nodes only) so \
                 that kernels of the graph may update it",
                if offset.is_some() { ", .." } else { "" }
            ),
        );
        return;
    }
    if let Some(i) = offset {
        param_index(model, cx, t, target, i);
    }
    if offset.is_some() {
        return; // an offset is a constant: it needs no order
    }
    let top = model.top_level(index);
    if t == index || !model.reachability().get(t, top) {
        let (b, n) = (&model.nodes[t].written, &node.written);
        let why = if t == index {
            format!(
                "a kernel cannot take its own node's handle: the handle exists once `{b}` is \
                 added, and `{b}` is added with its arguments"
            )
        } else {
            format!(
                "the handle exists once `{b}` is added, and nodes are added after their \
                 dependencies, so `{n}` must come after `{b}` (which also keeps it from \
                 changing `{b}` while `{b}` runs); add the edge `{b} -> {n}`"
            )
        };
        cx.error_once(
            key(&format!("order {b}")),
            target.span(),
            format!("`device_node({target})` in kernel node `{n}`: {why}"),
        );
    }
}

/// `param_offset(x, i)`'s index: an integer literal, and when `x`'s kernel spells out its
/// parameter types, one of a value parameter.
fn param_index(model: &Model, cx: &mut Ctxt, t: usize, target: &syn::Ident, i: &syn::Expr) {
    let literal = match i {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse::<usize>().ok(),
        _ => None,
    };
    let Some(n) = literal else {
        cx.error_spanned(
            i,
            format!(
                "`param_offset({target}, ..)` takes the parameter's index as an integer literal \
                 (`param_offset({target}, 0)` for the first)"
            ),
        );
        return;
    };
    let NodeOp::Kernel(k) = &model.nodes[t].decl.op else {
        return;
    };
    let Some(types) = model
        .param(&k.kernel)
        .and_then(|p| kernel_params(&model.params[p].ty))
    else {
        return; // rustc judges it: the generated code asserts the index (`expand::node`)
    };
    match types.get(n) {
        None => cx.error_spanned(
            i,
            format!(
                "`param_offset({target}, {n})`: the kernel of `{target}` has {} parameters \
                 (indices from 0)",
                types.len()
            ),
        ),
        Some(ty) if last_segment(ty).is_some_and(|s| NOT_SETTABLE.contains(&s.as_str())) => {
            cx.error_spanned(
                i,
                format!(
                    "`param_offset({target}, {n})`: parameter {n} of `{target}`'s kernel is a \
                     `{}`, memory or a handle, which a device-side update may not change (the \
                     memory a node uses stays what the host gave it; {RULES}); only value \
                     parameters have a device-settable offset",
                    quote::ToTokens::to_token_stream(ty)
                        .to_string()
                        .replace(' ', "")
                ),
            );
        }
        Some(_) => {}
    }
}
