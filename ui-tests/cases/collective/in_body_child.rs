//! T10 through child graphs: no collective in a conditional body, in the graphs it embeds
//! either. `Reduce` holds an all-reduce, `Wrapped` embeds `Reduce`; a body embedding either is
//! refused where the declaration compiles (the runtime would refuse the child node only when the
//! graph is built).
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Reduce {
        params {
            comm: cudagraph_runtime::Communicator,
            grads: DeviceBuffer<f32>,
        }
        reduce: all_reduce(comm, grads, Sum);
    }

    graph Wrapped {
        params {
            inner: Reduce,
        }
        sub: child(inner);
    }

    graph Maybe {
        params {
            decide: Kernel<(ConditionalHandle,)>,
            reduce: Reduce,
            wrapped: Wrapped,
        }
        pick: kernel decide<<<1, 1>>>(go);
        gate: if go {
            direct: child(reduce);
            nested: child(wrapped);
        }
        pick -> gate;
    }
}

fn main() {}
