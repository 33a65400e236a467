//! Errors the runtime reports instead of misbehaving: a whole-graph update from a graph of another
//! topology (refused by the driver, with the node and the reason), a node handle used with a graph
//! or executable it does not belong to, a copy whose two sides differ in length, and a buffer
//! whose size in bytes overflows. After each refusal the executable is unchanged and still
//! computes the right thing.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Error, UpdateFailure};
use cudagraph_tests::graphs::AxpyPair;
use cudagraph_tests::{
    assert_read_close, assert_read_untouched, cfg, fill_buffer, read_back, zeros, Kernels, Rng,
    POISON,
};

#[test]
fn update_from_another_topology_is_rejected_with_node_and_reason() {
    let Some(gpu) =
        cudagraph_tests::gpu("update_from_another_topology_is_rejected_with_node_and_reason")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("update_from_another_topology_is_rejected_with_node_and_reason");
    let n = rng.len_in(1000, 50_000);
    let (a, base) = (rng.f32(), rng.f32());
    let y = zeros::<f32>(&gpu, n);
    let scale_args = (n as u32, a, &y);

    // The executable: y = base, then y *= a.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let set = graph
        .name_next("fill")
        .add_memset(Memset::new(&y, base), &[])
        .unwrap();
    graph
        .name_next("scale")
        .add_kernel(&k.scale, cfg(n), scale_args, &[set.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    // Same shape, but the first node is a kernel where the executable has a memset.
    let mut other_kind = Graph::new(&gpu.ctx).unwrap();
    let first = other_kind
        .name_next("swapped")
        .add_kernel(&k.scale, cfg(n), scale_args, &[])
        .unwrap();
    other_kind
        .add_kernel(&k.scale, cfg(n), scale_args, &[first.id()])
        .unwrap();
    match exec.update(&other_kind) {
        Err(Error::UpdateRejected { node, reason }) => {
            eprintln!("node type changed: update rejected at node `{node}`: {reason}");
            assert_eq!(reason, UpdateFailure::NodeTypeChanged);
            assert_eq!(node, "swapped", "the error names the node of the new graph");
        }
        other => panic!("expected Error::UpdateRejected, got {other:?}"),
    }

    // One node more.
    let mut extra = Graph::new(&gpu.ctx).unwrap();
    let set = extra.add_memset(Memset::new(&y, base), &[]).unwrap();
    let scale = extra
        .add_kernel(&k.scale, cfg(n), scale_args, &[set.id()])
        .unwrap();
    extra
        .name_next("extra")
        .add_kernel(&k.scale, cfg(n), scale_args, &[scale.id()])
        .unwrap();
    match exec.update(&extra) {
        Err(Error::UpdateRejected { node, reason }) => {
            eprintln!("node added: update rejected at node `{node}`: {reason}");
            assert_eq!(reason, UpdateFailure::TopologyChanged);
        }
        other => panic!("expected Error::UpdateRejected, got {other:?}"),
    }

    // Refused updates leave the executable as it was.
    let want = vec![a * base; n];
    fill_buffer(&y, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after the refusals", &y, &want);
    exec.reinstantiate(InstantiateFlags::NONE).unwrap();
    fill_buffer(&y, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "after re-instantiation", &y, &want);
}

#[test]
fn a_node_of_another_graph_is_refused() {
    let Some(gpu) = cudagraph_tests::gpu("a_node_of_another_graph_is_refused") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_node_of_another_graph_is_refused");
    let p = AxpyPair::new(&gpu, &mut rng);
    let (n, a1, a2) = (p.n, p.a1, p.a2);
    let (x, y, o1, o2) = (&p.x, &p.y, &p.out1, &p.out2);

    // Two graphs whose only node has index 0 in each: only the graph identity tells them apart.
    let mut g1 = Graph::new(&gpu.ctx).unwrap();
    let node1 = g1
        .add_kernel(&k.axpy_out, cfg(n), (n as u32, a1, x, y, o1), &[])
        .unwrap();
    let mut g2 = Graph::new(&gpu.ctx).unwrap();
    let node2 = g2
        .add_kernel(&k.axpy_out, cfg(n), (n as u32, a2, x, y, o2), &[])
        .unwrap();
    let mut exec1 = g1.instantiate().unwrap();

    let refusals = [
        (
            "set_kernel_params",
            exec1
                .set_kernel_params(node2, cfg(n), (n as u32, a2, x, y, o1))
                .map(|_| ()),
        ),
        ("set_enabled", exec1.set_enabled(node2, false)),
        ("is_enabled", exec1.is_enabled(node2).map(|_| ())),
        ("raw_node", g2.raw_node(node1).map(|_| ())),
        ("set_name", g2.set_name(node1, "stolen")),
    ];
    for (call, result) in refusals {
        match result {
            Err(e @ Error::ForeignNode { .. }) => eprintln!("{call}: {e}"),
            other => panic!("{call}: expected Error::ForeignNode, got {other:?}"),
        }
    }
    match g2.name_next("join").add_empty(&[node1.id()]) {
        Err(Error::Invalid { node, reason }) => {
            eprintln!("add_empty: invalid argument for `{node}`: {reason}");
            assert_eq!(node, "join");
        }
        other => panic!("add_empty: expected Error::Invalid, got {other:?}"),
    }
    assert_eq!(g2.len(), 1, "the refused node was not added");

    // Nothing changed: each executable computes with its own parameters into its own buffer.
    fill_buffer(&p.out1, POISON);
    fill_buffer(&p.out2, POISON);
    exec1.launch(&gpu.stream).unwrap();
    assert!(exec1.is_enabled(node1).unwrap());
    assert_read_close(&gpu.stream, "first executable", &p.out1, &p.want(a1));
    assert_read_untouched(&gpu.stream, "second output, before its graph runs", &p.out2);
    let mut exec2 = g2.instantiate().unwrap();
    exec2.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "second executable", &p.out2, &p.want(a2));
}

#[test]
fn memcpy_length_mismatch_names_the_node() {
    let Some(gpu) = cudagraph_tests::gpu("memcpy_length_mismatch_names_the_node") else {
        return;
    };
    let mut rng = Rng::new("memcpy_length_mismatch_names_the_node");
    let n = rng.len_in(1000, 100_000);
    let data = rng.f32s(n);
    let host = HostBuffer::from_slice(&gpu.ctx, &data).unwrap();
    let host_out = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let (dev, other) = (zeros::<f32>(&gpu, n), zeros::<f32>(&gpu, n));
    let short = |b: &DeviceBuffer<f32>| b.slice(..n - 1);

    let expect_invalid = |what: &str, result: Result<(), Error>, name: &str| match result {
        Err(Error::Invalid { node, reason }) => {
            eprintln!("{what}: invalid argument for `{node}`: {reason}");
            assert_eq!(node, name, "{what}: the error names the node");
            assert!(
                reason.contains(&(4 * n).to_string())
                    && reason.contains(&(4 * (n - 1)).to_string()),
                "{what}: {reason}"
            );
        }
        other => panic!("{what}: expected Error::Invalid, got {other:?}"),
    };

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let added = graph
        .name_next("short_htod")
        .add_memcpy(Memcpy::htod(&host, short(&dev)), &[])
        .map(|_| ());
    expect_invalid("host to device", added, "short_htod");
    let added = graph
        .name_next("short_dtoh")
        .add_memcpy(Memcpy::dtoh(short(&dev), &host_out), &[])
        .map(|_| ());
    expect_invalid("device to host", added, "short_dtoh");
    let added = graph
        .name_next("short_dtod")
        .add_memcpy(Memcpy::dtod(&dev, short(&other)), &[])
        .map(|_| ());
    expect_invalid("device to device", added, "short_dtod");
    assert!(graph.is_empty(), "no refused copy was added");

    let node = graph
        .name_next("copy")
        .add_memcpy(Memcpy::htod(&host, &dev), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let update = exec.set_memcpy_params(node, Memcpy::htod(&host, short(&other)));
    expect_invalid("update", update, "copy");

    // The node still copies what it was built to copy.
    fill_buffer(&dev, POISON);
    fill_buffer(&other, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &dev), data);
    assert_read_untouched(&gpu.stream, "the update's destination", &other);
}

/// Reproduces a runtime bug: `Graph::add_memcpy` reads the name given by `name_next` for its error
/// but does not consume it when the lengths differ, so the next node added takes the refused
/// copy's name (`graph.rs`, `add_memcpy`: `pending_name` instead of `next_name.take()`).
#[test]
fn a_refused_copy_does_not_pass_its_name_to_the_next_node() {
    let Some(gpu) = cudagraph_tests::gpu("a_refused_copy_does_not_pass_its_name_to_the_next_node")
    else {
        return;
    };
    let mut rng = Rng::new("a_refused_copy_does_not_pass_its_name_to_the_next_node");
    let n = rng.len_in(1000, 50_000);
    let src = HostBuffer::from_slice(&gpu.ctx, &rng.f32s(n)).unwrap();
    let dev = zeros::<f32>(&gpu, n - 1);
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let copy = Memcpy::htod(&src, &dev);
    assert!(graph.name_next("refused").add_memcpy(copy, &[]).is_err());
    let next = graph.add_empty(&[]).unwrap();
    assert_eq!(graph.node_name(next), "empty#0");
}

#[test]
fn a_buffer_whose_bytes_overflow_is_refused() {
    let Some(gpu) = cudagraph_tests::gpu("a_buffer_whose_bytes_overflow_is_refused") else {
        return;
    };
    // (2^62 + 1) * 4 bytes wraps to 4: cudarc's allocation multiplied unchecked, so in a release
    // build this was a 4-byte buffer of 2^62 + 1 elements, a length kernel checks trust (a debug
    // build panicked in cudarc).
    let wraps = usize::MAX / 4 + 2;
    let zeros = DeviceBuffer::<u32>::zeros(&gpu.stream, wraps).map(|b| b.len());
    let zeroed = HostBuffer::<u32>::zeroed(&gpu.ctx, wraps).map(|b| b.len());
    // Past `isize::MAX` bytes without wrapping: refused before the driver is asked.
    let huge = isize::MAX as usize / 8 + 1;
    let huge_zeros = DeviceBuffer::<u64>::zeros(&gpu.stream, huge).map(|b| b.len());
    for (outcome, call) in [
        (zeros, "DeviceBuffer::zeros"),
        (zeroed, "HostBuffer::zeroed"),
        (huge_zeros, "DeviceBuffer::zeros"),
    ] {
        match outcome {
            Err(Error::Invalid { node, reason }) => {
                assert_eq!(node, call);
                assert!(
                    reason.contains("more bytes than memory can hold"),
                    "{reason}"
                );
            }
            other => panic!("{call}: expected the size to be refused, got {other:?}"),
        }
    }
    // Sizes that fit are made as before.
    assert_eq!(
        DeviceBuffer::<u32>::zeros(&gpu.stream, 3)
            .unwrap()
            .to_vec()
            .unwrap(),
        [0; 3]
    );
    assert_eq!(HostBuffer::<u32>::zeroed(&gpu.ctx, 3).unwrap().len(), 3);
}
