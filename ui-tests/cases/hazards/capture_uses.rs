//! T14 with capture nodes: a capture that does not declare what its work uses counts as writing
//! every buffer; one that declares its uses (`[x, mut h]`: reads `x`, writes `h`) races only
//! through them.
use cudagraph_runtime::{cuda_graph, prelude::*, Capture};

cuda_graph! {
    graph Captures {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            read: Kernel<(u32, DevicePtr<f32>)>,
            gemm: Capture,
            other: Capture,
            x: DeviceBuffer<f32>,
            h: DeviceBuffer<f32>,
            n: u32,
        }
        // Undeclared, unordered with a kernel that reads `x`: a race (the capture may write it).
        opaque: capture(gemm);
        read_x: kernel read<<<1, 32>>>(n, x);
        // Declared: reads `x`, writes `h`; a race with the kernel writing `h` only.
        declared: capture(other, [x, mut h]);
        write_h: kernel fill<<<1, 32>>>(n, h);
        also_reads_x: kernel read<<<1, 32>>>(n, x);
        // Two undeclared captures, unordered.
        first: capture(gemm);
        second: capture(other);
        opaque -> declared;
        read_x -> write_h;
        also_reads_x -> first;
        write_h -> first;
        declared -> first;
    }
}

fn main() {}
