//! Device-updatable kernel nodes (`#[device_updatable]`) and the kernel arguments that reach
//! them: `device_node(x)`, the node's device handle, and `param_offset(x, i)`, the byte offset
//! of its kernel's value parameter `i` (see `check::device_update` for the rules).

use syn::{Attribute, Expr, ExprCall, Ident};

use super::Model;
use crate::parse::NodeOp;

/// A kernel argument written in one of the reserved forms.
pub enum DeviceArg<'a> {
    /// `device_node(x)`: the device handle of node `x`.
    Node(&'a Ident),
    /// `param_offset(x, i)`: the offset of parameter `i` of node `x`'s kernel.
    Offset(&'a Ident, &'a Expr),
    /// `device_node(..)` or `param_offset(..)` not written as above.
    Malformed(&'a ExprCall, &'static str),
}

/// The name of a single-segment path expression (`x`).
fn ident_of(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident(),
        _ => None,
    }
}

/// Reads a kernel argument as a reserved form, if it is one (a call of `device_node` or
/// `param_offset`, not a path to some function of that name: `f::device_node(x)` is the user's).
pub fn device_arg(expr: &Expr) -> Option<DeviceArg<'_>> {
    let Expr::Call(call) = expr else { return None };
    let func = ident_of(&call.func)?;
    let args: Vec<&Expr> = call.args.iter().collect();
    if func == "device_node" {
        return Some(match args.as_slice() {
            [node] => match ident_of(node) {
                Some(node) => DeviceArg::Node(node),
                None => DeviceArg::Malformed(call, "device_node"),
            },
            _ => DeviceArg::Malformed(call, "device_node"),
        });
    }
    if func == "param_offset" {
        return Some(match args.as_slice() {
            [node, index] => match ident_of(node) {
                Some(node) => DeviceArg::Offset(node, index),
                None => DeviceArg::Malformed(call, "param_offset"),
            },
            _ => DeviceArg::Malformed(call, "param_offset"),
        });
    }
    None
}

impl<'a> Model<'a> {
    /// The `#[device_updatable]` attribute of node `index`.
    pub fn device_updatable_attr(&self, index: usize) -> Option<&'a Attribute> {
        self.nodes[index]
            .decl
            .attrs
            .iter()
            .find(|a| a.path().is_ident("device_updatable"))
    }

    /// Whether node `index` is a kernel node declared `#[device_updatable]`: kernels of the
    /// graph may change its value parameters, grid and enabled state from the device.
    pub fn is_device_updatable(&self, index: usize) -> bool {
        self.is_kernel(index) && self.device_updatable_attr(index).is_some()
    }

    /// The reserved arguments of node `index`'s kernel (none for another kind), in order.
    pub fn device_args(&self, index: usize) -> Vec<DeviceArg<'a>> {
        match &self.nodes[index].decl.op {
            NodeOp::Kernel(k) => k.args.iter().filter_map(device_arg).collect(),
            _ => Vec::new(),
        }
    }

    /// The node at the top of the graph that holds node `index`: itself, or the conditional
    /// node whose bodies hold it (through nested bodies).
    pub fn top_level(&self, mut index: usize) -> usize {
        while let Some((cond, _)) = self.scopes[index] {
            index = cond;
        }
        index
    }
}
