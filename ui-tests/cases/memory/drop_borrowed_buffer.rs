//! A graph that borrows a cudarc buffer keeps it borrowed for as long as its executable lives:
//! dropping the buffer first does not compile.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;

fn run(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    fill: &Kernel<(u32, DevicePtrMut<f32>)>,
) -> cudagraph_runtime::Result<()> {
    let mut y = stream.alloc_zeros::<f32>(1024)?;
    let mut graph = Graph::new(ctx)?;
    graph.add_kernel(fill, LaunchConfig::for_num_elems(1024), (1024u32, &mut y), &[])?;
    let mut exec = graph.instantiate()?;
    drop(y);
    exec.launch(stream)?;
    Ok(())
}

fn main() {
    let _ = run;
}
