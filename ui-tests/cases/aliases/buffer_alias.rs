//! T14 through aliases: a buffer param written through `type Buf = DeviceBuffer<f32>`, a kernel
//! parameter written through `type Out = DevicePtrMut<f32>`, a kernel param type written
//! through `type Fill = Kernel<...>`: memory all the same, so two unordered writers race.
use cudagraph_runtime::{cuda_graph, prelude::*};

type Buf = DeviceBuffer<f32>;
type Out = DevicePtrMut<f32>;
type Fill = Kernel<(u32, Out)>;

cuda_graph! {
    graph Aliased {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            fill_out: Kernel<(u32, Out)>,
            fill_alias: Fill,
            y: Buf,
            z: DeviceBuffer<f32>,
            w: Buf,
            n: u32,
        }
        // The buffer's type through an alias.
        a: kernel fill<<<1, 32>>>(n, y);
        b: kernel fill<<<1, 32>>>(n, y);
        // The kernel parameter's type through an alias.
        c: kernel fill_out<<<1, 32>>>(n, z);
        d: kernel fill_out<<<1, 32>>>(n, z);
        // The kernel's whole type through an alias, beside a memset of the same buffer.
        e: kernel fill_alias<<<1, 32>>>(n, w);
        f: memset(w, 0.0f32);
        a -> c -> e;
    }
}

fn main() {}
