//! A kernel parameter whose type is behind an alias may be a pointer: an argument for it that is
//! not one of the forms whose memory is what they name (here memory from a function, or an
//! element the macro cannot tell) is refused when the alias is a pointer, as for a parameter
//! written `DevicePtrMut<T>`. A `slice` taken of a param that is no `DeviceBuffer<T>` or
//! `HostBuffer<T>` is not the runtime's sub-range (here a trait's, giving other memory): refused
//! too. (For a parameter behind an alias that takes a value, any expression: `pass/pointer_args`.)
use std::ops::RangeTo;
use std::sync::OnceLock;

use cudagraph_runtime::{cuda_graph, prelude::*};

type Out = DevicePtrMut<f32>;
type Fill = Kernel<(u32, DevicePtrMut<f32>)>;

static OTHER: OnceLock<DeviceBuffer<f32>> = OnceLock::new();

fn other() -> &'static DeviceBuffer<f32> {
    OTHER.get().expect("set before the graph is built")
}

trait Part {
    fn slice(&self, range: RangeTo<usize>) -> &'static DeviceBuffer<f32>;
}

impl Part for DevicePtrMut<f32> {
    fn slice(&self, _: RangeTo<usize>) -> &'static DeviceBuffer<f32> {
        other()
    }
}

cuda_graph! {
    graph Aliased {
        params {
            out: Kernel<(u32, Out)>,
            fill: Fill,
            direct: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            w: [DeviceBuffer<f32>; 2],
            raw: DevicePtrMut<f32>,
            i: usize,
            n: u32,
        }
        a: kernel out<<<1, 32>>>(n, { let _ = x; other() });
        b: kernel fill<<<1, 32>>>(n, w[i]);
        c: kernel direct<<<1, 32>>>(n, raw.slice(..1));
        d: kernel out<<<1, 32>>>(n, raw.slice(..1));
        a -> b -> c -> d;
    }
}

fn main() {}
