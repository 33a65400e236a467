//! Indirect values on a real GPU, delivered as parameters and through a ring: every launch reads
//! exactly the values set before it was made, with thousands of launches queued and no
//! synchronization (the ring of slots wrapping many times, down to one slot; parameter sizes
//! from the smallest to the largest), values of several types and alignments share a block, the
//! block outlives the launches of a dropped executable, and keys of other graphs are refused.
//!
//! Each launch's kernel writes what it read to `out[index]`, where `index` is itself an indirect
//! value set to the launch's number: a launch that read another launch's values, or a torn mix,
//! shows as a wrong or missing entry. The kernels read after spinning, late in the launch.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::{sys, CudaContext, CudaModule};
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    Condition, ConditionalHandle, Error, IndirectDelivery, IndirectLayout, IndirectOptions,
    InstantiateFlags, KernelNode, SET_CONDITIONAL_DECLARATION,
};
use cudagraph_tests::{compile, fill_buffer, function, gpu, zeros, Gpu, Rng, POISON_U32};

const SRC: &str = r#"
static __device__ void spin_for(unsigned long long cycles) {
    long long start = clock64();
    while (clock64() - start < (long long)cycles) {}
}
// Spins, then out[*idx] = *value.
extern "C" __global__ void record(const unsigned* idx, const unsigned* value, unsigned* out,
                                  unsigned n, unsigned long long spin) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    spin_for(spin);
    unsigned i = *idx;
    if (i < n) out[i] = *value;
}
// Spins, then out_a[*idx] = *a and out_b[*idx] = *b.
extern "C" __global__ void mixed(const unsigned char* a, const double* b, const unsigned* idx,
                                 unsigned* out_a, double* out_b, unsigned n,
                                 unsigned long long spin) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    spin_for(spin);
    unsigned i = *idx;
    if (i < n) {
        out_a[i] = *a;
        out_b[i] = *b;
    }
}
// Spins, then out[*idx] = vals[0] + ... + vals[count - 1].
extern "C" __global__ void sum(const unsigned* idx, const unsigned* vals, unsigned count,
                               unsigned* out, unsigned n, unsigned long long spin) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    spin_for(spin);
    unsigned s = 0;
    for (unsigned j = 0; j < count; ++j) s += vals[j];
    unsigned i = *idx;
    if (i < n) out[i] = s;
}
// A WHILE body: counts, and goes on while the count is below *limit.
extern "C" __global__ void count_to(unsigned long long h, unsigned* counter, const unsigned* limit) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned c = ++counter[0];
        cudaGraphSetConditional(h, c < *limit ? 1u : 0u);
    }
}
"#;

/// `record(idx, value, out, n, spin)`.
type RecordArgs = (DevicePtr<u32>, DevicePtr<u32>, DevicePtrMut<u32>, u32, u64);
/// `mixed(a, b, idx, out_a, out_b, n, spin)`.
type MixedArgs = (
    DevicePtr<u8>,
    DevicePtr<f64>,
    DevicePtr<u32>,
    DevicePtrMut<u32>,
    DevicePtrMut<f64>,
    u32,
    u64,
);
/// `count_to(h, counter, limit)`.
type CountToArgs = (ConditionalHandle, DevicePtrMut<u32>, DevicePtr<u32>);

pub(crate) struct Kernels {
    pub(crate) record: Kernel<RecordArgs>,
    pub(crate) mixed: Kernel<MixedArgs>,
    pub(crate) count_to: Kernel<CountToArgs>,
}

