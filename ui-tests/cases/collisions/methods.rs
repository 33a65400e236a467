//! Nodes and allocations named like methods the expansion generates: the executable's own
//! (`set_params_only`), the setter of an `#[indirect]` param (`set_step`), and the reader of an
//! allocation a launch leaves (`read_t`); and a name reserved for the generated code.
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
        set_params_only: kernel fill<<<1, 32>>>(n, step, t);
        set_step: kernel fill<<<1, 32>>>(n, step, read_t);
        __cg_node: empty;
        t -> set_params_only -> __cg_node;
        read_t -> set_step -> __cg_node;
    }
}

fn main() {}
