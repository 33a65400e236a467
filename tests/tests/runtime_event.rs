//! Event record and wait nodes on the GPU: a graph that waits for an event another graph records
//! on another stream reads what that graph wrote (and one without the wait does not: the two
//! streams run at the same time), per-node updates that switch the events, and an event
//! recorded by a graph that a cudarc stream waits for.

use std::sync::Arc;

use cudagraph_runtime::cudarc::driver::CudaStream;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Event, NodeKind};
use cudagraph_tests::{compile, function, gpu, read_back, zeros, Gpu};

const SRC: &str = r#"
// Spins until `release[0] == 1` (the consumer has run: it writes x + 1 with x still 0) or
// `cycles` have passed, then fills y.
extern "C" __global__ void slow_fill(unsigned n, unsigned v, unsigned long long cycles,
                                     const volatile unsigned* release, unsigned* y) {
    long long start = clock64();
    while (release[0] != 1 && (unsigned long long)(clock64() - start) < cycles) {}
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v;
}
extern "C" __global__ void add_into(unsigned n, unsigned k, const unsigned* x, unsigned* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + k;
}
"#;

type SlowFill = (u32, u32, u64, DevicePtr<u32>, DevicePtrMut<u32>);
type AddInto = (u32, u32, DevicePtr<u32>, DevicePtrMut<u32>);

const N: usize = 1024;
/// How long a producer spins (at most) when the consumer is meant to wait for it: about 30 ms at
/// the H100's clock, long enough that a consumer that did not wait would run meanwhile.
const CYCLES: u64 = 50_000_000;
/// How long a producer spins (at most) in the controls, where the consumer on another stream is
/// meant not to wait: the producer ends as soon as it sees the consumer's write, so the control
/// does not depend on the consumer being launched within a few milliseconds (on a busy host it
/// once was not; in the whole test program, with the GPU shared by the other tests, it once
/// started more than 0.3 s after the producer). About 3 s, paid only if the consumer never runs
/// meanwhile.
const LONG: u64 = 5_000_000_000;

struct Kernels {
    slow_fill: Kernel<SlowFill>,
    add_into: Kernel<AddInto>,
}

fn kernels(gpu: &Gpu) -> Kernels {
    let module = compile(&gpu.ctx, SRC);
    // SAFETY: `slow_fill` takes (unsigned, unsigned, unsigned long long, unsigned*), writes
    // y[i] for i < n only, and launches nothing; the check keeps n within y.
    let slow_fill = unsafe { Kernel::<SlowFill>::new(function(&module, "slow_fill")) }
        .requires(|_, (n, _, _, release, y)| n as usize <= y && release >= 1);
    // SAFETY: `add_into` takes (unsigned, unsigned, const unsigned*, unsigned*), reads x[i] and
    // writes y[i] for i < n only, and launches nothing; the check keeps n within x and y.
    let add_into = unsafe { Kernel::<AddInto>::new(function(&module, "add_into")) }
        .requires(|_, (n, _, x, y)| n as usize <= x.min(y));
    Kernels {
        slow_fill,
        add_into,
    }
}

fn cfg() -> LaunchConfig {
    LaunchConfig::for_num_elems(N as u32)
}

/// `x = v` once `release[0] == 1` or after `cycles`, then (if given) record `event`.
fn producer(
    gpu: &Gpu,
    k: &Kernels,
    (x, release): (&DeviceBuffer<u32>, &DeviceBuffer<u32>),
    (v, cycles): (u32, u64),
    event: Option<&Event>,
) -> (
    GraphExec<'static>,
    Option<cudagraph_runtime::EventRecordNode>,
) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let fill = g
        .add_kernel(&k.slow_fill, cfg(), (N as u32, v, cycles, release, x), &[])
        .unwrap();
    let rec = event.map(|e| g.add_event_record(e, &[fill.id()]).unwrap());
    (g.instantiate().unwrap(), rec)
}

/// (If given, wait for `event`, then) `y = x + 1`.
fn consumer(
    gpu: &Gpu,
    k: &Kernels,
    x: &DeviceBuffer<u32>,
    y: &DeviceBuffer<u32>,
    event: Option<&Event>,
) -> (GraphExec<'static>, Option<cudagraph_runtime::EventWaitNode>) {
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let wait = event.map(|e| g.add_event_wait(e, &[]).unwrap());
    let deps: Vec<NodeId> = wait.iter().map(|w| w.id()).collect();
    g.add_kernel(&k.add_into, cfg(), (N as u32, 1, x, y), &deps)
        .unwrap();
    (g.instantiate().unwrap(), wait)
}

fn streams(gpu: &Gpu) -> (Arc<CudaStream>, Arc<CudaStream>) {
    (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap())
}