pub(crate) fn kernels(gpu: &Gpu) -> Kernels {
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    // Each kernel works from one thread and launches nothing; an index read from device memory
    // is compared with `n` in the kernel itself, since no check sees the value.
    // SAFETY: `record` takes (const unsigned*, const unsigned*, unsigned*, unsigned,
    // unsigned long long); it reads idx[0] and value[0] and writes out[i] for i = idx[0] < n
    // only; the check keeps idx and value non-empty and n within out.
    let record = unsafe { Kernel::<RecordArgs>::new(function(&module, "record")) }
        .requires(|_, (idx, value, out, n, _)| idx >= 1 && value >= 1 && n as usize <= out);
    // SAFETY: `mixed` takes (const unsigned char*, const double*, const unsigned*, unsigned*,
    // double*, unsigned, unsigned long long); it reads a[0], b[0] and idx[0] and writes out_a[i]
    // and out_b[i] for i = idx[0] < n only; the check keeps the three inputs non-empty and n
    // within both outputs.
    let mixed = unsafe { Kernel::<MixedArgs>::new(function(&module, "mixed")) }.requires(
        |_, (a, b, idx, out_a, out_b, n, _)| {
            a >= 1 && b >= 1 && idx >= 1 && n as usize <= out_a.min(out_b)
        },
    );
    // SAFETY: `count_to` takes (unsigned long long, unsigned*, const unsigned*), a conditional
    // handle being an `unsigned long long`; it reads and writes counter[0], reads limit[0], and
    // sets only its handle; the check keeps both buffers non-empty.
    let count_to = unsafe { Kernel::<CountToArgs>::new(function(&module, "count_to")) }
        .requires(|_, (_, counter, limit)| counter >= 1 && limit >= 1);
    Kernels {
        record,
        mixed,
        count_to,
    }
}

pub(crate) fn one() -> LaunchConfig {
    LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (32, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// Held by every test of this file: two of them capture a stream (which some calls of the
/// others, such as a context synchronize, must not meet), and one watches where the allocators
/// put freed memory, which tests running at the same time would disturb.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// About 2 µs on an H100 (1.7-2 GHz): longer than a launch call, so the host runs ahead of the
/// GPU and the ring fills.
pub(crate) const SPIN_SHORT: u64 = 4_000;
/// About 10 µs.
pub(crate) const SPIN_LONG: u64 = 20_000;
/// About 5 ms.
pub(crate) const SPIN_DROP: u64 = 10_000_000;

/// `n` random values, none equal to the poison.
pub(crate) fn values(rng: &mut Rng, n: usize) -> Vec<u32> {
    (0..n)
        .map(|_| match rng.next_u64() as u32 {
            POISON_U32 => 1,
            v => v,
        })
        .collect()
}

/// Asserts `got == want` entry by entry, naming the first launch that read something else.
#[track_caller]
pub(crate) fn assert_each_launch<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let wrong: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    if let Some(&i) = wrong.first() {
        panic!(
            "{what}: {} of {} launches read other values; first: launch {i} wrote {:?}, set {:?}",
            wrong.len(),
            got.len(),
            got[i],
            want[i]
        );
    }
}

/// A graph of `readers` `record` kernels (each writing its own output) reading the indirect
/// values `idx` and `value`, with no dependencies given; the block made with `options`.
pub(crate) struct Recorder {
    pub(crate) exec: GraphExec<'static>,
    pub(crate) idx: Indirect<u32>,
    pub(crate) value: Indirect<u32>,
    pub(crate) outs: Vec<DeviceBuffer<u32>>,
    pub(crate) nodes: Vec<KernelNode<RecordArgs>>,
}

impl Recorder {
    pub(crate) fn new(
        gpu: &Gpu,
        k: &Kernels,
        options: IndirectOptions,
        n: usize,
        readers: usize,
    ) -> Self {
        let mut g = Graph::new(&gpu.ctx).unwrap();
        let fetch = g.add_indirect_block(options).unwrap();
        assert_eq!(g.indirect_fetch(), Some(fetch));
        let idx = g.add_indirect(0u32).unwrap();
        let value = g.add_indirect(0u32).unwrap();
        let mut outs = Vec::new();
        let mut nodes = Vec::new();
        for r in 0..readers {
            let out = zeros::<u32>(gpu, n);
            fill_buffer(&out, POISON_U32);
            // The first reader spins (the GPU falls behind), the others read at once.
            let spin = if r == 0 { SPIN_SHORT } else { 0 };
            let node = g
                .add_kernel(&k.record, one(), (idx, &value, &out, n as u32, spin), &[])
                .unwrap();
            // No dependency was given: the edge from the fetch node was added.
            let deps = g.nodes().nth(node.id().index()).unwrap().deps.to_vec();
            assert_eq!(
                deps,
                vec![fetch.index() as u32],
                "reader {r}'s dependencies"
            );
            outs.push(out);
            nodes.push(node);
        }
        Self {
            exec: g.instantiate().unwrap(),
            idx,
            value,
            outs,
            nodes,
        }
    }

    /// Launches once per value of `want`, launch `i` with `idx = i` and `value = want[i]`, no
    /// synchronization in between.
    pub(crate) fn launch_all(&mut self, gpu: &Gpu, want: &[u32]) {
        for (i, &v) in want.iter().enumerate() {
            self.exec.set_indirect(&self.idx, i as u32).unwrap();
            self.exec.set_indirect(&self.value, v).unwrap();
            self.exec.launch(&gpu.stream).unwrap();
        }
    }

    /// Checks that launch `i` wrote `want[i]` into every output.
    #[track_caller]
    pub(crate) fn check(&self, what: &str, want: &[u32]) {
        for (r, out) in self.outs.iter().enumerate() {
            // `to_vec` waits for the launches that use the buffer.
            let got = out.to_vec().unwrap();
            assert_each_launch(&format!("{what}, reader {r}"), &got[..want.len()], want);
        }
    }
}

/// Options for a block delivered through a ring.
pub(crate) fn ring() -> IndirectOptions {
    IndirectOptions::default().with_delivery(IndirectDelivery::Ring)
}

#[test]
fn ten_thousand_unsynchronized_launches_each_read_their_own_values() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("ten_thousand_unsynchronized_launches_each_read_their_own_values") else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("ten_thousand_unsynchronized_launches_each_read_their_own_values");
    let n = 10_000;
    for (options, slots) in [(IndirectOptions::default(), 0), (ring(), 64)] {
        let delivery = options.delivery();
        let mut r = Recorder::new(&gpu, &k, options, n, 2);
        let layout = r.exec.indirect_layout().unwrap();
        assert_eq!(
            (layout.delivery, layout.slots, layout.used),
            (delivery, slots, 8)
        );
        let want = values(&mut rng, n);
        let start = std::time::Instant::now();
        r.launch_all(&gpu, &want);
        eprintln!(
            "{n} launches with two indirect values ({delivery:?}) enqueued in {:?}",
            start.elapsed()
        );
        assert_eq!(r.exec.indirect(&r.idx).unwrap(), n as u32 - 1);
        assert_eq!(r.exec.indirect(&r.value).unwrap(), want[n - 1]);
        r.check(&format!("10,000 launches, {delivery:?}"), &want);
    }
}

