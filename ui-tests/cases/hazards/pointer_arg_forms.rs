//! A kernel argument for a pointer parameter must be one of the forms whose memory is what they
//! name (a param or allocation, an element at an index the macro knows, a buffer's `slice`):
//! an expression that mentions a param may compute other memory, here a `static` that the
//! unordered nodes below would all write unchecked. Each is refused at the argument.
use std::sync::OnceLock;

use cudagraph_runtime::{cuda_graph, prelude::*};

static OTHER: OnceLock<DeviceBuffer<f32>> = OnceLock::new();

fn other() -> &'static DeviceBuffer<f32> {
    OTHER.get().expect("set before the graph is built")
}

fn pick<'a>(_x: &'a DeviceBuffer<f32>, other: &'a DeviceBuffer<f32>) -> &'a DeviceBuffer<f32> {
    other
}

trait Elsewhere {
    fn elsewhere(&self) -> &'static DeviceBuffer<f32>;
}

impl Elsewhere for DeviceBuffer<f32> {
    fn elsewhere(&self) -> &'static DeviceBuffer<f32> {
        other()
    }
}

cuda_graph! {
    graph Hidden {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            bufs: Vec<DeviceBuffer<f32>>,
            maybe: Option<DeviceBuffer<f32>>,
            w: [DeviceBuffer<f32>; 2],
            i: usize,
            n: u32,
            flag: bool,
        }
        // Memory chosen at run time.
        a: kernel k<<<1, 32>>>(n, if flag { other() } else { x });
        // A block that names a param, and gives other memory.
        b: kernel k<<<1, 32>>>(n, { let _ = x; other() });
        // A call given a param.
        c: kernel k<<<1, 32>>>(n, pick(x, other()));
        // A method of a param that is not the runtime's sub-range.
        d: kernel k<<<1, 32>>>(n, x.elsewhere());
        e: kernel k<<<1, 32>>>(n, maybe.as_ref().unwrap());
        // An element of a param that is not an array the macro knows (`Index` may be anything).
        f: kernel k<<<1, 32>>>(n, &bufs[0]);
        // An element the macro cannot tell.
        g: kernel k<<<1, 32>>>(n, w[i]);
        // A name that is no param.
        h: kernel k<<<1, 32>>>(n, OTHER);
        // A `slice` of an allocation, which has none.
        t: alloc::<f32>(n as usize);
        u: kernel k<<<1, 32>>>(n, t.slice(..1));
        a -> b -> c -> d -> e -> f -> g -> h -> t -> u;
    }
}

fn main() {}
