//! Allocations as operands of every node kind that takes memory, freed and unfreed.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Staged {
        params {
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            input: HostBuffer<f32>,
            output: HostBuffer<f32>,
            copy: DeviceBuffer<f32>,
            n: u32,
        }
        a: alloc::<f32>(n as usize);
        b: alloc::<f32>(n as usize);
        up: memcpy(input -> a);
        times: kernel scale<<<n.div_ceil(256), 256>>>(n, 2.0, a);
        across: memcpy(a -> b);
        down: memcpy(b -> output);
        keep: memcpy(b -> copy);
        free_a: free(a);
        free_b: free(b);
        a -> up -> times -> across -> [down, keep, free_a];
        b -> across;
        [down, keep] -> free_b;
    }

    graph Leaves {
        params {
            n: u32,
        }
        out: alloc::<u64>(n as usize);
        #[unordered(out)]
        lo: memset(out, 0u32);
        done: empty;
        out -> lo -> done;
    }
}

fn use_them(
    staged: &mut StagedExec,
    leaves: &mut LeavesExec,
    stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
) -> cudagraph_runtime::Result<()> {
    staged.launch(stream)?;
    let _: GraphAlloc<f32> = staged.a().node();
    let launched = leaves.launch(stream)?;
    let values: Vec<u64> = launched.read_out()?;
    let out: GraphAlloc<u64> = launched.out();
    assert_eq!(values.len(), out.len());
    Ok(())
}

fn main() {
    let _ = use_them;
}
