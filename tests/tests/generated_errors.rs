//! Errors from generated code name the declared node: a memcpy whose lengths differ (at build,
//! in `set_params`, through its handle), a host node that panics (reported by the next launch,
//! also when the closure came from a handle, a whole-graph update or a child graph of another
//! declaration). After each error the executable still launches and computes what it computed
//! before. A panic in a node expression part way through an update (caught) leaves the executable
//! refusing launches until a whole-graph update, since its nodes may disagree with its params.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, HostCallback};
use cudagraph_tests::{
    fill_buffer, read_back, upload, zeros, AddU32Args, Gpu, Kernels, Rng, POISON,
};

cuda_graph! {
    /// `host_src -> a -> b -> host_dst`: one copy of each direction.
    graph Copies {
        params {
            host_src: HostBuffer<f32>,
            a: DeviceBuffer<f32>,
            b: DeviceBuffer<f32>,
            host_dst: HostBuffer<f32>,
        }
        load_in: memcpy(host_src -> a);
        shuffle: memcpy(a -> b);
        download: memcpy(b -> host_dst);
        load_in -> shuffle -> download;
    }
}

/// Asserts `result` is `Error::Invalid` about node `node`, saying the lengths differ.
#[track_caller]
fn assert_length_error<T: std::fmt::Debug>(result: cudagraph_runtime::Result<T>, node: &str) {
    match result {
        Err(e @ Error::Invalid { .. }) => {
            let text = e.to_string();
            eprintln!("reported: {text}");
            let Error::Invalid {
                node: named,
                reason,
            } = e
            else {
                unreachable!()
            };
            assert_eq!(named, node, "the error names the declared node: {text}");
            assert!(text.contains(&format!("`{node}`")), "{text}");
            assert!(reason.contains("lengths must match"), "{text}");
        }
        other => panic!("expected Error::Invalid about `{node}`, got {other:?}"),
    }
}

/// The buffers of a `Copies`: `len` elements each, one element more in `long_*`.
struct CopyBuffers {
    input: Vec<f32>,
    host_src: HostBuffer<f32>,
    a: DeviceBuffer<f32>,
    b: DeviceBuffer<f32>,
    host_dst: HostBuffer<f32>,
    long_a: DeviceBuffer<f32>,
}

impl CopyBuffers {
    fn new(gpu: &Gpu, rng: &mut Rng) -> Self {
        let len = rng.len_in(1000, 50_000);
        let input = rng.f32s(len);
        Self {
            host_src: HostBuffer::from_slice(&gpu.ctx, &input).unwrap(),
            input,
            a: zeros(gpu, len),
            b: zeros(gpu, len),
            host_dst: HostBuffer::from_slice(&gpu.ctx, &vec![POISON; len]).unwrap(),
            long_a: zeros(gpu, len + 1),
        }
    }

    fn params(&self) -> CopiesParams {
        CopiesParams {
            host_src: self.host_src.clone(),
            a: self.a.clone(),
            b: self.b.clone(),
            host_dst: self.host_dst.clone(),
        }
    }

