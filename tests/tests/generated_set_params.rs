//! `set_params` of generated executables: it updates exactly the nodes whose inputs changed (the
//! returned count is checked for each kind of change) and the launch after it computes with the
//! new params, checked against a CPU reference. Kernel, memset, host (`fn()`, `HostCallback`,
//! closure) and child-graph nodes; a kernel param that changes function switches the nodes that
//! launch it; a node set through its handle is set back by the next call.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, HostCallback};
use cudagraph_tests::{
    assert_close, assert_read_untouched, cfg, fill_buffer, read_back, upload, zeros, Gpu, Kernels,
    Rng, SaxpyArgs, ScaleArgs, POISON,
};

cuda_graph! {
    /// `y = s * (a * x + c)` on the first `n` elements (`c` beyond), `w = s * d` likewise.
    ///
    /// `a` is read by one node, `s` by two, `c` and `d` by one memset each, `unused` by none.
    graph Pipeline {
        params {
            saxpy: Kernel<SaxpyArgs>,
            scale: Kernel<ScaleArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            w: DeviceBuffer<f32>,
            n: u32,
            a: f32,
            s: f32,
            c: f32,
            d: f32,
            unused: u64,
        }
        init_y: memset(y, c);
        init_w: memset(w, d);
        axpy: kernel saxpy<<<n.div_ceil(256), 256>>>(n, a, x, y);
        mul_y: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
        mul_w: kernel scale<<<n.div_ceil(256), 256>>>(n, s, w);
        init_y -> axpy -> mul_y;
        init_w -> mul_w;
    }
}

/// The buffers of a `Pipeline`: two inputs and two candidate `y`s, so pointers can change.
struct PipelineBuffers {
    xs: [(Vec<f32>, DeviceBuffer<f32>); 2],
    ys: [DeviceBuffer<f32>; 2],
    w: DeviceBuffer<f32>,
}

impl PipelineBuffers {
    fn new(gpu: &Gpu, rng: &mut Rng, len: usize) -> Self {
        let mut input = || {
            let data = rng.f32s(len);
            let dev = upload(gpu, &data);
            (data, dev)
        };
        Self {
            xs: [input(), input()],
            ys: [zeros(gpu, len), zeros(gpu, len)],
            w: zeros(gpu, len),
        }
    }

    /// Params over the first input and output, with random scalars (`a`, `s`, `c`, `d`, drawn in
    /// that order) and `unused` 0.
    fn params(&self, k: &Kernels, rng: &mut Rng) -> PipelineParams {
        PipelineParams {
            saxpy: k.saxpy.clone(),
            scale: k.scale.clone(),
            x: self.xs[0].1.clone(),
            y: self.ys[0].clone(),
            w: self.w.clone(),
            n: self.w.len() as u32,
            a: scalar(rng),
            s: scalar(rng),
            c: scalar(rng),
            d: scalar(rng),
            unused: 0,
        }
    }

    /// Which of `xs` and `ys` `p` points to.
    fn current(&self, p: &PipelineParams) -> (usize, usize) {
        let x = (0..2)
            .find(|&i| self.xs[i].1 == p.x)
            .expect("x is one of the inputs");
        let y = (0..2)
            .find(|&i| self.ys[i] == p.y)
            .expect("y is one of the outputs");
        (x, y)
    }

    /// Poisons the outputs, launches, and checks every output against `p`.
    fn launch_and_check(&self, gpu: &Gpu, exec: &mut PipelineExec, p: &PipelineParams, what: &str) {
        self.launch_and_check_with(gpu, exec, p, p.s, what);
    }

