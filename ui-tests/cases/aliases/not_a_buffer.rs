//! Params whose memory `cuda_graph!` cannot see are refused where they give memory to a kernel
//! (a vector of buffers, an optional raw pointer), or where a buffer is expected (a capture
//! node's declared uses); a conditional handle cannot be a param, through an alias either.
use cudagraph_runtime::{cuda_graph, prelude::*, Capture, ConditionalHandle};

type Buffers = Vec<DeviceBuffer<f32>>;
type Count = u32;
type Handle = ConditionalHandle;

cuda_graph! {
    graph Opaque {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            bufs: Buffers,
            count: Count,
            work: Capture,
            h: Handle,
            y: DeviceBuffer<f32>,
            maybe: Option<DevicePtrMut<f32>>,
        }
        a: kernel fill<<<1, 32>>>(count, &bufs[0]);
        b: capture(work, [mut count]);
        c: kernel fill<<<1, 32>>>(count, y.slice(..count as usize));
        d: kernel fill<<<1, 32>>>(count, maybe.unwrap());
        a -> b -> c -> d;
    }
}

fn main() {}
