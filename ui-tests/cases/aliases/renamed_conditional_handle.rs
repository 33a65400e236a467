//! A conditional handle cannot be a param however its type is written: imported under a memory
//! type's name (which `cuda_graph!` takes for memory, unasked) or by reference (`*h` is the
//! handle). Written `ConditionalHandle`, the macro refuses it itself (`conditional/handle_names`).
use cudagraph_runtime::{cuda_graph, prelude::*};

mod renamed {
    pub use cudagraph_runtime::prelude::ConditionalHandle as DeviceBuffer;
}

cuda_graph! {
    graph Renamed {
        params {
            set: Kernel<(ConditionalHandle,)>,
            h: renamed::DeviceBuffer,
        }
        a: kernel set<<<1, 1>>>(h);
    }
}

cuda_graph! {
    graph Borrowed {
        params {
            set: Kernel<(ConditionalHandle,)>,
            h: &'static ConditionalHandle,
        }
        a: kernel set<<<1, 1>>>(*h);
    }
}

fn main() {}
