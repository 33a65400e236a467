//! Nodes and allocations named like methods the expansion generates: the executable's own
//! (`params_mut`), the setter of a param (`set_n`, `set_step`), and the reader and the taker of
//! an allocation a launch leaves (`read_t`, `take_t`); and a name reserved for the generated code.
use cudagraph_runtime::{cuda_graph, prelude::*};

cuda_graph! {
    graph Clash {
        params {
            fill: Kernel<(u32, DevicePtr<u32>, DevicePtrMut<f32>)>,
            #[indirect]
            step: u32,
            n: u32,
        }
        t: alloc::<f32>(n as usize);
        read_t: alloc::<f32>(n as usize);
        take_t: alloc::<f32>(n as usize);
        params_mut: kernel fill<<<1, 32>>>(n, step, t);
        set_n: kernel fill<<<1, 32>>>(n, step, read_t);
        set_step: kernel fill<<<1, 32>>>(n, step, take_t);
        __cg_node: empty;
        t -> params_mut -> __cg_node;
        read_t -> set_n -> __cg_node;
        take_t -> set_step -> __cg_node;
    }
}

fn main() {}
