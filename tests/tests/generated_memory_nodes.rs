//! Graph memory nodes declared with `cuda_graph!`: temporaries allocated and freed by the graph,
//! used as kernel, memset and memcpy operands, checked against the CPU; an allocation the graph
//! does not free, read after each launch of an auto-free-on-launch executable; `set_params`
//! refusing a new allocation size; the declared topology.

use std::sync::{Mutex, MutexGuard};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error, GraphMemory, NodeKind};
// `Pipeline`: `out = relu(2x - 1) / 2 + 1/4 + x`, its three temporaries graph allocations (`t3`
// allocated after `t1` is freed), the declaration the examples run.
use cudagraph_examples::pipeline::{Pipeline, PipelineParams};
use cudagraph_tests::pipeline::{expected, PipelineKernels};
use cudagraph_tests::{read_back, upload, zeros, AddU32Args};

cuda_graph! {
    /// A count per element, made in an allocation the graph does not free: `zero` clears it,
    /// `bump` adds `k`, `copy` leaves a copy in `seen` too.
    graph Counts {
        params {
            add_u32: Kernel<AddU32Args>,
            seen: DeviceBuffer<u32>,
            n: u32,
            k: u32,
        }
        counts: alloc::<u32>(n as usize);
        zero: memset(counts, 0u32);
        bump: kernel add_u32<<<n.div_ceil(128), 128>>>(n, k, counts);
        copy: memcpy(counts -> seen);
        counts -> zero -> bump -> copy;
    }
}

/// Graph memory is one pool per device: the tests take turns, so that one's figures are its own.
fn turn() -> MutexGuard<'static, ()> {
    static POOL: Mutex<()> = Mutex::new(());
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn a_pipeline_of_graph_allocations_matches_the_cpu() {
    let _turn = turn();
    let Some(gpu) = cudagraph_tests::gpu("a_pipeline_of_graph_allocations_matches_the_cpu") else {
        return;
    };
    let k = PipelineKernels::load(&gpu.ctx).expect("loading the pipeline's kernels");
    let n = 50_000usize;
    let host: Vec<f32> = (0..n).map(|i| (i % 997) as f32 / 200.0 - 2.0).collect();
    let mut params = PipelineParams {
        affine: k.affine.clone(),
        relu: k.relu.clone(),
        add: k.add.clone(),
        x: upload(&gpu, &host),
        out: zeros(&gpu, n),
        n: n as u32,
    };
    let mut exec = Pipeline::build(&gpu.ctx, &params)
        .expect("build")
        .instantiate()
        .expect("instantiate");
    for round in 0..3 {
        exec.launch(&gpu.stream).expect("launch");
        let want: Vec<f32> = read_back(&gpu.stream, &params.x)
            .iter()
            .map(|&v| expected(v))
            .collect();
        assert_eq!(read_back(&gpu.stream, &params.out), want, "round {round}");
        // New input, same size: only the nodes that read `x` are updated.
        let next: Vec<f32> = host.iter().map(|v| v * (round as f32 + 2.0)).collect();
        params.x = upload(&gpu, &next);
        assert_eq!(exec.set_params(&params).expect("set_params"), 2);
    }

    // A new size is refused as a whole (CUDA fixes allocations when the graph is built), and
    // the executable keeps working with the params it had.
    let before = params.n;
    params.n = 1000;
    match exec.set_params(&params) {
        Err(Error::Allocation { node, .. }) => assert_eq!(node, "t1"),
        other => panic!("a new allocation size must be refused, got {other:?}"),
    }
    params.n = before;
    exec.launch(&gpu.stream).expect("launch after the refusal");
    let want: Vec<f32> = read_back(&gpu.stream, &params.x)
        .iter()
        .map(|&v| expected(v))
        .collect();
    assert_eq!(
        read_back(&gpu.stream, &params.out),
        want,
        "after the refusal"
    );

    let kinds: Vec<NodeKind> = Pipeline::TOPOLOGY.nodes.iter().map(|&(_, k)| k).collect();
    assert_eq!(
        kinds.iter().filter(|&&k| k == NodeKind::MemAlloc).count(),
        3
    );
    assert_eq!(kinds.iter().filter(|&&k| k == NodeKind::MemFree).count(), 3);
}