    /// As [`Self::launch_and_check`], with `w` scaled by `w_factor` instead of `p.s`.
    fn launch_and_check_with(
        &self,
        gpu: &Gpu,
        exec: &mut PipelineExec,
        p: &PipelineParams,
        w_factor: f32,
        what: &str,
    ) {
        for buf in self.ys.iter().chain([&self.w]) {
            fill_buffer(buf, POISON);
        }
        exec.launch(&gpu.stream).unwrap();
        let (xi, yi) = self.current(p);
        let n = p.n as usize;
        let x = &self.xs[xi].0;
        let len = x.len();
        let want_y: Vec<f32> = (0..len)
            .map(|i| if i < n { p.s * (p.a * x[i] + p.c) } else { p.c })
            .collect();
        let want_w: Vec<f32> = (0..len)
            .map(|i| if i < n { w_factor * p.d } else { p.d })
            .collect();
        assert_close(
            &format!("{what}: y"),
            &read_back(&gpu.stream, &self.ys[yi]),
            &want_y,
            1e-5,
        );
        assert_close(
            &format!("{what}: w"),
            &read_back(&gpu.stream, &self.w),
            &want_w,
            1e-5,
        );
        assert_read_untouched(
            &gpu.stream,
            &format!("{what}: the y not pointed to"),
            &self.ys[1 - yi],
        );
    }
}

/// A random scalar of magnitude in [0.5, 1.5]: far enough from 0 that every factor and term it
/// enters shows in the results.
fn scalar(rng: &mut Rng) -> f32 {
    let v = 0.5 + rng.f32().abs();
    if rng.below(2) == 0 {
        v
    } else {
        -v
    }
}

/// A random [`scalar`] at least 0.25 away from `old`, so that a stale value shows.
fn other(rng: &mut Rng, old: f32) -> f32 {
    loop {
        let v = scalar(rng);
        if (v - old).abs() > 0.25 {
            return v;
        }
    }
}

#[test]
fn set_params_updates_exactly_the_nodes_whose_inputs_changed() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_params_updates_exactly_the_nodes_whose_inputs_changed")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_params_updates_exactly_the_nodes_whose_inputs_changed");
    let len = rng.len_in(2000, 50_000);
    let b = PipelineBuffers::new(&gpu, &mut rng, len);
    let mut p = b.params(&k, &mut rng);
    p.unused = rng.next_u64();
    let y1 = b.ys[1].clone();
    let x1 = b.xs[1].1.clone();
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    b.launch_and_check(&gpu, &mut exec, &p, "as built");

    // (what, change, nodes whose inputs it changes)
    type Change = Box<dyn Fn(&mut PipelineParams, &mut Rng)>;
    let changes: Vec<(&str, Change, usize)> = vec![
        ("nothing", Box::new(|_, _| {}), 0),
        ("a (axpy)", Box::new(|p, r| p.a = other(r, p.a)), 1),
        ("s (mul_y, mul_w)", Box::new(|p, r| p.s = other(r, p.s)), 2),
        ("c (init_y)", Box::new(|p, r| p.c = other(r, p.c)), 1),
        ("d (init_w)", Box::new(|p, r| p.d = other(r, p.d)), 1),
        (
            "unused (no node)",
            Box::new(|p, r| p.unused ^= r.next_u64() | 1),
            0,
        ),
        ("nothing again", Box::new(|_, _| {}), 0),
        ("x (axpy)", Box::new(move |p, _| p.x = x1.clone()), 1),
        (
            "y (init_y, axpy, mul_y)",
            Box::new(move |p, _| p.y = y1.clone()),
            3,
        ),
        (
            "n (axpy, mul_y, mul_w: arguments and grid)",
            Box::new(|p, r| p.n = r.len_in(100, p.n as usize - 100) as u32),
            3,
        ),
        (
            "a and d (axpy, init_w)",
            Box::new(|p, r| {
                p.a = other(r, p.a);
                p.d = other(r, p.d);
            }),
            2,
        ),
        (
            "a and s (axpy, mul_y, mul_w)",
            Box::new(|p, r| {
                p.a = other(r, p.a);
                p.s = other(r, p.s);
            }),
            3,
        ),
        (
            "s changed and changed back",
            Box::new(|p, r| {
                let old = p.s;
                p.s = other(r, old);
                p.s = old;
            }),
            0,
        ),
    ];
    for (what, change, want) in &changes {
        change(&mut p, &mut rng);
        let updated = exec.set_params(&p).unwrap();
        assert_eq!(updated, *want, "set_params after changing {what}");
        b.launch_and_check(&gpu, &mut exec, &p, &format!("after changing {what}"));
    }

    // A clone of the kernel launches the same function: not a change.
    p.scale = k.scale.clone();
    assert_eq!(
        exec.set_params(&p).unwrap(),
        0,
        "a clone of the same kernel"
    );
    b.launch_and_check(&gpu, &mut exec, &p, "after cloning the kernel");
}

