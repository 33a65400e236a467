//! Updating an instantiated graph (SPEC 2.4): whole-graph update from a graph built by the same
//! calls, and single-node updates of kernel, memcpy, memset, host and child-graph nodes. Every
//! test launches before and after the update and checks both results, including that the old
//! targets are left alone once the update has moved a node elsewhere.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use cudagraph_runtime::cudarc::driver::{CudaSlice, PinnedHostSlice};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{DeviceToDevice, DeviceToHost, Error, GraphExec, HostToDevice, KernelNode};
use cudagraph_tests::graphs::AxpyPair;
use cudagraph_tests::{
    assert_close, assert_read_close, assert_read_untouched, assert_untouched, cfg, fill, pinned,
    read_back, AxpyOutArgs, Gpu, Kernels, Rng, ScaleArgs, POISON,
};

/// What one variant of the update pipeline reads and writes.
struct Buffers {
    /// What `src` holds.
    input: Vec<f32>,
    src: PinnedHostSlice<f32>,
    x: CudaSlice<f32>,
    y: CudaSlice<f32>,
    out: CudaSlice<f32>,
    dst: PinnedHostSlice<f32>,
}

impl Buffers {
    fn new(gpu: &Gpu, rng: &mut Rng, n: usize) -> Self {
        let input = rng.f32s(n);
        Self {
            src: pinned(&gpu.ctx, &input),
            input,
            x: gpu.stream.alloc_zeros(n).unwrap(),
            y: gpu.stream.alloc_zeros(n).unwrap(),
            out: gpu.stream.alloc_zeros(n).unwrap(),
            dst: pinned(&gpu.ctx, &vec![POISON; n]),
        }
    }

    /// Poisons every output. Only while the stream is idle: it writes `dst` from the CPU.
    fn poison(&mut self, gpu: &Gpu) {
        for buf in [&mut self.x, &mut self.y, &mut self.out] {
            fill(&gpu.stream, buf, POISON);
        }
        self.dst.as_mut_slice().unwrap().fill(POISON);
    }

    /// Checks the outputs of a launch with `p` (after the stream is synchronized).
    fn check(&self, gpu: &Gpu, p: Params, what: &str) {
        let want: Vec<f32> = self.input.iter().map(|x| p.a * x + p.base).collect();
        assert_eq!(read_back(&gpu.stream, &self.x), self.input, "{what}: x");
        assert_eq!(
            read_back(&gpu.stream, &self.y),
            vec![p.base; self.input.len()],
            "{what}: y"
        );
        assert_read_close(&gpu.stream, &format!("{what}: out"), &self.out, &want);
        assert_close(
            &format!("{what}: dst"),
            self.dst.as_slice().unwrap(),
            &want,
            1e-6,
        );
    }

    /// Checks that no launch wrote any output since the last poisoning.
    fn check_untouched(&self, gpu: &Gpu, what: &str) {
        for (name, buf) in [("x", &self.x), ("y", &self.y), ("out", &self.out)] {
            assert_read_untouched(&gpu.stream, &format!("{what}: {name}"), buf);
        }
        assert_untouched(
            &format!("{what}: dst"),
            self.dst.as_slice().unwrap(),
            POISON,
        );
    }
}

/// The values one variant of the pipeline computes with.
#[derive(Debug, Clone, Copy)]
struct Params {
    a: f32,
    base: f32,
    tag: u64,
}

impl Params {
    fn random(rng: &mut Rng) -> Self {
        Self {
            a: rng.f32(),
            base: rng.f32(),
            tag: rng.next_u64(),
        }
    }
}

/// `src -> x`, `y = base`, `out = a * x + y` (after both), `out -> dst`, then a host node logs
/// `tag`. Every variant is built by this same sequence of calls, so any two pair node for node.
fn build(gpu: &Gpu, k: &Kernels, b: &mut Buffers, p: Params, log: &Arc<Mutex<Vec<u64>>>) -> Graph {
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    build_into(&mut graph, k, b, p, log);
    graph
}

