//! Host nodes: a Rust closure runs once per launch, after the nodes it depends on (here a
//! device-to-host copy whose data it reads), and a panic inside it is caught at the driver boundary
//! and reported by the next launch as `Error::HostPanicked` naming the node.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::graphs::Counters;
use cudagraph_tests::{assert_close, cfg, fill_buffer, read_back, zeros, Kernels, Rng, POISON};

#[test]
fn host_node_runs_after_the_copy_it_depends_on() {
    let Some(gpu) = cudagraph_tests::gpu("host_node_runs_after_the_copy_it_depends_on") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("host_node_runs_after_the_copy_it_depends_on");
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let src = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let dev = zeros::<f32>(&gpu, n);

    // src -> dev, dev *= a, dev -> dst, then the host node reads dst.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let up = graph.add_memcpy(Memcpy::htod(&src, &dev), &[]).unwrap();
    let scale = graph
        .add_kernel(&k.scale, cfg(n), (n as u32, a, &dev), &[up.id()])
        .unwrap();
    let down = graph
        .add_memcpy(Memcpy::dtoh(&dev, &dst), &[scale.id()])
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::<Vec<f32>>::new()));
    let reader = seen.clone();
    graph
        .add_host_with(
            &dst,
            move |dst: &[f32]| reader.lock().unwrap().push(dst.to_vec()),
            &[down.id()],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    for launch in 1..=3 {
        let data = rng.f32s(n);
        src.write().unwrap().copy_from_slice(&data);
        dst.write().unwrap().fill(POISON);
        fill_buffer(&dev, POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();

        let want: Vec<f32> = data.iter().map(|v| a * v).collect();
        assert_close(
            &format!("launch {launch}: copied to host"),
            &dst.read().unwrap(),
            &want,
            1e-6,
        );
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), launch, "the host node runs once per launch");
        // Had it run before the copy, it would have read the poison.
        assert_close(
            &format!("launch {launch}: read by the host node"),
            &seen[launch - 1],
            &want,
            1e-6,
        );
    }
}

#[test]
fn host_node_panic_is_reported_by_the_next_launch() {
    let Some(gpu) = cudagraph_tests::gpu("host_node_panic_is_reported_by_the_next_launch") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("host_node_panic_is_reported_by_the_next_launch");
    let c = Counters::new(&gpu, &mut rng);

    // y += add, then a host node that panics on its first call only.
    let calls = Arc::new(AtomicUsize::new(0));
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let bump = c.add_bump(&mut graph, &k, &[]);
    let counter = calls.clone();
    let host = move || {
        let call = counter.fetch_add(1, Ordering::SeqCst) + 1;
        if call == 1 {
            panic!("host node exploded on call {call}");
        }
    };
    graph
        .name_next("boom")
        .add_host(host, &[bump.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    // The panic is caught: the launch completes and the process lives on.
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        read_back(&gpu.stream, &c.y),
        c.after(1),
        "the kernel before the panicking node ran"
    );

    // The next launch reports it, naming the node, and is not made.
    match exec.launch(&gpu.stream) {
        Err(Error::HostPanicked { node, message }) => {
            eprintln!("reported: host node `{node}` panicked: {message}");
            assert_eq!(node, "boom");
            assert!(
                message.contains("exploded on call 1"),
                "panic message: {message}"
            );
        }
        other => panic!("expected Error::HostPanicked, got {other:?}"),
    }
    gpu.stream.synchronize().unwrap();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the refused launch did not run the host node"
    );
    assert_eq!(
        read_back(&gpu.stream, &c.y),
        c.after(1),
        "the refused launch did not run the kernel"
    );

    // Reported once: later launches run normally.
    exec.check_host_panics().unwrap();
    for launches in 2..=3 {
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), launches as usize);
        assert_eq!(
            read_back(&gpu.stream, &c.y),
            c.after(launches),
            "after {launches} launches"
        );
    }
}

#[test]
fn host_node_panic_inside_a_child_graph_is_reported() {
    let Some(gpu) = cudagraph_tests::gpu("host_node_panic_inside_a_child_graph_is_reported") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("host_node_panic_inside_a_child_graph_is_reported");
    let c = Counters::new(&gpu, &mut rng);

    let mut child = Graph::new(&gpu.ctx).unwrap();
    child
        .name_next("inner_boom")
        .add_host(|| panic!("child host node exploded"), &[])
        .unwrap();
    let mut parent = Graph::new(&gpu.ctx).unwrap();
    let bump = c.add_bump(&mut parent, &k, &[]);
    parent.add_child_graph(&child, &[bump.id()]).unwrap();
    drop(child); // the parent embeds a clone and watches its host nodes itself
    let mut exec = parent.instantiate().unwrap();

    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(read_back(&gpu.stream, &c.y), c.after(1));
    match exec.launch(&gpu.stream) {
        Err(Error::HostPanicked { node, message }) => {
            eprintln!("reported: host node `{node}` panicked: {message}");
            assert_eq!(node, "inner_boom");
            assert_eq!(message, "child host node exploded");
        }
        other => panic!("expected Error::HostPanicked, got {other:?}"),
    }
}

