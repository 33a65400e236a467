//! A writable capture view's view to read borrows it: cudarc's calls cannot take both at once,
//! so they cannot copy a buffer onto itself (CUDA leaves a copy between overlapping memory
//! undefined, and a `Replay`'s warm-up would run it).
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Mut;

fn onto_itself(stream: &Arc<CudaStream>, x: DeviceBuffer<f32>) -> cudagraph_runtime::Result<()> {
    let _graph = Graph::capture(stream, Mut(x), |s, mut x| {
        s.memcpy_dtod(&x.as_view(), &mut x)
    })?;
    Ok(())
}

fn main() {
    let _ = onto_itself;
}
