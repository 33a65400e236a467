//! User objects (CUDA user objects): values handed to a graph live until the graph, every executable made
//! from it, and every launch of those are done with them, and are then dropped on the runtime's
//! reaper thread; so does a capture closure, which the nodes it recorded hold as they hold their
//! memory. The drops are observed through a channel; the driver releases references
//! asynchronously, so the tests wait for them with a timeout.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use cudagraph_runtime::cudarc::driver::DevicePtr as _;
use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{DeviceBuffer, Error, Mut, UserObject};
use cudagraph_tests::graphs::Counters;
use cudagraph_tests::{cfg, read_back, zeros, Kernels, Rng};

/// How long a drop may take to arrive once nothing holds the value any more.
const DROP_TIMEOUT: Duration = Duration::from_secs(10);

/// Reports its drop on a channel: its token and how many launches had completed by then.
struct DropProbe {
    token: u64,
    launches_done: Arc<AtomicUsize>,
    dropped: Sender<(u64, usize)>,
}

impl Drop for DropProbe {
    fn drop(&mut self) {
        let _ = self
            .dropped
            .send((self.token, self.launches_done.load(Ordering::SeqCst)));
    }
}

fn probe(token: u64) -> (DropProbe, Arc<AtomicUsize>, Receiver<(u64, usize)>) {
    let (tx, rx) = channel();
    let done = Arc::new(AtomicUsize::new(0));
    (
        DropProbe {
            token,
            launches_done: done.clone(),
            dropped: tx,
        },
        done,
        rx,
    )
}

/// Asserts the probe has not been dropped, giving a premature drop some time to show.
#[track_caller]
fn assert_alive(rx: &Receiver<(u64, usize)>, when: &str) {
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        rx.try_recv(),
        Err(TryRecvError::Empty),
        "dropped too early: {when}"
    );
}

/// Waits for the probe's drop and returns how many launches had completed by then.
#[track_caller]
fn wait_for_drop(rx: &Receiver<(u64, usize)>, token: u64) -> usize {
    match rx.recv_timeout(DROP_TIMEOUT) {
        Ok((got, launches)) => {
            assert_eq!(got, token, "the probe dropped is the one retained");
            launches
        }
        Err(RecvTimeoutError::Timeout) => panic!("not dropped within {DROP_TIMEOUT:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("the probe vanished without dropping"),
    }
}

#[test]
fn retained_value_outlives_graph_exec_and_launches() {
    let Some(gpu) = cudagraph_tests::gpu("retained_value_outlives_graph_exec_and_launches") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("retained_value_outlives_graph_exec_and_launches");
    let c = Counters::new(&gpu, &mut rng);
    let token = rng.next_u64();
    let (probe, done, dropped) = probe(token);

    // y += add, then a slow host node that counts finished launches.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let bump = c.add_bump(&mut graph, &k, &[]);
    let counter = done.clone();
    let finish = move || {
        std::thread::sleep(Duration::from_millis(50));
        counter.fetch_add(1, Ordering::SeqCst);
    };
    graph.add_host(finish, &[bump.id()]).unwrap();
    graph.retain(probe).unwrap();
    assert_alive(&dropped, "held by the graph only");

    let mut exec = graph.instantiate().unwrap();
    let launches = 3;
    for _ in 0..launches {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_alive(&dropped, "held by the executable, launches queued");
    // Dropped while its launches still run (each takes 50 ms in its host node): the value must
    // wait for them.
    drop(exec);
    assert_eq!(
        wait_for_drop(&dropped, token),
        launches,
        "launches finished when the value was dropped"
    );

    let want = c.after(launches as u32);
    assert_eq!(read_back(&gpu.stream, &c.y), want);
}

#[test]
fn retained_device_buffer_is_freed_without_error() {
    let Some(gpu) = cudagraph_tests::gpu("retained_device_buffer_is_freed_without_error") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("retained_device_buffer_is_freed_without_error");
    let c = Counters::new(&gpu, &mut rng);
    let result = zeros::<u32>(&gpu, c.n);
    let token = rng.next_u64();
    let (probe, _, dropped) = probe(token);

    // The graph works in `scratch`, a cudarc buffer (the counters' starting values) that it owns
    // and reaches by address only: the buffer is freed on the reaper thread (its `Drop` calls CUDA
    // there), before the probe that follows it in the tuple reports.
    let scratch = gpu.stream.clone_htod(&c.y0).unwrap();
    let (addr, _) = scratch.device_ptr(&gpu.stream);
    // SAFETY: `addr` is `scratch`, `c.n` counters on the device; `scratch` is moved into the graph
    // below with `retain`, which keeps it alive until the graph, its executable and their
    // launches are done, and nothing else uses it meanwhile.
    let scratch_ptr = unsafe { DevicePtrMut::<u32>::from_raw(addr, c.n) };
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let bump = graph
        .add_kernel(&k.add_u32, cfg(c.n), (c.n as u32, c.add, scratch_ptr), &[])
        .unwrap();
    let want = c.after(2);
    let out = Memcpy::dtod(scratch_ptr.as_const(), &result);
    graph.add_memcpy(out, &[bump.id()]).unwrap();
    graph.retain((scratch, probe)).unwrap();
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    exec.launch(&gpu.stream).unwrap();
    drop(exec);

    wait_for_drop(&dropped, token);
    gpu.ctx
        .check_err()
        .expect("freeing the retained buffer on the reaper thread");
    assert_eq!(read_back(&gpu.stream, &result), want);
}

#[test]
fn user_object_reference_is_shared_by_clones_and_executables() {
    let Some(gpu) =
        cudagraph_tests::gpu("user_object_reference_is_shared_by_clones_and_executables")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("user_object_reference_is_shared_by_clones_and_executables");
    let c = Counters::new(&gpu, &mut rng);
    let token = rng.next_u64();
    let (probe, _, dropped) = probe(token);

    let object = UserObject::new(probe).unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    c.add_bump(&mut graph, &k, &[]);
    graph.retain_user_object(&object).unwrap();
    drop(object);
    assert_alive(&dropped, "our reference released, the graph's held");

    let clone = graph.try_clone().unwrap();
    drop(graph);
    assert_alive(&dropped, "the original graph destroyed, its clone alive");

    let mut exec = clone.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &c.y), c.after(1));
    assert_alive(&dropped, "held by the clone's executable");
    drop(exec);
    wait_for_drop(&dropped, token);
}

