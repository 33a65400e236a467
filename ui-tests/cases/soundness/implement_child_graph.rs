//! `set_params` and the memory check trust what a child graph type says of itself (the same
//! identity is the same graph on the same memory): implementing `ChildGraph` is `unsafe`.
use cudagraph_runtime::__private::ChildGraph;
use cudagraph_runtime::{Graph, Result};

struct Liar(Graph<'static>);

impl ChildGraph for Liar {
    fn graph(&self) -> &Graph<'static> {
        &self.0
    }
    fn identity(&self) -> Option<u64> {
        Some(1)
    }
    fn duplicate(&self) -> Result<Self> {
        self.0.try_clone().map(Liar)
    }
}

fn main() {}