#[test]
fn set_params_switches_the_nodes_of_a_kernel_that_changed_function() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_params_switches_the_nodes_of_a_kernel_that_changed_function")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    // Another module: the same source, but other functions.
    let other_module = Kernels::load(&gpu.ctx);
    assert_ne!(
        k.scale.cu_function(),
        other_module.scale.cu_function(),
        "two loads give two functions"
    );
    let mut rng = Rng::new("set_params_switches_the_nodes_of_a_kernel_that_changed_function");
    let len = rng.len_in(2000, 50_000);
    let b = PipelineBuffers::new(&gpu, &mut rng, len);
    let mut p = b.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    b.launch_and_check(&gpu, &mut exec, &p, "as built");

    // Another function for `scale`, and new `a` and `c`: the two nodes that launch `scale`
    // switch function, `axpy` takes `a` and `init_y` takes `c`, all in one call.
    p.scale = other_module.scale.clone();
    p.a = other(&mut rng, p.a);
    p.c = other(&mut rng, p.c);
    assert_eq!(
        exec.set_params(&p).unwrap(),
        4,
        "mul_y, mul_w, axpy and init_y"
    );
    b.launch_and_check(
        &gpu,
        &mut exec,
        &p,
        "after switching `scale` to the other module's",
    );

    // Back to the first function: only the nodes that launch it are updated.
    p.scale = k.scale.clone();
    assert_eq!(exec.set_params(&p).unwrap(), 2, "mul_y and mul_w");
    b.launch_and_check(&gpu, &mut exec, &p, "after switching back");
    // The same function through another `Kernel` value is no change.
    p.scale = k.scale.clone();
    assert_eq!(
        exec.set_params(&p).unwrap(),
        0,
        "a clone of the same kernel"
    );
}

#[test]
fn a_node_set_through_its_handle_is_set_back_by_the_next_set_params() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_node_set_through_its_handle_is_set_back_by_the_next_set_params")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_node_set_through_its_handle_is_set_back_by_the_next_set_params");
    let len = rng.len_in(2000, 50_000);
    let b = PipelineBuffers::new(&gpu, &mut rng, len);
    let p = b.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();

    // `mul_w` alone gets another factor through its handle (a `Kernel<ScaleArgs>` alias: the
    // handle takes the argument tuple); `mul_y`, which reads the same param, keeps `s`.
    let s2 = other(&mut rng, p.s);
    exec.mul_w().set((p.n, s2, &p.w)).unwrap();
    b.launch_and_check_with(&gpu, &mut exec, &p, s2, "after the handle's set");

    // set_params makes the node what the params say again, though no param changed.
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "the node set by its handle"
    );
    b.launch_and_check(&gpu, &mut exec, &p, "after set_params");
    assert_eq!(exec.set_params(&p).unwrap(), 0, "nothing left to set");
}

/// Calls of [`beat_a`] and [`beat_b`], the two `fn()`s of `Hosts` (only one test uses them).
static BEAT_A: AtomicUsize = AtomicUsize::new(0);
static BEAT_B: AtomicUsize = AtomicUsize::new(0);
/// Runs of `Hosts`'s closure that reads no param.
static CONSTANT_RUNS: AtomicUsize = AtomicUsize::new(0);

fn beat_a() {
    BEAT_A.fetch_add(1, Ordering::SeqCst);
}

fn beat_b() {
    BEAT_B.fetch_add(1, Ordering::SeqCst);
}

/// Host-node body: writes `value` into `out[0]`.
fn store(out: &mut [u64], value: u64) {
    assert_eq!(out.len(), 1, "store: one slot");
    out[0] = value;
}

