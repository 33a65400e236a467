//! A writable capture view's parts borrow it mutably, as a `&mut` slice's do: two parts that
//! may overlap cannot be used at once (CUDA leaves a copy between overlapping memory undefined,
//! and a `Replay`'s warm-up would run it). `try_split_at_mut` gives two that do not.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Mut;

fn shift(stream: &Arc<CudaStream>, x: DeviceBuffer<f32>) -> cudagraph_runtime::Result<()> {
    let n = x.len();
    let _graph = Graph::capture(stream, Mut(x), move |s, mut x| {
        let src = x.try_slice(..n - 1).unwrap();
        let mut dst = x.try_slice(1..).unwrap();
        s.memcpy_dtod(&src, &mut dst)
    })?;
    Ok(())
}

fn main() {
    let _ = shift;
}
