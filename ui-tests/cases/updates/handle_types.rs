//! Handles keep each node's types: a memset's element type, a kernel's arguments, a child's graph.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Inner {
        only: empty;
    }

    graph Outer {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DevicePtrMut<f32>,
            inner: Inner,
        }
        clear: memset(y, 0.0f32);
        run: kernel k<<<1, 1>>>(1, y);
        sub: child(inner);
        clear -> run -> sub;
    }
}

fn misuse(exec: &mut OuterExec, bytes: DevicePtrMut<u8>, y: DevicePtrMut<f32>, outer: &Outer) {
    let _ = exec.clear().set(bytes, 0u8);
    let _ = exec.run().set(1.0, y);
    let _ = exec.run().set(1);
    let _ = exec.sub().set(outer);
}

fn main() {}
