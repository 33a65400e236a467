//! Copies go through page-locked memory: a pageable `Vec` cannot be a copy's destination (a
//! launch would block for the whole graph, and nothing would keep host code from reading it
//! during the copy). `HostBuffer` is the way.
use cudagraph_runtime::cudarc::driver::CudaSlice;
use cudagraph_runtime::prelude::*;

fn copy_back(y: &CudaSlice<f32>, out: &mut Vec<f32>) {
    let _ = Memcpy::dtoh(y, out);
    let _ = Memcpy::dtoh(y, &mut out[..]);
}

fn main() {
    let _ = copy_back;
}
