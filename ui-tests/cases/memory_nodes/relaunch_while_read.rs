//! T8: an allocation the graph does not free lives until the next launch, which frees it: the
//! launch that made it lends it out, and the executable cannot be launched again meanwhile.
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Produce {
        params {
            n: u32,
        }
        result: alloc::<u32>(n as usize);
        zero: memset(result, 7u32);
        result -> zero;
    }
}

fn run(exec: &mut ProduceExec, stream: &Arc<CudaStream>) -> cudagraph_runtime::Result<()> {
    let first = exec.launch(stream)?;
    exec.launch(stream)?;
    let values = first.read_result()?;
    assert_eq!(values[0], 7);
    Ok(())
}

fn main() {
    let _ = run;
}
