//! The params a `cuda_graph!` executable owns, changed through it: a setter updates the nodes
//! that read its param; the params guard (`params_mut`) changes several, its changes applied by
//! `apply` or by the next launch; a swap through the guard ping-pongs two buffers. Refused updates
//! are errors naming the node: a setter's param keeps its old value (and the nodes it updated
//! before the refusal are set back at the next launch); a change made through the guard is
//! refused by every launch, which launches nothing, until the params are fixed. A node set
//! through its handle keeps that until a param it reads changes. Results are checked against the
//! CPU after every change.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
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
    // `axpy`, `n` keeps its value, and `widen` is set back before the next launch.
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

#[test]
fn a_refused_change_through_the_guard_stops_every_launch_until_it_is_fixed() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_refused_change_through_the_guard_stops_every_launch_until_it_is_fixed",
    ) else {
        return;
    };
    let mut exec = Checked::build(&gpu.ctx, &params(&gpu))
        .unwrap()
        .instantiate()
        .unwrap();
    launch_and_check(&gpu, &mut exec, (LEN, 3.0), "as built");

    // The guard is dropped with a change no node can take: nothing is lost, the launch reports
    // it, naming the node, and launches nothing (`y` keeps its poison).
    let mut p = exec.params_mut();
    assert_eq!(p.set_s(0.25), 3.0);
    p.set_n((LEN + EXTRA / 2) as u32);
    drop(p);
    for attempt in 0..2 {
        fill_buffer(&exec.params().y, f32::NAN);
        match exec.launch(&gpu.stream) {
            Err(Error::Invalid { node, .. }) => assert_eq!(node, "axpy", "attempt {attempt}"),
            other => panic!("attempt {attempt}: expected axpy's refusal, got {other:?}"),
        }
        gpu.stream.synchronize().unwrap();
        let y = read_back(&gpu.stream, &exec.params().y);
        assert!(
            y.iter().all(|v| v.is_nan()),
            "attempt {attempt}: a launch ran"
        );
    }
    // Fixed through a setter: the pending updates are made, with the fixed value.
    assert_eq!(exec.set_n(LEN as u32).unwrap(), (LEN + EXTRA / 2) as u32);
    launch_and_check(&gpu, &mut exec, (LEN, 0.25), "fixed");

    // Through the guard's own apply: the error comes from `apply`, and stays until fixed.
    let mut p = exec.params_mut();
    p.set_n(u32::MAX);
    assert!(matches!(p.apply(), Err(Error::Invalid { .. })));
    let mut p = exec.params_mut();
    p.set_n(LEN as u32);
    p.set_c(-4.0);
    assert_eq!(
        p.apply().unwrap(),
        3,
        "widen, axpy (n), init (c): each once"
    );
    launch_and_check(&gpu, &mut exec, (LEN, 0.25), "fixed by the guard");
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

#[test]
fn a_swap_through_the_guard_ping_pongs_two_buffers() {
    let Some(gpu) = cudagraph_tests::gpu("a_swap_through_the_guard_ping_pongs_two_buffers") else {
        return;
    };
    let (saxpy, _) = checked_kernels(&gpu);
    let x0: Vec<f32> = (0..LEN).map(|i| (i * 1024) as f32).collect();
    let (x, x_new) = (upload(&gpu, &x0), zeros::<f32>(&gpu, LEN));
    let (x_addr, x_new_addr) = (x.addr(), x_new.addr());
    let params = HalveParams {
        saxpy,
        x,
        x_new,
        n: LEN as u32,
    };
    let mut exec = Halve::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    drop(params);
    for step in 1..=10u32 {
        exec.launch(&gpu.stream).unwrap();
        let mut p = exec.params_mut();
        p.swap(|p| (&mut p.x, &mut p.x_new)).unwrap();
        if step % 2 == 1 {
            assert_eq!(p.apply().unwrap(), 2, "both nodes, each once");
        } // else: the next launch applies it
          // Read through the executable: waits for the launch that wrote it.
        let got = read_back(&gpu.stream, &exec.params().x);
        let scale = 2f32.powi(step as i32);
        for (i, (&g, &x)) in got.iter().zip(&x0).enumerate() {
            assert_eq!(g, x / scale, "step {step}: x[{i}]");
        }
        let want = if step % 2 == 1 { x_new_addr } else { x_addr };
        assert_eq!(
            exec.params().x.addr(),
            want,
            "step {step}: the buffers alternate"
        );
    }
    // The params outlive the executable; a read waits for its launches.
    exec.launch(&gpu.stream).unwrap();
    let params = exec.into_params();
    let got = read_back(&gpu.stream, &params.x_new);
    assert_eq!(got[LEN - 1], x0[LEN - 1] / 2048.0);
}
