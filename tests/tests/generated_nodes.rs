//! Every node kind declared with `cuda_graph!`, on real data: kernel, memset, memcpy in all three
//! directions, host nodes from a `fn()`, a `HostCallback` and a function given host buffers to read
//! and write, empty nodes as join points, and child graphs of other declarations (nested two
//! levels deep, next to a runtime `Graph`). Edges fan out and fan in; every output is poisoned
//! before each launch and compared with a CPU reference afterwards, so a node that did not run,
//! ran too early or read the wrong operand shows.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, HostCallback, NodeKind};
use cudagraph_tests::{
    assert_close, assert_read_close, cfg, fill_buffer, read_back, zeros, Kernels, Rng, SaxpyArgs,
    ScaleArgs, POISON,
};

/// Host-node body: copies `y` into `seen_y` and `z` into `seen_z`.
fn copy_host((y, z, seen_y, seen_z): (&[f32], &[f32], &mut [f32], &mut [f32])) {
    seen_y.copy_from_slice(y);
    seen_z.copy_from_slice(z);
}

/// Calls of [`beat`], the `fn()` host node of `AllKinds` (only one test uses it).
static BEATS: AtomicUsize = AtomicUsize::new(0);

fn beat() {
    BEATS.fetch_add(1, Ordering::SeqCst);
}

cuda_graph! {
    /// `z *= b`: embedded in `AllKinds` as a child graph.
    graph Inner {
        params {
            scale: Kernel<ScaleArgs>,
            z: DeviceBuffer<f32>,
            n: u32,
            b: f32,
        }
        times_b: kernel scale<<<n.div_ceil(128), 128>>>(n, b, z);
    }

    /// Every node kind:
    ///
    /// ```text
    /// up (host_x -> x) ─┐
    ///                   ├─ ready ─ axpy (y = a*x + y) ─┬─ copy (y -> z) ─ sub (z *= b) ─ down_z (z -> host_z) ─┐
    /// clear (y = c) ────┘                              └─ down_y (y -> host_y) ──────────────────────────────┴─ done ─┬─ check
    ///                                                                                                                ├─ tick
    ///                                                                                                                └─ log
    /// ```
    ///
    /// `check` copies `host_y` and `host_z` into `seen_y` and `seen_z`.
    graph AllKinds {
        params {
            saxpy: Kernel<SaxpyArgs>,
            host_x: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            host_y: HostBuffer<f32>,
            host_z: HostBuffer<f32>,
            seen_y: HostBuffer<f32>,
            seen_z: HostBuffer<f32>,
            n: u32,
            a: f32,
            c: f32,
            inner: Inner,
            tick_fn: fn(),
            report: HostCallback,
        }
        up: memcpy(host_x -> x);
        clear: memset(y, c);
        ready: empty;
        axpy: kernel saxpy<<<n.div_ceil(256), 256>>>(n, a, x, y);
        copy: memcpy(y -> z);
        sub: child(inner);
        down_y: memcpy(y -> host_y);
        down_z: memcpy(z -> host_z);
        done: empty;
        check: host(copy_host, host_y, host_z, mut seen_y, mut seen_z);
        tick: host(tick_fn);
        log: host(report);
        [up, clear] -> ready -> axpy -> [copy, down_y];
        copy -> sub -> down_z;
        [down_y, down_z] -> done -> [check, tick, log];
    }
}

/// Host-node body of `TwoViews`: `to = from`.
fn copy_views((from, to): (&[u32], &mut [u32])) {
    to.copy_from_slice(from);
}

cuda_graph! {
    /// A host node reading one host buffer param and writing another: two params the macro
    /// cannot tell apart from their names, whose values may be one buffer.
    graph TwoViews {
        params {
            from: HostBuffer<u32>,
            to: HostBuffer<u32>,
            copy: fn((&[u32], &mut [u32])),
        }
        step: host(copy, from, mut to);
    }
}

