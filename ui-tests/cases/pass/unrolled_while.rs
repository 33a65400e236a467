//! Unrolled WHILE loops: `unroll = k` (a literal or a const of the graph) with a kernel, a
//! memset and a memcpy in each copy and the check in the last; the handles of repeated nodes
//! update all their copies (arguments cloned per copy) and give their runtime handles by copy.
//! `unroll = 1` is the plain loop, nested conditional nodes allowed.
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Solve {
        const PASS: usize = 4;
        params {
            sweep: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            check: Kernel<(ConditionalHandle, DevicePtr<f32>, u32)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            scratch: DeviceBuffer<f32>,
            n: u32,
        }
        start: memset(x, 0.0f32);
        solve: while more(unroll = PASS, default = 1) {
            forward: kernel sweep<<<n.div_ceil(256), 256>>>(n, x, y);
            keep: memcpy(y -> scratch);
            back: kernel sweep<<<n.div_ceil(256), 256>>>(n, y, x);
            done: kernel check<<<1, 32>>>(more, x, n);
            clear: memset(y, 0.0f32);
            forward -> keep -> back -> done -> clear;
        }
        start -> solve;
    }

    graph Plain {
        params {
            step: Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>,
            counter: DeviceBuffer<u32>,
            inner_counter: DeviceBuffer<u32>,
        }
        count: while more(default = 1, unroll = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, 10);
            inner: while again(default = 1) {
                inner_bump: kernel step<<<1, 32>>>(again, inner_counter, 3);
            }
            bump -> inner;
        }
    }
}

fn use_handles(
    exec: &mut SolveExec,
    x: &cudagraph_runtime::DeviceBuffer<f32>,
    y: &cudagraph_runtime::DeviceBuffer<f32>,
) -> cudagraph_runtime::Result<()> {
    exec.forward().set(8u32, x, y)?;
    exec.forward().set_enabled(true)?;
    exec.keep().set(y, x)?;
    exec.clear().set(y, 1.0f32)?;
    let copies: [cudagraph_runtime::KernelNode<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>; 4] =
        exec.back().node();
    let _ = copies;
    let _: cudagraph_runtime::KernelNode<_> = exec.done().node();
    Ok(())
}

fn main() {
    let _ = use_handles;
}
