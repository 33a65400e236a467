//! Every node kind, chains, fan-out and fan-in, a child graph of another declaration.
use cudagraph_runtime::HostCallback;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    /// The inner graph.
    pub graph Inner {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DevicePtrMut<f32>,
            n: u32,
        }
        run: kernel k<<<(n + 255) / 256, 256>>>(n, y);
    }

    /// One solver step.
    pub graph Step {
        params {
            /// The kernel.
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            host_y: HostPtrMut<f32>,
            n: u32,
            alpha: f32,
            report: HostCallback,
            tick: fn(),
            inner: Inner,
        }
        /// Zeroes `y`.
        zero: memset(y, 0.0f32);
        scale: kernel saxpy<<<(n + 255) / 256, 256>>>(n, alpha, x, y);
        back: memcpy(y -> host_y);
        log: host(report);
        beat: host(tick);
        join: empty;
        sub: child(inner);
        zero -> scale -> back -> [log, beat] -> join;
        scale -> sub -> join;
    }
}

fn main() {
    let _ = Step::TOPOLOGY.to_dot();
    fn _use(exec: &mut StepExec, p: &StepParams, g: &Step) -> cudagraph_runtime::Result<()> {
        exec.set_params(p)?;
        exec.update(g)?;
        exec.scale().set(1, 2.0, p.x, p.y)?;
        exec.scale().set_enabled(false)?;
        exec.zero().set(p.y, 1.0)?;
        exec.back().set(p.y, p.host_y)?;
        exec.log().set(|| println!("hi"))?;
        exec.sub().set(&p.inner)?;
        let _ = exec.join().node();
        Ok(())
    }
}