/// Two params of one host node given one buffer (clones of it, or overlapping parts of it), one
/// written: the closure would get a `&mut [u32]` aliasing the `&[u32]` of the other, undefined
/// behaviour in safe code. The build refuses it, as `Graph::add_host_with` and the executable's
/// setter do; buffers apart build and run.
#[test]
fn a_declared_host_node_given_one_buffer_for_two_params_is_refused() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_declared_host_node_given_one_buffer_for_two_params_is_refused")
    else {
        return;
    };
    let buffer = HostBuffer::from_slice(&gpu.ctx, &[1u32, 2, 3, 4]).unwrap();
    let params = |from: &HostBuffer<u32>, to: &HostBuffer<u32>| TwoViewsParams {
        from: from.clone(),
        to: to.clone(),
        copy: copy_views,
    };
    for (what, from, to) in [
        ("one buffer twice", buffer.clone(), buffer.clone()),
        ("overlapping parts", buffer.slice(0..2), buffer.slice(1..3)),
    ] {
        let built = TwoViews::build(&gpu.ctx, &params(&from, &to));
        assert!(
            matches!(built, Err(Error::Invalid { .. })),
            "{what}: {:?}",
            built.map(|_| ())
        );
    }

    // Apart: built, run, and the setter refuses an alias of `from` as well.
    let to = HostBuffer::<u32>::zeroed(&gpu.ctx, 2).unwrap();
    let graph = TwoViews::build(&gpu.ctx, &params(&buffer.slice(2..4), &to)).unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(to.to_vec().unwrap(), [3, 4]);
    let refused = exec.set_to(buffer.slice(2..4));
    assert!(matches!(refused, Err(Error::Invalid { .. })), "{refused:?}");
}

#[test]
fn every_node_kind_runs_on_real_data_in_dependency_order() {
    let Some(gpu) = cudagraph_tests::gpu("every_node_kind_runs_on_real_data_in_dependency_order")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("every_node_kind_runs_on_real_data_in_dependency_order");
    let n = rng.len_in(1000, 50_000);
    // `a` and `b` well away from 0 and 1, so that a node run out of order changes the result.
    let (a, b, c) = (1.0 + 0.5 * rng.f32(), -1.0 + 0.5 * rng.f32(), rng.f32());

    let host_x = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let poisoned = || HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let (host_y, host_z) = (poisoned(), poisoned());
    let (seen_y, seen_z) = (poisoned(), poisoned());
    let (x, y, z) = (zeros::<f32>(&gpu, n), zeros(&gpu, n), zeros(&gpu, n));

    // The `HostCallback` node counts its runs.
    let log_runs = Arc::new(AtomicUsize::new(0));
    let report = {
        let log_runs = log_runs.clone();
        HostCallback::new(move || {
            log_runs.fetch_add(1, Ordering::SeqCst);
        })
    };
    let inner = Inner::build(
        &gpu.ctx,
        &InnerParams {
            scale: k.scale.clone(),
            z: z.clone(),
            n: n as u32,
            b,
        },
    )
    .unwrap();
    let params = AllKindsParams {
        saxpy: k.saxpy.clone(),
        host_x: host_x.clone(),
        x: x.clone(),
        y: y.clone(),
        z: z.clone(),
        host_y: host_y.clone(),
        host_z: host_z.clone(),
        seen_y: seen_y.clone(),
        seen_z: seen_z.clone(),
        n: n as u32,
        a,
        c,
        inner,
        tick_fn: beat,
        report,
    };
    let graph = AllKinds::build(&gpu.ctx, &params).unwrap();
    assert_eq!(
        graph.graph().len(),
        12,
        "one runtime node per declared node"
    );
    let mut exec = graph.instantiate().unwrap();

    for launch in 1..=3 {
        // Fresh input in the pinned source: the htod node reads it at each launch.
        let data = rng.f32s(n);
        host_x.write().unwrap().copy_from_slice(&data);
        for buf in [&x, &y, &z] {
            fill_buffer(buf, POISON);
        }
        for buf in [&host_y, &host_z, &seen_y, &seen_z] {
            buf.write().unwrap().fill(POISON);
        }
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();

        let want_y: Vec<f32> = data.iter().map(|v| a * v + c).collect();
        let want_z: Vec<f32> = want_y.iter().map(|v| b * v).collect();
        let what = |s: &str| format!("launch {launch}: {s}");
        assert_eq!(read_back(&gpu.stream, &x), data, "{}", what("up (htod)"));
        let got_y = read_back(&gpu.stream, &y);
        assert_close(&what("clear then axpy"), &got_y, &want_y, 1e-5);
        let got_z = read_back(&gpu.stream, &z);
        assert_close(&what("copy (dtod) then sub (child)"), &got_z, &want_z, 1e-5);
        assert_eq!(host_y.to_vec().unwrap(), got_y, "{}", what("down_y (dtoh)"));
        assert_eq!(host_z.to_vec().unwrap(), got_z, "{}", what("down_z (dtoh)"));
        // Had `check` run before `down_y` or `down_z`, it would have copied the poison.
        assert_eq!(
            seen_y.to_vec().unwrap(),
            got_y,
            "{}",
            what("check saw down_y's copy")
        );
        assert_eq!(
            seen_z.to_vec().unwrap(),
            got_z,
            "{}",
            what("check saw down_z's copy")
        );
        assert_eq!(
            BEATS.load(Ordering::SeqCst),
            launch,
            "{}",
            what("tick (fn)")
        );
        assert_eq!(
            log_runs.load(Ordering::SeqCst),
            launch,
            "{}",
            what("log (HostCallback) runs")
        );
    }
    exec.as_exec().check_host_panics().unwrap();
}