#[test]
fn panic_in_a_replaced_host_fn_names_the_node() {
    let Some(gpu) = cudagraph_tests::gpu("panic_in_a_replaced_host_fn_names_the_node") else {
        return;
    };
    let mut rng = Rng::new("panic_in_a_replaced_host_fn_names_the_node");
    let token = rng.next_u64();
    let log = Arc::new(Mutex::new(Vec::new()));

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let writer = log.clone();
    let host = graph
        .name_next("logger")
        .add_host(move || writer.lock().unwrap().push(token), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), [token]);

    exec.set_host_fn(host, move || panic!("replacement {token} exploded"))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(
        *log.lock().unwrap(),
        [token],
        "the replaced closure no longer runs"
    );
    match exec.launch(&gpu.stream) {
        Err(Error::HostPanicked { node, message }) => {
            assert_eq!(node, "logger");
            assert_eq!(message, format!("replacement {token} exploded"));
        }
        other => panic!("expected Error::HostPanicked, got {other:?}"),
    }
}

/// A host node that reaches this crate's calls through shared state (an executable, a graph, a
/// buffer behind a mutex) gets `Error::InHostNode` from each, before any driver call: CUDA
/// forbids driver calls in a host function.
#[test]
fn a_host_node_calling_the_crate_gets_in_host_node() {
    let Some(gpu) = cudagraph_tests::gpu("a_host_node_calling_the_crate_gets_in_host_node") else {
        return;
    };
    let buf = DeviceBuffer::<u32>::zeros(&gpu.stream, 64).unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    let set = other.add_memset(Memset::new(&buf, 7u32), &[]).unwrap();
    let spare = other.try_clone().unwrap();
    let inner = Arc::new(Mutex::new(
        other.try_clone().unwrap().instantiate().unwrap(),
    ));
    let shared = Arc::new(Mutex::new((other, Some(spare))));
    let seen: Arc<Mutex<Vec<(&'static str, String)>>> = Arc::default();

    let (ctx, stream) = (gpu.ctx.clone(), gpu.stream.clone());
    let (inner2, shared2, seen2, buf2) = (inner.clone(), shared.clone(), seen.clone(), buf.clone());
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_host(
            move || {
                let mut exec = inner2.lock().unwrap();
                let mut graphs = shared2.lock().unwrap();
                let (other, spare) = &mut *graphs;
                let results: Vec<(&'static str, cudagraph_runtime::Result<()>)> = vec![
                    ("launch", exec.launch(&stream)),
                    ("upload", exec.upload(&stream)),
                    ("update", exec.update(other)),
                    ("set_enabled", exec.set_enabled(set, false)),
                    (
                        "set_memset_params",
                        exec.set_memset_params(set, Memset::new(&buf2, 1u32)),
                    ),
                    ("Graph::new", Graph::new(&ctx).map(drop)),
                    ("add_empty", other.add_empty(&[]).map(drop)),
                    ("try_clone", other.try_clone().map(drop)),
                    ("instantiate", spare.take().unwrap().instantiate().map(drop)),
                    (
                        "DeviceBuffer::zeros",
                        DeviceBuffer::<u32>::zeros(&stream, 4).map(drop),
                    ),
                    ("to_vec", buf2.to_vec().map(drop)),
                    (
                        "HostBuffer::zeroed",
                        HostBuffer::<u32>::zeroed(&ctx, 4).map(drop),
                    ),
                    (
                        "UserObject::new",
                        cudagraph_runtime::UserObject::new(1u8).map(drop),
                    ),
                ];
                let mut seen = seen2.lock().unwrap();
                for (call, result) in results {
                    seen.push((call, format!("{result:?}")));
                }
            },
            &[],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    exec.check_host_panics().unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 13, "the host node ran once: {seen:?}");
    for (call, result) in seen.iter() {
        assert!(
            result.starts_with("Err(InHostNode"),
            "{call} in a host node: {result}"
        );
    }
    // Outside the host node, the same executable launches.
    inner.lock().unwrap().launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(buf.to_vec().unwrap(), vec![7; 64]);
}
