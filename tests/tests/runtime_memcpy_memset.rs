//! 1-D memcpy nodes in all three directions and 1-D memset nodes of 1-, 2- and 4-byte values, on
//! real data: whole buffers and sub-ranges, with the bytes outside a sub-range checked untouched.

use std::fmt::Debug;

use cudagraph_runtime::cudarc::driver::DeviceRepr;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{FillWith, MemsetValue};
use cudagraph_tests::{assert_untouched, fill_buffer, read_back, upload, zeros, Gpu, Rng, POISON};

#[test]
fn memcpy_nodes_copy_htod_dtod_dtoh() {
    let Some(gpu) = cudagraph_tests::gpu("memcpy_nodes_copy_htod_dtod_dtoh") else {
        return;
    };
    let mut rng = Rng::new("memcpy_nodes_copy_htod_dtod_dtoh");
    let n = rng.len_in(1000, 100_000);
    let src = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let (a, b) = (zeros::<f32>(&gpu, n), zeros::<f32>(&gpu, n));

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let htod = graph.add_memcpy(Memcpy::htod(&src, &a), &[]).unwrap();
    let dtod = graph
        .add_memcpy(Memcpy::dtod(&a, &b), &[htod.id()])
        .unwrap();
    graph
        .add_memcpy(Memcpy::dtoh(&b, &dst), &[dtod.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    // Each launch copies what the host buffer holds at that launch.
    for launch in 0..3 {
        let data = rng.f32s(n);
        src.write().unwrap().copy_from_slice(&data);
        dst.write().unwrap().fill(POISON);
        fill_buffer(&a, POISON);
        fill_buffer(&b, POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        assert_eq!(
            read_back(&gpu.stream, &a),
            data,
            "launch {launch}: host to device"
        );
        assert_eq!(
            read_back(&gpu.stream, &b),
            data,
            "launch {launch}: device to device"
        );
        assert_eq!(
            dst.to_vec().unwrap(),
            data,
            "launch {launch}: device to host"
        );
    }
}

#[test]
fn memcpy_nodes_on_subranges_leave_the_rest_untouched() {
    let Some(gpu) = cudagraph_tests::gpu("memcpy_nodes_on_subranges_leave_the_rest_untouched")
    else {
        return;
    };
    let mut rng = Rng::new("memcpy_nodes_on_subranges_leave_the_rest_untouched");
    let n = rng.len_in(1000, 100_000);
    let (lo, hi) = (rng.len_in(1, n / 4), rng.len_in(3 * n / 4, n));
    let data = rng.f32s(n);
    let src = HostBuffer::from_slice(&gpu.ctx, &data).unwrap();
    let dst = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();
    let dev = zeros::<f32>(&gpu, n);

    // src[lo..hi] -> dev[lo..hi] -> dst[lo..hi]
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let dev_part = dev.slice(lo..hi);
    let up = graph
        .add_memcpy(Memcpy::htod(src.slice(lo..hi), &dev_part), &[])
        .unwrap();
    graph
        .add_memcpy(Memcpy::dtoh(&dev_part, dst.slice(lo..hi)), &[up.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    fill_buffer(&dev, POISON);
    exec.launch(&gpu.stream).unwrap();
    let on_device = read_back(&gpu.stream, &dev);
    let on_host = dst.to_vec().unwrap();
    for (what, got) in [("device", &on_device), ("host", &on_host)] {
        assert_eq!(
            got[lo..hi],
            data[lo..hi],
            "{what}: copied range {lo}..{hi} of {n}"
        );
        assert_untouched(&format!("{what}: before {lo}"), &got[..lo], POISON);
        assert_untouched(&format!("{what}: from {hi}"), &got[hi..], POISON);
    }
}

/// Memsets `buf[lo..hi]` to a random value with a memset node and checks, over two launches, that
/// the range holds the value and every other element its previous (random, different) contents.
fn check_memset<T>(gpu: &Gpu, rng: &mut Rng, random: impl Fn(&mut Rng) -> T)
where
    T: MemsetValue + FillWith<T> + DeviceRepr + PartialEq + Debug + 'static,
{
    let n = rng.len_in(1000, 100_000);
    let (lo, hi) = (rng.len_in(1, n / 4), rng.len_in(3 * n / 4, n));
    let value = random(rng);
    // Contents that differ from `value` everywhere, so a stray write shows.
    let before: Vec<T> = (0..n)
        .map(|_| loop {
            let v = random(rng);
            if v != value {
                break v;
            }
        })
        .collect();
    let buf = upload(gpu, &before);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    graph
        .add_memset(Memset::new(buf.slice(lo..hi), value), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    for launch in 0..2 {
        buf.copy_from(&before).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let got = read_back(&gpu.stream, &buf);
        for (i, (got, before)) in got.iter().zip(&before).enumerate() {
            let want = if (lo..hi).contains(&i) {
                &value
            } else {
                before
            };
            assert_eq!(
                got, want,
                "launch {launch}, element {i} (memset of {lo}..{hi} of {n})"
            );
        }
    }
}

#[test]
fn memset_node_u8() {
    let Some(gpu) = cudagraph_tests::gpu("memset_node_u8") else {
        return;
    };
    check_memset(&gpu, &mut Rng::new("memset_node_u8"), |r| {
        r.next_u64() as u8
    });
}

#[test]
fn memset_node_u16() {
    let Some(gpu) = cudagraph_tests::gpu("memset_node_u16") else {
        return;
    };
    check_memset(&gpu, &mut Rng::new("memset_node_u16"), |r| {
        r.next_u64() as u16
    });
}

#[test]
fn memset_node_u32() {
    let Some(gpu) = cudagraph_tests::gpu("memset_node_u32") else {
        return;
    };
    check_memset(&gpu, &mut Rng::new("memset_node_u32"), |r| {
        r.next_u64() as u32
    });
}

#[test]
fn memset_node_f32() {
    let Some(gpu) = cudagraph_tests::gpu("memset_node_f32") else {
        return;
    };
    check_memset(&gpu, &mut Rng::new("memset_node_f32"), |r| r.f32());
}

#[test]
fn memset_node_signed_values_keep_their_bits() {
    let Some(gpu) = cudagraph_tests::gpu("memset_node_signed_values_keep_their_bits") else {
        return;
    };
    let mut rng = Rng::new("memset_node_signed_values_keep_their_bits");
    // Negative values: sign extension into the 32-bit memset value must not leak into the bytes.
    check_memset(&gpu, &mut rng, |r| -1 - (r.next_u64() % 100) as i8);
    check_memset(&gpu, &mut rng, |r| -1 - (r.next_u64() % 30_000) as i16);
    check_memset(&gpu, &mut rng, |r| -1 - (r.next_u64() >> 34) as i32);
}

#[test]
fn a_copy_between_overlapping_memory_is_refused() {
    // CUDA leaves a copy between an overlapping source and destination undefined (cudaMemcpy3D,
    // the copy a memcpy node makes): its bytes could be anything, and a `bool` buffer read back
    // would then hold invalid `bool`s. Before the fix such a node was accepted, added or set.
    let Some(gpu) = cudagraph_tests::gpu("a_copy_between_overlapping_memory_is_refused") else {
        return;
    };
    let buf = DeviceBuffer::<bool>::zeros(&gpu.stream, 64).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    refused(
        graph.add_memcpy(Memcpy::dtod(buf.slice(0..32), buf.slice(16..48)), &[]),
        "a copy onto a later overlapping part",
    );
    refused(
        graph.add_memcpy(Memcpy::dtod(buf.slice(16..48), buf.slice(0..32)), &[]),
        "a copy onto an earlier overlapping part",
    );
    refused(
        graph.add_memcpy(Memcpy::dtod(&buf, buf.clone()), &[]),
        "a copy onto itself",
    );

    // Apart, or touching: accepted; set to overlap: refused, and the node keeps its copy.
    let node = graph
        .add_memcpy(Memcpy::dtod(buf.slice(0..32), buf.slice(32..64)), &[])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    refused(
        exec.set_memcpy_params(node, Memcpy::dtod(buf.slice(0..32), buf.slice(8..40))),
        "a node set to copy onto an overlapping part",
    );
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(buf.to_vec().unwrap(), vec![false; 64]);
}

/// Panics unless `got` is the error for a copy between overlapping memory.
fn refused<T: Debug>(got: cudagraph_runtime::Result<T>, what: &str) {
    match got {
        Err(cudagraph_runtime::Error::Invalid { reason, .. }) if reason.contains("overlapping") => {
        }
        other => panic!("{what}: expected an overlapping-copy error, got {other:?}"),
    }
}
