//! Host nodes: a `fn()` param, a `HostCallback` param, a closure over a param (moved in), and a
//! closure mentioning no param; handles take any of them. A closure's format string reads params
//! as inline arguments, widths and precisions (`{:>width$}`), by names that need not be ASCII.
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
            width: usize,
            précision: usize,
        }
        a: host(beat);
        b: host(report);
        c: host(move || println!("step {step}"));
        d: host(|| tick());
        e: host(move || println!("{step:>width$} {:.précision$}", 0.5));
        a -> b -> c -> d -> e;
    }
}

fn main() {
    let _ = HostsParams {
        beat: tick,
        report: HostCallback::new(tick),
        step: 1,
        width: 8,
        précision: 2,
    };
    let _ = |exec: &mut HostsExec, counter: Arc<AtomicU32>| {
        let _ = exec.a().set(tick);
        let _ = exec.b().set(HostCallback::new(|| {}));
        let _ = exec.c().set(move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        // Each reaches `e`, the node whose format string reads it.
        let _ = exec.set_width(4);
        let _ = exec.set_précision(3);
    };
}
