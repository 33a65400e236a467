// Rationale (T9): a `#[device_launch]` declaration's executables are launched by kernels, and
// CUDA allows only kernel, memcpy, memset, empty and child-graph nodes in a graph launched from
// the device, with memcpy only between device memory and device-mapped page-locked host memory
// (the programming guide's "Device Graph Requirements"). The kinds are known here, from the
// table of kinds; a memcpy's operands are checked by the types their params are written with
// (`DeviceBuffer<T>` is device memory, `HostBuffer<T>` page-locked memory that unified
// addressing maps for the device; anything else cannot be told apart here and is refused, naming
// the spelling to use). What a child or captured graph holds is known only when it is built: the
// runtime checks that when it instantiates (`instantiate_for_device_launch`). `#[indirect]`
// params are refused too: their values are published by host launches.

use syn::{Expr, Ident};

use super::Ctxt;
use crate::model::{last_segment, operand_name, Model};
use crate::parse::NodeOp;

const RULES: &str =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements";

pub fn check(model: &Model, cx: &mut Ctxt) {
    if model.device_launch().is_none() {
        return;
    }
    let graph = &model.decl.name;
    for (index, param) in model.params.iter().enumerate() {
        if model.is_indirect(index) {
            cx.error(
                param.name.span(),
                format!(
                    "`#[indirect]` param `{}` in `#[device_launch]` graph `{graph}`: indirect values \
                     are published by the host's launch calls, and a launch from the device makes \
                     none; make `{}` a plain param",
                    param.name, param.name
                ),
            );
        }
    }
    // (A node of a `for` loop is judged once, at its first instance: its kind and operands are
    // its declaration's.)
    for (i, node) in model.nodes.iter().enumerate() {
        if !model.first_of_decl(i) {
            continue;
        }
        if let Some(kind) = node.op.kind().refused_in_device_graph_node() {
            cx.error(
                node.op.keyword_span(),
                format!(
                    "`{}` is {kind} in `#[device_launch]` graph `{graph}`: CUDA allows only kernel, \
                     memcpy, memset, empty and child-graph nodes in a graph launched from the device \
                     ({RULES}); move `{}` to a graph the host launches",
                    node.decl.name, node.decl.name
                ),
            );
        }
        if let NodeOp::Memcpy(m) = &node.op {
            for end in [&m.src, &m.dst] {
                memcpy_operand(model, cx, &node.decl.name, end);
            }
        }
    }
}

/// A memcpy operand of a device graph: a param written as a `DeviceBuffer<T>` or a
/// `HostBuffer<T>`, or an element of an array of them (`w[layer]`: `[DeviceBuffer<T>; N]`).
/// (Allocations are refused with their alloc nodes; other expressions by the operand rules.)
fn memcpy_operand(model: &Model, cx: &mut Ctxt, node: &Ident, end: &Expr) {
    let Some((ident, _)) = operand_name(end) else {
        return;
    };
    let Some(index) = model.param(ident) else {
        return;
    };
    let ty = model.value_type(index);
    let spelled = last_segment(ty);
    if !matches!(spelled.as_deref(), Some("DeviceBuffer" | "HostBuffer")) {
        cx.error(
            ident.span(),
            format!(
                "memcpy `{node}` of a `#[device_launch]` graph copies `{ident}`, whose type the \
                 macro cannot tell to be device memory or device-mapped page-locked host memory, \
                 the only memory CUDA lets a device graph copy ({RULES}): give `{ident}` the type \
                 `DeviceBuffer<T>` or `HostBuffer<T>`, written out"
            ),
        );
    }
}