/// `sum(idx, vals, count, out, n, spin)` over a block of `N` values.
type SumArgs<const N: usize> = (
    DevicePtr<u32>,
    DevicePtr<[u32; N]>,
    u32,
    DevicePtrMut<u32>,
    u32,
    u64,
);

/// A block of an index and `N` `u32` values (one `[u32; N]`), delivered as parameters, read by
/// one kernel that sums the values: launch `i` must write the sum of exactly the values set
/// before it, `launches` times with every value changed at every launch.
pub(crate) fn sum_launches<const N: usize>(
    gpu: &Gpu,
    module: &Arc<CudaModule>,
    rng: &mut Rng,
    launches: usize,
) {
    // SAFETY: `sum` takes (const unsigned*, const unsigned*, unsigned, unsigned*, unsigned,
    // unsigned long long); from one thread it reads idx[0] and vals[0..count], and writes
    // out[i] for i = idx[0] < n only; the check keeps idx non-empty, `count` the words of one
    // `[u32; N]` (vals holds at least one), and n within out.
    let sum = unsafe { Kernel::<SumArgs<N>>::new(function(module, "sum")) }.requires(
        |_, (idx, vals, count, out, n, _)| {
            idx >= 1 && vals >= 1 && count as usize == N && n as usize <= out
        },
    );
    let capacity = 4 + 4 * N;
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_indirect_block(IndirectOptions::default().with_capacity(capacity))
        .unwrap();
    let idx = g.add_indirect(0u32).unwrap();
    let vals = g.add_indirect([0u32; N]).unwrap();
    let layout = g.indirect_layout().unwrap();
    assert_eq!(layout.delivery, IndirectDelivery::Parameters);
    assert_eq!(layout.used, capacity.next_multiple_of(8), "{N} values");
    let out = zeros::<u32>(gpu, launches);
    fill_buffer(&out, POISON_U32);
    g.add_kernel(
        &sum,
        one(),
        (idx, vals, N as u32, &out, launches as u32, SPIN_SHORT),
        &[],
    )
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    let mut want = Vec::with_capacity(launches);
    for i in 0..launches {
        let v: [u32; N] = std::array::from_fn(|_| rng.next_u64() as u32 >> 12);
        exec.set_indirect(&idx, i as u32).unwrap();
        exec.set_indirect(&vals, v).unwrap();
        want.push(v.iter().fold(0u32, |a, x| a.wrapping_add(*x)));
        exec.launch(&gpu.stream).unwrap();
    }
    assert_each_launch(
        &format!("{N} values ({} bytes)", layout.used),
        &out.to_vec().unwrap(),
        &want,
    );
}

