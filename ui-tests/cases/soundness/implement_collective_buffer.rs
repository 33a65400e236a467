//! A declaration's check that no two params share memory where a node writes reads each
//! param's memory, and a collective node uses the buffer its param gives: a type that gave a
//! buffer while holding no memory the check sees would let `reduce` write `x` while `write`
//! writes it, unordered. Implementing `CollectiveBuffer` is `unsafe`.
use cudagraph_runtime::__private::CollectiveBuffer;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Communicator;

#[derive(Clone, PartialEq)]
struct Sneaky(DeviceBuffer<f32>);

impl CollectiveBuffer for Sneaky {
    type Elem = f32;
    fn buffer(&self) -> &DeviceBuffer<f32> {
        &self.0
    }
}

cuda_graph! {
    graph Racy {
        params {
            comm: Communicator,
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            sneaky: Sneaky,
            n: u32,
        }
        write: kernel k<<<1, 32>>>(n, x);
        reduce: all_reduce(comm, sneaky, Sum);
    }
}

fn main() {}
