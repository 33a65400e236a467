//! Attributes that have no single generated item to go to.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    #[derive(Clone)]
    #[repr(C)]
    graph Attrs {
        #[cfg(test)]
        params {
            #[serde(skip)]
            y: DevicePtrMut<u8>,
        }
        #[inline]
        fill: memset(y, 0u8);
    }
}

fn main() {}
