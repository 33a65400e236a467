//! GPU witnesses: the driver itself refusing what the typed API does not offer (the macro's rules T4-T6).
//! Each test makes the forbidden request through a raw driver call or an unchecked escape, asserts
//! that the driver answers with an error, prints that error, and then checks that the executable
//! still does exactly what it was built to do.

use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::sys;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::Error;
use cudagraph_tests::graphs::Counters;
use cudagraph_tests::{
    assert_read_close, assert_read_untouched, assert_untouched, cfg, fill_buffer, read_back,
    upload, zeros, Kernels, Rng, POISON, POISON_U32,
};

/// A 1-D `CUDA_MEMCPY3D` of `bytes` bytes, `height` rows apart by `pitch` bytes on both sides.
fn memcpy3d(
    (src_type, src): (sys::CUmemorytype, u64),
    (dst_type, dst): (sys::CUmemorytype, u64),
    bytes: usize,
    height: usize,
    pitch: usize,
) -> sys::CUDA_MEMCPY3D {
    let host = sys::CUmemorytype::CU_MEMORYTYPE_HOST;
    let (src_host, src_device) = if src_type == host {
        (src as *const _, 0)
    } else {
        (null(), src)
    };
    let (dst_host, dst_device) = if dst_type == host {
        (dst as *mut _, 0)
    } else {
        (null_mut(), dst)
    };
    sys::CUDA_MEMCPY3D {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: src_type,
        srcHost: src_host,
        srcDevice: src_device,
        srcArray: null_mut(),
        reserved0: null_mut(),
        srcPitch: pitch,
        srcHeight: height,
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: dst_type,
        dstHost: dst_host,
        dstDevice: dst_device,
        dstArray: null_mut(),
        reserved1: null_mut(),
        dstPitch: pitch,
        dstHeight: height,
        WidthInBytes: bytes,
        Height: height,
        Depth: 1,
    }
}

#[test]
fn witness_t4_driver_refuses_update_from_another_topology() {
    let Some(gpu) = cudagraph_tests::gpu("witness_t4_driver_refuses_update_from_another_topology")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("witness_t4_driver_refuses_update_from_another_topology");
    let n = rng.len_in(1000, 50_000);
    let (a, b) = (rng.f32(), rng.f32());
    let y_host = rng.f32s(n);
    let y = upload(&gpu, &y_host);

    // The executable: y *= a. The other graph: y *= b, then y *= b again.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_kernel(&k.scale, cfg(n), (n as u32, a, &y), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    let first = other
        .add_kernel(&k.scale, cfg(n), (n as u32, b, &y), &[])
        .unwrap();
    other
        .add_kernel(&k.scale, cfg(n), (n as u32, b, &y), &[first.id()])
        .unwrap();

    let mut info = sys::CUgraphExecUpdateResultInfo {
        result: sys::CUgraphExecUpdateResult::CU_GRAPH_EXEC_UPDATE_SUCCESS,
        errorNode: null_mut(),
        errorFromNode: null_mut(),
    };
    // SAFETY: a live executable and graph of the same context; `info` is a valid out-pointer.
    let result = unsafe { sys::cuGraphExecUpdate_v2(exec.raw(), other.raw(), &mut info) };
    eprintln!(
        "cuGraphExecUpdate: {result:?}, result info {:?}",
        info.result
    );
    assert_ne!(
        result,
        sys::CUresult::CUDA_SUCCESS,
        "the driver accepted a graph of another topology"
    );
    assert_ne!(
        info.result,
        sys::CUgraphExecUpdateResult::CU_GRAPH_EXEC_UPDATE_SUCCESS
    );

    y.copy_from(&y_host).unwrap();
    exec.launch(&gpu.stream).unwrap();
    let want: Vec<f32> = y_host.iter().map(|y| a * y).collect();
    assert_read_close(&gpu.stream, "the executable after the refusal", &y, &want);
}

