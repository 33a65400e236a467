//! T14 through child graphs: the declaration cannot see what an embedded graph uses, so `build`
//! and `set_params` check the child graph's record of its memory against the nodes that no edge
//! orders with the child node. A race is refused (`Error::Hazard`, naming both nodes); separate
//! buffers, an edge, or `#[unordered(param)]` on both nodes make it legal.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::{read_back, upload, zeros, Kernels, Rng, ScaleArgs};

cuda_graph! {
    /// `y *= s`: the child graph.
    graph Scale {
        params {
            scale: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
        }
        mul: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
    }

    /// The child beside a kernel that scales `y` too, with no edge between them.
    graph Beside {
        params {
            scale: Kernel<ScaleArgs>,
            inner: Scale,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        sub: child(inner);
        other: kernel scale<<<n.div_ceil(256), 256>>>(n, 3.0, y);
    }

    /// The same, both nodes marked: they use disjoint halves on purpose.
    graph OnPurpose {
        params {
            scale: Kernel<ScaleArgs>,
            inner: Scale,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        #[unordered(y)] sub: child(inner);
        #[unordered(y)] other: kernel scale<<<n.div_ceil(256), 256>>>(n, 3.0, y);
    }
}

#[test]
fn child_graphs_that_race_with_unordered_nodes_are_refused() {
    let Some(gpu) = cudagraph_tests::gpu("child_graphs_that_race_with_unordered_nodes_are_refused")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("child_graphs_that_race_with_unordered_nodes_are_refused");
    let n = rng.len_in(1000, 20_000);
    let (a_host, b_host) = (rng.f32s(n), rng.f32s(n));
    let (a, b) = (upload(&gpu, &a_host), upload(&gpu, &b_host));
    let inner = |y: &DeviceBuffer<f32>| {
        Scale::build(
            &gpu.ctx,
            &ScaleParams {
                scale: k.scale.clone(),
                y: y.clone(),
                n: n as u32,
                s: 2.0,
            },
        )
        .unwrap()
    };

    // Separate buffers: built, and both nodes run.
    let mut params = BesideParams {
        scale: k.scale.clone(),
        inner: inner(&a),
        y: b.clone(),
        n: n as u32,
    };
    let mut exec = Beside::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    let doubled: Vec<f32> = a_host.iter().map(|v| v * 2.0).collect();
    let tripled: Vec<f32> = b_host.iter().map(|v| v * 3.0).collect();
    assert_eq!(read_back(&gpu.stream, &a), doubled);
    assert_eq!(read_back(&gpu.stream, &b), tripled);

    // One buffer for both: refused by `build` and by `set_params`, naming the two nodes.
    let shared = BesideParams {
        inner: inner(&b),
        ..params
    };
    let refused = Beside::build(&gpu.ctx, &shared);
    match &refused {
        Err(Error::Hazard { first, second, .. }) => {
            assert_eq!((first.as_str(), second.as_str()), ("sub", "other"));
        }
        other => panic!("expected a hazard, got {other:?}"),
    }
    params = shared;
    let refused = exec.set_params(&params);
    assert!(matches!(refused, Err(Error::Hazard { .. })), "{refused:?}");
    // The executable still runs what it was built with.
    exec.launch(&gpu.stream).unwrap();
    let quadrupled: Vec<f32> = a_host.iter().map(|v| v * 4.0).collect();
    assert_eq!(read_back(&gpu.stream, &a), quadrupled);

    // Both nodes marked `#[unordered(y)]`: the child may use `y`'s memory beside the kernel.
    let y = zeros::<f32>(&gpu, n);
    let on_purpose = OnPurposeParams {
        scale: k.scale.clone(),
        inner: inner(&y),
        y: y.clone(),
        n: n as u32,
    };
    OnPurpose::build(&gpu.ctx, &on_purpose).unwrap();
}
