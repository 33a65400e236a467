//! Updating an instantiated graph (`cuGraphExecUpdate`): whole-graph update from a graph built by the same
//! calls, and single-node updates of kernel, memcpy, memset, host and child-graph nodes. Every
//! test launches before and after the update and checks both results, including that the old
//! targets are left alone once the update has moved a node elsewhere.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    Condition, DeviceToDevice, DeviceToHost, Error, GraphExec, HostToDevice, KernelNode,
    MemsetNode, Mut, UpdateFailure,
};
use cudagraph_tests::graphs::AxpyPair;
use cudagraph_tests::{
    assert_close, assert_read_close, assert_read_untouched, assert_untouched, cfg, fill_buffer,
    read_back, upload, zeros, AxpyOutArgs, Gpu, Kernels, Rng, POISON,
};

/// Page-locked host memory holding `data`.
fn host_buffer(gpu: &Gpu, data: &[f32]) -> HostBuffer<f32> {
    HostBuffer::from_slice(&gpu.ctx, data).unwrap()
}

/// What one variant of the update pipeline reads and writes.
struct Buffers {
    /// What `src` holds.
    input: Vec<f32>,
    src: HostBuffer<f32>,
    x: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
    out: DeviceBuffer<f32>,
    dst: HostBuffer<f32>,
}

impl Buffers {
    fn new(gpu: &Gpu, rng: &mut Rng, n: usize) -> Self {
        let input = rng.f32s(n);
        Self {
            src: host_buffer(gpu, &input),
            input,
            x: zeros(gpu, n),
            y: zeros(gpu, n),
            out: zeros(gpu, n),
            dst: host_buffer(gpu, &vec![POISON; n]),
        }
    }

    /// Poisons every output (after the launches queued so far that use them).
    fn poison(&self) {
        for buf in [&self.x, &self.y, &self.out] {
            fill_buffer(buf, POISON);
        }
        self.dst.write().unwrap().fill(POISON);
    }

    /// Checks the outputs of a launch with `p`.
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
            &self.dst.read().unwrap(),
            &want,
            1e-6,
        );
    }

    /// Checks that no launch wrote any output since the last poisoning.
    fn check_untouched(&self, gpu: &Gpu, what: &str) {
        for (name, buf) in [("x", &self.x), ("y", &self.y), ("out", &self.out)] {
            assert_read_untouched(&gpu.stream, &format!("{what}: {name}"), buf);
        }
        assert_untouched(&format!("{what}: dst"), &self.dst.read().unwrap(), POISON);
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
fn build(
    gpu: &Gpu,
    k: &Kernels,
    b: &Buffers,
    p: Params,
    log: &Arc<Mutex<Vec<u64>>>,
) -> Graph<'static> {
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    build_into(&mut graph, k, b, p, log);
    graph
}

