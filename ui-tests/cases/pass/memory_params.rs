//! Owned buffers as params, host nodes with buffers, a memset of doubles with a 4-byte pattern,
//! and the two ways of ordering nodes that share a buffer: an edge, or `#[unordered]` when they
//! touch disjoint parts of it.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Pipeline {
        params {
            fill: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            input: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            left: DeviceBuffer<f32>,
            right: DeviceBuffer<f32>,
            doubles: DeviceBuffer<f64>,
            out: HostBuffer<f32>,
            stats: HostBuffer<u32>,
            n: u32,
        }
        load: memcpy(input -> x);
        clear: memset(doubles, 0u32);
        // Each half of `left` by its own kernel, at the same time.
        #[unordered(left)]
        lo: kernel fill<<<n.div_ceil(512), 256>>>(n / 2, 1.0, left.slice(..n as usize / 2));
        #[unordered(left)]
        hi: kernel fill<<<n.div_ceil(512), 256>>>(n / 2, 2.0, left.slice(n as usize / 2..));
        mix: kernel scale<<<n.div_ceil(256), 256>>>(n, x, right);
        back: memcpy(right -> out);
        count: host(|(out, stats): (&[f32], &mut [u32])| stats[0] = out.len() as u32, out, mut stats);
        load -> [lo, hi] -> mix -> back -> count;
    }
}

fn main() {
    let _ = |exec: &mut PipelineExec, p: &PipelineParams| {
        let _ = exec.lo().set(p.n / 2, 3.0, p.left.slice(..p.n as usize / 2));
        let _ = exec.back().set(&p.right, &p.out);
        let _ = exec.clear().set(&p.doubles, 0u32);
        let _ = exec.count().set_with(&p.out, |v: &[f32]| println!("{}", v.len()));
        let _ = exec.set_params(p);
    };
}