#[test]
fn witness_t6_driver_refuses_to_disable_host_and_empty_nodes() {
    let Some(gpu) =
        cudagraph_tests::gpu("witness_t6_driver_refuses_to_disable_host_and_empty_nodes")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("witness_t6_driver_refuses_to_disable_host_and_empty_nodes");
    let c = Counters::new(&gpu, &mut rng);
    let calls = Arc::new(AtomicUsize::new(0));

    // y += add, then an empty node, then a host node counting its calls.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let bump = c.add_bump(&mut graph, &k, &[]);
    let join = graph.name_next("join").add_empty(&[bump.id()]).unwrap();
    let counter = calls.clone();
    let count = move || {
        counter.fetch_add(1, Ordering::SeqCst);
    };
    let host = graph
        .name_next("count")
        .add_host(count, &[join.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    for (id, name) in [(host.id(), "count"), (join.id(), "join")] {
        // SAFETY: the unchecked escape only forwards to `cuGraphNodeSetEnabled` on a node of this
        // executable; the driver is expected to refuse it.
        match unsafe { exec.set_enabled_unchecked(id, false) } {
            Err(Error::Node { call, node, source }) => {
                eprintln!("{call} on `{node}`: {source} ({:?})", source.0);
                assert_eq!(call, "cuGraphNodeSetEnabled");
                assert_eq!(node, name);
            }
            other => panic!("disabling `{name}`: expected a driver error, got {other:?}"),
        }
    }

    // Both nodes still run: the host node counts, the kernel adds.
    exec.launch(&gpu.stream).unwrap();
    gpu.stream.synchronize().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1, "the host node ran");
    assert_eq!(read_back(&gpu.stream, &c.y), c.after(1));
}

#[test]
fn witness_t5_driver_refuses_to_change_a_memcpys_direction_or_shape() {
    let Some(gpu) =
        cudagraph_tests::gpu("witness_t5_driver_refuses_to_change_a_memcpys_direction_or_shape")
    else {
        return;
    };
    let mut rng = Rng::new("witness_t5_driver_refuses_to_change_a_memcpys_direction_or_shape");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let src = HostBuffer::from_slice(&gpu.ctx, &data).unwrap();
    let elsewhere = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; 2 * n]).unwrap();
    let (dev, other) = (zeros::<f32>(&gpu, 2 * n), zeros::<f32>(&gpu, 2 * n));

    // Built host-to-device, 1-D: src -> dev[..n].
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let copy = graph
        .add_memcpy(Memcpy::htod(&src, dev.slice(..n)), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let raw_node = exec.graph().raw_node(copy).unwrap();

    // The raw requests name the buffers by address.
    use sys::CUmemorytype::{CU_MEMORYTYPE_DEVICE as DEVICE, CU_MEMORYTYPE_HOST as HOST};
    let (dev_addr, other_addr) = (dev.addr(), other.addr());
    let (elsewhere_addr, src_addr) = (elsewhere.as_mut_ptr() as u64, src.as_ptr() as u64);
    let bytes = 4 * n;
    let requests = [
        (
            "device-to-host (direction reversed)",
            memcpy3d((DEVICE, dev_addr), (HOST, elsewhere_addr), bytes, 1, 0),
        ),
        (
            "device-to-device (source memory type changed)",
            memcpy3d((DEVICE, other_addr), (DEVICE, dev_addr), bytes, 1, 0),
        ),
        (
            "2-D host-to-device, two rows",
            memcpy3d(
                (HOST, src_addr),
                (DEVICE, dev_addr),
                bytes / 2,
                2,
                bytes / 2,
            ),
        ),
    ];
    for (what, params) in requests {
        // SAFETY: every address is a live allocation large enough for the copy described (the
        // buffers hold 2n elements); the driver is expected to refuse the request.
        let result = unsafe {
            sys::cuGraphExecMemcpyNodeSetParams(exec.raw(), raw_node, &params, gpu.ctx.cu_ctx())
        };
        eprintln!("memcpy node update to {what}: {result:?}");
        assert_ne!(
            result,
            sys::CUresult::CUDA_SUCCESS,
            "the driver accepted a memcpy update to {what}"
        );
    }

    // The node still copies src into dev[..n], and nothing else.
    fill_buffer(&dev, POISON);
    fill_buffer(&other, POISON);
    exec.launch(&gpu.stream).unwrap();
    let got = read_back(&gpu.stream, &dev);
    assert_eq!(got[..n], data[..]);
    assert_untouched("dev beyond the copy", &got[n..], POISON);
    assert_read_untouched(&gpu.stream, "the refused source's buffer", &other);
    assert_untouched(
        "the refused host destination",
        &elsewhere.read().unwrap(),
        POISON,
    );
}

#[test]
fn witness_t5_driver_refuses_a_2d_memset_update_of_a_1d_node() {
    let Some(gpu) =
        cudagraph_tests::gpu("witness_t5_driver_refuses_a_2d_memset_update_of_a_1d_node")
    else {
        return;
    };
    let mut rng = Rng::new("witness_t5_driver_refuses_a_2d_memset_update_of_a_1d_node");
    let width = rng.len_in(1000, 50_000);
    let (value, value2) = (rng.next_u64() as u32 | 1, rng.next_u64() as u32 & !1);
    let buf = zeros::<u32>(&gpu, 2 * width);

    // Built 1-D: buf[..width] = value.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let row = buf.slice(..width);
    let set = graph.add_memset(Memset::new(&row, value), &[]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    let raw_node = exec.graph().raw_node(set).unwrap();

    // Two rows of `width` elements, back to back: buf[..2 * width] = value2.
    let params = sys::CUDA_MEMSET_NODE_PARAMS {
        dst: row.addr(),
        pitch: 4 * width,
        value: value2,
        elementSize: 4,
        width,
        height: 2,
    };
    // SAFETY: `buf` holds both rows; the driver is expected to refuse the request.
    let result = unsafe {
        sys::cuGraphExecMemsetNodeSetParams(exec.raw(), raw_node, &params, gpu.ctx.cu_ctx())
    };
    eprintln!("2-D memset update of a 1-D node: {result:?}");
    assert_ne!(
        result,
        sys::CUresult::CUDA_SUCCESS,
        "the driver accepted a 2-D update of a 1-D memset"
    );

    fill_buffer(&buf, POISON_U32);
    exec.launch(&gpu.stream).unwrap();
    let got = read_back(&gpu.stream, &buf);
    assert_eq!(
        got[..width],
        vec![value; width][..],
        "the first row, set as built"
    );
    assert_eq!(
        got[width..],
        vec![POISON_U32; width][..],
        "the second row, untouched"
    );
}
