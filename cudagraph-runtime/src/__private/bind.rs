//! Binding params as locals, change detection for `set_params`, and the call that adds one
//! declared node.

use crate::{Graph, Result};

// ---------------------------------------------------------------------------------------------
// Binding params as locals: by value when `Copy`, by reference otherwise.
//
// Node arguments are Rust expressions over the params (`(n + 255) / 256`, `x`, `n as usize`).
// Scalars and pointers must be plain values there, while kernels and graphs cannot be copied.
// `(&Bind(&field)).__cg_bind()` resolves, for a concrete field type, to `BindCopy` when the type
// is `Copy` (a by-value method on `Bind`) and to `BindRef` otherwise (found one auto-ref later).

/// A param field on its way to becoming a local of a node expression.
#[derive(Debug)]
pub struct Bind<'a, T: ?Sized>(pub &'a T);

/// Binds a `Copy` param by value.
pub trait BindCopy<T> {
    /// The param's value.
    fn __cg_bind(&self) -> T;
}

impl<T: Copy> BindCopy<T> for Bind<'_, T> {
    #[inline(always)]
    fn __cg_bind(&self) -> T {
        *self.0
    }
}

/// Binds any other param by reference.
pub trait BindRef<'a, T: ?Sized> {
    /// A reference to the param.
    fn __cg_bind(&self) -> &'a T;
}

impl<'a, T: ?Sized> BindRef<'a, T> for &Bind<'a, T> {
    #[inline(always)]
    fn __cg_bind(&self) -> &'a T {
        self.0
    }
}

// ---------------------------------------------------------------------------------------------
// Change detection for `set_params`.
//
// The generated executable keeps, per param, what it needs to tell whether the param changed:
// a kernel param by its function, a child-graph param by the identity of the graph, any other
// param by a clone of its value. The kept types are named without projections, so a param type
// that does not qualify is reported once per use, at the param's type, and nowhere else.

/// A param type `set_params` compares by value: `Clone + PartialEq`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a graph param: `set_params` cannot compare it with its last value",
    label = "a param type must be `Clone + PartialEq` (or be launched as a kernel, or embedded as a child graph)",
    note = "`set_params` keeps a clone of every param and compares it with the next value to find the \
            nodes to update; for a host closure use `HostCallback` (compared by identity) or a `fn()`"
)]
pub trait ParamValue: Sized {
    /// A copy to compare with later.
    fn keep(&self) -> Self;
    /// Whether `self` equals the kept `last`.
    fn same(&self, last: &Self) -> bool;
}

#[diagnostic::do_not_recommend]
impl<T: Clone + PartialEq> ParamValue for T {
    #[inline]
    fn keep(&self) -> T {
        self.clone()
    }
    #[inline]
    fn same(&self, last: &T) -> bool {
        self == last
    }
}

/// Whether a child-graph param is the graph it was, by [`ChildGraph::identity`](super::ChildGraph::identity): a graph
/// without identity (a runtime [`Graph`]) counts as changed every time.
#[inline]
pub fn same_graph(now: Option<u64>, last: Option<u64>) -> bool {
    matches!((now, last), (Some(a), Some(b)) if a == b)
}

/// A fresh identity for a graph built from a declaration.
pub fn next_build_id() -> u64 {
    crate::id::fresh_id()
}

/// `n` zeros, on the heap.
pub fn zeros(n: usize) -> Box<[u32]> {
    vec![0; n].into_boxed_slice()
}

/// Adds one declared node to `graph` under `name`: `add` evaluates its expressions and makes the
/// driver call. Never inlined, and a function of its own for each node (each `add` closure is a
/// type of its own): the function that builds a declaration then grows by a call per node, not
/// by every node's code (inlined, a 1000-node declaration's was 420 KB of machine code).
#[inline(never)]
pub fn add_node<'a, H>(
    graph: &mut Graph<'a>,
    name: &'static str,
    add: impl FnOnce(&mut Graph<'a>) -> Result<H>,
) -> Result<H> {
    graph.name_next(name);
    add(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::needless_borrow)] // written as the generated code writes it
    fn params_bind_by_value_or_reference() {
        let n = 3u32;
        let v = vec![1u8];
        let by_value: u32 = (&Bind(&n)).__cg_bind();
        let by_ref: &Vec<u8> = (&Bind(&v)).__cg_bind();
        assert_eq!((by_value, by_ref.len()), (3, 1));
    }
}
