//! Freeing a capture's allocation consumes it, and a view of it borrows it: nothing recorded
//! after the free can name it.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Mut;

fn after_free(stream: &Arc<CudaStream>, y: DeviceBuffer<f32>) -> cudagraph_runtime::Result<()> {
    let _graph = Graph::capture(stream, Mut(y), |s, mut y| {
        let tmp = s.alloc::<f32>(1024)?;
        let view = tmp.view();
        s.free(tmp)?;
        s.memcpy_dtod(&view, &mut y)?;
        Ok::<(), cudagraph_runtime::Error>(())
    })?;
    Ok(())
}

fn main() {
    let _ = after_free;
}