    /// Poisons, launches, and checks the input made it through `a` and `b` to `host_dst`.
    fn launch_and_check(&self, gpu: &Gpu, exec: &mut CopiesExec, what: &str) {
        fill_buffer(&self.a, POISON);
        fill_buffer(&self.b, POISON);
        self.host_dst.write().unwrap().fill(POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(read_back(&gpu.stream, &self.a), self.input, "{what}: a");
        assert_eq!(read_back(&gpu.stream, &self.b), self.input, "{what}: b");
        assert_eq!(
            self.host_dst.to_vec().unwrap(),
            self.input,
            "{what}: host_dst"
        );
    }
}

#[test]
fn memcpy_length_mismatch_at_build_names_the_declared_node() {
    let Some(gpu) = cudagraph_tests::gpu("memcpy_length_mismatch_at_build_names_the_declared_node")
    else {
        return;
    };
    let mut rng = Rng::new("memcpy_length_mismatch_at_build_names_the_declared_node");
    let bufs = CopyBuffers::new(&gpu, &mut rng);
    let good = bufs.params();
    let len = bufs.input.len();

    // One bad copy at a time, in each direction: the error names that node.
    let bad_upload = CopiesParams {
        a: bufs.long_a.clone(),
        ..bufs.params()
    };
    assert_length_error(Copies::build(&gpu.ctx, &bad_upload), "load_in");
    let bad_shuffle = CopiesParams {
        b: good.b.slice(..len - 1),
        ..bufs.params()
    };
    assert_length_error(Copies::build(&gpu.ctx, &bad_shuffle), "shuffle");
    let bad_download = CopiesParams {
        host_dst: good.host_dst.slice(1..),
        ..bufs.params()
    };
    assert_length_error(Copies::build(&gpu.ctx, &bad_download), "download");

    // The good params still build, and the graph copies.
    let mut exec = Copies::build(&gpu.ctx, &good)
        .unwrap()
        .instantiate()
        .unwrap();
    bufs.launch_and_check(&gpu, &mut exec, "good params");

    // A rebuild in place reports the same error; the half-built graph is refused as an update
    // source (the executable keeps running the good params) until a good rebuild.
    let mut graph = Copies::build(&gpu.ctx, &good).unwrap();
    assert_length_error(graph.rebuild(&bad_shuffle), "shuffle");
    assert!(
        exec.update(&graph).is_err(),
        "an update from a half-rebuilt graph is refused"
    );
    bufs.launch_and_check(&gpu, &mut exec, "after the refused update");
    graph.rebuild(&good).unwrap();
    exec.update(&graph).unwrap();
    bufs.launch_and_check(&gpu, &mut exec, "after a good rebuild");
}

#[test]
fn memcpy_length_mismatch_in_updates_names_the_declared_node() {
    let Some(gpu) =
        cudagraph_tests::gpu("memcpy_length_mismatch_in_updates_names_the_declared_node")
    else {
        return;
    };
    let mut rng = Rng::new("memcpy_length_mismatch_in_updates_names_the_declared_node");
    let bufs = CopyBuffers::new(&gpu, &mut rng);
    let good = bufs.params();
    let len = bufs.input.len();
    let mut exec = Copies::build(&gpu.ctx, &good)
        .unwrap()
        .instantiate()
        .unwrap();
    bufs.launch_and_check(&gpu, &mut exec, "as built");

    // set_params: `b` one element short breaks `shuffle` and `download`; the first in build
    // order is named.
    let bad = CopiesParams {
        b: good.b.slice(..len - 1),
        ..bufs.params()
    };
    assert_length_error(exec.set_params(&bad), "shuffle");
    bufs.launch_and_check(&gpu, &mut exec, "after the refused set_params");

    // Through the handles.
    assert_length_error(exec.load_in().set(&good.host_src, &bufs.long_a), "load_in");
    assert_length_error(
        exec.download().set(&good.b, &good.host_dst.slice(1..)),
        "download",
    );
    bufs.launch_and_check(&gpu, &mut exec, "after the refused handle sets");

    // The good params are accepted again (the nodes the refused call may have reached included).
    exec.set_params(&good).unwrap();
    bufs.launch_and_check(&gpu, &mut exec, "after set_params with the good params");
}

#[test]
fn a_set_params_refused_part_way_leaves_no_node_with_the_refused_params() {
    let Some(gpu) = cudagraph_tests::gpu(
        "a_set_params_refused_part_way_leaves_no_node_with_the_refused_params",
    ) else {
        return;
    };
    let mut rng = Rng::new("a_set_params_refused_part_way_leaves_no_node_with_the_refused_params");
    let bufs = CopyBuffers::new(&gpu, &mut rng);
    let good = bufs.params();
    let other_a = zeros::<f32>(&gpu, bufs.input.len());
    let mut exec = Copies::build(&gpu.ctx, &good)
        .unwrap()
        .instantiate()
        .unwrap();
    bufs.launch_and_check(&gpu, &mut exec, "as built");

    // Another `a` of the same length, which `load_in` and `shuffle` accept, and a `host_dst` one
    // element short, which `download` refuses. Nodes are updated in build order: the first two
    // take `other_a` before the third refuses.
    let bad = CopiesParams {
        a: other_a.clone(),
        host_dst: good.host_dst.slice(1..),
        ..bufs.params()
    };
    assert_length_error(exec.set_params(&bad), "download");

    // The refusal undid the call: `load_in` and `shuffle` are set back to the good `a`, so the
    // next launch copies as before and never touches the refused one.
    fill_buffer(&other_a, POISON);
    bufs.launch_and_check(&gpu, &mut exec, "after the refused set_params");
    let stray = read_back(&gpu.stream, &other_a);
    cudagraph_tests::assert_untouched("the refused `a`", &stray, POISON);
    assert_eq!(
        exec.params().a.addr(),
        good.a.addr(),
        "the params are the good ones"
    );
    // Nothing was left half-applied or pending: the good params change nothing.
    assert_eq!(exec.set_params(&good).unwrap(), 0);
    bufs.launch_and_check(&gpu, &mut exec, "after set_params with the good params");
}

cuda_graph! {
    /// `y += k`, then a host node that runs `check`.
    graph Checked {
        params {
            add: Kernel<AddU32Args>,
            y: DeviceBuffer<u32>,
            n: u32,
            k: u32,
            check: HostCallback,
        }
        bump: kernel add<<<n.div_ceil(256), 256>>>(n, k, y);
        verify: host(check);
        bump -> verify;
    }

    /// A host node inside a graph embedded by `Outer`.
    graph Fragile {
        params {
            check: HostCallback,
        }
        inner_check: host(check);
    }

    /// `y += k`, then the `Fragile` child.
    graph Outer {
        params {
            add: Kernel<AddU32Args>,
            y: DeviceBuffer<u32>,
            n: u32,
            k: u32,
            fragile: Fragile,
        }
        bump: kernel add<<<n.div_ceil(256), 256>>>(n, k, y);
        nested: child(fragile);
        bump -> nested;
    }
}

/// A callback that panics with `message` on its first call only, and counts its calls.
fn panics_once(message: &'static str) -> (HostCallback, Arc<AtomicUsize>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    let callback = HostCallback::new(move || {
        if counter.fetch_add(1, Ordering::SeqCst) == 0 {
            panic!("{message}");
        }
    });
    (callback, calls)
}

