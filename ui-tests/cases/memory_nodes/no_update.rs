//! CUDA updates neither a graph with memory nodes as a whole nor its alloc and free nodes, and
//! cannot enable or disable them.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Scratch {
        params {
            n: u32,
        }
        tmp: alloc::<f32>(n as usize);
        zero: memset(tmp, 0.0f32);
        done: free(tmp);
        tmp -> zero -> done;
    }
}

fn update(exec: &mut ScratchExec, other: &Scratch) -> cudagraph_runtime::Result<()> {
    exec.update(other)?;
    exec.tmp().set(16usize)?;
    exec.done().set_enabled(false)
}

fn main() {
    let _ = update;
}
