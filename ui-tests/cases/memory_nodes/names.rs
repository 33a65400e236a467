//! An allocation and a param cannot share a name; an allocation is written `alloc::<T>(len)`.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Clash {
        params {
            tmp: DeviceBuffer<f32>,
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        zero: memset(tmp, 0.0f32);
        tmp -> zero;
    }

    graph Syntax {
        params {
            n: u32,
        }
        a: alloc(f32, n as usize);
        b: alloc::<f32>();
        c: alloc::<f32>(n as usize, 4);
        d: free(a.b);
    }
}

fn main() {}
