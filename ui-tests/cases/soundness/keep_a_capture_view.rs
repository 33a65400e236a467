//! A capture closure's views (and the allocations it makes) name memory only the capture's work
//! may use: they cannot leave the closure.
use std::sync::{Arc, Mutex};

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::CaptureView;

static KEPT: Mutex<Option<CaptureView<'static, f32>>> = Mutex::new(None);

fn keep(stream: &Arc<CudaStream>, x: DeviceBuffer<f32>) -> cudagraph_runtime::Result<()> {
    let _graph = Graph::capture(stream, x, |_, x| {
        *KEPT.lock().unwrap() = Some(x);
        Ok::<(), cudagraph_runtime::Error>(())
    })?;
    Ok(())
}

fn main() {
    let _ = keep;
}
