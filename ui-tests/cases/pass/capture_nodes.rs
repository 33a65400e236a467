//! A capture node between declared nodes, in a conditional body too; its handle re-records.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Capture;

cuda_graph! {
    graph Recorded {
        params {
            put: Kernel<(ConditionalHandle, u32)>,
            first: Capture,
            again: Capture,
            pick: u32,
        }
        start: capture(first);
        decide: kernel put<<<1, 32>>>(go, pick);
        maybe: if go {
            inside: capture(again);
        }
        start -> decide -> maybe;
    }
}

fn rerecord(exec: &mut RecordedExec, work: &Capture) {
    exec.start().set(work).unwrap();
    exec.inside().set(work).unwrap();
}

fn main() {
    let _ = rerecord;
}
