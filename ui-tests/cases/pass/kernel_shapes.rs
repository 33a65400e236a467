//! Launch configurations (`<<<config>>>`, `<<<grid, block>>>`, `<<<grid, block, shared>>>`, 1-, 2-
//! and 3-D sizes), kernels typed through an alias, with one argument and with none.
use cudagraph_runtime::{cuda_graph, prelude::*};

type SaxpyArgs = (u32, f32, DevicePtr<f32>, DevicePtrMut<f32>);

cuda_graph! {
    graph Shapes {
        params {
            saxpy: Kernel<SaxpyArgs>,
            one: Kernel<(u32,)>,
            none: Kernel<()>,
            x: DevicePtr<f32>,
            y: DevicePtrMut<f32>,
            n: u32,
            tile: (u32, u32),
        }
        a: kernel saxpy<<<LaunchConfig::for_num_elems(n)>>>(n, 2.0, x, y);
        b: kernel one<<<n.div_ceil(256), 256>>>(n);
        c: kernel none<<<tile, (16, 16), 1024>>>();
        d: kernel none<<<(1, 2, 3), (4, 4, 4)>>>();
        e: kernel one<<<1, 32, n * 4>>>(if n > 4 { n - 4 } else { 0 });
        a -> b -> c -> d -> e;
    }
}

fn main() {
    let _ = |exec: &mut ShapesExec, x: DevicePtr<f32>, y: DevicePtrMut<f32>| -> cudagraph_runtime::Result<()> {
        // Through an alias, the handle takes the arguments as one tuple.
        exec.a().set((1, 2.0, x, y))?;
        exec.b().set(7)?;
        exec.c().set()?;
        let config = exec.d().launch_config();
        exec.d().set_launch(config)?;
        exec.e().set_enabled(false)?;
        Ok(())
    };
}