/// [`build`] into the empty `graph`; returns the kernel node.
fn build_into(
    graph: &mut Graph,
    k: &Kernels,
    b: &Buffers,
    p: Params,
    log: &Arc<Mutex<Vec<u64>>>,
) -> KernelNode<AxpyOutArgs> {
    let n = b.input.len();
    let copy_in = graph.add_memcpy(Memcpy::htod(&b.src, &b.x), &[]).unwrap();
    let set = graph.add_memset(Memset::new(&b.y, p.base), &[]).unwrap();
    let args = (n as u32, p.a, &b.x, &b.y, &b.out);
    let axpy = graph
        .add_kernel(&k.axpy_out, cfg(n), args, &[copy_in.id(), set.id()])
        .unwrap();
    let copy_out = graph
        .add_memcpy(Memcpy::dtoh(&b.out, &b.dst), &[axpy.id()])
        .unwrap();
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
    [used, other]: [&Buffers; 2],
    p: Params,
    what: &str,
) {
    used.poison();
    other.poison();
    exec.launch(&gpu.stream).unwrap();
    // The host node's log is not a buffer the graph knows of: wait for the launch to read it.
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
    let (b1, b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let (p1, p2) = (Params::random(&mut rng), Params::random(&mut rng));

    let mut exec = build(&gpu, &k, &b1, p1, &log).instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, [&b1, &b2], p1, "before the update");
    assert_eq!(*log.lock().unwrap(), [p1.tag]);

    // New buffers, scalars and host closure, all at once. The update keeps what the new graph's
    // nodes need (its host closure, its kernel module, its buffers), so the graph may go right
    // away.
    let graph2 = build(&gpu, &k, &b2, p2, &log);
    exec.update(&graph2).unwrap();
    drop(graph2);
    launch_and_check(&gpu, &mut exec, [&b2, &b1], p2, "after the update");
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
    let (b1, b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let first = Params::random(&mut rng);
    let mut exec = build(&gpu, &k, &b1, first, &log).instantiate().unwrap();
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
            0 => (&b2, &b1),
            _ => (&b1, &b2),
        };
        let p = Params::random(&mut rng);
        old_node = Some(build_into(&mut scratch, &k, now, p, &log));
        exec.update(&scratch).unwrap();
        let what = format!("round {round}");
        launch_and_check(&gpu, &mut exec, [now, other], p, &what);
        tags.push(p.tag);
        assert_eq!(*log.lock().unwrap(), tags, "{what}: host nodes run");
    }
    // The scratch graph itself instantiates and runs its latest contents. Built on `b2`: `exec`
    // still holds `b1`'s host buffers, one of which its copy writes, and two executables may not
    // share host memory that either writes.
    let last = Params::random(&mut rng);
    scratch.clear().unwrap();
    build_into(&mut scratch, &k, &b2, last, &log);
    let mut exec2 = scratch.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec2, [&b2, &b1], last, "after a clear");
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
    let p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, &p.x, &p.y, &p.out1),
            &[],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    fill_buffer(&p.out1, POISON);
    fill_buffer(&p.out2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "before: out1", &p.out1, &p.want(a1));
    assert_read_untouched(&gpu.stream, "before: out2", &p.out2);

    // Another scalar, another output buffer, fewer elements and a smaller grid.
    let m = rng.len_in(n / 4, n / 2);
    exec.set_kernel_params(node, cfg(m), (m as u32, a2, &p.x, &p.y, &p.out2))
        .unwrap();
    fill_buffer(&p.out1, POISON);
    fill_buffer(&p.out2, POISON);
    exec.launch(&gpu.stream).unwrap();
    let got = read_back(&gpu.stream, &p.out2);
    assert_close("after: out2", &got[..m], &p.want(a2)[..m], 1e-6);
    assert_untouched("after: out2 beyond the new length", &got[m..], POISON);
    assert_read_untouched(&gpu.stream, "after: out1", &p.out1);
}

/// One host -> device -> device -> host chain's buffers.
struct Chain {
    data: Vec<f32>,
    src: HostBuffer<f32>,
    d: DeviceBuffer<f32>,
    e: DeviceBuffer<f32>,
    dst: HostBuffer<f32>,
}

impl Chain {
    fn new(gpu: &Gpu, rng: &mut Rng, n: usize) -> Self {
        let data = rng.f32s(n);
        Self {
            src: host_buffer(gpu, &data),
            data,
            d: zeros(gpu, n),
            e: zeros(gpu, n),
            dst: host_buffer(gpu, &vec![POISON; n]),
        }
    }

    fn copies(
        &self,
    ) -> (
        Memcpy<'static, HostToDevice>,
        Memcpy<'static, DeviceToDevice>,
        Memcpy<'static, DeviceToHost>,
    ) {
        (
            Memcpy::htod(&self.src, &self.d),
            Memcpy::dtod(&self.d, &self.e),
            Memcpy::dtoh(&self.e, &self.dst),
        )
    }

