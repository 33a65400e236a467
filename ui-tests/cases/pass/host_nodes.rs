//! Host nodes: a `fn()` param, a `HostCallback` param, a closure over a param (moved in), and a
//! closure mentioning no param; handles take any of them.
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use cudagraph_runtime::HostCallback;
use cudagraph_runtime::cuda_graph;

static CALLS: AtomicU32 = AtomicU32::new(0);

fn tick() {
    CALLS.fetch_add(1, Ordering::Relaxed);
}

cuda_graph! {
    graph Hosts {
        params {
            beat: fn(),
            report: HostCallback,
            step: u32,
        }
        a: host(beat);
        b: host(report);
        c: host(move || println!("step {step}"));
        d: host(|| tick());
        a -> b -> c -> d;
    }
}

fn main() {
    let _ = HostsParams {
        beat: tick,
        report: HostCallback::new(tick),
        step: 1,
    };
    let _ = |exec: &mut HostsExec, counter: Arc<AtomicU32>| {
        let _ = exec.a().set(tick);
        let _ = exec.b().set(HostCallback::new(|| {}));
        let _ = exec.c().set(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
    };
}
