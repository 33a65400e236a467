//! T10: a conditional handle is a new name: not a param, not a node, not another handle; not a
//! param of type `ConditionalHandle`; and its default is a constant (CUDA cannot update it).
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Names {
        params {
            pick: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            flag: DeviceBuffer<u32>,
            given: ConditionalHandle,
            start: u32,
        }
        a: if flag { x: empty; }
        b: while b { y: empty; }
        c: if shared { z: empty; }
        d: if shared { w: empty; }
        e: while fresh(default = start) {
            step: kernel pick<<<1, 32>>>(fresh, flag);
        }
        a -> b -> c -> d -> e;
    }
}

fn main() {}
