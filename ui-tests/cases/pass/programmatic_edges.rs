//! Programmatic and launch-order edges between kernel nodes: a waiting consumer may read what
//! its producer writes; `#[programmatic]` turns every edge into a waiting kernel programmatic.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    /// A chain whose consumers wait.
    graph Chain {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            n: u32,
        }
        produce: kernel fill<<<1, 32>>>(n, x);
        #[waits]
        consume: kernel scale<<<1, 32>>>(n, x, y);
        // Launch order only: `other` touches nothing `consume` touches.
        other: kernel fill<<<1, 32>>>(n, z);
        produce ->(programmatic) consume ->(launch_order) other;
    }

    /// Every edge into a waiting kernel is programmatic; the memset's edge stays plain.
    #[programmatic]
    graph Auto {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        zero: memset(x, 0.0f32);
        #[waits]
        a: kernel fill<<<1, 32>>>(n, x);
        #[waits]
        b: kernel scale<<<1, 32>>>(n, x, y);
        #[waits]
        c: kernel scale<<<1, 32>>>(n, y, x);
        zero -> a -> b -> c;
    }
}

fn main() {
    assert_eq!(Chain::TOPOLOGY.edges.len(), 2);
    assert_eq!(Auto::TOPOLOGY.edges.len(), 3);
}