cuda_graph! {
    /// Host nodes of every form: a `fn()` param, a `HostCallback` param, a closure over params and
    /// a closure over none.
    graph Hosts {
        params {
            beat: fn(),
            report: HostCallback,
            tag: u64,
            out: HostBuffer<u64>,
        }
        by_fn: host(beat);
        by_callback: host(report);
        by_closure: host(move |out: &mut [u64]| store(out, tag), mut out);
        constant: host(|| {
            CONSTANT_RUNS.fetch_add(1, Ordering::SeqCst);
        });
        by_fn -> by_callback -> by_closure -> constant;
    }
}

/// A `HostCallback` counting its calls.
fn counting() -> (HostCallback, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let callback = HostCallback::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    (callback, calls)
}

#[test]
fn set_params_updates_host_nodes_whose_callable_or_captures_changed() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_params_updates_host_nodes_whose_callable_or_captures_changed")
    else {
        return;
    };
    let mut rng = Rng::new("set_params_updates_host_nodes_whose_callable_or_captures_changed");
    let (first, first_calls) = counting();
    let (second, second_calls) = counting();
    let mut p = HostsParams {
        beat: beat_a,
        report: first.clone(),
        tag: rng.next_u64(),
        out: HostBuffer::zeroed(&gpu.ctx, 1).unwrap(),
    };
    let mut exec = Hosts::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();

    // Expected counts after each launch: (beat_a, beat_b, first, second).
    let mut want = (0, 0, 0, 0);
    let mut launches = 0;
    let mut launch_and_check =
        |exec: &mut HostsExec, p: &HostsParams, want: (usize, usize, usize, usize), what: &str| {
            p.out.write().unwrap()[0] = cudagraph_tests::POISON_U32 as u64;
            exec.launch(&gpu.stream).unwrap();
            gpu.stream.synchronize().unwrap();
            launches += 1;
            let got = (
                BEAT_A.load(Ordering::SeqCst),
                BEAT_B.load(Ordering::SeqCst),
                first_calls.load(Ordering::SeqCst),
                second_calls.load(Ordering::SeqCst),
            );
            assert_eq!(
                got, want,
                "{what}: calls of (beat_a, beat_b, first, second)"
            );
            assert_eq!(p.out.read().unwrap()[0], p.tag, "{what}: the closure's tag");
            assert_eq!(
                CONSTANT_RUNS.load(Ordering::SeqCst),
                launches,
                "{what}: the closure over no param runs every launch"
            );
            exec.as_exec().check_host_panics().unwrap();
        };

    want = (want.0 + 1, want.1, want.2 + 1, want.3);
    launch_and_check(&mut exec, &p, want, "as built");

    assert_eq!(exec.set_params(&p).unwrap(), 0, "nothing changed");
    want = (want.0 + 1, want.1, want.2 + 1, want.3);
    launch_and_check(&mut exec, &p, want, "nothing changed");

    p.beat = beat_b;
    assert_eq!(exec.set_params(&p).unwrap(), 1, "another fn(): by_fn");
    want = (want.0, want.1 + 1, want.2 + 1, want.3);
    launch_and_check(&mut exec, &p, want, "beat_b");

    p.report = first.clone();
    assert_eq!(
        exec.set_params(&p).unwrap(),
        0,
        "a clone of the same callback"
    );
    p.report = second.clone();
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "another callback: by_callback"
    );
    want = (want.0, want.1 + 1, want.2, want.3 + 1);
    launch_and_check(&mut exec, &p, want, "second callback");

    p.tag ^= rng.next_u64() | 1;
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "a captured param: by_closure"
    );
    want = (want.0, want.1 + 1, want.2, want.3 + 1);
    launch_and_check(&mut exec, &p, want, "new tag");

    p.beat = beat_a;
    p.report = first.clone();
    p.tag ^= rng.next_u64() | 1;
    assert_eq!(
        exec.set_params(&p).unwrap(),
        3,
        "all three param-reading host nodes"
    );
    want = (want.0 + 1, want.1, want.2 + 1, want.3);
    launch_and_check(&mut exec, &p, want, "all changed");
}

