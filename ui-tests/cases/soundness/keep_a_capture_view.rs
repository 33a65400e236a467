//! A capture closure's views (and the allocations it makes) name memory only the capture's work
//! may use: they cannot leave the closure.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::CaptureView;

fn keep(stream: &Arc<CudaStream>, x: DeviceBuffer<f32>) -> cudagraph_runtime::Result<()> {
    let mut kept: Option<CaptureView<'static, f32>> = None;
    let _graph = Graph::capture(stream, x, move |s, x| {
        kept = Some(x);
        let _ = s;
        Ok::<(), cudagraph_runtime::Error>(())
    })?;
    println!("{kept:?}");
    Ok(())
}

fn main() {
    let _ = keep;
}