#[test]
fn host_closure_state_lives_as_long_as_its_launches() {
    let Some(gpu) = cudagraph_tests::gpu("host_closure_state_lives_as_long_as_its_launches") else {
        return;
    };
    let mut rng = Rng::new("host_closure_state_lives_as_long_as_its_launches");
    let token = rng.next_u64();
    let (probe, done, dropped) = probe(token);

    // The closure owns the probe; the graph owns the closure.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let state = probe;
    graph
        .add_host(
            move || {
                std::thread::sleep(Duration::from_millis(50));
                state.launches_done.fetch_add(1, Ordering::SeqCst);
            },
            &[],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    let launches = 2 + rng.below(3) as usize;
    for _ in 0..launches {
        exec.launch(&gpu.stream).unwrap();
    }
    assert_alive(&dropped, "its executable alive");
    drop(exec);
    assert_eq!(
        wait_for_drop(&dropped, token),
        launches,
        "launches finished when the closure was dropped"
    );
    assert_eq!(
        done.load(Ordering::SeqCst),
        launches,
        "the closure ran once per launch"
    );
}

/// A capture closure (which owns what the captured work needs) lives as long as the launches of
/// the nodes it recorded: they hold it as they hold their memory, not in a user object of the
/// graph. The captured graph is embedded in another and dropped, and the launches of that one's
/// executable are held back behind a gate (a host node on another stream) while the executable
/// is dropped too: the closure goes only once they all ran (a host node after the captured work
/// counts them).
#[test]
fn capture_closure_lives_as_long_as_the_launches_of_its_nodes() {
    let name = "capture_closure_lives_as_long_as_the_launches_of_its_nodes";
    let Some(gpu) = cudagraph_tests::gpu(name) else {
        return;
    };
    let mut rng = Rng::new(name);
    let token = rng.next_u64();
    let (probe, done, dropped) = probe(token);
    let n = 1024;
    let src = DeviceBuffer::from_host(&gpu.stream, &vec![7u32; n]).unwrap();
    let dst = DeviceBuffer::<u32>::zeros(&gpu.stream, n).unwrap();
    let operands = (src.clone(), Mut(dst.clone()));
    let captured = Graph::capture(&gpu.stream, operands, move |s, (x, mut y)| {
        let _owned = &probe;
        s.memcpy_dtod(&x, &mut y)?;
        Ok::<(), Error>(())
    })
    .unwrap();
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let copy = graph.add_child_graph(&captured, &[]).unwrap();
    drop(captured);
    assert_alive(&dropped, "the captured graph dropped, embedded in another");
    let count = done.clone();
    graph
        .add_host(
            move || {
                count.fetch_add(1, Ordering::SeqCst);
            },
            &[copy.id()],
        )
        .unwrap();
    let mut exec = graph.instantiate().unwrap();

    let (open, shut) = channel::<()>();
    let mut gate = Graph::new(&gpu.ctx).unwrap();
    gate.add_host(
        move || {
            let _ = shut.recv();
        },
        &[],
    )
    .unwrap();
    let mut gate = gate.instantiate().unwrap();
    let gate_stream = gpu.ctx.new_stream().unwrap();
    gate.launch(&gate_stream).unwrap();
    gpu.stream.join(&gate_stream).unwrap();
    let launches = 2 + rng.below(3) as usize;
    for _ in 0..launches {
        exec.launch(&gpu.stream).unwrap();
    }
    drop(exec);
    assert_alive(&dropped, "its executable dropped, its launches held back");
    open.send(()).unwrap();
    assert_eq!(
        wait_for_drop(&dropped, token),
        launches,
        "launches finished when the capture closure was dropped"
    );
    assert_eq!(read_back(&gpu.stream, &dst), vec![7u32; n]);
    gpu.stream.synchronize().unwrap();
    drop(gate);
}
