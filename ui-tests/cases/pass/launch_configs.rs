//! Launch configurations: a `LaunchConfig` given as a param (`<<<cfg>>>`, compared by its sizes
//! in `set_params`), and expressions with generics inside `<<< ... >>>`.
use cudagraph_runtime::{cuda_graph, prelude::*};

fn blocks<T>(n: u32) -> u32 {
    n.div_ceil(std::mem::size_of::<T>() as u32)
}

cuda_graph! {
    graph Configs {
        params {
            fill: Kernel<(u32, DevicePtrMut<f32>)>,
            y: DeviceBuffer<f32>,
            n: u32,
            cfg: LaunchConfig,
        }
        given: kernel fill<<<cfg>>>(n, y);
        generic: kernel fill<<<blocks::<Vec<Vec<u32>>>(n), 256>>>(n, y);
        turbofish: kernel fill<<<std::mem::size_of::<Option<Vec<u8>>>() as u32, 1, 0>>>(n, y);
        given -> generic -> turbofish;
    }
}

fn main() {
    let _ = |exec: &mut ConfigsExec, p: &ConfigsParams| exec.set_params(p);
}