/// Runs a control that is meant to show two streams racing (the consumer on the second reading
/// `x` before the producer on the first writes it), each attempt on two new streams, until it
/// shows the race (`y` all 1s) or 4 attempts have not; returns the last attempt's `y`. Streams
/// share the GPU's few hardware queues (`CUDA_DEVICE_MAX_CONNECTIONS`, 8 by default), and two
/// that land on one queue run one after the other, whatever the program asks: with the whole
/// test program on a freshly started GPU, a control once saw its consumer wait out the
/// producer's spin. Each attempt starts from `x` and `y` zeroed.
fn until_raced(
    gpu: &Gpu,
    (x, y): (&DeviceBuffer<u32>, &DeviceBuffer<u32>),
    mut attempt: impl FnMut(&Arc<CudaStream>, &Arc<CudaStream>),
) -> Vec<u32> {
    let mut got = Vec::new();
    for _ in 0..4 {
        x.copy_from(&vec![0u32; N]).unwrap();
        y.copy_from(&vec![0u32; N]).unwrap();
        gpu.ctx.synchronize().unwrap();
        let (s1, s2) = streams(gpu);
        attempt(&s1, &s2);
        s1.synchronize().unwrap();
        s2.synchronize().unwrap();
        got = y.to_vec().unwrap();
        if got == vec![1u32; N] {
            break;
        }
    }
    got
}

#[test]
fn a_graph_waits_for_the_event_another_graph_records_on_another_stream() {
    let Some(gpu) = gpu("a_graph_waits_for_the_event_another_graph_records_on_another_stream")
    else {
        return;
    };
    let k = kernels(&gpu);
    let (s1, s2) = streams(&gpu);
    let (x, y) = (zeros::<u32>(&gpu, N), zeros::<u32>(&gpu, N));
    let event = Event::new(&gpu.ctx).unwrap();

    // Without the wait, the consumer on the other stream runs while the producer spins: it
    // reads the old `x`. (What the wait node is for.) The producer spins until it sees the
    // consumer's write.
    let (mut plain_producer, _) = producer(&gpu, &k, (&x, &y), (7, LONG), None);
    let (mut plain_consumer, _) = consumer(&gpu, &k, &x, &y, None);
    let raced = until_raced(&gpu, (&x, &y), |s1, s2| {
        plain_producer.launch(s1).unwrap();
        plain_consumer.launch(s2).unwrap();
    });
    assert_eq!(raced, vec![1u32; N], "no wait: read the old x");
    y.copy_from(&vec![0u32; N]).unwrap(); // no early release below

    // With it, the consumer waits for the producer's record, whichever stream it runs on.
    let (mut a, rec) = producer(&gpu, &k, (&x, &y), (9, CYCLES), Some(&event));
    let (mut b, wait) = consumer(&gpu, &k, &x, &y, Some(&event));
    let kind = |exec: &GraphExec<'_>, index: usize| exec.graph().nodes().nth(index).unwrap().kind;
    assert_eq!(kind(&a, rec.unwrap().id().index()), NodeKind::EventRecord);
    assert_eq!(kind(&b, wait.unwrap().id().index()), NodeKind::EventWait);
    for _ in 0..3 {
        a.launch(&s1).unwrap();
        b.launch(&s2).unwrap();
        s2.synchronize().unwrap();
        assert_eq!(read_back(&s2, &y), vec![10u32; N], "waited for the record");
    }
    // A cudarc stream waits for the graph's record too.
    a.launch(&s1).unwrap();
    s2.wait(event.cuda()).unwrap();
    assert_eq!(read_back(&s2, &x), vec![9u32; N]);
}

#[test]
fn event_nodes_switch_events_by_per_node_update() {
    let Some(gpu) = gpu("event_nodes_switch_events_by_per_node_update") else {
        return;
    };
    let k = kernels(&gpu);
    let (s1, s2) = streams(&gpu);
    let (x, y) = (zeros::<u32>(&gpu, N), zeros::<u32>(&gpu, N));
    let first = Event::new(&gpu.ctx).unwrap();
    // Spins long: the last launch is a control (see the first test).
    let (mut a, rec) = producer(&gpu, &k, (&x, &y), (4, LONG), Some(&first));
    let (mut b, wait) = consumer(&gpu, &k, &x, &y, Some(&first));
    // Both switch to a second event; the first is no longer ours (the graphs keep it).
    let second = Event::new(&gpu.ctx).unwrap();
    a.set_event_record(rec.unwrap(), &second).unwrap();
    b.set_event_wait(wait.unwrap(), &second).unwrap();
    drop(first);
    for _ in 0..3 {
        a.launch(&s1).unwrap();
        b.launch(&s2).unwrap();
        s2.synchronize().unwrap();
        assert_eq!(read_back(&s2, &y), vec![5u32; N]);
    }
    // Switching the wait alone to an event nobody records: the consumer no longer waits.
    let idle = Event::new(&gpu.ctx).unwrap();
    b.set_event_wait(wait.unwrap(), &idle).unwrap();
    s1.synchronize().unwrap();
    let raced = until_raced(&gpu, (&x, &y), |s1, s2| {
        a.launch(s1).unwrap();
        b.launch(s2).unwrap();
    });
    assert_eq!(raced, vec![1u32; N], "no longer waits");
}
