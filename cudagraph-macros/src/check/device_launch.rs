// Rationale (T9): a `#[device_launch]` declaration's executables are launched by kernels, and
// CUDA allows only kernel, memcpy, memset, empty and child-graph nodes in a graph launched from
// the device, with memcpy only between device memory and device-mapped page-locked host memory
// (the programming guide's "Device Graph Requirements"). The kinds are known here, from the
// table of kinds. A memcpy's operands are judged by their params' types, which only rustc knows
// (an alias of `DeviceBuffer<T>` is device memory, a `HostPtr` imported as `HostBuffer` is not):
// the generated code asks them (`expand::device_launch`). What a child or captured graph holds
// is known only when it is built: the runtime checks that when it instantiates
// (`instantiate_for_device_launch`). `#[indirect]` params are refused too: their values are
// published by host launches.

use super::Ctxt;
use crate::model::Model;

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
    }
}