    fn poison(&self) {
        fill_buffer(&self.d, POISON);
        fill_buffer(&self.e, POISON);
        self.dst.write().unwrap().fill(POISON);
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
            *self.dst.read().unwrap(),
            self.data,
            "{what}: device to host"
        );
    }

    fn check_untouched(&self, gpu: &Gpu, what: &str) {
        assert_read_untouched(&gpu.stream, &format!("{what}: d"), &self.d);
        assert_read_untouched(&gpu.stream, &format!("{what}: e"), &self.e);
        assert_untouched(&format!("{what}: dst"), &self.dst.read().unwrap(), POISON);
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
    let (c1, c2) = (Chain::new(&gpu, &mut rng, n), Chain::new(&gpu, &mut rng, n));

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let (htod, dtod, dtoh) = c1.copies();
    let htod = graph.add_memcpy(htod, &[]).unwrap();
    let dtod = graph.add_memcpy(dtod, &[htod.id()]).unwrap();
    let dtoh = graph.add_memcpy(dtoh, &[dtod.id()]).unwrap();
    let mut exec = graph.instantiate().unwrap();

    c1.poison();
    c2.poison();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    c1.check_copied(&gpu, "before");
    c2.check_untouched(&gpu, "before, second chain");

    let (to_device, on_device, to_host) = c2.copies();
    exec.set_memcpy_params(htod, to_device).unwrap();
    exec.set_memcpy_params(dtod, on_device).unwrap();
    exec.set_memcpy_params(dtoh, to_host).unwrap();
    c1.poison();
    c2.poison();
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
    let buf1 = upload(&gpu, &before1);
    let buf2 = upload(&gpu, &before2);
    let range1 = buf1.slice(lo1..lo1 + width);
    let range2 = buf2.slice(lo2..lo2 + width);
    let expect = |before: &[u32], range: Option<(usize, u32)>| -> Vec<u32> {
        let mut want = before.to_vec();
        if let Some((lo, value)) = range {
            want[lo..lo + width].fill(value);
        }
        want
    };

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_memset(Memset::new(&range1, values[0]), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let steps = [
        // (what, update, value and range written in buf1, in buf2)
        ("as built", None, Some((lo1, values[0])), None),
        (
            "new value",
            Some(Memset::new(&range1, values[1])),
            Some((lo1, values[1])),
            None,
        ),
        (
            "new buffer and value",
            Some(Memset::new(&range2, values[2])),
            None,
            Some((lo2, values[2])),
        ),
    ];
    for (what, update, in1, in2) in steps {
        if let Some(set) = update {
            exec.set_memset_params(node, set).unwrap();
        }
        buf1.copy_from(&before1).unwrap();
        buf2.copy_from(&before2).unwrap();
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

/// A host-node closure that appends the host buffer it is given to `log`.
fn logger(log: &Arc<Mutex<Vec<Vec<f32>>>>) -> impl FnMut(&[f32]) + Send + 'static {
    let log = log.clone();
    move |data| log.lock().unwrap().push(data.to_vec())
}

#[test]
fn set_host_with_replaces_the_closure() {
    let Some(gpu) = cudagraph_tests::gpu("set_host_with_replaces_the_closure") else {
        return;
    };
    let mut rng = Rng::new("set_host_with_replaces_the_closure");
    let n = rng.len_in(1000, 50_000);
    let dev = zeros::<f32>(&gpu, n);
    let dst = host_buffer(&gpu, &vec![POISON; n]);
    let (old_log, new_log) = (
        Arc::new(Mutex::new(Vec::new())),
        Arc::new(Mutex::new(Vec::new())),
    );

    // The host node reads what the copy it depends on brought to the host.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let down = graph.add_memcpy(Memcpy::dtoh(&dev, &dst), &[]).unwrap();
    let host = graph
        .add_host_with(&dst, logger(&old_log), &[down.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    let first = rng.f32s(n);
    dev.copy_from(&first).unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(*old_log.lock().unwrap(), std::slice::from_ref(&first));
    assert!(new_log.lock().unwrap().is_empty());

    exec.set_host_with(host, &dst, logger(&new_log)).unwrap();
    let second = rng.f32s(n);
    dev.copy_from(&second).unwrap();
    dst.write().unwrap().fill(POISON);
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
    x: &DeviceBuffer<f32>,
    t: &DeviceBuffer<f32>,
    a: f32,
    base: f32,
) -> Graph<'static> {
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
    let x = upload(&gpu, &x_host);
    let t1 = zeros::<f32>(&gpu, n);
    let t2 = zeros::<f32>(&gpu, n);
    let want = |a: f32, b: f32| -> Vec<f32> { x_host.iter().map(|x| a * x + b).collect() };

    let mut parent = Graph::new(&gpu.ctx).unwrap();
    let child1 = child_graph(&gpu, &k, &x, &t1, a1, b1);
    let node = parent.add_child_graph(&child1, &[]).unwrap();
    let mut exec = parent.instantiate().unwrap();
    fill_buffer(&t1, POISON);
    fill_buffer(&t2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "before: t1", &t1, &want(a1, b1));
    assert_read_untouched(&gpu.stream, "before: t2", &t2);

    let child2 = child_graph(&gpu, &k, &x, &t2, a2, b2);
    exec.set_child_graph(node, &child2).unwrap();
    drop(child2);
    fill_buffer(&t1, POISON);
    fill_buffer(&t2, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after: t2", &t2, &want(a2, b2));
    assert_read_untouched(&gpu.stream, "after: t1", &t1);
}

/// `set_child_graph` refuses, naming the node, the children `add_child_graph` refuses. The
/// driver itself refuses a child with memory nodes or a conditional node (another topology),
/// but takes one with a device-updatable kernel node in place of a plain one: a host
/// executable then holds a node CUDA lets run only in graphs launched from the device, and
/// destroying that child graph afterwards crashed the process (driver 580.159.04).
#[test]
fn set_child_graph_refuses_what_add_child_graph_refuses() {
    let Some(gpu) = cudagraph_tests::gpu("set_child_graph_refuses_what_add_child_graph_refuses")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1024;
    let x_host: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let x = upload(&gpu, &x_host);
    let t = zeros::<f32>(&gpu, n);
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    parent.name_next("embedded");
    let node = parent
        .add_child_graph(&child_graph(&gpu, &k, &x, &t, 2.0, 1.0), &[])
        .unwrap();
    let mut exec = parent.instantiate().unwrap();

    // The embedded graph's topology (a memset, then a kernel), the kernel device-updatable.
    let mut updatable = Graph::new(&gpu.ctx).unwrap();
    let set = updatable.add_memset(Memset::new(&t, 0.5f32), &[]).unwrap();
    updatable
        .add_device_updatable_kernel(&k.saxpy, cfg(n), (n as u32, 3.0f32, &x, &t), &[set.id()])
        .unwrap();
    // Memory nodes: an allocation set, then freed.
    let mut with_alloc = Graph::new(&gpu.ctx).unwrap();
    let scratch = with_alloc.add_mem_alloc::<f32>(n, &[]).unwrap();
    let set = with_alloc
        .add_memset(Memset::new(scratch, 0.5f32), &[scratch.id()])
        .unwrap();
    with_alloc.add_mem_free(&scratch, &[set.id()]).unwrap();
    // A conditional node.
    let mut with_if = Graph::new(&gpu.ctx).unwrap();
    let handle = with_if.conditional_handle(Some(1)).unwrap();
    with_if
        .add_conditional(handle, Condition::If, &[], |b| {
            b[0].add_memset(Memset::new(&t, 0.5f32), &[]).map(drop)
        })
        .unwrap();

    for (child, what) in [
        (&updatable, "device-updatable kernel nodes"),
        (&with_alloc, "memory nodes"),
        (&with_if, "conditional nodes"),
    ] {
        match exec.set_child_graph(node, child) {
            Err(Error::Invalid { node, reason }) => {
                assert_eq!(node, "embedded", "{what}");
                assert!(reason.contains(what), "{what}: {reason}");
            }
            other => panic!("a child graph with {what}: {other:?}"),
        }
        // As adding it is.
        let mut other = Graph::new(&gpu.ctx).unwrap();
        assert!(
            matches!(
                other.add_child_graph(child, &[]),
                Err(Error::Invalid { .. })
            ),
            "{what}"
        );
    }
    // The executable runs the child it had.
    fill_buffer(&t, POISON);
    exec.launch(&gpu.stream).unwrap();
    let want: Vec<f32> = x_host.iter().map(|x| 2.0 * x + 1.0).collect();
    assert_read_close(&gpu.stream, "after the refusals", &t, &want);

    // What the driver does with the same calls, each in a process of its own (a crash in the
    // driver ends only that one).
    let answers = [
        "memory nodes",
        "device-updatable kernel nodes",
        "conditional nodes",
    ]
    .map(|case| (case, raw_set_child_graph(case)));
    println!("cuGraphExecChildGraphNodeSetParams: {answers:?}");
    let [memory, updatable, conditional] = answers.map(|(_, answer)| answer);
    // Graphs with memory nodes or a conditional node have another topology: refused.
    assert_eq!(memory, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE");
    assert_eq!(conditional, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE");
    // One with device-updatable kernel nodes and the embedded graph's topology is taken, though
    // such nodes may not be embedded (cuGraphAddChildGraphNode) nor launched from the host: the
    // crate's refusal is all that keeps them out of a host executable.
    assert_eq!(updatable, "CUDA_SUCCESS");
}

/// Selects, in a child process of the test program, the case of
/// [`witness_set_child_graph`] to run.
const SET_CHILD_CASE: &str = "CUDAGRAPH_WITNESS_SET_CHILD_CASE";

/// Runs [`witness_set_child_graph`] for `case` in a child process; returns what the driver
/// answered (the `CUresult`'s name), or how the process ended if it did not say.
fn raw_set_child_graph(case: &str) -> String {
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "runtime_update::witness_set_child_graph",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(SET_CHILD_CASE, case)
        .output()
        .expect("running the child");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    if let Some(answer) = said
        .lines()
        .find_map(|line| line.strip_prefix("driver answered: "))
    {
        if !child.status.success() {
            println!(
                "a child with {case}: after the call, the process ended {:?}",
                child.status
            );
        }
        return answer.to_owned();
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = child.status.signal() {
            return format!("the process died of signal {signal} in the call");
        }
    }
    panic!(
        "the witness of a child with {case} gave no answer; it ended {:?}, saying:\n{said}",
        child.status
    );
}

/// The raw `cuGraphExecChildGraphNodeSetParams` on an executable whose child-graph node embeds
/// a memset and a kernel, given a child of the case `CUDAGRAPH_WITNESS_SET_CHILD_CASE` names:
/// run by [`set_child_graph_refuses_what_add_child_graph_refuses`] in a process of its own
/// (does nothing without the variable).
#[test]
fn witness_set_child_graph() {
    let Some(case) = std::env::var_os(SET_CHILD_CASE) else {
        return;
    };
    let Some(gpu) = cudagraph_tests::gpu("witness_set_child_graph") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1024;
    let x = zeros::<f32>(&gpu, n);
    let t = zeros::<f32>(&gpu, n);
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    let node = parent
        .add_child_graph(&child_graph(&gpu, &k, &x, &t, 2.0, 1.0), &[])
        .unwrap();
    let exec = parent.instantiate().unwrap();
    let raw_node = exec.graph().raw_node(node).unwrap();
    let mut child = Graph::new(&gpu.ctx).unwrap();
    match case.to_str().unwrap() {
        "memory nodes" => {
            let scratch = child.add_mem_alloc::<f32>(n, &[]).unwrap();
            let set = child
                .add_memset(Memset::new(scratch, 0.5f32), &[scratch.id()])
                .unwrap();
            child.add_mem_free(&scratch, &[set.id()]).unwrap();
        }
        "device-updatable kernel nodes" => {
            let set = child.add_memset(Memset::new(&t, 0.5f32), &[]).unwrap();
            child
                .add_device_updatable_kernel(
                    &k.saxpy,
                    cfg(n),
                    (n as u32, 3.0f32, &x, &t),
                    &[set.id()],
                )
                .unwrap();
        }
        "conditional nodes" => {
            let handle = child.conditional_handle(Some(1)).unwrap();
            child
                .add_conditional(handle, Condition::If, &[], |b| {
                    b[0].add_memset(Memset::new(&t, 0.5f32), &[]).map(drop)
                })
                .unwrap();
        }
        other => panic!("no case {other}"),
    }
    // SAFETY: a live executable of this process and a child-graph node of its graph; a live
    // graph of the same context. (What the driver does with it is what is asked.)
    let answer = unsafe {
        cudagraph_runtime::cudarc::driver::sys::cuGraphExecChildGraphNodeSetParams(
            exec.raw(),
            raw_node,
            child.raw(),
        )
    };
    eprintln!("driver answered: {answer:?}");
    // The process ends without destroying either: after a device-updatable child was taken,
    // destroying the child graph (once the executable was gone) ended a probe of this witness
    // with a segmentation fault (driver 580.159.04), which would hide the answer.
    std::mem::forget(exec);
    std::mem::forget(child);
}

#[test]
fn an_update_does_not_reach_a_launch_already_queued() {
    let Some(gpu) = cudagraph_tests::gpu("an_update_does_not_reach_a_launch_already_queued") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("an_update_does_not_reach_a_launch_already_queued");
    let p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);
    fill_buffer(&p.out1, POISON);
    fill_buffer(&p.out2, POISON);

    // A slow host node first, so the first launch is still queued when the update is made.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let wait = graph
        .add_host(|| std::thread::sleep(Duration::from_millis(200)), &[])
        .unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, &p.x, &p.y, &p.out1),
            &[wait.id()],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    exec.set_kernel_params(node, cfg(n), (n as u32, a2, &p.x, &p.y, &p.out2))
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
    let p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(
            &k.axpy_out,
            cfg(n),
            (n as u32, a1, &p.x, &p.y, &p.out1),
            &[],
        )
        .unwrap();
    let clone = graph.try_clone().unwrap();
    let mut original = graph.instantiate().unwrap();
    let mut copy = clone.instantiate().unwrap();
    copy.set_kernel_params(node, cfg(n), (n as u32, a2, &p.x, &p.y, &p.out2))
        .unwrap();

    fill_buffer(&p.out1, POISON);
    fill_buffer(&p.out2, POISON);
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
/// (allowed within one context by `cuGraphExecKernelNodeSetParams`), `set_kernel_params` sends the function of the graph the
/// executable was instantiated from, silently undoing the function change. `GraphExec::update`
/// does not refresh the per-node function `set_kernel_params` re-sends.
#[test]
fn set_kernel_params_after_a_whole_graph_update_keeps_the_new_function() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_kernel_params_after_a_whole_graph_update_keeps_the_new_function")
    else {
        return;
    };
    let Kernels { scale, offset, .. } = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_kernel_params_after_a_whole_graph_update_keeps_the_new_function");
    let n = rng.len_in(1000, 50_000);
    let (a, b1, b2) = (rng.f32(), rng.f32(), rng.f32());
    let y0 = rng.f32s(n);
    let y = upload(&gpu, &y0);
    let plus = |b: f32| -> Vec<f32> { y0.iter().map(|y| y + b).collect() };

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let node = graph
        .add_kernel(&scale, cfg(n), (n as u32, a, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    other
        .add_kernel(&offset, cfg(n), (n as u32, b1, &y), &[])
        .unwrap();
    exec.update(&other).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after the update: y + b1", &y, &plus(b1));

    y.copy_from(&y0).unwrap();
    exec.set_kernel_params(node, cfg(n), (n as u32, b2, &y))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(
        &gpu.stream,
        "after a parameter update: still y + b",
        &y,
        &plus(b2),
    );
}

/// Two memsets joined by an empty node: `a` sets `x` to 1, `b` sets `y` to 2, added in that
/// order, or `b` first (`swapped`), the join's dependencies listed `[a, b]` either way.
fn two_memsets_joined(
    gpu: &Gpu,
    (x, y): (&DeviceBuffer<u32>, &DeviceBuffer<u32>),
    swapped: bool,
) -> (Graph<'static>, MemsetNode<u32>, MemsetNode<u32>) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let add = |g: &mut Graph<'static>, buf: &DeviceBuffer<u32>, v: u32| {
        g.add_memset(Memset::new(buf, v), &[]).unwrap()
    };
    let (a, b) = if swapped {
        let b = add(&mut g, y, 2);
        (add(&mut g, x, 1), b)
    } else {
        let a = add(&mut g, x, 1);
        (a, add(&mut g, y, 2))
    };
    g.add_empty(&[a.id(), b.id()]).unwrap();
    (g, a, b)
}

/// `cuGraphExecUpdate` pairs the nodes of two graphs through their sinks and dependency lists
/// (in edge order); the executable's record of each node's memory pairs them by position. A
/// graph with the same topology whose nodes were added in another order would be paired
/// crosswise by CUDA: the records would then say that `a` writes `y2` and `b` writes `x2`, while
/// `a` writes `x2` and `b` writes `y2`, and an update of `a` would release `y2`, which `b` goes on
/// writing at every launch (into the sentinel allocated where `y2` was). Such a graph is refused
/// as another topology; one built by the same calls in the same order updates.
#[test]
fn an_update_from_a_graph_built_in_another_order_is_refused() {
    let Some(gpu) =
        cudagraph_tests::gpu("an_update_from_a_graph_built_in_another_order_is_refused")
    else {
        return;
    };
    const SENTINEL: u32 = 0x5e57_1e15;
    let n = 1 << 16;
    let [x1, y1, x2, y2, z] = [(); 5].map(|()| zeros::<u32>(&gpu, n));
    let (g1, a, _) = two_memsets_joined(&gpu, (&x1, &y1), false);
    let mut exec = g1.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        (
            read_back(&gpu.stream, &x1)[0],
            read_back(&gpu.stream, &y1)[0]
        ),
        (1, 2)
    );

    let (swapped, _, _) = two_memsets_joined(&gpu, (&x2, &y2), true);
    match exec.update(&swapped) {
        Err(Error::UpdateRejected {
            reason: UpdateFailure::TopologyChanged,
            ..
        }) => {}
        Ok(()) => {
            // What the refusal prevents: the records pair `a` with `y2`, CUDA with `x2`.
            exec.set_memset_params(a, Memset::new(&z, 3u32)).unwrap();
            drop((swapped, y2));
            let sentinel = DeviceBuffer::from_host(&gpu.stream, &vec![SENTINEL; n]).unwrap();
            exec.launch(&gpu.stream).unwrap();
            let overwritten = sentinel
                .to_vec()
                .unwrap()
                .iter()
                .filter(|&&v| v != SENTINEL)
                .count();
            panic!(
                "the update from a graph built in another order was made; after an update of \
                 `a`, a launch overwrote {overwritten} of {n} elements of the sentinel \
                 allocated where the released `y2` was"
            );
        }
        Err(e) => panic!("expected the update to be refused as another topology, got {e}"),
    }
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &x2),
        vec![0; n],
        "the refused graph's x2"
    );

    // Built by the same calls in the same order: paired by position, by CUDA as by the records.
    let (same, _, _) = two_memsets_joined(&gpu, (&x2, &y2), false);
    exec.update(&same).unwrap();
    exec.set_memset_params(a, Memset::new(&z, 3u32)).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &z), vec![3; n]);
    assert_eq!(read_back(&gpu.stream, &y2), vec![2; n]);
    assert_eq!(
        read_back(&gpu.stream, &x2),
        vec![0; n],
        "a moved to z before x2 was written"
    );
}

/// A node removed from a graph (a failed capture into it takes its recorded nodes out again)
/// may change the order in which CUDA pairs the graph's sinks with another graph's, which the
/// executable's records cannot follow: a whole-graph update from (or of an executable of) such a
/// graph is refused, and re-instantiating from it works.
#[test]
fn an_update_from_a_graph_that_lost_a_node_is_refused() {
    let Some(gpu) = cudagraph_tests::gpu("an_update_from_a_graph_that_lost_a_node_is_refused")
    else {
        return;
    };
    let n = 4096;
    let [x1, y1, x2, y2] = [(); 4].map(|()| zeros::<u32>(&gpu, n));
    let (g1, _, _) = two_memsets_joined(&gpu, (&x1, &y1), false);
    let mut exec = g1.instantiate().unwrap();
    let (mut g2, a2, _) = two_memsets_joined(&gpu, (&x2, &y2), false);
    let failed = g2.capture_into(&gpu.stream, &[a2.id()], Mut(x2.clone()), |s, mut x| {
        s.memset_zeros(&mut x)?;
        Err::<(), Error>(Error::Invalid {
            node: "<body>".into(),
            reason: "the body gave up".into(),
        })
    });
    assert!(matches!(failed, Err(Error::Invalid { .. })), "{failed:?}");
    assert_eq!(g2.len(), 3, "the recorded memset was removed");
    match exec.update(&g2) {
        Err(Error::Invalid { reason, .. }) => assert!(reason.contains("removed"), "{reason}"),
        other => panic!("expected the update to be refused, got {other:?}"),
    }
    exec.reinstantiate_from(g2, InstantiateFlags::NONE).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &x2), vec![1; n]);
    assert_eq!(read_back(&gpu.stream, &y2), vec![2; n]);
}
