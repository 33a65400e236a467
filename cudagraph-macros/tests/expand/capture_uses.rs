//! Capture nodes that declare the memory their recorded work uses, between kernels.
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Capture;

cuda_graph! {
    graph Layers {
        params {
            bias: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            layer1: Capture,
            layer2: Capture,
            w1: DeviceBuffer<f32>,
            w2: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            b: DeviceBuffer<f32>,
            n: u32,
        }
        gemm1: capture(layer1, [w1, x, mut h]);
        act: kernel bias<<<n.div_ceil(256), 256>>>(n, b, h);
        gemm2: capture(layer2, [w2, h, mut y]);
        gemm1 -> act -> gemm2;
    }
}

fn main() {}
