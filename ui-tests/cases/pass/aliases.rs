//! Types written through aliases compile like written out: nodes that only read an aliased
//! buffer run unordered, `#[unordered(...)]` names aliased buffers, and a value param of an
//! aliased plain type may appear in a pointer argument's expression.
use cudagraph_runtime::{cuda_graph, prelude::*};

type Buf = DeviceBuffer<f32>;
type In = DevicePtr<f32>;
type Out = DevicePtrMut<f32>;
type Scale = Kernel<(u32, f32, In, Out)>;
type Len = usize;

cuda_graph! {
    graph Aliased {
        params {
            scale: Scale,
            x: Buf,
            lo: Buf,
            hi: Buf,
            y: Buf,
            n: u32,
            half: Len,
        }
        // Both read `x`, each writes its own buffer: no race.
        a: kernel scale<<<1, 32>>>(n, 2.0, x, lo);
        b: kernel scale<<<1, 32>>>(n, 3.0, x, hi);
        // Each writes its own half of `y`, on purpose.
        #[unordered(y)] c: kernel scale<<<1, 32>>>(n, 1.0, lo, y.slice(..half));
        #[unordered(y)] d: kernel scale<<<1, 32>>>(n, 1.0, hi, y.slice(half..));
        a -> c;
        b -> d;
    }
}

fn main() {
    let _ = Aliased::TOPOLOGY;
}