/// [`build`] into the empty `graph`; returns the kernel node.
fn build_into(
    graph: &mut Graph,
    k: &Kernels,
    b: &mut Buffers,
    p: Params,
    log: &Arc<Mutex<Vec<u64>>>,
) -> KernelNode<AxpyOutArgs> {
    let n = b.input.len();
    let (x, y) = (DevicePtrMut::from(&mut b.x), DevicePtrMut::from(&mut b.y));
    let out = DevicePtrMut::from(&mut b.out);
    let copy_in = graph
        .add_memcpy(
            Memcpy::htod(HostPtr::from(b.src.as_slice().unwrap()), x),
            &[],
        )
        .unwrap();
    let set = graph.add_memset(Memset::new(y, p.base), &[]).unwrap();
    let args = (n as u32, p.a, x.as_const(), y.as_const(), out);
    let axpy = graph
        .add_kernel(&k.axpy_out, cfg(n), args, &[copy_in.id(), set.id()])
        .unwrap();
    let copy_out = Memcpy::dtoh(
        out.as_const(),
        HostPtrMut::from(b.dst.as_mut_slice().unwrap()),
    );
    let copy_out = graph.add_memcpy(copy_out, &[axpy.id()]).unwrap();
    let log = log.clone();
    graph
        .add_host(move || log.lock().unwrap().push(p.tag), &[copy_out.id()])
        .unwrap();
    axpy
}

/// Poisons both sets of buffers, launches `exec`, and checks that it computed `p` into `used`
/// and left `other` alone.
fn launch_and_check(
    gpu: &Gpu,
    exec: &mut GraphExec,
    [used, other]: [&mut Buffers; 2],
    p: Params,
    what: &str,
) {
    used.poison(gpu);
    other.poison(gpu);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    used.check(gpu, p, what);
    other.check_untouched(gpu, &format!("{what}, the other buffers"));
}

#[test]
fn whole_graph_update_takes_every_nodes_parameters() {
    let Some(gpu) = cudagraph_tests::gpu("whole_graph_update_takes_every_nodes_parameters") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("whole_graph_update_takes_every_nodes_parameters");
    let n = rng.len_in(1000, 50_000);
    let log = Arc::new(Mutex::new(Vec::new()));
    let (mut b1, mut b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let (p1, p2) = (Params::random(&mut rng), Params::random(&mut rng));

    let mut exec = build(&gpu, &k, &mut b1, p1, &log).instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, [&mut b1, &mut b2], p1, "before the update");
    assert_eq!(*log.lock().unwrap(), [p1.tag]);

    // New buffers, scalars and host closure, all at once. The update keeps what the new graph's
    // nodes need (its host closure, its kernel module), so the graph may go right away.
    let graph2 = build(&gpu, &k, &mut b2, p2, &log);
    exec.update(&graph2).unwrap();
    drop(graph2);
    launch_and_check(&gpu, &mut exec, [&mut b2, &mut b1], p2, "after the update");
    assert_eq!(*log.lock().unwrap(), [p1.tag, p2.tag]);
}

#[test]
fn a_cleared_graph_is_rebuilt_for_update_in_a_loop() {
    let Some(gpu) = cudagraph_tests::gpu("a_cleared_graph_is_rebuilt_for_update_in_a_loop") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_cleared_graph_is_rebuilt_for_update_in_a_loop");
    let n = rng.len_in(1000, 50_000);
    let log = Arc::new(Mutex::new(Vec::new()));
    let (mut b1, mut b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let first = Params::random(&mut rng);
    let mut exec = build(&gpu, &k, &mut b1, first, &log).instantiate().unwrap();
    let mut tags = vec![];

    // One graph, cleared and rebuilt each round, alternating buffers with fresh params (host
    // closure included); every update takes, every launch computes that round's values.
    let mut scratch = Graph::new(&gpu.ctx).unwrap();
    let mut old_node = None;
    for round in 0..6 {
        scratch.clear().unwrap();
        assert!(scratch.is_empty(), "round {round}: cleared");
        if let Some(old) = old_node {
            let err = scratch.raw_node(old).unwrap_err();
            assert!(
                matches!(err, Error::ForeignNode { .. }),
                "round {round}: a handle from before the clear: {err}"
            );
        }
        let (now, other) = match round % 2 {
            0 => (&mut b2, &mut b1),
            _ => (&mut b1, &mut b2),
        };
        let p = Params::random(&mut rng);
        old_node = Some(build_into(&mut scratch, &k, now, p, &log));
        exec.update(&scratch).unwrap();
        let what = format!("round {round}");
        launch_and_check(&gpu, &mut exec, [now, other], p, &what);
        tags.push(p.tag);
        assert_eq!(*log.lock().unwrap(), tags, "{what}: host nodes run");
    }
    // The scratch graph itself instantiates and runs its latest contents.
    let last = Params::random(&mut rng);
    scratch.clear().unwrap();
    build_into(&mut scratch, &k, &mut b1, last, &log);
    let mut exec2 = scratch.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec2, [&mut b1, &mut b2], last, "after a clear");
    exec.check_host_panics().unwrap();
}

