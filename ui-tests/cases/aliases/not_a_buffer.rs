//! Params whose memory `cuda_graph!` cannot see are refused where they give memory to a kernel
//! (an `Indirect` key given as a param of its own), or where a buffer is expected (a capture
//! node's declared uses); a conditional handle cannot be a param, through an alias either.
//! (Arguments that are not a param's name, element or part, such as `bufs[0]` of a vector or
//! `maybe.unwrap()`, are refused by the macro: `hazards/pointer_arg_forms`.)
use cudagraph_runtime::{cuda_graph, prelude::*, Capture, ConditionalHandle, Indirect};

type Key = Indirect<u32>;
type Count = u32;
type Handle = ConditionalHandle;

cuda_graph! {
    graph Opaque {
        params {
            read: Kernel<(u32, DevicePtr<u32>)>,
            key: Key,
            count: Count,
            work: Capture,
            h: Handle,
        }
        a: kernel read<<<1, 32>>>(count, key);
        b: capture(work, [mut count]);
        a -> b;
    }
}

fn main() {}
