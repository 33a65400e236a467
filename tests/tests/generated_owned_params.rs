//! The params a `cuda_graph!` executable owns, changed through it: a setter updates the nodes
//! that read its param; the params guard (`params_mut`) changes several, its changes applied by
//! `apply` or by the next launch; a swap, through the guard or made at once (`exec.swap`),
//! ping-pongs two buffers. Refused updates are errors naming the node, and undo the change whole,
//! whoever tried it (a setter, a swap, the guard's `apply`, the launch that applies a dropped
//! guard's changes, which then launches nothing, `set_params`): the params are as before, the
//! nodes updated before the refusal are set back, nothing stays pending, and the next launches
//! compute what they computed before. A node set through its handle keeps that until a param it
//! reads changes, a refused change included. Results are checked against the CPU after every
//! change.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, HostCallback};
use cudagraph_tests::{fill_buffer, read_back, upload, zeros, Gpu, Kernels, SaxpyArgs, ScaleArgs};

cuda_graph! {
    /// `w[i] *= s` for `i < n` (`w` is longer than `n`), and `y = a * x + c` over `n` elements.
    /// Both kernels check their `n` against their buffers, so an `n` past `x` and `y` but within
    /// `w` is taken by `widen` and refused by `axpy`, which comes after it.
    graph Checked {
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
        }
        widen: kernel scale<<<n.div_ceil(256), 256>>>(n, s, w);
        init: memset(y, c);
        axpy: kernel saxpy<<<n.div_ceil(256), 256>>>(n, a, x, y);
        init -> axpy;
    }

    /// A host node that counts its calls.
    graph Tick {
        params {
            count: HostCallback,
        }
        tick: host(count);
    }

    /// A `Tick` child graph, then `w[i] *= s` for `i < n` (checked against `w`).
    graph Nested {
        params {
            scale: Kernel<ScaleArgs>,
            w: DeviceBuffer<f32>,
            n: u32,
            s: f32,
            inner: Tick,
        }
        ticks: child(inner);
        widen: kernel scale<<<n.div_ceil(256), 256>>>(n, s, w);
        ticks -> widen;
    }

    /// `x_new = x / 2`: the host swaps `x` and `x_new` between launches.
    graph Halve {
        params {
            saxpy: Kernel<SaxpyArgs>,
            x: DeviceBuffer<f32>,
            x_new: DeviceBuffer<f32>,
            n: u32,
        }
        clear: memset(x_new, 0.0f32);
        step: kernel saxpy<<<n.div_ceil(256), 256>>>(n, 0.5f32, x, x_new);
        clear -> step;
    }

    /// `Halve`, then `spare` filled with ones, all in one chain (no param is involved in the
    /// build-time memory check, so a swap takes its short way).
    graph HalveSpare {
        params {
            saxpy: Kernel<SaxpyArgs>,
            x: DeviceBuffer<f32>,
            x_new: DeviceBuffer<f32>,
            spare: DeviceBuffer<f32>,
            n: u32,
        }
        clear: memset(x_new, 0.0f32);
        step: kernel saxpy<<<n.div_ceil(256), 256>>>(n, 0.5f32, x, x_new);
        fill: memset(spare, 1.0f32);
        clear -> step -> fill;
    }
}

/// Elements of `x` and `y`; `w` has [`EXTRA`] more.
const LEN: usize = 4096;
const EXTRA: usize = 16;

/// The kernels, each checking its `n` against the buffers it is given.
fn checked_kernels(gpu: &Gpu) -> (Kernel<SaxpyArgs>, Kernel<ScaleArgs>) {
    let k = Kernels::load(&gpu.ctx);
    (
        k.saxpy
            .requires(|_, (n, _, x, y)| n as usize <= x && n as usize <= y),
        k.scale.requires(|_, (n, _, y)| n as usize <= y),
    )
}

fn params(gpu: &Gpu) -> CheckedParams {
    let (saxpy, scale) = checked_kernels(gpu);
    let x: Vec<f32> = (0..LEN).map(|i| (i % 97) as f32 - 48.0).collect();
    CheckedParams {
        saxpy,
        scale,
        x: upload(gpu, &x),
        y: zeros(gpu, LEN),
        w: zeros(gpu, LEN + EXTRA),
        n: LEN as u32,
        a: 2.0,
        s: 3.0,
        c: 0.5,
    }
}

