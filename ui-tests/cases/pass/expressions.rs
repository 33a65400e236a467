//! Node arguments are Rust expressions over the params: casts, method calls, blocks, `if`, macros;
//! params and nodes may have names the DSL uses as keywords, and raw identifiers.
use cudagraph_runtime::{cuda_graph, prelude::*};

const BLOCK: u32 = 128;

fn grid_for(n: usize) -> u32 {
    (n as u32).div_ceil(BLOCK)
}

cuda_graph! {
    graph Exprs {
        params {
            kernel: Kernel<(u32, DevicePtrMut<f32>, f32)>,
            y: DevicePtrMut<f32>,
            r#ref: u32,
            scale: Option<f32>,
        }
        r#type: kernel kernel<<<grid_for(y.len()), BLOCK>>>(
            { let m = y.len() as u32; m.min(r#ref) },
            y,
            scale.unwrap_or(1.0) * if r#ref > 2 { 2.0 } else { 0.5 },
        );
        memset: memset(y, f32::from(u8::try_from(r#ref).unwrap_or(0)));
        host: host(move || assert!(r#ref < u32::MAX, "{}", format!("{scale:?}")));
        r#type -> memset -> host;
    }
}

fn main() {
    let _ = |exec: &mut ExprsExec| exec.r#type().node();
}
