//! A borrow no longer converts to a raw pointer in safe code: the pointer would outlive it.
use cudagraph_runtime::cudarc::driver::CudaSlice;
use cudagraph_runtime::prelude::*;

fn raw(y: &mut CudaSlice<f32>, host: &mut [f32]) {
    let _ = DevicePtrMut::from(y);
    let _ = HostPtrMut::from(host);
}

fn main() {
    let _ = raw;
}
