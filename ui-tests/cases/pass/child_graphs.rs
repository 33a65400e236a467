//! Child-graph nodes: a graph of another declaration, a runtime `Graph`, nesting two levels deep.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    pub graph Leaf {
        params {
            y: DevicePtrMut<u32>,
        }
        clear: memset(y, 0u32);
    }

    pub graph Middle {
        params {
            leaf: Leaf,
            raw: Graph<'static>,
        }
        first: child(leaf);
        second: child(raw);
        first -> second;
    }
}

cuda_graph! {
    pub graph Top {
        params {
            middle: Middle,
        }
        body: child(middle);
    }
}

fn main() {
    let _ = |exec: &mut MiddleExec, leaf: &Leaf, raw: &Graph<'static>, top: &mut TopExec, m: &Middle| {
        let _ = exec.first().set(leaf);
        let _ = exec.second().set(raw);
        let _ = top.body().set(m);
    };
}