/// Launches `exec` on `w` filled with ones and checks both outputs against its params, with
/// `w`'s first `n` elements scaled by `s` (the node's own values when set through its handle).
#[track_caller]
fn launch_and_check(gpu: &Gpu, exec: &mut CheckedExec, (n, s): (usize, f32), what: &str) {
    fill_buffer(&exec.params().w, 1.0);
    exec.launch(&gpu.stream)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let p = exec.params();
    let (x, y, w) = (
        read_back(&gpu.stream, &p.x),
        read_back(&gpu.stream, &p.y),
        read_back(&gpu.stream, &p.w),
    );
    for i in 0..LEN {
        assert_eq!(y[i], p.a * x[i] + p.c, "{what}: y[{i}]");
    }
    for (i, &v) in w.iter().enumerate() {
        assert_eq!(v, if i < n { s } else { 1.0 }, "{what}: w[{i}]");
    }
}

#[test]
fn a_refused_setter_keeps_the_old_value_and_names_the_node() {
    let Some(gpu) = cudagraph_tests::gpu("a_refused_setter_keeps_the_old_value_and_names_the_node")
    else {
        return;
    };
    let mut exec = Checked::build(&gpu.ctx, &params(&gpu))
        .unwrap()
        .instantiate()
        .unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 3.0), "as built");
    assert_eq!(exec.set_a(-1.5).unwrap(), 2.0, "the old value");
    launch_and_check(&gpu, &mut exec, (LEN, 3.0), "a set");

    // `widen` takes the longer `n` (its `w` is long enough), `axpy` refuses it: the error names
    // `axpy`, `n` keeps its value, and `widen` is set back.
    let longer = (LEN + EXTRA / 2) as u32;
    match exec.set_n(longer) {
        Err(Error::Invalid { node, .. }) => assert_eq!(node, "axpy"),
        other => panic!("expected axpy's check to refuse n = {longer}, got {other:?}"),
    }
    assert_eq!(exec.params().n, LEN as u32);
    launch_and_check(&gpu, &mut exec, (LEN, 3.0), "after the refused n");
    // Accepted by both: `w` scaled over `n` elements.
    assert_eq!(exec.set_n(LEN as u32 / 2).unwrap(), LEN as u32);
    fill_buffer(&exec.params().w, 1.0);
    exec.launch(&gpu.stream).unwrap();
    let w = read_back(&gpu.stream, &exec.params().w);
    assert!(w[..LEN / 2].iter().all(|&v| v == 3.0) && w[LEN / 2..].iter().all(|&v| v == 1.0));
    exec.set_n(LEN as u32).unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 3.0), "n back");
}

/// Launches `exec` as [`launch_and_check`] does and returns what it computed (`y`, `w`).
#[track_caller]
fn outputs(gpu: &Gpu, exec: &mut CheckedExec, n_s: (usize, f32), what: &str) -> [Vec<f32>; 2] {
    launch_and_check(gpu, exec, n_s, what);
    let p = exec.params();
    [read_back(&gpu.stream, &p.y), read_back(&gpu.stream, &p.w)]
}

/// Asserts that a refusal named `axpy` and left the executable's params as `before`.
#[track_caller]
fn refused_by_axpy(result: Result<usize, Error>, exec: &CheckedExec, before: (u32, f32, f32)) {
    match result {
        Err(Error::Invalid { node, .. }) => assert_eq!(node, "axpy"),
        other => panic!("expected axpy's check to refuse the change, got {other:?}"),
    }
    let p = exec.params();
    assert_eq!(
        (p.n, p.s, p.c),
        before,
        "the params are as before the refused change"
    );
}

