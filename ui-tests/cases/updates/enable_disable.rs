//! T6: only kernel, memset and memcpy nodes can be enabled or disabled.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Mixed {
        params {
            k: Kernel<(u32,)>,
            report: fn(),
            inner: Graph<'static>,
        }
        work: kernel k<<<1, 1>>>(1);
        log: host(report);
        sub: child(inner);
        join: empty;
        work -> [log, sub] -> join;
    }
}

fn toggle(exec: &mut MixedExec) {
    let _ = exec.work().set_enabled(false); // fine
    let _ = exec.log().set_enabled(false);
    let _ = exec.sub().set_enabled(false);
    let _ = exec.join().is_enabled();
}

fn main() {}