#[test]
fn set_kernel_params_changes_arguments_and_launch_config() {
    let Some(gpu) = cudagraph_tests::gpu("set_kernel_params_changes_arguments_and_launch_config")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_kernel_params_changes_arguments_and_launch_config");
    let mut p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);
    let (xp, yp) = p.inputs();

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, xp, yp, DevicePtrMut::from(&mut p.out1)),
            &[],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    fill(&gpu.stream, &mut p.out1, POISON);
    fill(&gpu.stream, &mut p.out2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "before: out1", &p.out1, &p.want(a1));
    assert_read_untouched(&gpu.stream, "before: out2", &p.out2);

    // Another scalar, another output buffer, fewer elements and a smaller grid.
    let m = rng.len_in(n / 4, n / 2);
    exec.set_kernel_params(
        node,
        cfg(m),
        (m as u32, a2, xp, yp, DevicePtrMut::from(&mut p.out2)),
    )
    .unwrap();
    fill(&gpu.stream, &mut p.out1, POISON);
    fill(&gpu.stream, &mut p.out2, POISON);
    exec.launch(&gpu.stream).unwrap();
    let got = read_back(&gpu.stream, &p.out2);
    assert_close("after: out2", &got[..m], &p.want(a2)[..m], 1e-6);
    assert_untouched("after: out2 beyond the new length", &got[m..], POISON);
    assert_read_untouched(&gpu.stream, "after: out1", &p.out1);
}

/// One host -> device -> device -> host chain's buffers.
struct Chain {
    data: Vec<f32>,
    src: PinnedHostSlice<f32>,
    d: CudaSlice<f32>,
    e: CudaSlice<f32>,
    dst: PinnedHostSlice<f32>,
}

impl Chain {
    fn new(gpu: &Gpu, rng: &mut Rng, n: usize) -> Self {
        let data = rng.f32s(n);
        Self {
            src: pinned(&gpu.ctx, &data),
            data,
            d: gpu.stream.alloc_zeros(n).unwrap(),
            e: gpu.stream.alloc_zeros(n).unwrap(),
            dst: pinned(&gpu.ctx, &vec![POISON; n]),
        }
    }

    fn copies(
        &mut self,
    ) -> (
        Memcpy<HostToDevice>,
        Memcpy<DeviceToDevice>,
        Memcpy<DeviceToHost>,
    ) {
        let (d, e) = (
            DevicePtrMut::from(&mut self.d),
            DevicePtrMut::from(&mut self.e),
        );
        (
            Memcpy::htod(HostPtr::from(self.src.as_slice().unwrap()), d),
            Memcpy::dtod(d.as_const(), e),
            Memcpy::dtoh(
                e.as_const(),
                HostPtrMut::from(self.dst.as_mut_slice().unwrap()),
            ),
        )
    }

    fn poison(&mut self, gpu: &Gpu) {
        fill(&gpu.stream, &mut self.d, POISON);
        fill(&gpu.stream, &mut self.e, POISON);
        self.dst.as_mut_slice().unwrap().fill(POISON);
    }

    fn check_copied(&self, gpu: &Gpu, what: &str) {
        assert_eq!(
            read_back(&gpu.stream, &self.d),
            self.data,
            "{what}: host to device"
        );
        assert_eq!(
            read_back(&gpu.stream, &self.e),
            self.data,
            "{what}: device to device"
        );
        assert_eq!(
            self.dst.as_slice().unwrap(),
            self.data,
            "{what}: device to host"
        );
    }

    fn check_untouched(&self, gpu: &Gpu, what: &str) {
        assert_read_untouched(&gpu.stream, &format!("{what}: d"), &self.d);
        assert_read_untouched(&gpu.stream, &format!("{what}: e"), &self.e);
        assert_untouched(
            &format!("{what}: dst"),
            self.dst.as_slice().unwrap(),
            POISON,
        );
    }
}

