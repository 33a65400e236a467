//! A declared allocation is uninitialized memory too: `read_flags()` would hand out arbitrary
//! bytes as `bool`s, so the element type must be valid for every bit pattern.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Flags {
        params {
            n: u32,
        }
        flags: alloc::<bool>(n as usize);
    }
}

fn main() {}