#[test]
fn a_refused_change_leaves_the_executable_running_what_it_ran() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_refused_change_leaves_the_executable_running_what_it_ran")
    else {
        return;
    };
    let mut exec = Checked::build(&gpu.ctx, &params(&gpu))
        .unwrap()
        .instantiate()
        .unwrap();
    // A valid change, launched: what every refusal below must leave running.
    assert_eq!(exec.set_a(-1.5).unwrap(), 2.0);
    let before = outputs(&gpu, &mut exec, (LEN, 3.0), "a set");
    let kept = (LEN as u32, 3.0, 0.5);
    // `widen` (first in build order) takes this `n`, its `w` being long enough; `axpy` refuses
    // it. Were `widen` left with it, the launch would scale `w` past `LEN`, which `outputs`
    // checks.
    let longer = (LEN + EXTRA / 2) as u32;

    // A setter.
    refused_by_axpy(exec.set_n(longer).map(|_| 0), &exec, kept);
    let after = outputs(&gpu, &mut exec, (LEN, 3.0), "after the refused setter");
    assert_eq!(after, before, "after the refused setter");

    // The guard's `apply`: the valid changes made with the refused one are undone too.
    let mut p = exec.params_mut();
    p.set_s(0.25);
    p.set_c(-4.0);
    p.set_n(longer);
    refused_by_axpy(p.apply(), &exec, kept);
    assert_eq!(exec.params_mut().apply().unwrap(), 0, "nothing pending");
    let after = outputs(&gpu, &mut exec, (LEN, 3.0), "after the refused apply");
    assert_eq!(after, before, "after the refused apply");

    // The launch that applies a dropped guard's changes: its error, and nothing launched
    // (`y` keeps its poison); the next launch runs what ran before, and retries nothing.
    let mut p = exec.params_mut();
    p.set_s(0.25);
    p.set_n(longer);
    p.set_c(-4.0);
    drop(p);
    fill_buffer(&exec.params().y, f32::NAN);
    refused_by_axpy(exec.launch(&gpu.stream).map(|()| 0), &exec, kept);
    gpu.stream.synchronize().unwrap();
    let y = read_back(&gpu.stream, &exec.params().y);
    assert!(y.iter().all(|v| v.is_nan()), "the refusing launch ran");
    for attempt in 0..2 {
        let after = outputs(&gpu, &mut exec, (LEN, 3.0), "after the refusing launch");
        assert_eq!(after, before, "launch {attempt} after the refusing launch");
    }

    // `set_params`.
    let p = exec.params();
    let bad = CheckedParams {
        saxpy: p.saxpy.clone(),
        scale: p.scale.clone(),
        x: p.x.clone(),
        y: p.y.clone(),
        w: p.w.clone(),
        n: longer,
        s: 0.25,
        ..*p
    };
    refused_by_axpy(exec.set_params(&bad), &exec, kept);
    let after = outputs(&gpu, &mut exec, (LEN, 3.0), "after the refused set_params");
    assert_eq!(after, before, "after the refused set_params");
    let p = exec.params();
    let same = CheckedParams {
        saxpy: p.saxpy.clone(),
        scale: p.scale.clone(),
        x: p.x.clone(),
        y: p.y.clone(),
        w: p.w.clone(),
        ..*p
    };
    assert_eq!(exec.set_params(&same).unwrap(), 0, "nothing half-applied");

    // A node set through its handle, then a refused change of a param it reads: nodes set
    // through their handles are updated last, so `axpy` refuses before `widen` is reached, and
    // `widen` keeps the handle's values.
    let w = exec.params().w.clone();
    exec.widen().set((LEN as u32, 5.0, &w)).unwrap();
    let by_handle = outputs(&gpu, &mut exec, (LEN, 5.0), "set through the handle");
    refused_by_axpy(exec.set_n(longer).map(|_| 0), &exec, kept);
    let after = outputs(&gpu, &mut exec, (LEN, 5.0), "after the refusal, handle set");
    assert_eq!(after, by_handle, "the handle's values stand");

    // Valid changes afterwards are made, each by itself.
    assert_eq!(exec.set_s(0.25).unwrap(), 3.0);
    launch_and_check(&gpu, &mut exec, (LEN, 0.25), "s set");
    let mut p = exec.params_mut();
    p.set_s(0.5);
    p.set_c(-4.0);
    p.set_a(3.0);
    assert_eq!(p.apply().unwrap(), 3, "widen (s), init (c), axpy (a)");
    launch_and_check(&gpu, &mut exec, (LEN, 0.5), "s, c and a set");
}

#[test]
fn a_node_set_through_its_handle_keeps_that_until_a_param_it_reads_changes() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_node_set_through_its_handle_keeps_that_until_a_param_it_reads_changes",
    ) else {
        return;
    };
    let mut exec = Checked::build(&gpu.ctx, &params(&gpu))
        .unwrap()
        .instantiate()
        .unwrap();
    // A change left to the launch, then the node set through its handle: the handle was last.
    let mut p = exec.params_mut();
    p.set_s(7.0);
    drop(p);
    let w = exec.params().w.clone();
    exec.widen().set((LEN as u32, 5.0, &w)).unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 5.0), "the handle's value");
    // A param the node does not read changes: the handle's values stand.
    exec.set_a(1.0).unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 5.0), "a changed");
    // One it reads: the node is what the params say again.
    exec.set_s(2.0).unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 2.0), "s changed");
    // `set_params` resets nodes set through their handles too.
    exec.widen().set((LEN as u32, 9.0, &w)).unwrap();
    let p = exec.params();
    let same = CheckedParams {
        saxpy: p.saxpy.clone(),
        scale: p.scale.clone(),
        x: p.x.clone(),
        y: p.y.clone(),
        w: p.w.clone(),
        ..*p
    };
    assert_eq!(exec.set_params(&same).unwrap(), 1, "widen, reset");
    launch_and_check(&gpu, &mut exec, (LEN, 2.0), "after set_params");
}