#[test]
fn set_memcpy_params_moves_copies_in_every_direction() {
    let Some(gpu) = cudagraph_tests::gpu("set_memcpy_params_moves_copies_in_every_direction")
    else {
        return;
    };
    let mut rng = Rng::new("set_memcpy_params_moves_copies_in_every_direction");
    let n = rng.len_in(1000, 100_000);
    let (mut c1, mut c2) = (Chain::new(&gpu, &mut rng, n), Chain::new(&gpu, &mut rng, n));

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let (htod, dtod, dtoh) = c1.copies();
    let htod = graph.add_memcpy(htod, &[]).unwrap();
    let dtod = graph.add_memcpy(dtod, &[htod.id()]).unwrap();
    let dtoh = graph.add_memcpy(dtoh, &[dtod.id()]).unwrap();
    let mut exec = graph.instantiate().unwrap();

    c1.poison(&gpu);
    c2.poison(&gpu);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    c1.check_copied(&gpu, "before");
    c2.check_untouched(&gpu, "before, second chain");

    let (to_device, on_device, to_host) = c2.copies();
    exec.set_memcpy_params(htod, to_device).unwrap();
    exec.set_memcpy_params(dtod, on_device).unwrap();
    exec.set_memcpy_params(dtoh, to_host).unwrap();
    c1.poison(&gpu);
    c2.poison(&gpu);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    c2.check_copied(&gpu, "after");
    c1.check_untouched(&gpu, "after, first chain");
}

#[test]
fn set_memset_params_changes_value_and_destination() {
    let Some(gpu) = cudagraph_tests::gpu("set_memset_params_changes_value_and_destination") else {
        return;
    };
    let mut rng = Rng::new("set_memset_params_changes_value_and_destination");
    let n = rng.len_in(1000, 100_000);
    let width = rng.len_in(n / 4, n / 2);
    let (lo1, lo2) = (rng.len_in(0, n - width), rng.len_in(0, n - width));
    let values = [
        rng.next_u64() as u32,
        rng.next_u64() as u32,
        rng.next_u64() as u32,
    ];
    // Previous contents that no memset value matches.
    let mut before = || -> Vec<u32> {
        (0..n)
            .map(|_| loop {
                let v = rng.next_u64() as u32;
                if !values.contains(&v) {
                    break v;
                }
            })
            .collect()
    };
    let (before1, before2) = (before(), before());
    let mut buf1 = gpu.stream.clone_htod(&before1).unwrap();
    let mut buf2 = gpu.stream.clone_htod(&before2).unwrap();
    let range1 = DevicePtrMut::from(&mut buf1)
        .try_slice(lo1..lo1 + width)
        .unwrap();
    let range2 = DevicePtrMut::from(&mut buf2)
        .try_slice(lo2..lo2 + width)
        .unwrap();
    let expect = |before: &[u32], range: Option<(usize, u32)>| -> Vec<u32> {
        let mut want = before.to_vec();
        if let Some((lo, value)) = range {
            want[lo..lo + width].fill(value);
        }
        want
    };

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_memset(Memset::new(range1, values[0]), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let steps = [
        // (what, update, value and range written in buf1, in buf2)
        ("as built", None, Some((lo1, values[0])), None),
        (
            "new value",
            Some(Memset::new(range1, values[1])),
            Some((lo1, values[1])),
            None,
        ),
        (
            "new buffer and value",
            Some(Memset::new(range2, values[2])),
            None,
            Some((lo2, values[2])),
        ),
    ];
    for (what, update, in1, in2) in steps {
        if let Some(set) = update {
            exec.set_memset_params(node, set).unwrap();
        }
        gpu.stream.memcpy_htod(&before1, &mut buf1).unwrap();
        gpu.stream.memcpy_htod(&before2, &mut buf2).unwrap();
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            read_back(&gpu.stream, &buf1),
            expect(&before1, in1),
            "{what}: first buffer"
        );
        assert_eq!(
            read_back(&gpu.stream, &buf2),
            expect(&before2, in2),
            "{what}: second buffer"
        );
    }
}

