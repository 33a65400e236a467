//! An operand that fixes a node's type and memory names a param, one element of an array param,
//! or an allocation (one iteration's, of a repeated alloc node), with an index the macro knows.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Operands {
        params {
            w: [DeviceBuffer<f32>; 2],
            y: DeviceBuffer<f32>,
            n: u32,
        }
        whole: memset(w, 0.0f32);
        not_array: memset(y[0], 0.0f32);
        moving: memset(w[n as usize], 0.0f32);
        for l in 0..2 {
            t[l]: alloc::<f32>(n as usize);
            fill_all[l]: memset(t, 0.0f32);
            t[l] -> fill_all[l];
        }
        plain: alloc::<f32>(4);
        one: memset(plain[0], 1.0f32);
        plain -> one;
    }
}

fn main() {}