/// Asserts `result` reports a panic of host node `node` with `message`.
#[track_caller]
fn assert_host_panic(result: cudagraph_runtime::Result<()>, node: &str, message: &str) {
    match result {
        Err(Error::HostPanicked {
            node: named,
            message: said,
        }) => {
            eprintln!("reported: host node `{named}` panicked: {said}");
            assert_eq!(named, node, "the report names the declared node");
            assert_eq!(said, message);
        }
        other => panic!("expected Error::HostPanicked from `{node}`, got {other:?}"),
    }
}

/// A `u32` buffer with random contents below 2^20, and those contents.
fn counters(gpu: &Gpu, rng: &mut Rng) -> (Vec<u32>, DeviceBuffer<u32>) {
    let n = rng.len_in(1000, 50_000);
    let y0: Vec<u32> = (0..n).map(|_| rng.below(1 << 20)).collect();
    let y = upload(gpu, &y0);
    (y0, y)
}

#[test]
fn host_node_panic_is_reported_by_the_next_launch_naming_the_declared_node() {
    let Some(gpu) = cudagraph_tests::gpu(
        "host_node_panic_is_reported_by_the_next_launch_naming_the_declared_node",
    ) else {
        return;
    };
    let kernels = Kernels::load(&gpu.ctx);
    let mut rng =
        Rng::new("host_node_panic_is_reported_by_the_next_launch_naming_the_declared_node");
    let (y0, y) = counters(&gpu, &mut rng);
    let k = rng.below(1000) + 1;
    let (check, calls) = panics_once("verify exploded");
    let mut p = CheckedParams {
        add: kernels.add_u32.clone(),
        y: y.clone(),
        n: y0.len() as u32,
        k,
        check,
    };
    let mut exec = Checked::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    let after = |launches: u32| -> Vec<u32> { y0.iter().map(|v| v + launches * k).collect() };

    // The panic is caught: the launch completes.
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        read_back(&gpu.stream, &y),
        after(1),
        "the kernel before it ran"
    );
    // The next launch reports it, naming the node, and is not made.
    assert_host_panic(exec.launch(&gpu.stream), "verify", "verify exploded");
    gpu.stream.synchronize().unwrap();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "the refused launch ran nothing"
    );
    assert_eq!(
        read_back(&gpu.stream, &y),
        after(1),
        "the refused launch ran nothing"
    );
    // Reported once: the following launch runs.
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), after(2));
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    // A closure set through the handle is named the same.
    exec.verify()
        .set(|| panic!("the handle's closure exploded"))
        .unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_host_panic(
        exec.launch(&gpu.stream),
        "verify",
        "the handle's closure exploded",
    );
    assert_eq!(read_back(&gpu.stream, &y), after(3));

    // So is one that set_params installs (another callback: one node updated).
    let (check, calls) = panics_once("the new callback exploded");
    p.check = check;
    assert_eq!(exec.set_params(&p).unwrap(), 1);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_host_panic(
        exec.launch(&gpu.stream),
        "verify",
        "the new callback exploded",
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(read_back(&gpu.stream, &y), after(4));

    // And one a whole-graph update brings.
    let (check, calls) = panics_once("the updated callback exploded");
    p.check = check;
    let graph = Checked::build(&gpu.ctx, &p).unwrap();
    exec.update(&graph).unwrap();
    drop(graph);
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_host_panic(
        exec.launch(&gpu.stream),
        "verify",
        "the updated callback exploded",
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(read_back(&gpu.stream, &y), after(5));
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &y), after(6));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn host_node_panic_in_a_child_declaration_names_its_node() {
    let Some(gpu) = cudagraph_tests::gpu("host_node_panic_in_a_child_declaration_names_its_node")
    else {
        return;
    };
    let kernels = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("host_node_panic_in_a_child_declaration_names_its_node");
    let (y0, y) = counters(&gpu, &mut rng);
    let k = rng.below(1000) + 1;
    let (check, calls) = panics_once("the nested check exploded");
    let fragile = Fragile::build(&gpu.ctx, &FragileParams { check }).unwrap();
    let p = OuterParams {
        add: kernels.add_u32.clone(),
        y: y.clone(),
        n: y0.len() as u32,
        k,
        fragile,
    };
    let mut exec = Outer::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(
        read_back(&gpu.stream, &y),
        y0.iter().map(|v| v + k).collect::<Vec<_>>()
    );
    // The node as declared in `Fragile`.
    assert_host_panic(
        exec.launch(&gpu.stream),
        "inner_check",
        "the nested check exploded",
    );
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &y),
        y0.iter().map(|v| v + 2 * k).collect::<Vec<_>>()
    );
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