/// Blocks from 8 bytes to the largest parameter (2 KiB) take every size of the fetch kernel's
/// parameter; launches queue up unsynchronized behind a spinning kernel.
#[test]
fn parameter_blocks_of_every_size_give_each_launch_its_own_values() {
    let _serial = one_at_a_time();
    let test = "parameter_blocks_of_every_size_give_each_launch_its_own_values";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    let mut rng = Rng::new(test);
    sum_launches::<1>(&gpu, &module, &mut rng, 500);
    sum_launches::<3>(&gpu, &module, &mut rng, 500);
    sum_launches::<7>(&gpu, &module, &mut rng, 500);
    sum_launches::<15>(&gpu, &module, &mut rng, 500);
    sum_launches::<31>(&gpu, &module, &mut rng, 500);
    sum_launches::<63>(&gpu, &module, &mut rng, 500);
    sum_launches::<127>(&gpu, &module, &mut rng, 500);
    sum_launches::<255>(&gpu, &module, &mut rng, 500);
    sum_launches::<511>(&gpu, &module, &mut rng, 500);
    // One byte more than the largest parameter is refused, naming the ring.
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let e = g
        .add_indirect_block(IndirectOptions::default().with_capacity(2049))
        .unwrap_err();
    assert!(e.to_string().contains("IndirectDelivery::Ring"), "{e}");
}

#[test]
fn a_ring_of_four_slots_and_of_one_wraps_exactly() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_ring_of_four_slots_and_of_one_wraps_exactly") else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("a_ring_of_four_slots_and_of_one_wraps_exactly");
    for slots in [4u32, 1] {
        let n = 2_000;
        let options = ring().with_slots(slots);
        let mut r = Recorder::new(&gpu, &k, options, n, 1);
        assert_eq!(r.exec.indirect_layout().unwrap().slots, slots);
        // First half: each launch spins ~10 µs, so the host waits for slots; second half: no
        // spin (a single-node update whose pointer arguments stay the same, the fast path),
        // so the GPU keeps up.
        let want = values(&mut rng, n);
        let node = r.nodes[0];
        let (outs, idx, value) = (&r.outs, r.idx, r.value);
        r.exec
            .set_kernel_params(node, one(), (idx, value, &outs[0], n as u32, SPIN_LONG))
            .unwrap();
        r.launch_all(&gpu, &want[..n / 2]);
        r.exec
            .set_kernel_params(node, one(), (idx, value, &r.outs[0], n as u32, 0u64))
            .unwrap();
        for (i, &v) in want.iter().enumerate().skip(n / 2) {
            r.exec.set_indirect(&r.idx, i as u32).unwrap();
            r.exec.set_indirect(&r.value, v).unwrap();
            r.exec.launch(&gpu.stream).unwrap();
        }
        r.check(&format!("{slots} slot(s)"), &want);
    }
}

