//! T14 is not bypassed by names: a type written as a primitive, as `DevicePtr` or as
//! `ConditionalHandle` is taken for a plain value, a pointer the kernel only reads, or no memory;
//! an alias or import that gives such a name to another type is refused at the name (else the
//! two unordered writers below would race unreported).
use cudagraph_runtime::cuda_graph;

mod renamed {
    pub use cudagraph_runtime::prelude::{
        DeviceBuffer, DevicePtrMut as ConditionalHandle, DevicePtrMut as DevicePtr, Kernel,
    };
}

#[allow(non_camel_case_types)]
type f64 = cudagraph_runtime::DeviceBuffer<f32>;
#[allow(non_camel_case_types)]
type u16 = cudagraph_runtime::DevicePtrMut<f32>;

cuda_graph! {
    graph ReadPointer {
        params {
            k: renamed::Kernel<(u32, renamed::DevicePtr<f32>)>,
            y: renamed::DeviceBuffer<f32>,
            n: u32,
        }
        a: kernel k<<<1, 256>>>(n, y);
        b: kernel k<<<1, 256>>>(n, y);
    }
}

cuda_graph! {
    graph Handle {
        params {
            k: renamed::Kernel<(renamed::ConditionalHandle<f32>,)>,
            y: renamed::DeviceBuffer<f32>,
        }
        a: kernel k<<<1, 256>>>(y);
        b: kernel k<<<1, 256>>>(y);
    }
}

cuda_graph! {
    graph PrimitiveParam {
        params {
            k: renamed::Kernel<(cudagraph_runtime::DevicePtrMut<f32>,)>,
            y: f64,
        }
        a: kernel k<<<1, 256>>>(y);
        b: kernel k<<<1, 256>>>(y);
    }
}

cuda_graph! {
    graph PrimitiveSlot {
        params {
            k: renamed::Kernel<(u16,)>,
            y: renamed::DeviceBuffer<f32>,
        }
        a: kernel k<<<1, 256>>>(y);
        b: kernel k<<<1, 256>>>(y);
    }
}

fn main() {}
