//! A conditional body belongs to its node: the closure that builds it gets it in place (an
//! unsized `Body`), and cannot move it out, swap it or replace it.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Result;

fn escape(graph: &mut Graph, h: ConditionalHandle, other: &mut Body) -> Result<()> {
    graph.add_conditional(h, Condition::IfElse, &[], |bodies| {
        std::mem::swap(&mut *bodies[0], &mut *bodies[1]);
        std::mem::swap(&mut *bodies[0], other);
        Ok(())
    })?;
    Ok(())
}

fn main() {
    let _ = escape;
}