#[test]
fn values_of_three_types_and_alignments_share_a_block() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("values_of_three_types_and_alignments_share_a_block") else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("values_of_three_types_and_alignments_share_a_block");
    let n = 1_000;
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let a = g.add_indirect(7u8).unwrap();
    let b = g.add_indirect(-1.5f64).unwrap();
    let idx = g.add_indirect(0u32).unwrap();
    // Each aligned to its type: the f64 after 7 bytes of padding, the u32 right after it.
    assert_eq!((a.offset(), b.offset(), idx.offset()), (0, 8, 16));
    assert_eq!(g.indirect_layout().unwrap().used, 24);
    assert_eq!(
        (
            g.indirect(&a).unwrap(),
            g.indirect(&b).unwrap(),
            g.indirect(&idx).unwrap()
        ),
        (7, -1.5, 0)
    );
    let out_a = zeros::<u32>(&gpu, n);
    let out_b = zeros::<f64>(&gpu, n);
    g.add_kernel(
        &k.mixed,
        one(),
        (&a, &b, &idx, &out_a, &out_b, n as u32, SPIN_SHORT),
        &[],
    )
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    let want_a: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
    let want_b: Vec<f64> = (0..n)
        .map(|_| (rng.next_u64() >> 11) as f64 / 3.0 - 1e15)
        .collect();
    for i in 0..n {
        exec.set_indirect(&a, want_a[i]).unwrap();
        exec.set_indirect(&b, want_b[i]).unwrap();
        exec.set_indirect(&idx, i as u32).unwrap();
        exec.launch(&gpu.stream).unwrap();
    }
    let want_a: Vec<u32> = want_a.iter().map(|&v| v as u32).collect();
    assert_each_launch("u8 value", &out_a.to_vec().unwrap(), &want_a);
    // Bit for bit: the f64 crosses as 8 bytes.
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_each_launch("f64 value", &bits(&out_b.to_vec().unwrap()), &bits(&want_b));
}

/// `bytes` bytes of device memory holding `SENTINEL_WORD`s, allocated as the block's device
/// memory is (`cuMemAlloc`), and `host_bytes` of mapped page-locked memory as its ring is.
pub(crate) struct Sentinels {
    ctx: Arc<CudaContext>,
    device: sys::CUdeviceptr,
    device_bytes: usize,
    host: *mut u32,
    host_bytes: usize,
}

pub(crate) const SENTINEL_WORD: u32 = 0x5E47_1E15;

impl Sentinels {
    fn new(ctx: &Arc<CudaContext>, layout: IndirectLayout) -> Self {
        ctx.bind_to_thread().unwrap();
        let (mut device, mut host) = (0, std::ptr::null_mut());
        // SAFETY: the context is current; valid out-pointers; the memory is filled below before
        // anything reads it, and freed by `Drop`.
        unsafe {
            assert_eq!(
                sys::cuMemAlloc_v2(&mut device, layout.device_bytes),
                sys::CUresult::CUDA_SUCCESS
            );
            assert_eq!(
                sys::cuMemsetD32_v2(device, SENTINEL_WORD, layout.device_bytes / 4),
                sys::CUresult::CUDA_SUCCESS
            );
            // A block delivered as parameters has no host memory.
            if layout.host_bytes > 0 {
                assert_eq!(
                    sys::cuMemHostAlloc(
                        &mut host,
                        layout.host_bytes,
                        sys::CU_MEMHOSTALLOC_DEVICEMAP
                    ),
                    sys::CUresult::CUDA_SUCCESS
                );
            }
        }
        let host = host.cast::<u32>();
        for i in 0..layout.host_bytes / 4 {
            // SAFETY: within the allocation just made; nothing else refers to it.
            unsafe { host.add(i).write_volatile(SENTINEL_WORD) };
        }
        Self {
            ctx: ctx.clone(),
            device,
            device_bytes: layout.device_bytes,
            host,
            host_bytes: layout.host_bytes,
        }
    }

    /// Asserts no word of either sentinel changed, once everything on the device is done.
    #[track_caller]
    fn assert_untouched(&self) {
        self.ctx.synchronize().unwrap();
        let mut device = vec![0u32; self.device_bytes / 4];
        // SAFETY: `device` has room for the copy; the device memory is ours and idle.
        let copied = unsafe {
            sys::cuMemcpyDtoH_v2(device.as_mut_ptr().cast(), self.device, self.device_bytes)
        };
        assert_eq!(copied, sys::CUresult::CUDA_SUCCESS);
        if let Some(i) = device.iter().position(|&w| w != SENTINEL_WORD) {
            panic!(
                "device sentinel word {i} is {:#x}: a launch wrote the freed block",
                device[i]
            );
        }
        for i in 0..self.host_bytes / 4 {
            // SAFETY: within our allocation; the device is idle.
            let w = unsafe { self.host.add(i).read_volatile() };
            assert_eq!(
                w, SENTINEL_WORD,
                "host sentinel word {i}: a launch wrote the freed ring"
            );
        }
    }
}

impl Drop for Sentinels {
    fn drop(&mut self) {
        // SAFETY: ours, allocated in `new`, and the device is idle (`assert_untouched`).
        unsafe {
            sys::cuMemFree_v2(self.device);
            if !self.host.is_null() {
                sys::cuMemFreeHost(self.host.cast());
            }
        }
    }
}