cuda_graph! {
    /// `y *= s`: embedded in `WithChildren`.
    graph ScaleChild {
        params {
            scale: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
        }
        mul: kernel scale<<<n.div_ceil(256), 256>>>(n, s, y);
    }

    /// `y = src`, then a declared child (`y *= s`), then a runtime graph (`y += o`).
    graph WithChildren {
        params {
            src: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            declared: ScaleChild,
            raw: Graph<'static>,
        }
        load: memcpy(src -> y);
        by_declaration: child(declared);
        by_runtime: child(raw);
        load -> by_declaration -> by_runtime;
    }
}

#[test]
fn set_params_updates_child_nodes_whose_graph_was_rebuilt() {
    let Some(gpu) = cudagraph_tests::gpu("set_params_updates_child_nodes_whose_graph_was_rebuilt")
    else {
        return;
    };
    let Kernels { scale, offset, .. } = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_params_updates_child_nodes_whose_graph_was_rebuilt");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let src = upload(&gpu, &data);
    let y = zeros::<f32>(&gpu, n);
    let declared = |s: f32| {
        let params = ScaleChildParams {
            scale: scale.clone(),
            y: y.clone(),
            n: n as u32,
            s,
        };
        ScaleChild::build(&gpu.ctx, &params).unwrap()
    };
    let raw = |o: f32| {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        g.add_kernel(&offset, cfg(n), (n as u32, o, &y), &[])
            .unwrap();
        g
    };
    let (mut s, mut o) = (scalar(&mut rng), scalar(&mut rng));
    let mut p = WithChildrenParams {
        src,
        y: y.clone(),
        declared: declared(s),
        raw: raw(o),
    };
    let mut exec = WithChildren::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    let launch_and_check = |exec: &mut WithChildrenExec, s: f32, o: f32, what: &str| {
        fill_buffer(&y, POISON);
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = data.iter().map(|v| s * v + o).collect();
        assert_close(what, &read_back(&gpu.stream, &y), &want, 1e-5);
    };
    launch_and_check(&mut exec, s, o, "as built");

    // A runtime `Graph` has no identity to compare: it counts as changed at every call.
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "nothing changed: by_runtime"
    );
    launch_and_check(&mut exec, s, o, "nothing changed");

    // A rebuilt declared graph is a change; the runtime one is set again as always.
    s = other(&mut rng, s);
    p.declared = declared(s);
    assert_eq!(
        exec.set_params(&p).unwrap(),
        2,
        "rebuilt child: both child nodes"
    );
    launch_and_check(&mut exec, s, o, "rebuilt declared child");

    o = other(&mut rng, o);
    p.raw = raw(o);
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "new runtime graph: by_runtime"
    );
    launch_and_check(&mut exec, s, o, "new runtime child");
}

cuda_graph! {
    /// `y = op(y, s)`, then `y = op(y, t)`: two nodes launching one kernel param.
    graph Twice {
        params {
            op: Kernel<ScaleArgs>,
            y: DeviceBuffer<f32>,
            n: u32,
            s: f32,
            t: f32,
        }
        first: kernel op<<<n.div_ceil(256), 256>>>(n, s, y);
        second: kernel op<<<n.div_ceil(256), 256>>>(n, t, y);
        first -> second;
    }
}