/// `k` as a kernel argument; panics for 13, as a node expression of the user's may.
fn unlucky(k: u32) -> u32 {
    assert_ne!(k, 13, "an unlucky k");
    k
}

cuda_graph! {
    /// `a += k`, then `b += unlucky(k)`: both read `k`, the second through code that may panic.
    graph TwoReaders {
        params {
            add: Kernel<AddU32Args>,
            a: DeviceBuffer<u32>,
            b: DeviceBuffer<u32>,
            n: u32,
            k: u32,
        }
        first: kernel add<<<n.div_ceil(256), 256>>>(n, k, a);
        second: kernel add<<<n.div_ceil(256), 256>>>(n, unlucky(k), b);
        first -> second;
    }
}

#[test]
fn a_panic_part_way_through_an_update_leaves_the_executable_refusing_launches() {
    let name = "a_panic_part_way_through_an_update_leaves_the_executable_refusing_launches";
    let Some(gpu) = cudagraph_tests::gpu(name) else {
        return;
    };
    let kernels = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(name);
    let (a0, a) = counters(&gpu, &mut rng);
    let b = upload(&gpu, &a0);
    let k = rng.below(1000) + 14;
    let params = TwoReadersParams {
        add: kernels.add_u32.clone(),
        a: a.clone(),
        b: b.clone(),
        n: a0.len() as u32,
        k,
    };
    let mut exec = TwoReaders::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    let plus = |total: u32| -> Vec<u32> { a0.iter().map(|v| v + total).collect() };
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &a), plus(k));

    // `first` takes k = 13, then `second`'s expression panics: caught, the executable would run
    // `first` with the new `k` and `second` with the old one, which no params say.
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exec.set_k(13)));
    assert!(caught.is_err(), "the node expression panicked");
    // So it launches nothing, saying why, however often asked.
    for _ in 0..2 {
        match exec.launch(&gpu.stream) {
            Err(e @ Error::Invalid { .. }) => {
                let text = e.to_string();
                assert!(
                    text.contains("TwoReadersExec"),
                    "names the executable: {text}"
                );
                assert!(text.contains("panic"), "says why: {text}");
            }
            other => panic!("expected the launch refused, got {other:?}"),
        }
    }
    assert!(exec.set_k(k).is_err(), "nor does it take changes");
    assert_eq!(read_back(&gpu.stream, &a), plus(k), "nothing launched");
    assert_eq!(read_back(&gpu.stream, &b), plus(k), "nothing launched");

    // A whole-graph update makes every node what its params say: it runs again.
    let graph = TwoReaders::build(&gpu.ctx, &params).unwrap();
    exec.update(&graph).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &a), plus(2 * k));
    assert_eq!(read_back(&gpu.stream, &b), plus(2 * k));
}