cuda_graph! {
    /// Declared out of order: the edges, not the declaration order, decide what runs first.
    graph Reversed {
        params {
            scale: Kernel<ScaleArgs>,
            offset: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
            o: f32,
            v: f32,
        }
        third: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
        second: kernel offset<<<n.div_ceil(256), 256>>>(n, o, y);
        first: memset(y, v);
        first -> second -> third;
    }
}

#[test]
fn edges_not_declaration_order_decide_what_runs_first() {
    let Some(gpu) = cudagraph_tests::gpu("edges_not_declaration_order_decide_what_runs_first")
    else {
        return;
    };
    let Kernels { scale, offset, .. } = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("edges_not_declaration_order_decide_what_runs_first");
    let n = rng.len_in(1000, 50_000);
    let y = zeros::<f32>(&gpu, n);
    // s * (v + o) differs from every other order's result by at least o * (s - 1) >= 1.
    let (s, o, v) = (2.5 + 0.5 * rng.f32(), 1.5 + 0.5 * rng.f32(), rng.f32());
    let params = ReversedParams {
        scale,
        offset,
        y: y.clone(),
        n: n as u32,
        s,
        o,
        v,
    };
    let names: Vec<&str> = Reversed::TOPOLOGY.nodes.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["first", "second", "third"], "build order");
    let mut exec = Reversed::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    for launch in 0..2 {
        fill_buffer(&y, POISON);
        exec.launch(&gpu.stream).unwrap();
        // memset, then + o, then * s: any other order gives another value.
        let want = vec![s * (v + o); n];
        assert_read_close(
            &gpu.stream,
            &format!("launch {launch}: s * (v + o)"),
            &y,
            &want,
        );
    }
}

cuda_graph! {
    /// `y *= s`.
    graph Leaf {
        params {
            scale: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
        }
        mul: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
    }

    /// `y = src`, then the leaf (`y *= s`), then a runtime graph (`y += o`).
    graph Middle {
        params {
            src: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            leaf: Leaf,
            raw: Graph<'static>,
        }
        load: memcpy(src -> y);
        declared: child(leaf);
        runtime: child(raw);
        load -> declared -> runtime;
    }

    /// Only a child: the middle graph, whose own children are one level further down.
    graph Top {
        params {
            middle: Middle,
        }
        body: child(middle);
    }
}

#[test]
fn child_graphs_nest_declared_and_runtime_graphs() {
    let Some(gpu) = cudagraph_tests::gpu("child_graphs_nest_declared_and_runtime_graphs") else {
        return;
    };
    let Kernels { scale, offset, .. } = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("child_graphs_nest_declared_and_runtime_graphs");
    let n = rng.len_in(1000, 50_000);
    // `s * v + o` and `s * (v + o)` differ by |o * (s - 1)| >= 0.5.
    let (s, o) = (-0.25 + 0.75 * rng.f32(), 1.5 + 0.5 * rng.f32());
    let src = zeros::<f32>(&gpu, n);
    let y = zeros::<f32>(&gpu, n);

    let leaf = Leaf::build(
        &gpu.ctx,
        &LeafParams {
            scale,
            y: y.clone(),
            n: n as u32,
            s,
        },
    )
    .unwrap();
    let mut raw = Graph::new(&gpu.ctx).unwrap();
    raw.add_kernel(&offset, cfg(n), (n as u32, o, &y), &[])
        .unwrap();
    let middle = Middle::build(
        &gpu.ctx,
        &MiddleParams {
            src: src.clone(),
            y: y.clone(),
            leaf,
            raw,
        },
    )
    .unwrap();
    let top = Top::build(&gpu.ctx, &TopParams { middle }).unwrap();
    let kinds: Vec<NodeKind> = top.graph().nodes().map(|node| node.kind).collect();
    assert_eq!(
        kinds,
        [NodeKind::ChildGraph],
        "the top graph holds one child"
    );
    let mut exec = top.instantiate().unwrap();

    for launch in 0..3 {
        let data = rng.f32s(n);
        src.copy_from(&data).unwrap();
        fill_buffer(&y, POISON);
        exec.launch(&gpu.stream).unwrap();
        // load, then * s (declared leaf), then + o (runtime graph): the edges of the middle graph
        // hold inside the child node.
        let want: Vec<f32> = data.iter().map(|v| s * v + o).collect();
        assert_close(
            &format!("launch {launch}: s * src + o"),
            &read_back(&gpu.stream, &y),
            &want,
            1e-5,
        );
    }
}
