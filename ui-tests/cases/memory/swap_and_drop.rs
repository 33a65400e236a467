//! An executable keeps the memory a single-node update gave it borrowed for its scope: swapping
//! a borrowed buffer in and dropping it inside the scope does not compile.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{CudaContext, CudaStream};
use cudagraph_runtime::prelude::*;

fn run(
    ctx: &Arc<CudaContext>,
    stream: &Arc<CudaStream>,
    fill: &Kernel<(u32, DevicePtrMut<f32>)>,
) -> cudagraph_runtime::Result<()> {
    let cfg = LaunchConfig::for_num_elems(1024);
    let mut y = stream.alloc_zeros::<f32>(1024)?;
    let mut z = stream.alloc_zeros::<f32>(1024)?;
    cudagraph_runtime::scope(|s| {
        let mut graph = s.graph(ctx)?;
        let node = graph.add_kernel(fill, cfg, (1024u32, &mut y), &[])?;
        let mut exec = graph.instantiate()?;
        exec.set_kernel_params(node, cfg, (1024u32, &mut z))?;
        drop(z);
        exec.launch(stream)
    })
}

fn main() {
    let _ = run;
}
