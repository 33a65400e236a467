//! `#[indirect]` params: no arguments, not read inside a conditional body, and read by kernels
//! through a `DevicePtr<T>` parameter (the key, not the value: no host arithmetic on it).
use cudagraph_runtime::prelude::*;

cuda_graph! {
    graph Bad {
        params {
            put: Kernel<(ConditionalHandle, DevicePtr<u32>)>,
            #[indirect(slots = 4)]
            step: u32,
            #[indirect]
            limit: u32,
        }
        first: kernel put<<<1, 32>>>(go, step);
        maybe: if go {
            inner: kernel put<<<1, 32>>>(again, limit);
        }
        first -> maybe;
    }
}

cuda_graph! {
    graph Arithmetic {
        params {
            read: Kernel<(DevicePtr<u32>,)>,
            #[indirect]
            step: u32,
        }
        next: kernel read<<<1, 32>>>(step + 1);
    }
}

fn main() {}
