//! A programmatic edge into a kernel that does not wait orders launches only: a node after that
//! kernel is not ordered after the producer's writes either, and an allocation's use is not
//! ordered before its free.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Pdl {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        tmp: alloc::<f32>(32);
        produce: kernel fill<<<1, 32>>>(n, tmp);
        relay: kernel fill<<<1, 32>>>(n, y);
        consume: kernel scale<<<1, 32>>>(n, x, x);
        release: free(tmp);
        tmp -> produce;
        produce ->(launch_order) relay -> consume;
        relay -> release;
        #[waits]
        last: kernel fill<<<1, 32>>>(n, x);
        consume ->(programmatic) last;
    }
}

fn main() {}