#[test]
fn the_block_outlives_the_launches_of_a_dropped_executable() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("the_block_outlives_the_launches_of_a_dropped_executable") else {
        return;
    };
    let k = kernels(&gpu);
    let mut rng = Rng::new("the_block_outlives_the_launches_of_a_dropped_executable");
    for options in [IndirectOptions::default(), ring().with_slots(64)] {
        block_outlives_dropped_executable(&gpu, &k, &mut rng, options);
    }
}

fn block_outlives_dropped_executable(
    gpu: &Gpu,
    k: &Kernels,
    rng: &mut Rng,
    options: IndirectOptions,
) {
    let n = 20;
    let out = zeros::<u32>(gpu, n);
    fill_buffer(&out, POISON_U32);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_indirect_block(options).unwrap();
    let idx = g.add_indirect(0u32).unwrap();
    let value = g.add_indirect(0u32).unwrap();
    g.add_kernel(
        &k.record,
        one(),
        (idx, value, &out, n as u32, SPIN_DROP),
        &[],
    )
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    let layout = exec.indirect_layout().unwrap();
    assert_eq!(layout.delivery, options.delivery());
    let want = values(rng, n);
    for (i, &v) in want.iter().enumerate() {
        exec.set_indirect(&idx, i as u32).unwrap();
        exec.set_indirect(&value, v).unwrap();
        exec.launch(&gpu.stream).unwrap();
    }
    // About 100 ms of launches are still queued: the block must live until they are done.
    drop(exec);
    // Where the allocators would put memory freed just now (the same sizes, the same calls).
    let sentinels = Sentinels::new(&gpu.ctx, layout);
    sentinels.assert_untouched();
    assert_each_launch(
        &format!("launches after the drop ({:?})", layout.delivery),
        &out.to_vec().unwrap(),
        &want,
    );
    gpu.ctx
        .check_err()
        .expect("no driver error recorded by the release");
}

#[test]
fn keys_of_other_graphs_and_what_an_indirect_graph_cannot_do_are_refused() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("keys_of_other_graphs_and_what_an_indirect_graph_cannot_do_are_refused")
    else {
        return;
    };
    let k = kernels(&gpu);
    let n = 4;
    let out = zeros::<u32>(&gpu, n);
    let invalid = |what: &str, r: cudagraph_runtime::Result<()>| match r {
        Err(Error::Invalid { .. }) => {}
        other => panic!("{what}: expected Error::Invalid, got {other:?}"),
    };

    let mut mine = Graph::new(&gpu.ctx).unwrap();
    let idx = mine.add_indirect(0u32).unwrap();
    let value = mine.add_indirect(5u32).unwrap();
    let mut other = Graph::new(&gpu.ctx).unwrap();
    let theirs = other.add_indirect(9u32).unwrap();
    let mut plain = Graph::new(&gpu.ctx).unwrap();

    // A kernel given another graph's key, in a graph with values and in one without.
    let args = (theirs, value, &out, n as u32, 0u64);
    invalid(
        "kernel with another graph's key",
        mine.add_kernel(&k.record, one(), args, &[]).map(drop),
    );
    invalid(
        "kernel with a key in a graph without values",
        plain
            .add_kernel(&k.record, one(), (idx, value, &out, n as u32, 0u64), &[])
            .map(drop),
    );
    // Setting or reading another graph's key.
    invalid("Graph::set_indirect", mine.set_indirect(&theirs, 1));
    invalid("Graph::indirect", mine.indirect(&theirs).map(drop));
    // The graph stays usable: a correct node after the refusals.
    let node = mine
        .add_kernel(&k.record, one(), (idx, value, &out, n as u32, 0u64), &[])
        .unwrap();

    // What a graph with indirect values cannot be or do.
    invalid("try_clone", mine.try_clone().map(drop));
    invalid(
        "add_child_graph",
        plain.add_child_graph(&mine, &[]).map(drop),
    );
    invalid(
        "a second block",
        mine.add_indirect_block(IndirectOptions::default())
            .map(drop),
    );
    let mut full = Graph::new(&gpu.ctx).unwrap();
    full.add_indirect_block(IndirectOptions::default().with_capacity(16))
        .unwrap();
    full.add_indirect(1u64).unwrap();
    full.add_indirect(2u64).unwrap();
    invalid("a full block", full.add_indirect(3u8).map(drop));
    invalid(
        "device launch",
        full.instantiate_with(InstantiateFlags::DEVICE_LAUNCH, None)
            .map(drop),
    );

    let mut exec = mine.instantiate().unwrap();
    let mut other_exec = other.instantiate().unwrap();
    invalid("GraphExec::set_indirect", exec.set_indirect(&theirs, 1));
    invalid("GraphExec::indirect", exec.indirect(&theirs).map(drop));
    invalid(
        "a key of the other executable",
        other_exec.set_indirect(&idx, 1),
    );
    // A whole-graph update from a graph with values, or of an executable with them.
    let mut again = Graph::new(&gpu.ctx).unwrap();
    let idx2 = again.add_indirect(0u32).unwrap();
    let value2 = again.add_indirect(0u32).unwrap();
    again
        .add_kernel(&k.record, one(), (idx2, value2, &out, n as u32, 0u64), &[])
        .unwrap();
    invalid("update", exec.update(&again));
    // A single-node update to another graph's key.
    invalid(
        "set_kernel_params with another graph's key",
        exec.set_kernel_params(node, one(), (idx2, value, &out, n as u32, 0u64)),
    );

    // After all that, the executable still reads its own values.
    fill_buffer(&out, POISON_U32);
    exec.set_indirect(&idx, 2).unwrap();
    exec.set_indirect(&value, 77).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        out.to_vec().unwrap(),
        vec![POISON_U32, POISON_U32, 77, POISON_U32]
    );
    other_exec.launch(&gpu.stream).unwrap();
}

