//! T9: a `#[device_launch]` graph copies only device memory and device-mapped page-locked host
//! memory. Its memcpy operands are judged by their types, not by how they are written: a raw
//! pointer (which may hold any address, pageable memory too) is refused at its type, written as
//! such or imported under a buffer's name (`HostPtr as HostBuffer`), for a param and for an array
//! param's elements, once per param however many memcpy nodes copy it. (An alias of a buffer
//! compiles: `pass/device_launch`.)
use cudagraph_runtime::prelude::*;

mod pinned {
    pub use cudagraph_runtime::prelude::DevicePtrMut as DeviceBuffer;
    pub use cudagraph_runtime::prelude::HostPtr as HostBuffer;
}

cuda_graph! {
    #[device_launch]
    graph Copier {
        params {
            from: HostPtr<f32>,
            staged: pinned::HostBuffer<f32>,
            on_device: DeviceBuffer<f32>,
            outs: [pinned::DeviceBuffer<f32>; 2],
            back: HostBuffer<f32>,
        }
        there: memcpy(from -> on_device);
        first: memcpy(staged -> on_device);
        again: memcpy(staged -> on_device);
        spread: memcpy(on_device -> outs[1]);
        home: memcpy(on_device -> back);
        there -> first -> again -> spread -> home;
    }
}

fn main() {}