#[test]
fn an_allocation_left_unfreed_is_read_after_each_launch_and_freed_by_the_next() {
    let _turn = turn();
    let Some(gpu) = cudagraph_tests::gpu(
        "an_allocation_left_unfreed_is_read_after_each_launch_and_freed_by_the_next",
    ) else {
        return;
    };
    let kernels = cudagraph_tests::Kernels::load(&gpu.ctx);
    let n = 4096usize;
    let mut params = CountsParams {
        add_u32: kernels.add_u32.clone(),
        seen: zeros(&gpu, n),
        n: n as u32,
        k: 1,
    };
    // From a pool holding nothing but what this test allocates.
    gpu.stream.synchronize().expect("sync");
    GraphMemory::trim(&gpu.ctx).expect("trim");
    let mut exec = Counts::build(&gpu.ctx, &params)
        .expect("build")
        .instantiate()
        .expect("instantiate");
    let mut used = Vec::new();
    for k in 1..=200u32 {
        params.k = k;
        exec.set_params(&params).expect("set_params");
        let launched = exec.launch(&gpu.stream).expect("launch");
        assert_eq!(
            launched.read_counts().expect("read"),
            vec![k; n],
            "launch {k}"
        );
        assert_eq!(launched.counts().len(), n);
        assert_eq!(read_back(&gpu.stream, &params.seen), vec![k; n]);
        if k % 50 == 0 {
            gpu.stream.synchronize().expect("sync");
            used.push(GraphMemory::of(&gpu.ctx).expect("graph memory").used);
        }
    }
    // Each launch frees the last one's allocation: graph memory in use does not grow.
    assert!(
        used.windows(2).all(|w| w[1] <= w[0]),
        "graph memory in use grew over 200 launches: {used:?}"
    );
}

#[test]
fn an_allocation_taken_out_of_a_declared_executable_is_the_callers_until_it_is_gone() {
    let _turn = turn();
    let Some(gpu) = cudagraph_tests::gpu(
        "an_allocation_taken_out_of_a_declared_executable_is_the_callers_until_it_is_gone",
    ) else {
        return;
    };
    let kernels = cudagraph_tests::Kernels::load(&gpu.ctx);
    let n = 1 << 16;
    let params = CountsParams {
        add_u32: kernels.add_u32.clone(),
        seen: zeros(&gpu, n),
        n: n as u32,
        k: 3,
    };
    let mut exec = Counts::build(&gpu.ctx, &params)
        .expect("build")
        .instantiate()
        .expect("instantiate");
    // A new length is refused, naming the alloc node: CUDA fixed it when the graph was built.
    match exec.set_n(n as u32 / 2) {
        Err(Error::Allocation { node, .. }) => assert_eq!(node, "counts"),
        other => panic!("a new allocation length must be refused, got {other:?}"),
    }
    assert_eq!(exec.params().n, n as u32, "the param keeps its value");

    let mut done = exec.launch(&gpu.stream).expect("launch");
    let counts = done.take_counts().expect("take");
    // Taken once: it is not the executable's any more.
    assert!(matches!(done.take_counts(), Err(Error::Allocation { .. })));
    assert!(matches!(done.read_counts(), Err(Error::Allocation { .. })));
    assert_eq!(counts.to_vec().expect("read"), vec![3u32; n]);
    // The next launch would allocate the same addresses: refused while the buffer lives...
    assert!(matches!(
        exec.launch(&gpu.stream),
        Err(Error::Allocation { .. })
    ));
    // ...and made once it is gone. A buffer allocated after its free keeps its contents.
    drop(counts);
    let sentinel = upload(&gpu, &vec![0x5e57_1e15u32; n]);
    exec.set_k(5).expect("set_k");
    let done = exec
        .launch(&gpu.stream)
        .expect("launch after the buffer is gone");
    assert_eq!(done.read_counts().expect("read"), vec![5u32; n]);
    assert_eq!(
        sentinel.to_vec().expect("read"),
        vec![0x5e57_1e15u32; n],
        "a launch wrote the sentinel"
    );
}