#[test]
fn set_host_fn_replaces_the_closure() {
    let Some(gpu) = cudagraph_tests::gpu("set_host_fn_replaces_the_closure") else {
        return;
    };
    let mut rng = Rng::new("set_host_fn_replaces_the_closure");
    let n = rng.len_in(1000, 50_000);
    let mut dev = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let mut dst = pinned(&gpu.ctx, &vec![POISON; n]);
    let dst_ptr = HostPtrMut::from(dst.as_mut_slice().unwrap());
    // A closure that appends what the copy brought to the host to `log`.
    let reader = |log: &Arc<Mutex<Vec<Vec<f32>>>>| {
        let (log, dst) = (log.clone(), dst_ptr.as_const());
        move || {
            // SAFETY: `dst` is the pinned buffer below, alive until after the last launch; its only
            // writer is the copy this host node depends on.
            let data = unsafe { std::slice::from_raw_parts(dst.addr(), dst.len()) };
            log.lock().unwrap().push(data.to_vec());
        }
    };
    let (old_log, new_log) = (
        Arc::new(Mutex::new(Vec::new())),
        Arc::new(Mutex::new(Vec::new())),
    );

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let down = graph
        .add_memcpy(Memcpy::dtoh(DevicePtr::from(&dev), dst_ptr), &[])
        .unwrap();
    let host = graph.add_host(reader(&old_log), &[down.id()]).unwrap();
    let mut exec = graph.instantiate().unwrap();

    let first = rng.f32s(n);
    gpu.stream.memcpy_htod(&first, &mut dev).unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(*old_log.lock().unwrap(), std::slice::from_ref(&first));
    assert!(new_log.lock().unwrap().is_empty());

    exec.set_host_fn(host, reader(&new_log)).unwrap();
    let second = rng.f32s(n);
    gpu.stream.memcpy_htod(&second, &mut dev).unwrap();
    dst.as_mut_slice().unwrap().fill(POISON);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(
        *old_log.lock().unwrap(),
        [first],
        "the old closure no longer runs"
    );
    assert_eq!(
        *new_log.lock().unwrap(),
        [second],
        "the new closure runs after the copy"
    );
}

/// A child graph: `t = base`, then `t = a * x + t`. Built by the same calls for every variant.
fn child_graph(
    gpu: &Gpu,
    k: &Kernels,
    x: DevicePtr<f32>,
    t: DevicePtrMut<f32>,
    a: f32,
    base: f32,
) -> Graph {
    let mut child = Graph::new(&gpu.ctx).unwrap();
    let set = child.add_memset(Memset::new(t, base), &[]).unwrap();
    child
        .add_kernel(
            &k.saxpy,
            cfg(t.len()),
            (t.len() as u32, a, x, t),
            &[set.id()],
        )
        .unwrap();
    child
}

#[test]
fn set_child_graph_swaps_the_embedded_graphs_parameters() {
    let Some(gpu) = cudagraph_tests::gpu("set_child_graph_swaps_the_embedded_graphs_parameters")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_child_graph_swaps_the_embedded_graphs_parameters");
    let n = rng.len_in(1000, 50_000);
    let ((a1, b1), (a2, b2)) = ((rng.f32(), rng.f32()), (rng.f32(), rng.f32()));
    let x_host = rng.f32s(n);
    let x = gpu.stream.clone_htod(&x_host).unwrap();
    let mut t1 = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let mut t2 = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let want = |a: f32, b: f32| -> Vec<f32> { x_host.iter().map(|x| a * x + b).collect() };

    let mut parent = Graph::new(&gpu.ctx).unwrap();
    let child1 = child_graph(
        &gpu,
        &k,
        DevicePtr::from(&x),
        DevicePtrMut::from(&mut t1),
        a1,
        b1,
    );
    let node = parent.add_child_graph(&child1, &[]).unwrap();
    let mut exec = parent.instantiate().unwrap();
    fill(&gpu.stream, &mut t1, POISON);
    fill(&gpu.stream, &mut t2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "before: t1", &t1, &want(a1, b1));
    assert_read_untouched(&gpu.stream, "before: t2", &t2);

    let child2 = child_graph(
        &gpu,
        &k,
        DevicePtr::from(&x),
        DevicePtrMut::from(&mut t2),
        a2,
        b2,
    );
    exec.set_child_graph(node, &child2).unwrap();
    drop(child2);
    fill(&gpu.stream, &mut t1, POISON);
    fill(&gpu.stream, &mut t2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after: t2", &t2, &want(a2, b2));
    assert_read_untouched(&gpu.stream, "after: t1", &t1);
}

#[test]
fn an_update_does_not_reach_a_launch_already_queued() {
    let Some(gpu) = cudagraph_tests::gpu("an_update_does_not_reach_a_launch_already_queued") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("an_update_does_not_reach_a_launch_already_queued");
    let mut p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);
    let (xp, yp) = p.inputs();
    fill(&gpu.stream, &mut p.out1, POISON);
    fill(&gpu.stream, &mut p.out2, POISON);

    // A slow host node first, so the first launch is still queued when the update is made.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let wait = graph
        .add_host(|| std::thread::sleep(Duration::from_millis(200)), &[])
        .unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, xp, yp, DevicePtrMut::from(&mut p.out1)),
            &[wait.id()],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    exec.set_kernel_params(
        node,
        cfg(n),
        (n as u32, a2, xp, yp, DevicePtrMut::from(&mut p.out2)),
    )
    .unwrap();
    exec.launch(&gpu.stream).unwrap();

    assert_read_close(
        &gpu.stream,
        "first launch: old parameters",
        &p.out1,
        &p.want(a1),
    );
    assert_read_close(
        &gpu.stream,
        "second launch: new parameters",
        &p.out2,
        &p.want(a2),
    );
}

