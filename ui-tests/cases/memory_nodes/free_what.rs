//! T7: `free(...)` names an alloc node of its own graph: not a param, not another kind of node,
//! not an allocation of another graph; and an allocation is used only by its own graph.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Maker {
        params {
            buffer: DeviceBuffer<f32>,
            n: u32,
        }
        scratch: alloc::<f32>(n as usize);
        zero: memset(scratch, 0.0f32);
        drop_param: free(buffer);
        drop_node: free(zero);
        drop_typo: free(scrach);
        scratch -> zero -> [drop_param, drop_node, drop_typo];
    }

    graph Borrower {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            n: u32,
        }
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, scratch);
        release: free(scratch);
        write -> release;
    }
}

fn main() {}
