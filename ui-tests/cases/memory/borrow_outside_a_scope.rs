//! A graph made with `Graph::new` borrows nothing (it is a `Graph<'static>`): a cudarc buffer
//! borrowed for less than forever does not go into it. Borrowed memory goes into graphs made by
//! `cudagraph_runtime::scope`, which waits for their launches before the borrows end.
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
    exec.launch(stream)?;
    std::mem::forget(exec);
    drop(y);
    Ok(())
}

fn main() {
    let _ = run;
}
