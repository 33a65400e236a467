//! T7: nothing uses an allocation once it is freed.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Late {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            out: DeviceBuffer<f32>,
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, tmp);
        done: free(tmp);
        save: memcpy(tmp -> out);
        tmp -> write -> done -> save;
    }
}

fn main() {}