#[test]
fn a_kernel_param_that_changes_function_switches_what_its_nodes_compute() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_kernel_param_that_changes_function_switches_what_its_nodes_compute",
    ) else {
        return;
    };
    let Kernels { scale, offset, .. } = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_kernel_param_that_changes_function_switches_what_its_nodes_compute");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let y = zeros::<f32>(&gpu, n);
    let mut p = TwiceParams {
        op: scale.clone(),
        y: y.clone(),
        n: n as u32,
        // Magnitudes in [0.5, 1.5]: scaling and offsetting give clearly different results.
        s: 0.5 + rng.f32().abs(),
        t: -0.5 - rng.f32().abs(),
    };
    let mut exec = Twice::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    let launch_and_check = |exec: &mut TwiceExec, want: &dyn Fn(f32) -> f32, what: &str| {
        y.copy_from(&data).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let want: Vec<f32> = data.iter().map(|&v| want(v)).collect();
        assert_close(what, &read_back(&gpu.stream, &y), &want, 1e-5);
    };
    let (s, t) = (p.s, p.t);
    launch_and_check(&mut exec, &|v| v * s * t, "as built: scale twice");

    // set_params: both nodes switch to `offset`; `s` changes in the same call.
    p.op = offset.clone();
    p.s += 0.5;
    assert_eq!(exec.set_params(&p).unwrap(), 2, "first and second");
    let s = p.s;
    launch_and_check(&mut exec, &|v| v + s + t, "after set_params: offset twice");

    // A node set through its handle keeps the function it now launches.
    exec.second().set((n as u32, t * 2.0, &p.y)).unwrap();
    launch_and_check(&mut exec, &|v| v + s + t * 2.0, "after the handle set");
    assert_eq!(exec.set_params(&p).unwrap(), 1, "second, set back");

    // Whole-graph update from a graph of `scale`: the nodes switch back.
    p.op = scale.clone();
    let graph = Twice::build(&gpu.ctx, &p).unwrap();
    exec.update(&graph).unwrap();
    drop(graph);
    launch_and_check(&mut exec, &|v| v * s * t, "after update: scale twice");
    assert_eq!(exec.set_params(&p).unwrap(), 0, "in step with the update");
}

#[test]
fn setters_and_the_params_guard_update_exactly_the_readers_of_what_changed() {
    let Some(gpu) = cudagraph_tests::gpu(
        "setters_and_the_params_guard_update_exactly_the_readers_of_what_changed",
    ) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("setters and the params guard");
    let bufs = PipelineBuffers::new(&gpu, &mut rng, 4096);
    let mut p = bufs.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    bufs.launch_and_check(&gpu, &mut exec, &p, "first launch");

    // `a` is read by one node: its setter updates it, and returns the old value.
    let a = other(&mut rng, p.a);
    assert_eq!(exec.set_a(a).unwrap(), p.a);
    p.a = a;
    assert_eq!(exec.params().a, a);
    bufs.launch_and_check(&gpu, &mut exec, &p, "a");
    // `s` is read by two nodes, `c` by one: through the guard, each node is updated once
    // however many of its params changed, and however often.
    p.s = other(&mut rng, p.s);
    p.c = other(&mut rng, p.c);
    let mut guard = exec.params_mut();
    guard.set_s(p.s);
    guard.set_c(p.c);
    guard.set_s(p.s);
    assert_eq!(
        (guard.s, guard.c),
        (p.s, p.c),
        "the guard reads as the params"
    );
    assert_eq!(guard.apply().unwrap(), 3, "mul_y, mul_w, init_y");
    bufs.launch_and_check(&gpu, &mut exec, &p, "s and c");
    // Buffers too, left to the launch: the nodes reading `x` and `y` switch to the other ones.
    p.x = bufs.xs[1].1.clone();
    p.y = bufs.ys[1].clone();
    let mut guard = exec.params_mut();
    let old_x = guard.set_x(p.x.clone());
    guard.set_y(p.y.clone());
    drop(guard);
    assert_eq!(old_x.addr(), bufs.xs[0].1.addr(), "the old buffer");
    bufs.launch_and_check(&gpu, &mut exec, &p, "x and y, applied by the launch");
    // A param no node reads: nothing to update.
    let mut guard = exec.params_mut();
    guard.set_unused(7);
    assert_eq!(guard.apply().unwrap(), 0);
    p.unused = 7;
    assert_eq!(exec.set_unused(7).unwrap(), 7);
    // `set_params` agrees that everything is current.
    assert_eq!(exec.set_params(&p).unwrap(), 0);
    bufs.launch_and_check(&gpu, &mut exec, &p, "after set_params");
}