#[test]
fn a_node_updated_to_read_a_value_must_already_follow_the_fetch_node() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_node_updated_to_read_a_value_must_already_follow_the_fetch_node") else {
        return;
    };
    let k = kernels(&gpu);
    let n = 4;
    let out = zeros::<u32>(&gpu, n);
    let fixed = upload_u32(&gpu, &[1, 42]);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    // `early` reads plain buffers and is not ordered after the fetch node (added after it).
    let early = g
        .add_kernel(
            &k.record,
            one(),
            (fixed.slice(0..1), fixed.slice(1..2), &out, n as u32, 0u64),
            &[],
        )
        .unwrap();
    let idx = g.add_indirect(3u32).unwrap();
    let fetch = g.indirect_fetch().unwrap();
    let late = g
        .add_kernel(
            &k.record,
            one(),
            (fixed.slice(0..1), fixed.slice(1..2), &out, n as u32, 0u64),
            &[fetch, early.id()],
        )
        .unwrap();
    let mut exec = g.instantiate().unwrap();
    match exec.set_kernel_params(early, one(), (idx, fixed.slice(1..2), &out, n as u32, 0u64)) {
        Err(Error::Invalid { .. }) => {}
        other => panic!("a node not after the fetch node: expected Error::Invalid, got {other:?}"),
    }
    exec.set_kernel_params(late, one(), (idx, fixed.slice(1..2), &out, n as u32, 0u64))
        .unwrap();
    exec.set_indirect(&idx, 0).unwrap();
    exec.launch(&gpu.stream).unwrap();
    // `early` wrote out[1] = 42; `late` read the indirect index 0: out[0] = 42.
    assert_eq!(
        out.to_vec().unwrap(),
        vec![42, 42, 0, 0],
        "out after one launch"
    );
}

pub(crate) fn upload_u32(gpu: &Gpu, data: &[u32]) -> DeviceBuffer<u32> {
    DeviceBuffer::from_host(&gpu.stream, data).unwrap()
}

