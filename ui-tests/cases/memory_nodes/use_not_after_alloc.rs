//! T7: a node that uses an allocation must be ordered after its alloc node.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Early {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, tmp);
        done: free(tmp);
        write -> done;
        tmp -> done;
    }
}

fn main() {}
