//! Values moved into a graph are released on another thread (after the last launch that may use
//! them): they must be `Send`.
use std::rc::Rc;

use cudagraph_runtime::prelude::*;

fn keep(graph: &mut Graph, shared: Rc<Vec<f32>>) {
    let _ = graph.retain(shared.clone());
    let _ = graph.add_host(move || println!("{}", shared.len()), &[]);
}

fn main() {
    let _ = keep;
}
