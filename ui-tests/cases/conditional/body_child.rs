//! T10 through child graphs: CUDA's body rule holds in the graphs a body embeds too, at any
//! depth. `Logged` holds a host node; `Wrapped` embeds `Logged`; a body that embeds either is
//! refused (the driver would refuse the graph only when it is instantiated).
use cudagraph_runtime::{cuda_graph, prelude::*, ConditionalHandle, HostCallback};

cuda_graph! {
    graph Logged {
        params {
            report: HostCallback,
        }
        log: host(report);
    }

    graph Wrapped {
        params {
            logged: Logged,
        }
        sub: child(logged);
    }

    graph Plain {
        nothing: empty;
    }

    graph Parent {
        params {
            set: Kernel<(ConditionalHandle,)>,
            logged: Logged,
            wrapped: Wrapped,
            plain: Plain,
        }
        decide: kernel set<<<1, 1>>>(go);
        branch: if go {
            direct: child(logged);
            nested: child(wrapped);
            fine: child(plain);
        }
        decide -> branch;
    }
}

fn main() {}