/// A `Halve` executable owning its buffers, `x` holding `x0` (returned) and `x_new` zeros, and
/// the two buffers' addresses.
fn halving(gpu: &Gpu) -> (HalveExec, Vec<f32>, (u64, u64)) {
    let (saxpy, _) = checked_kernels(gpu);
    let x0: Vec<f32> = (0..LEN).map(|i| (i * 1024) as f32).collect();
    let (x, x_new) = (upload(gpu, &x0), zeros::<f32>(gpu, LEN));
    let addrs = (x.addr(), x_new.addr());
    let params = HalveParams {
        saxpy,
        x,
        x_new,
        n: LEN as u32,
    };
    let exec = Halve::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    (exec, x0, addrs)
}

/// After `step` launches of [`halving`]'s executable, each followed by a swap of `x` and
/// `x_new`: `x` is `x0 / 2^step`, in the first buffer after an even number of steps.
#[track_caller]
fn check_halved(
    gpu: &Gpu,
    exec: &HalveExec,
    x0: &[f32],
    step: u32,
    (x_addr, x_new_addr): (u64, u64),
) {
    // Read through the executable: waits for the launch that wrote it.
    let got = read_back(&gpu.stream, &exec.params().x);
    let scale = 2f32.powi(step as i32);
    for (i, (&g, &x)) in got.iter().zip(x0).enumerate() {
        assert_eq!(g, x / scale, "step {step}: x[{i}]");
    }
    let want = if step % 2 == 1 { x_new_addr } else { x_addr };
    assert_eq!(
        exec.params().x.addr(),
        want,
        "step {step}: the buffers alternate"
    );
}

#[test]
fn a_swap_through_the_guard_ping_pongs_two_buffers() {
    let Some(gpu) = cudagraph_tests::gpu("a_swap_through_the_guard_ping_pongs_two_buffers") else {
        return;
    };
    let (mut exec, x0, addrs) = halving(&gpu);
    for step in 1..=10u32 {
        exec.launch(&gpu.stream).unwrap();
        let mut p = exec.params_mut();
        p.swap(|p| (&mut p.x, &mut p.x_new)).unwrap();
        if step % 2 == 1 {
            assert_eq!(p.apply().unwrap(), 2, "both nodes, each once");
        } // else: the next launch applies it
        check_halved(&gpu, &exec, &x0, step, addrs);
    }
    // The params outlive the executable; a read waits for its launches.
    exec.launch(&gpu.stream).unwrap();
    let params = exec.into_params();
    let got = read_back(&gpu.stream, &params.x_new);
    assert_eq!(got[LEN - 1], x0[LEN - 1] / 2048.0);
}

#[test]
fn a_swap_made_at_once_ping_pongs_two_buffers() {
    let Some(gpu) = cudagraph_tests::gpu("a_swap_made_at_once_ping_pongs_two_buffers") else {
        return;
    };
    let (mut exec, x0, addrs) = halving(&gpu);
    for step in 1..=10u32 {
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            exec.swap(|p| (&mut p.x, &mut p.x_new)).unwrap(),
            2,
            "both nodes, each once"
        );
        check_halved(&gpu, &exec, &x0, step, addrs);
    }
    // Two swaps between launches: the buffers are back where they were, and so is the launch.
    for _ in 0..2 {
        assert_eq!(exec.swap(|p| (&mut p.x_new, &mut p.x)).unwrap(), 2);
    }
    exec.launch(&gpu.stream).unwrap();
    let got = read_back(&gpu.stream, &exec.params().x_new);
    assert_eq!(got[LEN - 1], x0[LEN - 1] / 2048.0);
}

