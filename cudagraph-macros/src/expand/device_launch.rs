//! CUDA's rule for the copies of a graph launched from the device (T9), which the types decide:
//! a memcpy of a `#[device_launch]` declaration copies only device memory and device-mapped
//! page-locked host memory ([device graph requirements]), so each param it copies must be a
//! `DeviceBuffer<T>` or a `HostBuffer<T>`. The macro sees names, not types (`type Staging =
//! DeviceBuffer<f32>` is a buffer, `use cudagraph_runtime::HostPtr as HostBuffer` is not): the
//! generated code asks `DeviceCopyProbe` of each such param's type, once per param, and fails at
//! the type as the user wrote it.
//!
//! [device graph requirements]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::spanned::Spanned;

use super::hazards::assertion;
use super::{private_at, Gen};
use crate::model::operand_name;
use crate::parse::NodeOp;
use crate::text::pretty;

const RULES: &str =
    "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#device-graph-requirements";

/// One constant assertion per param a memcpy of a `#[device_launch]` declaration copies.
pub fn memcpy_assertions(g: &Gen) -> TokenStream {
    let model = g.model;
    let mut out = TokenStream::new();
    if model.device_launch().is_none() {
        return out;
    }
    let graph = &model.decl.name;
    let mut asserted = std::collections::BTreeSet::new();
    // (A node of a `for` loop copies the same params, or elements of the same array params, in
    // every iteration: its first instance stands for all.)
    for (i, node) in model.nodes.iter().enumerate() {
        let NodeOp::Memcpy(m) = &node.op else {
            continue;
        };
        if !model.first_of_decl(i) {
            continue;
        }
        for end in [&m.src, &m.dst] {
            let Some(index) = operand_name(end).and_then(|(ident, _)| model.param(ident)) else {
                continue;
            };
            if !asserted.insert(index) {
                continue;
            }
            let (param, ty) = (&model.params[index].name, model.value_type(index));
            // At the name the type is written with (its last segment), as the user wrote it.
            let s = match ty {
                syn::Type::Path(path) => path.path.segments.last().map(|last| last.ident.span()),
                _ => None,
            }
            .unwrap_or_else(|| ty.span());
            let p = private_at(s);
            let written = pretty(ty.to_token_stream());
            let what = if model.arrays[index].is_some() {
                format!("the elements of param `{param}`")
            } else {
                format!("param `{param}`")
            };
            let message = format!(
                "memcpy `{}` of `#[device_launch]` graph `{graph}` copies {what}, a `{written}`, \
                 which is not the runtime's `DeviceBuffer<T>` or `HostBuffer<T>` (whatever name \
                 it is written with): CUDA lets a graph launched \
                 from the device copy only device memory and device-mapped page-locked host \
                 memory ({RULES}); give `{param}` one of those types (an alias of one is fine), \
                 or copy it in a graph the host launches",
                node.decl.name
            );
            out.extend(assertion(
                &p,
                s,
                quote!(({
                    use #p::DeviceCopyFallback as _;
                    !<#p::DeviceCopyProbe<#ty>>::DEVICE_COPY
                })),
                quote!(#message),
            ));
        }
    }
    out
}
