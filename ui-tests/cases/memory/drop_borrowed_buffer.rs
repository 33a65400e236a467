//! A graph made in a scope borrows a cudarc buffer until the scope ends: dropping the buffer
//! while the executable may still launch does not compile.
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
        drop(y);
        exec.launch(stream)
    })
}

fn main() {
    let _ = run;
}
