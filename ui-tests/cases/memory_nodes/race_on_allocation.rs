//! T14 holds for allocations: two unordered nodes that write one allocation race.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Race {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        zero: memset(tmp, 0.0f32);
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, tmp);
        done: free(tmp);
        tmp -> [zero, write] -> done;
    }
}

fn main() {}
