//! Declarations by repetition: consts, `for` loops over them, nodes per iteration, array params
//! indexed by the loop variable, edges within and between iterations and to plain nodes, every
//! node kind a loop repeats, and the handles of repeated nodes by index.
use cudagraph_runtime::{cuda_graph, prelude::*, Capture, Event, HostBuffer};

cuda_graph! {
    /// A decode step of `LAYERS` layers.
    pub graph Decode {
        /// Layers of the step.
        pub const LAYERS: usize = 4;
        const LAST: usize = LAYERS - 1;
        params {
            layer: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            w: [DeviceBuffer<f32>; LAYERS],
            scale: [f32; LAYERS],
            x: DeviceBuffer<f32>,
            h: [DeviceBuffer<f32>; 2],
            out: HostBuffer<f32>,
            logs: [HostBuffer<f32>; LAYERS],
            done: [Event; LAYERS],
            gemm: [Capture; LAYERS],
            n: u32,
        }
        embed: memset(x, 1.0f32);
        for l in 0..LAYERS {
            /// Attention of layer `l`.
            attn[l]: kernel layer<<<n.div_ceil(256), 256>>>(n, scale[l], x, h[l % 2]);
            mix[l]: capture(gemm[l], [w[l], mut h[l % 2]]);
            mlp[l]: kernel layer<<<n.div_ceil(256), 256>>>(n + l as u32, 1.0, h[l % 2], x);
            log[l]: memcpy(x -> logs[l]);
            tell[l]: host(|v: &[f32]| assert!(!v.is_empty()), logs[l]);
            mark[l]: record(done[l]);
            t[l]: alloc::<f32>(n as usize);
            use_t[l]: memset(t[l], 0.0f32);
            free_t[l]: free(t[l]);
            gap[l]: empty;
            attn[l] -> mix[l] -> mlp[l] -> log[l] -> tell[l] -> mark[l];
            t[l] -> use_t[l] -> free_t[l] -> gap[l];
            mlp[l] -> t[l];
        }
        for l in 0..LAST {
            [mark[l], gap[l]] -> attn[l + 1];
        }
        back: memcpy(x -> out);
        embed -> attn[0];
        [mark[LAST], gap[LAST]] -> back;
    }

    graph Left {
        params {
            n: u32,
        }
        for i in 0..3 {
            kept[i]: alloc::<u32>(n as usize);
            zero[i]: memset(kept[i], 0u32);
            kept[i] -> zero[i];
        }
        gone: free(kept[0]);
        zero[0] -> gone;
    }
}

/// `macro_rules!` may write the loop too.
macro_rules! chain {
    ($name:ident, $count:literal) => {
        cuda_graph! {
            graph $name {
                params { k: Kernel<(u32,)>, n: u32 }
                for i in 0..$count {
                    step[i]: kernel k<<<1, 32>>>(n);
                }
                for i in 0..$count - 1 {
                    step[i] -> step[i + 1];
                }
            }
        }
    };
}

chain!(Chain, 8);

fn use_them(
    exec: &mut DecodeExec,
    left: &mut LeftExec,
    chain: &mut ChainExec,
    params: &DecodeParams,
    stream: &std::sync::Arc<cudagraph_runtime::cudarc::driver::CudaStream>,
) -> cudagraph_runtime::Result<()> {
    assert_eq!(Decode::TOPOLOGY.nodes.len(), 2 + 10 * LAYERS);
    assert_eq!(Decode::TOPOLOGY.nodes[1].0, "attn[0]");
    exec.launch(stream)?;
    exec.set_params(params)?;
    let mut attn = exec.attn(2)?;
    attn.set_launch(cudagraph_runtime::cudarc::driver::LaunchConfig::for_num_elems(1), 1, 1.0, &params.x, &params.h[0])?;
    attn.set_enabled(false)?;
    let _: GraphAlloc<f32> = exec.t(LAYERS - 1)?.node();
    exec.log(0)?.set(&params.x, &params.logs[1])?;
    assert!(exec.mlp(LAYERS).is_err());
    let launched = left.launch(stream)?;
    let values: Vec<u32> = launched.read_kept(1)?;
    assert!(launched.kept(0).is_err());
    assert_eq!(values.len(), launched.kept(2)?.len());
    chain.step(7)?.set(3)?;
    Ok(())
}

fn main() {
    let _ = use_them;
    // The consts are items of the module, as written.
    let _: [f32; LAYERS] = [0.0; 4];
}