#[test]
fn copies_and_conditional_bodies_read_values_after_the_fetch_node() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("copies_and_conditional_bodies_read_values_after_the_fetch_node") else {
        return;
    };
    let k = kernels(&gpu);
    let copy_out = zeros::<u32>(&gpu, 1);
    let counter = zeros::<u32>(&gpu, 1);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let limit = g.add_indirect(5u32).unwrap();
    let fetch = g.indirect_fetch().unwrap();
    // A copy of the value: ordered after the fetch node for us.
    let copy = g
        .add_memcpy(Memcpy::dtod(limit, copy_out.slice(..)), &[])
        .unwrap();
    assert_eq!(
        g.nodes().nth(copy.id().index()).unwrap().deps,
        &[fetch.index() as u32]
    );
    let reset = g.add_memset(Memset::new(&counter, 0u32), &[]).unwrap();
    let handle = g.conditional_handle(Some(1)).unwrap();
    // A body reads the graph's values only when its conditional node follows the fetch node.
    let refused = g.add_conditional(handle, Condition::While, &[reset.id()], |bodies| {
        bodies[0]
            .add_kernel(&k.count_to, one(), (handle, &counter, limit), &[])
            .map(drop)
    });
    assert!(
        matches!(refused, Err(Error::Invalid { .. })),
        "a body whose conditional node is not after the fetch node: {refused:?}"
    );
    // The refused node was removed; its handle goes to the next conditional node.
    // (Nor may a body have values of its own: a `Body` has no `add_indirect`.)
    g.add_conditional(handle, Condition::While, &[reset.id(), fetch], |bodies| {
        bodies[0]
            .add_kernel(&k.count_to, one(), (handle, &counter, limit), &[])
            .map(drop)
    })
    .unwrap();
    let mut exec = g.instantiate().unwrap();
    for l in [5u32, 17, 1, 300] {
        exec.set_indirect(&limit, l).unwrap();
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            counter.to_vec().unwrap(),
            vec![l],
            "the loop counted to {l}"
        );
        assert_eq!(copy_out.to_vec().unwrap(), vec![l], "the copy of {l}");
    }
}

/// An executable's update of a body's node to read a value is checked against the body's
/// conditional node, which orders it: allowed when that node follows the fetch node (it was
/// refused, the body's node looked up as if it had no dependencies), refused when it does not.
#[test]
fn a_body_node_updated_to_read_a_value_is_ordered_by_its_conditional_node() {
    let _serial = one_at_a_time();
    let Some(gpu) = gpu("a_body_node_updated_to_read_a_value_is_ordered_by_its_conditional_node")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (counter_a, counter_b) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));
    let fixed = upload_u32(&gpu, &[3]);
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let limit = g.add_indirect(5u32).unwrap();
    let fetch = g.indirect_fetch().unwrap();
    let reset_a = g.add_memset(Memset::new(&counter_a, 0u32), &[]).unwrap();
    let reset_b = g.add_memset(Memset::new(&counter_b, 0u32), &[]).unwrap();
    // Both loops count to the plain buffer's 3; only the second one's node follows the fetch.
    // (The second also follows the first: two WHILE nodes that may run at once are refused.)
    let h_a = g.conditional_handle(Some(1)).unwrap();
    let (loop_a, body_a) = g
        .add_conditional_with(h_a, Condition::While, &[reset_a.id()], |bodies| {
            bodies[0].add_kernel(
                &k.count_to,
                one(),
                (h_a, &counter_a, fixed.slice(0..1)),
                &[],
            )
        })
        .unwrap();
    let h_b = g.conditional_handle(Some(1)).unwrap();
    let (_, body_b) = g
        .add_conditional_with(
            h_b,
            Condition::While,
            &[reset_b.id(), fetch, loop_a.id()],
            |bodies| {
                bodies[0].add_kernel(
                    &k.count_to,
                    one(),
                    (h_b, &counter_b, fixed.slice(0..1)),
                    &[],
                )
            },
        )
        .unwrap();
    let mut exec = g.instantiate().unwrap();
    match exec.set_kernel_params(body_a, one(), (h_a, &counter_a, limit)) {
        Err(Error::Invalid { reason, .. }) => assert!(
            reason.contains("conditional body") && reason.contains("fetch node"),
            "{reason}"
        ),
        other => panic!(
            "a body's node whose conditional node is not after the fetch node: expected \
             Error::Invalid, got {other:?}"
        ),
    }
    exec.set_kernel_params(body_b, one(), (h_b, &counter_b, limit))
        .expect("a body's node whose conditional node follows the fetch node may read a value");
    for l in [5u32, 17, 1, 300] {
        exec.set_indirect(&limit, l).unwrap();
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            counter_b.to_vec().unwrap(),
            vec![l],
            "the updated loop counted to {l}"
        );
        assert_eq!(
            counter_a.to_vec().unwrap(),
            vec![3],
            "the other loop kept its limit"
        );
    }
}
