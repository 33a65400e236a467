//! Leaking the executable (its `Drop` never runs) does not end the borrow: the buffer stays
//! borrowed until the scope ends, which waits for the launches. Dropping it inside the scope
//! does not compile.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;

fn run(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    fill: &Kernel<(u32, DevicePtrMut<f32>)>,
) -> cudagraph_runtime::Result<()> {
    let mut y = stream.alloc_zeros::<f32>(1024)?;
    cudagraph_runtime::scope(|s| {
        let mut graph = s.graph(ctx)?;
        graph.add_kernel(fill, LaunchConfig::for_num_elems(1024), (1024u32, &mut y), &[])?;
        let mut exec = graph.instantiate()?;
        exec.launch(stream)?;
        std::mem::forget(exec);
        drop(y);
        Ok(())
    })
}

fn main() {
    let _ = run;
}
