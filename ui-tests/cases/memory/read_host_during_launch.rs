//! Page-locked memory a graph copies into is borrowed by the graph for its scope: host code
//! cannot read it while an executable (and so a launch) may still write it.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaSlice, CudaStream};
use cudagraph_runtime::prelude::*;

fn run(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    y: &CudaSlice<f32>,
) -> cudagraph_runtime::Result<()> {
    // SAFETY: not a question for this case.
    let mut host = unsafe { ctx.alloc_pinned::<f32>(y.len()) }?;
    cudagraph_runtime::scope(|s| {
        let mut graph = s.graph(ctx)?;
        graph.add_memcpy(Memcpy::dtoh(y, &mut host), &[])?;
        let mut exec = graph.instantiate()?;
        exec.launch(stream)?;
        let first = host.as_slice()?[0];
        exec.launch(stream)?;
        println!("{first}");
        Ok(())
    })
}

fn main() {
    let _ = run;
}
