//! GPU witness for the macro's canonical construction order (SPEC 2.4): whole-graph update pairs
//! nodes by the order of the calls that built them. The same topology added in another order
//! makes the driver refuse the update (or pair the wrong nodes), while the same order always
//! pairs. `cuda_graph!` builds every graph of a declaration in one fixed order, so its updates
//! are always of the second kind.

use cudagraph_runtime::cudarc::driver::CudaSlice;
use cudagraph_runtime::{DevicePtrMut, Error, Graph, GraphExec};
use cudagraph_tests::{cfg, fill, gpu, read_back, Kernels, Rng, POISON_U32};

const N: usize = 4096;

/// Additions of one build: `a` and `b` are roots, `c` runs after `a`.
#[derive(Debug, Clone, Copy)]
struct Adds {
    a: u32,
    b: u32,
    c: u32,
}

/// `a: x += adds.a`, `b: y += adds.b`, `c: x += adds.c` after `a`; `a` added first unless
/// `b_first`, then `c` (whose dependency array names `a`).
fn build(
    gpu: &cudagraph_tests::Gpu,
    k: &Kernels,
    x: DevicePtrMut<u32>,
    y: DevicePtrMut<u32>,
    adds: Adds,
    b_first: bool,
) -> Graph {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let n = N as u32;
    let add_b = |g: &mut Graph| {
        g.name_next("b")
            .add_kernel(&k.add_u32, cfg(N), (n, adds.b, y), &[])
            .unwrap()
    };
    if b_first {
        add_b(&mut g);
    }
    let a = g
        .name_next("a")
        .add_kernel(&k.add_u32, cfg(N), (n, adds.a, x), &[])
        .unwrap();
    if !b_first {
        add_b(&mut g);
    }
    g.name_next("c")
        .add_kernel(&k.add_u32, cfg(N), (n, adds.c, x), &[a.id()])
        .unwrap();
    g
}

/// Launches `exec` on zeroed buffers and returns (x, y), both uniform (checked).
fn run(
    gpu: &cudagraph_tests::Gpu,
    exec: &mut GraphExec,
    bufs: &mut [CudaSlice<u32>; 2],
) -> (u32, u32) {
    for b in bufs.iter_mut() {
        gpu.stream.memset_zeros(b).unwrap();
    }
    exec.launch(&gpu.stream).unwrap();
    let x = read_back(&gpu.stream, &bufs[0]);
    let y = read_back(&gpu.stream, &bufs[1]);
    assert!(
        x.iter().all(|&v| v == x[0]) && y.iter().all(|&v| v == y[0]),
        "non-uniform output"
    );
    (x[0], y[0])
}

#[test]
fn another_construction_order_breaks_whole_graph_update() {
    let Some(gpu) = gpu("another_construction_order_breaks_whole_graph_update") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("construction order");
    let mut bufs = [
        gpu.stream.alloc_zeros::<u32>(N).unwrap(),
        gpu.stream.alloc_zeros::<u32>(N).unwrap(),
    ];
    for b in bufs.iter_mut() {
        fill(&gpu.stream, b, POISON_U32);
    }
    let x = DevicePtrMut::from(&mut bufs[0]);
    let y = DevicePtrMut::from(&mut bufs[1]);
    let mut adds = || Adds {
        a: 1 + rng.below(1000),
        b: 2000 + rng.below(1000),
        c: 4000 + rng.below(1000),
    };

    let first = adds();
    let mut exec = build(&gpu, &k, x, y, first, false).instantiate().unwrap();
    assert_eq!(
        run(&gpu, &mut exec, &mut bufs),
        (first.a + first.c, first.b)
    );

    // Same order, new parameters: pairs node for node, every time.
    for _ in 0..5 {
        let p = adds();
        exec.update(&build(&gpu, &k, x, y, p, false))
            .expect("same construction order must pair");
        assert_eq!(run(&gpu, &mut exec, &mut bufs), (p.a + p.c, p.b));
    }

    // Same topology, `b` added before `a`: `c`'s dependency now names the second node added, so
    // the driver's pairing (by call order) no longer matches.
    let p = adds();
    match exec.update(&build(&gpu, &k, x, y, p, true)) {
        Err(e @ Error::UpdateRejected { .. }) => {
            eprintln!("driver refused the reordered graph, as expected: {e}");
            // The executable is unchanged and still runs the last good parameters.
            assert_ne!(run(&gpu, &mut exec, &mut bufs), (p.a + p.c, p.b));
        }
        Err(e) => panic!("unexpected error kind: {e}"),
        Ok(()) => {
            // Accepted: then the nodes were paired wrongly, and the result shows it.
            let got = run(&gpu, &mut exec, &mut bufs);
            assert_ne!(
                got,
                (p.a + p.c, p.b),
                "a reordered build paired correctly: the witness is wrong"
            );
            eprintln!("driver accepted the reordered graph but mis-paired it: got {got:?}");
        }
    }
}
