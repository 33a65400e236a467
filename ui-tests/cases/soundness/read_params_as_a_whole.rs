//! A node expression reads params by their own names: that is how the executable knows which
//! nodes to update when a param changes (`set_m` updates the nodes that name `m`). Reading them
//! through the generated code's `__cg_params` names none, so `set_m` would leave `a` running the
//! old `m`, and a conditional default would read a param unnoticed: refused, also as an inline
//! format argument.
use cudagraph_runtime::cuda_graph;

cuda_graph! {
    graph Whole {
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            m: u32,
        }
        a: kernel k<<<1, 32>>>(__cg_params.m, x);
        log: host(move || println!("{__cg_params:?}"));
        a -> log;
    }
}

fn main() {}
