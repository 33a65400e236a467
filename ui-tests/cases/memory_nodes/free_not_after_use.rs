//! T7: a free node must be ordered after every use of the allocation it frees.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Racy {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, tmp);
        done: free(tmp);
        tmp -> [write, done];
    }
}

fn main() {}
