//! Class 7, out of bounds through a safe length: a kernel that trusts its length argument
//! (`if (i < n) y[i] = v`) wrote past a 256-element buffer when safe code passed a larger `n`,
//! at a node's add or at an update.
//!
//! The control launches `fill_n(8192, 7, y)` on a 256-element `y` with a raw graph: it writes
//! the sentinel allocated after `y`. Through the library the kernel's author states the bound
//! once, next to the kernel (`Kernel::requires`), and every argument list a graph gives the
//! kernel passes it first: the add, `set_kernel_params` and a declaration's `set_params` are
//! refused with an error naming the node, and the sentinel stays intact.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::soundness::{overwritten, sentinel, Arg, FillN, Kernels, RawGraph};
use cudagraph_tests::{cfg, gpu};

const LEN: usize = 256;
const PAST: u32 = 8192;

cuda_graph! {
    graph Fill {
        params {
            fill: FillN,
            n: u32,
            y: DeviceBuffer<u32>,
        }
        write: kernel fill<<<n.div_ceil(256), 256>>>(n, 7u32, y);
    }
}

fn refused(e: &Error, node: &str) -> bool {
    eprintln!("refused: {e}");
    matches!(e, Error::Invalid { node: n, .. } if n.contains(node))
}

#[test]
fn a_length_argument_cannot_take_a_kernel_past_its_buffers() {
    let Some(gpu) = gpu("a_length_argument_cannot_take_a_kernel_past_its_buffers") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let a = &gpu.stream;

    // Control: the raw launch.
    {
        let y = DeviceBuffer::<u32>::zeros(a, LEN).unwrap();
        let s = sentinel(a, PAST as usize);
        let mut raw = RawGraph::new(&gpu);
        let args = [Arg::U32(PAST), Arg::U32(7), Arg::U64(y.addr())];
        raw.add_kernel(&k.fill, &cfg(PAST as usize), &args, &[]);
        raw.launch(a);
        let hit = overwritten(a, &s);
        eprintln!("control: the raw launch wrote {hit} of {PAST} sentinel elements");
        assert!(
            hit > 0,
            "the control must corrupt the sentinel, or this test shows nothing"
        );
    }

    // The library, explicit graph: refused at the add and at the update.
    {
        let y = DeviceBuffer::<u32>::zeros(a, LEN).unwrap();
        let s = sentinel(a, PAST as usize);
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        let e = graph
            .add_kernel(&k.fill, cfg(PAST as usize), (PAST, 7u32, &y), &[])
            .expect_err("n past the buffer must be refused");
        assert!(refused(&e, "kernel"), "{e:?}");
        let node = graph
            .add_kernel(&k.fill, cfg(LEN), (LEN as u32, 7u32, &y), &[])
            .unwrap();
        let mut exec = graph.instantiate().unwrap();
        let e = exec
            .set_kernel_params(node, cfg(PAST as usize), (PAST, 7u32, &y))
            .expect_err("n past the buffer must be refused");
        assert!(refused(&e, "kernel"), "{e:?}");
        exec.launch(a).unwrap();
        assert_eq!(overwritten(a, &s), 0, "a launch wrote past its buffer");
        assert!(
            y.to_vec().unwrap().iter().all(|&v| v == 7),
            "the admitted launch ran"
        );
    }

    // The library, a declaration: refused at the build and at `set_params`.
    {
        let y = DeviceBuffer::<u32>::zeros(a, LEN).unwrap();
        let s = sentinel(a, PAST as usize);
        let mut p = FillParams {
            fill: k.fill.clone(),
            n: PAST,
            y: y.clone(),
        };
        let e = Fill::build(&gpu.ctx, &p).expect_err("n past the buffer must be refused");
        assert!(refused(&e, "write"), "{e:?}");
        p.n = LEN as u32;
        let mut exec = Fill::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
        p.n = PAST;
        let e = exec
            .set_params(&p)
            .expect_err("n past the buffer must be refused");
        assert!(refused(&e, "write"), "{e:?}");
        exec.launch(a).unwrap();
        assert_eq!(overwritten(a, &s), 0, "a launch wrote past its buffer");
    }
}