#[test]
fn a_clone_answers_to_the_originals_handles() {
    let Some(gpu) = cudagraph_tests::gpu("a_clone_answers_to_the_originals_handles") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_clone_answers_to_the_originals_handles");
    let mut p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);
    let (xp, yp) = p.inputs();

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, xp, yp, DevicePtrMut::from(&mut p.out1)),
            &[],
        )
        .unwrap();
    let clone = graph.try_clone().unwrap();
    let mut original = graph.instantiate().unwrap();
    let mut copy = clone.instantiate().unwrap();
    copy.set_kernel_params(
        node,
        cfg(n),
        (n as u32, a2, xp, yp, DevicePtrMut::from(&mut p.out2)),
    )
    .unwrap();

    fill(&gpu.stream, &mut p.out1, POISON);
    fill(&gpu.stream, &mut p.out2, POISON);
    copy.launch(&gpu.stream).unwrap();
    assert_read_close(
        &gpu.stream,
        "clone, updated through the original's handle",
        &p.out2,
        &p.want(a2),
    );
    assert_read_untouched(
        &gpu.stream,
        "the original's output, before it runs",
        &p.out1,
    );
    original.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "original, not updated", &p.out1, &p.want(a1));
}

/// Reproduces a runtime bug: after a whole-graph update that gave a kernel node another function
/// (allowed within one context, SPEC 2.4), `set_kernel_params` sends the function of the graph the
/// executable was instantiated from, silently undoing the function change. `GraphExec::update`
/// does not refresh the per-node function `set_kernel_params` re-sends.
#[test]
fn set_kernel_params_after_a_whole_graph_update_keeps_the_new_function() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_kernel_params_after_a_whole_graph_update_keeps_the_new_function")
    else {
        return;
    };
    let module = cudagraph_tests::compile(&gpu.ctx, cudagraph_tests::KERNELS);
    // SAFETY: `scale` and `offset` both take `(unsigned n, float a, float* y)`.
    let (scale, offset): (Kernel<ScaleArgs>, Kernel<ScaleArgs>) = unsafe {
        (
            Kernel::new(cudagraph_tests::function(&module, "scale")),
            Kernel::new(cudagraph_tests::function(&module, "offset")),
        )
    };
    let mut rng = Rng::new("set_kernel_params_after_a_whole_graph_update_keeps_the_new_function");
    let n = rng.len_in(1000, 50_000);
    let (a, b1, b2) = (rng.f32(), rng.f32(), rng.f32());
    let y0 = rng.f32s(n);
    let mut y = gpu.stream.clone_htod(&y0).unwrap();
    let y_ptr = DevicePtrMut::from(&mut y);
    let plus = |b: f32| -> Vec<f32> { y0.iter().map(|y| y + b).collect() };

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(&scale, cfg(n), (n as u32, a, y_ptr), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    other
        .add_kernel(&offset, cfg(n), (n as u32, b1, y_ptr), &[])
        .unwrap();
    exec.update(&other).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after the update: y + b1", &y, &plus(b1));

    gpu.stream.memcpy_htod(&y0, &mut y).unwrap();
    exec.set_kernel_params(node, cfg(n), (n as u32, b2, y_ptr))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(
        &gpu.stream,
        "after a parameter update: still y + b",
        &y,
        &plus(b2),
    );
}