#[test]
fn a_swap_made_at_once_and_refused_leaves_the_executable_as_it_was() {
    let Some(gpu) =
        cudagraph_tests::gpu("a_swap_made_at_once_and_refused_leaves_the_executable_as_it_was")
    else {
        return;
    };
    let (saxpy, _) = checked_kernels(&gpu);
    let x0: Vec<f32> = (0..LEN).map(|i| i as f32).collect();
    let params = HalveSpareParams {
        saxpy,
        x: upload(&gpu, &x0),
        x_new: zeros(&gpu, LEN),
        spare: zeros(&gpu, LEN / 2),
        n: LEN as u32,
    };
    let (x_new_addr, spare_addr) = (params.x_new.addr(), params.spare.addr());
    let mut exec = HalveSpare::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    // `clear` takes the short `spare`, then `step`'s kernel refuses it (n is past its end):
    // `clear` is set back, the params are as they were.
    let refused = exec.swap(|p| (&mut p.x_new, &mut p.spare)).unwrap_err();
    assert!(
        matches!(&refused, Error::Invalid { node, .. } if node == "step"),
        "{refused}"
    );
    let now = exec.params();
    assert_eq!(
        (now.x_new.addr(), now.spare.addr()),
        (x_new_addr, spare_addr)
    );
    // The next launch runs what the params say: `clear` and `step` on `x_new`, `fill` on
    // `spare`. (Had `clear` been left on `spare`, `x_new` would keep its sevens under `step`'s
    // sums.)
    fill_buffer(&params.x_new, 7.0);
    exec.launch(&gpu.stream).unwrap();
    let (got, spare) = (
        read_back(&gpu.stream, &params.x_new),
        read_back(&gpu.stream, &params.spare),
    );
    for (i, (&g, &x)) in got.iter().zip(&x0).enumerate() {
        assert_eq!(g, x / 2.0, "x_new[{i}]");
    }
    assert_eq!(spare, [1.0; LEN / 2]);
    // Nothing is pending: a swap the kernel accepts takes the short way again.
    assert_eq!(exec.swap(|p| (&mut p.x, &mut p.x_new)).unwrap(), 2);
}

/// A `Tick` graph counting into a counter of its own.
fn ticking(gpu: &Gpu) -> (Tick, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let count = HostCallback::new(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    (Tick::build(&gpu.ctx, &TickParams { count }).unwrap(), calls)
}

#[test]
fn a_refused_change_sets_a_child_graph_back() {
    let Some(gpu) = cudagraph_tests::gpu("a_refused_change_sets_a_child_graph_back") else {
        return;
    };
    let (_, scale) = checked_kernels(&gpu);
    let (first, first_calls) = ticking(&gpu);
    let (second, second_calls) = ticking(&gpu);
    let w = zeros::<f32>(&gpu, LEN);
    let mut exec = Nested::build(
        &gpu.ctx,
        &NestedParams {
            scale,
            w: w.clone(),
            n: LEN as u32,
            s: 2.0,
            inner: first,
        },
    )
    .unwrap()
    .instantiate()
    .unwrap();
    let launch = |exec: &mut NestedExec, what: &str| {
        fill_buffer(&w, 1.0);
        exec.launch(&gpu.stream)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        gpu.stream.synchronize().unwrap();
        read_back(&gpu.stream, &w)
    };
    assert_eq!(launch(&mut exec, "as built"), vec![2.0; LEN]);
    assert_eq!(first_calls.load(Ordering::SeqCst), 1);

    // The child graph changes (`ticks`, first in build order, takes it), and `widen` refuses an
    // `n` past `w`: the child node is set back to a copy of the first graph.
    let mut p = exec.params_mut();
    let first = p.set_inner(second);
    p.set_n(LEN as u32 + 1);
    match p.apply() {
        Err(Error::Invalid { node, .. }) => assert_eq!(node, "widen"),
        other => panic!("expected widen's check to refuse, got {other:?}"),
    }
    assert_eq!(exec.params().n, LEN as u32);
    for round in 2..4 {
        assert_eq!(launch(&mut exec, "after the refusal"), vec![2.0; LEN]);
        assert_eq!(
            first_calls.load(Ordering::SeqCst),
            round,
            "the first graph ticks"
        );
        assert_eq!(
            second_calls.load(Ordering::SeqCst),
            0,
            "the refused one never"
        );
    }

    // The executable's child graph is the first one's copy: the second is accepted alone.
    let (second, second_calls) = ticking(&gpu);
    exec.set_inner(second).unwrap();
    assert_eq!(launch(&mut exec, "second graph set"), vec![2.0; LEN]);
    assert_eq!(second_calls.load(Ordering::SeqCst), 1);
    assert_eq!(first_calls.load(Ordering::SeqCst), 3);
    drop(first);
}
