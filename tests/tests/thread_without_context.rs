//! Graphs, executables, buffers and the rest used on threads where no CUDA context is current.
//!
//! Graphs, executables, buffers, user objects and generated executables are `Send`: safe code
//! may move one to a fresh thread, where no context is current until something makes one so.
//! Some driver calls crash there though their arguments name the context (the kernel-node calls:
//! `runtime_kernel::witness_kernel_node_calls_need_a_current_context`), others return an error or
//! work. Each call below runs on a fresh thread of its own ([`bare`]), which first checks that no
//! context is current, so that no earlier call on it made one current for the next: a call
//! that needs a context and does not make its own current crashes or fails here, and a wrong
//! result shows in the checks against the CPU, made on the test's own thread.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    cuda_graph, Condition, Error, ExecCache, GraphMemory, IndirectDelivery, IndirectOptions, Mut,
    UserObject,
};
use cudagraph_tests::graph_memory::{assert_nothing_leaked, fresh_pool, settled, turn};
use cudagraph_tests::{
    assert_close, assert_read_close, cfg, compile, fill_buffer, function, gpu, read_back, upload,
    zeros, Kernels, Rng, SaxpyArgs, POISON,
};

/// Asserts that no context is current on this thread.
#[track_caller]
fn no_context() {
    let current = cudagraph_runtime::cudarc::driver::result::ctx::get_current();
    assert!(
        matches!(current, Ok(None)),
        "a fresh thread should have no current context, found {current:?}"
    );
}

/// Runs `f` on a fresh thread, where no context is current (checked first), and returns what it
/// returns; a panic there is the caller's.
fn bare<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        s.spawn(|| {
            no_context();
            f()
        })
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// [`bare`] with `value` (a graph, an executable: `Send`, not `Sync`) lent to `f`.
fn bare_with<T: Send, R: Send>(value: &mut T, f: impl FnOnce(&mut T) -> R + Send) -> R {
    bare(|| f(value))
}

/// [`bare_with`] with a second value lent to `f` too (a graph `f` reads: `&Graph` is not
/// `Send`, `&mut Graph` is).
fn bare_with2<T: Send, U: Send, R: Send>(
    value: &mut T,
    other: &mut U,
    f: impl FnOnce(&mut T, &mut U) -> R + Send,
) -> R {
    bare(|| f(value, other))
}

/// Drops `value` on a fresh thread with no current context.
fn drop_bare<T: Send>(value: T) {
    bare(move || drop(value));
}

/// `a * x + y`, element-wise.
fn axpy(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| a * x + y).collect()
}

/// `a * x + c`, element-wise.
fn axpc(a: f32, x: &[f32], c: f32) -> Vec<f32> {
    x.iter().map(|x| a * x + c).collect()
}

/// Kernel, memcpy, memset and empty nodes added, instantiated, launched, updated one by one (the
/// kernel's arguments, the memset's value, the memcpy's destination), switched off and on,
/// uploaded, and dropped, each on a fresh thread.
#[test]
fn kernel_memcpy_and_memset_nodes_on_threads_without_a_context() {
    let test = "kernel_memcpy_and_memset_nodes_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let x_host = rng.f32s(n);
    let (a, c, a2, c2) = (rng.f32(), rng.f32(), rng.f32(), rng.f32());
    let x = upload(&gpu, &x_host);
    let (y, z, z2) = (zeros::<f32>(&gpu, n), zeros::<f32>(&gpu, n), zeros(&gpu, n));
    let host = HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap();

    // y = c -> y = a x + y -> z = y -> (empty) -> host = z
    let mut g = bare(|| Graph::new(&gpu.ctx).unwrap());
    let set = bare_with(&mut g, |g| g.add_memset(Memset::new(&y, c), &[]).unwrap());
    let saxpy = bare_with(&mut g, |g| {
        g.add_kernel(&k.saxpy, cfg(n), (n as u32, a, &x, &y), &[set.id()])
            .unwrap()
    });
    let copy = bare_with(&mut g, |g| {
        g.add_memcpy(Memcpy::dtod(&y, &z), &[saxpy.id()]).unwrap()
    });
    let join = bare_with(&mut g, |g| g.add_empty(&[copy.id()]).unwrap());
    bare_with(&mut g, |g| {
        g.add_memcpy(Memcpy::dtoh(&z, &host), &[join.id()]).unwrap()
    });
    let mut exec = bare(|| g.instantiate().unwrap());
    bare_with(&mut exec, |e| e.upload(&gpu.stream).unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    let want = axpc(a, &x_host, c);
    assert_read_close(&gpu.stream, "z = a x + c", &z, &want);
    gpu.stream.synchronize().unwrap();
    assert_close("host = z", &host.to_vec().unwrap(), &want, 1e-6);

    // Each node updated in the executable on a thread of its own.
    bare_with(&mut exec, |e| {
        e.set_kernel_params(saxpy, cfg(n), (n as u32, a2, &x, &y))
            .unwrap()
    });
    bare_with(&mut exec, |e| {
        e.set_memset_params(set, Memset::new(&y, c2)).unwrap()
    });
    bare_with(&mut exec, |e| {
        e.set_memcpy_params(copy, Memcpy::dtod(&y, &z2)).unwrap()
    });
    fill_buffer(&z, POISON);
    fill_buffer(&z2, POISON);
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    let want = axpc(a2, &x_host, c2);
    assert_read_close(&gpu.stream, "z2 = a2 x + c2 (updated nodes)", &z2, &want);
    assert!(
        read_back(&gpu.stream, &z).iter().all(|v| v.is_nan()),
        "z is no longer the copy's destination"
    );

    // The memset switched off: y keeps the last launch's a2 x + c2, and the kernel adds to it.
    bare_with(&mut exec, |e| e.set_enabled(set, false).unwrap());
    assert!(!bare_with(&mut exec, |e| e.is_enabled(set).unwrap()));
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    let twice = axpy(a2, &x_host, &want);
    assert_read_close(&gpu.stream, "without the memset", &z2, &twice);
    bare_with(&mut exec, |e| e.set_enabled(set, true).unwrap());
    assert!(bare_with(&mut exec, |e| e.is_enabled(set).unwrap()));
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(&gpu.stream, "the memset on again", &z2, &want);

    // Re-instantiated from its graph (the updates above are lost, as `reinstantiate` says: the
    // copy writes z again, from a x + c), then dropped, there too.
    bare_with(&mut exec, |e| {
        e.reinstantiate(InstantiateFlags::NONE).unwrap()
    });
    fill_buffer(&z, POISON);
    fill_buffer(&z2, POISON);
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(
        &gpu.stream,
        "re-instantiated from the graph",
        &z,
        &axpc(a, &x_host, c),
    );
    assert!(
        read_back(&gpu.stream, &z2).iter().all(|v| v.is_nan()),
        "the re-instantiated copy writes z, not z2"
    );
    drop_bare(exec);
    gpu.ctx.check_err().expect("no error stored by the drop");
}

/// A whole-graph update, a re-instantiation from another graph, a graph's clone, and a graph
/// cleared and rebuilt, each on a fresh thread.
#[test]
fn whole_graph_updates_clones_and_clears_on_threads_without_a_context() {
    let test = "whole_graph_updates_clones_and_clears_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
    let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
    let (x, y) = (upload(&gpu, &x_host), upload(&gpu, &y_host));
    let out = zeros::<f32>(&gpu, n);
    let build = |a: f32| {
        bare(|| {
            let mut g = Graph::new(&gpu.ctx).unwrap();
            g.add_kernel(&k.axpy_out, cfg(n), (n as u32, a, &x, &y, &out), &[])
                .unwrap();
            g
        })
    };
    let mut exec = bare(|| build(a).instantiate().unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(&gpu.stream, "a x + y", &out, &axpy(a, &x_host, &y_host));

    let mut with_b = build(b);
    bare_with2(&mut exec, &mut with_b, |e, g| e.update(g).unwrap());
    fill_buffer(&out, POISON);
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(
        &gpu.stream,
        "updated: b x + y",
        &out,
        &axpy(b, &x_host, &y_host),
    );

    let mut with_c = build(c);
    let clone = bare_with(&mut with_c, |g| g.try_clone().unwrap());
    drop_bare(with_c);
    bare_with(&mut exec, |e| {
        e.reinstantiate_from(clone, InstantiateFlags::NONE).unwrap()
    });
    fill_buffer(&out, POISON);
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(
        &gpu.stream,
        "re-instantiated from a clone: c x + y",
        &out,
        &axpy(c, &x_host, &y_host),
    );

    // Cleared (the old driver graph destroyed, a new one made) and rebuilt.
    let mut g = build(a);
    bare_with(&mut g, |g| g.clear().unwrap());
    assert!(g.is_empty());
    bare_with(&mut g, |g| {
        g.add_kernel(&k.axpy_out, cfg(n), (n as u32, b, &y, &x, &out), &[])
            .unwrap()
    });
    bare_with2(&mut exec, &mut g, |e, g| e.update(g).unwrap());
    fill_buffer(&out, POISON);
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(
        &gpu.stream,
        "the cleared graph, rebuilt: b y + x",
        &out,
        &axpy(b, &y_host, &x_host),
    );
    drop_bare(g);
    drop_bare(with_b);
    drop_bare(exec);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

/// Host, child-graph and event nodes added, launched and updated one by one (the host
/// function, the child graph, the recorded and the awaited event), each on a fresh thread.
#[test]
fn host_child_and_event_nodes_on_threads_without_a_context() {
    let test = "host_child_and_event_nodes_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let y_host = rng.f32s(n);
    let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
    let y = upload(&gpu, &y_host);
    let side = gpu.ctx.new_stream().unwrap();
    let (first, second) = (
        bare(|| Event::new(&gpu.ctx).unwrap()),
        bare(|| Event::new(&gpu.ctx).unwrap()),
    );
    let calls = Arc::new(Mutex::new(Vec::<u32>::new()));
    let scaled_by = |factor: f32| {
        bare(|| {
            let mut g = Graph::new(&gpu.ctx).unwrap();
            g.add_kernel(&k.scale, cfg(n), (n as u32, factor, &y), &[])
                .unwrap();
            g
        })
    };

    // Producer: child (y *= a) -> host (logs 1) -> record.
    let mut child = scaled_by(a);
    let mut producer = bare(|| Graph::new(&gpu.ctx).unwrap());
    let inner = bare_with2(&mut producer, &mut child, |g, child| {
        g.add_child_graph(child, &[]).unwrap()
    });
    let log = calls.clone();
    let host = bare_with(&mut producer, |g| {
        g.add_host(move || log.lock().unwrap().push(1), &[inner.id()])
            .unwrap()
    });
    let record = bare_with(&mut producer, |g| {
        g.add_event_record(&first, &[host.id()]).unwrap()
    });
    // Consumer, on another stream: wait -> y += c.
    let mut consumer = bare(|| Graph::new(&gpu.ctx).unwrap());
    let wait = bare_with(&mut consumer, |g| g.add_event_wait(&first, &[]).unwrap());
    bare_with(&mut consumer, |g| {
        g.add_kernel(&k.offset, cfg(n), (n as u32, c, &y), &[wait.id()])
            .unwrap()
    });
    let mut producer = bare(|| producer.instantiate().unwrap());
    let mut consumer = bare(|| consumer.instantiate().unwrap());
    bare_with(&mut producer, |e| e.launch(&gpu.stream).unwrap());
    bare_with(&mut consumer, |e| e.launch(&side).unwrap());
    side.synchronize().unwrap();
    let once: Vec<f32> = y_host.iter().map(|v| a * v + c).collect();
    assert_read_close(&side, "y = a y + c", &y, &once);
    assert_eq!(*calls.lock().unwrap(), vec![1], "the host node ran once");

    // Updated: the child scales by b, the host node logs 2, both graphs use the second event.
    let mut other_child = scaled_by(b);
    bare_with2(&mut producer, &mut other_child, |e, child| {
        e.set_child_graph(inner, child).unwrap()
    });
    let log = calls.clone();
    bare_with(&mut producer, |e| {
        e.set_host_fn(host, move || log.lock().unwrap().push(2))
            .unwrap()
    });
    bare_with(&mut producer, |e| {
        e.set_event_record(record, &second).unwrap()
    });
    bare_with(&mut consumer, |e| e.set_event_wait(wait, &second).unwrap());
    bare_with(&mut producer, |e| e.launch(&gpu.stream).unwrap());
    bare_with(&mut consumer, |e| e.launch(&side).unwrap());
    side.synchronize().unwrap();
    let twice: Vec<f32> = once.iter().map(|v| b * v + c).collect();
    assert_read_close(&side, "y = b y + c (updated nodes)", &y, &twice);
    assert_eq!(
        *calls.lock().unwrap(),
        vec![1, 2],
        "the new host function ran"
    );
    second.cuda().synchronize().unwrap();
    producer.check_host_panics().unwrap();

    drop_bare(producer);
    drop_bare(consumer);
    drop_bare(child);
    drop_bare(other_child);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

/// Conditional nodes built on fresh threads: a WHILE node whose body's kernel ends it, and an IF
/// node whose body holds a kernel and a child graph of a kernel (a child in a body is looked
/// through for nodes a body may not hold), each added, instantiated and launched on a thread of
/// its own.
#[test]
fn conditional_nodes_with_kernel_bodies_on_threads_without_a_context() {
    let test = "conditional_nodes_with_kernel_bodies_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = cudagraph_tests::conditional::kernels(&gpu);
    let one = cudagraph_tests::conditional::one;
    let mut rng = Rng::new(test);
    let limit = 2 + rng.below(500);
    let (put_a, put_b) = (rng.below(1000), 1000 + rng.below(1000));
    let (counter, value) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));
    let (out_a, out_b) = (zeros::<u32>(&gpu, 1), zeros::<u32>(&gpu, 1));

    let mut inner = bare(|| Graph::new(&gpu.ctx).unwrap());
    bare_with(&mut inner, |g| {
        g.add_kernel(&k.put, one(), (put_b, &out_b), &[]).unwrap()
    });
    let mut g = bare(|| Graph::new(&gpu.ctx).unwrap());
    let reset = bare_with(&mut g, |g| {
        g.add_memset(Memset::new(&counter, 0u32), &[]).unwrap()
    });
    let looping = bare_with(&mut g, |g| g.conditional_handle(Some(1)).unwrap());
    let looped = bare_with(&mut g, |g| {
        g.add_conditional(looping, Condition::While, &[reset.id()], |bodies| {
            bodies[0].add_kernel(&k.step, one(), (looping, &counter, limit), &[])?;
            Ok(())
        })
        .unwrap()
    });
    let chosen = bare_with(&mut g, |g| g.conditional_handle(None).unwrap());
    let set = bare_with(&mut g, |g| {
        g.add_kernel(&k.set_from, one(), (chosen, &value), &[looped.id()])
            .unwrap()
    });
    bare_with2(&mut g, &mut inner, |g, inner| {
        g.add_conditional(chosen, Condition::If, &[set.id()], |bodies| {
            let put = bodies[0].add_kernel(&k.put, one(), (put_a, &out_a), &[])?;
            bodies[0].add_child_graph(inner, &[put.id()])?;
            Ok(())
        })
        .unwrap()
    });
    let mut exec = bare(|| g.instantiate().unwrap());
    for (v, taken) in [(0u32, false), (1 + rng.below(100), true), (0, false)] {
        value.copy_from(&[v]).unwrap();
        out_a.copy_from(&[0]).unwrap();
        out_b.copy_from(&[0]).unwrap();
        bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
        assert_eq!(
            read_back(&gpu.stream, &counter),
            vec![limit],
            "the loop ran to {limit}"
        );
        let want = |put: u32| vec![if taken { put } else { 0 }];
        assert_eq!(
            read_back(&gpu.stream, &out_a),
            want(put_a),
            "value {v}: the body's kernel"
        );
        assert_eq!(
            read_back(&gpu.stream, &out_b),
            want(put_b),
            "value {v}: the body's child"
        );
    }
    drop_bare(exec);
    drop_bare(inner);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

/// Memory nodes on fresh threads: a graph that allocates, uses and frees its memory; a graph
/// whose allocation outlives its launch, read and taken as a buffer, that buffer given to a
/// later graph's free node, that graph dropped unlaunched (its drop frees the memory), and the
/// executable dropped with its allocation live (its drop frees it). The device's graph memory
/// goes back to where it was: every free was made.
#[test]
fn memory_nodes_and_their_frees_on_threads_without_a_context() {
    let _turn = turn();
    let test = "memory_nodes_and_their_frees_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1 << 16, 1 << 20);
    let (first, added) = (rng.below(1000), rng.below(1000));
    fresh_pool(&gpu);
    let before = settled(&gpu);
    let out = zeros::<u32>(&gpu, n);

    // alloc t -> t = first -> t += added -> out = t -> free t
    let mut g = bare(|| Graph::new(&gpu.ctx).unwrap());
    let t = bare_with(&mut g, |g| g.add_mem_alloc::<u32>(n, &[]).unwrap());
    let set = bare_with(&mut g, |g| {
        g.add_memset(Memset::new(t, first), &[t.id()]).unwrap()
    });
    let add = bare_with(&mut g, |g| {
        g.add_kernel(&k.add_u32, cfg(n), (n as u32, added, &t), &[set.id()])
            .unwrap()
    });
    let copy = bare_with(&mut g, |g| {
        g.add_memcpy(Memcpy::dtod(t, &out), &[add.id()]).unwrap()
    });
    bare_with(&mut g, |g| g.add_mem_free(&t, &[copy.id()]).unwrap());
    let mut exec = bare(|| g.instantiate().unwrap());
    for _ in 0..2 {
        bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
        assert_eq!(read_back(&gpu.stream, &out), vec![first + added; n]);
    }
    drop_bare(exec);

    // An allocation the graph does not free.
    let mut maker = bare(|| Graph::new(&gpu.ctx).unwrap());
    let kept = bare_with(&mut maker, |g| g.add_mem_alloc::<u32>(n, &[]).unwrap());
    bare_with(&mut maker, |g| {
        g.add_memset(Memset::new(kept, first), &[kept.id()])
            .unwrap()
    });
    let mut maker = bare(|| maker.instantiate().unwrap());
    bare_with(&mut maker, |e| e.launch(&gpu.stream).unwrap());
    let read = bare_with(&mut maker, |e| e.read_allocation(&kept).unwrap());
    assert_eq!(read, vec![first; n], "read_allocation");
    let taken = bare_with(&mut maker, |e| e.take_allocation(&kept).unwrap());
    assert_eq!(taken.to_vec().unwrap(), vec![first; n], "the taken buffer");
    // Freed by a later graph's free node: that graph dropped unlaunched frees it itself.
    let mut later = bare(|| Graph::new(&gpu.ctx).unwrap());
    bare_with(&mut later, |g| g.add_mem_free_buffer(taken, &[]).unwrap());
    drop_bare(later);
    // The buffer is gone: the maker may launch again; dropped with that allocation live.
    bare_with(&mut maker, |e| e.launch(&gpu.stream).unwrap());
    let read = bare_with(&mut maker, |e| e.read_allocation(&kept).unwrap());
    assert_eq!(read, vec![first; n], "read_allocation after the relaunch");
    drop_bare(maker);

    gpu.stream.synchronize().unwrap();
    gpu.ctx.check_err().expect("no error stored by the frees");
    assert_nothing_leaked(&gpu, &before, "memory nodes on threads without a context");
    // The device's graph memory figures, asked for on a fresh thread.
    let asked = bare(|| {
        GraphMemory::reset_peaks(&gpu.ctx).unwrap();
        GraphMemory::trim(&gpu.ctx).unwrap();
        GraphMemory::of(&gpu.ctx).unwrap()
    });
    assert_eq!(asked.used, settled(&gpu).used, "graph memory in use");
}

/// Captures on fresh threads: `Graph::capture` of a copy (cudarc's, on the views) and a kernel
/// (this crate's launch), and `Graph::capture_into` of a copy (this crate's) and a kernel between
/// explicit nodes; each instantiated and launched on a thread of its own.
#[test]
fn captures_of_kernels_and_copies_on_threads_without_a_context() {
    let test = "captures_of_kernels_and_copies_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let x_host = rng.f32s(n);
    let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
    let x = upload(&gpu, &x_host);
    let (y, z) = (zeros::<f32>(&gpu, n), zeros::<f32>(&gpu, n));
    let stream = bare(|| gpu.ctx.new_stream().unwrap());

    // y = x; y *= a
    let scale = k.scale.clone();
    let captured = bare(|| {
        Graph::capture(&stream, (&x, Mut(&y)), move |s, (x, mut y)| {
            s.memcpy_dtod(&x, &mut y)?;
            s.launch(&scale, cfg(n), (n as u32, a, &y))?;
            Ok::<(), Error>(())
        })
        .unwrap()
    });
    let mut exec = bare(|| captured.instantiate().unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    let ax: Vec<f32> = x_host.iter().map(|v| a * v).collect();
    assert_read_close(&gpu.stream, "captured: y = a x", &y, &ax);

    // z = c -> [captured: y = x; z = b y + z] -> z += c
    let mut g = bare(|| Graph::new(&gpu.ctx).unwrap());
    let init = bare_with(&mut g, |g| g.add_memset(Memset::new(&z, c), &[]).unwrap());
    let saxpy = k.saxpy.clone();
    let recorded = bare_with(&mut g, |g| {
        g.capture_into(
            &stream,
            &[init.id()],
            (&x, Mut(&y), Mut(&z)),
            move |s, (x, y, z)| {
                s.memcpy(Memcpy::dtod(&x, &y))?;
                s.launch(&saxpy, cfg(n), (n as u32, b, &y, &z))
            },
        )
        .unwrap()
    });
    assert_eq!(recorded.len(), 2, "a copy and a kernel recorded");
    bare_with(&mut g, |g| {
        g.add_kernel(&k.offset, cfg(n), (n as u32, c, &z), recorded.sinks())
            .unwrap()
    });
    let mut into = bare(|| g.instantiate().unwrap());
    fill_buffer(&y, POISON);
    bare_with(&mut into, |e| e.launch(&gpu.stream).unwrap());
    let want: Vec<f32> = x_host.iter().map(|v| b * v + c + c).collect();
    assert_read_close(&gpu.stream, "captured into: z = b x + 2c", &z, &want);
    assert_read_close(&gpu.stream, "captured into: y = x", &y, &x_host);

    drop_bare(exec);
    drop_bare(into);
    drop_bare(stream);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

cuda_graph! {
    /// `y = start`, `y = alpha * x + y`, copied to `host_y`, then `done(host_y)`.
    graph Moved {
        params {
            saxpy: Kernel<SaxpyArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            host_y: HostBuffer<f32>,
            n: u32,
            alpha: f32,
            start: f32,
            done: fn(&[f32]),
        }
        zero: memset(y, start);
        scale: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, x, y);
        back: memcpy(y -> host_y);
        log: host(done, host_y);
        zero -> scale -> back -> log;
    }
}

/// The bits of `host_y[0]` as `Moved`'s host node last saw them (only one test uses it).
static SEEN: AtomicU32 = AtomicU32::new(0);

fn see_first(y: &[f32]) {
    SEEN.store(y[0].to_bits(), Ordering::SeqCst);
}

/// A generated executable built, launched, changed through its setters (a kernel's argument, a
/// memset's value, a memcpy's and a host node's buffer), its params guard and `set_params`, and
/// updated from another build, each on a fresh thread.
#[test]
fn a_generated_executable_on_threads_without_a_context() {
    let test = "a_generated_executable_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let len = rng.len_in(1000, 50_000);
    let x_host = rng.f32s(len);
    let x = upload(&gpu, &x_host);
    let host = || HostBuffer::from_slice(&gpu.ctx, &vec![POISON; len]).unwrap();
    let mut p = MovedParams {
        saxpy: k.saxpy.clone(),
        x,
        y: zeros(&gpu, len),
        host_y: host(),
        n: len as u32,
        alpha: rng.f32(),
        start: rng.f32(),
        done: see_first,
    };
    let check = |p: &MovedParams, what: &str| {
        gpu.stream.synchronize().unwrap();
        let got = p.host_y.to_vec().unwrap();
        assert_close(what, &got, &axpc(p.alpha, &x_host, p.start), 1e-6);
        assert_eq!(
            SEEN.load(Ordering::SeqCst),
            got[0].to_bits(),
            "{what}: the host node saw host_y"
        );
    };
    let built = bare(|| Moved::build(&gpu.ctx, &p).unwrap());
    let mut exec = bare(|| built.instantiate().unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    check(&p, "as built");

    // The setters, one thread each.
    p.alpha = rng.f32();
    p.start = rng.f32();
    p.host_y = host();
    bare_with(&mut exec, |e| e.set_alpha(p.alpha).unwrap());
    bare_with(&mut exec, |e| e.set_start(p.start).unwrap());
    bare_with(&mut exec, |e| e.set_host_y(p.host_y.clone()).unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    check(&p, "after the setters");

    // The params guard.
    p.alpha = rng.f32();
    p.y = zeros(&gpu, len);
    let updated = bare_with(&mut exec, |e| {
        let mut guard = e.params_mut();
        guard.set_alpha(p.alpha);
        guard.set_y(p.y.clone());
        guard.apply().unwrap()
    });
    assert_eq!(updated, 3, "zero, scale and back read the changed params");
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    check(&p, "after the guard");

    // `set_params`.
    p.start = rng.f32();
    p.host_y = host();
    let updated = bare_with(&mut exec, |e| e.set_params(&p).unwrap());
    assert_eq!(updated, 3, "zero, back and log read the changed params");
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    check(&p, "after set_params");

    // A whole-graph update from another build.
    p.alpha = rng.f32();
    p.host_y = host();
    let mut other = bare(|| Moved::build(&gpu.ctx, &p).unwrap());
    bare_with2(&mut exec, &mut other, |e, other| e.update(other).unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    check(&p, "after a whole-graph update");
    drop_bare(other);
    drop_bare(exec);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

/// `record(idx, value, out, n)`: `out[*idx] = *value`, for `*idx < n`.
type Record = Kernel<(DevicePtr<u32>, DevicePtr<u32>, DevicePtrMut<u32>, u32)>;

const RECORD_SRC: &str = r#"
extern "C" __global__ void record(const unsigned* idx, const unsigned* value, unsigned* out,
                                  unsigned n) {
    unsigned i = *idx;
    if (threadIdx.x == 0 && blockIdx.x == 0 && i < n) out[i] = *value;
}
"#;

fn record_kernel(gpu: &cudagraph_tests::Gpu) -> Record {
    let module = compile(&gpu.ctx, RECORD_SRC);
    // SAFETY: `record` takes (const unsigned*, const unsigned*, unsigned*, unsigned), reads
    // idx[0] and value[0] and writes out[i] for i = idx[0] < n only, and launches nothing; the
    // check keeps idx and value non-empty and n within out.
    unsafe { Record::new(function(&module, "record")) }
        .requires(|_, (idx, value, out, n)| idx >= 1 && value >= 1 && n as usize <= out)
}

cuda_graph! {
    /// `out[step] = value`, both indirect.
    graph Stepper {
        params {
            record: Record,
            out: DeviceBuffer<u32>,
            n: u32,
            #[indirect]
            step: u32,
            #[indirect]
            value: u32,
        }
        write: kernel record<<<1, 32>>>(step, value, out, n);
    }
}

/// Indirect values set and launched on fresh threads: through a graph's block delivered as
/// parameters (the launch updates the fetch node) and through a ring, and through a generated
/// executable's setters and params guard. Every launch's values are checked.
#[test]
fn indirect_values_on_threads_without_a_context() {
    let test = "indirect_values_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let record = record_kernel(&gpu);
    let mut rng = Rng::new(test);
    let launches = 16;
    for delivery in [IndirectDelivery::Parameters, IndirectDelivery::Ring] {
        let out = zeros::<u32>(&gpu, launches);
        let mut g = bare(|| Graph::new(&gpu.ctx).unwrap());
        let options = IndirectOptions::default().with_delivery(delivery);
        bare_with(&mut g, |g| g.add_indirect_block(options).unwrap());
        let idx = bare_with(&mut g, |g| g.add_indirect(0u32).unwrap());
        let value = bare_with(&mut g, |g| g.add_indirect(0u32).unwrap());
        bare_with(&mut g, |g| {
            g.add_kernel(&record, cfg(1), (idx, &value, &out, launches as u32), &[])
                .unwrap()
        });
        let mut exec = bare(|| g.instantiate().unwrap());
        let want: Vec<u32> = (0..launches).map(|_| 1 + rng.below(1 << 30)).collect();
        for (i, &v) in want.iter().enumerate() {
            bare_with(&mut exec, |e| e.set_indirect(&idx, i as u32).unwrap());
            bare_with(&mut exec, |e| e.set_indirect(&value, v).unwrap());
            bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
        }
        assert_eq!(
            out.to_vec().unwrap(),
            want,
            "{delivery:?}: each launch's values"
        );
        drop_bare(exec);
    }

    let p = StepperParams {
        record,
        out: zeros(&gpu, launches),
        n: launches as u32,
        step: 0,
        value: 0,
    };
    let built = bare(|| Stepper::build(&gpu.ctx, &p).unwrap());
    let mut exec = bare(|| built.instantiate().unwrap());
    let mut want = vec![0u32; launches];
    for (i, slot) in want.iter_mut().enumerate() {
        *slot = 1 + rng.below(1 << 30);
        let v = *slot;
        if i % 2 == 0 {
            bare_with(&mut exec, |e| e.set_step(i as u32).unwrap());
            bare_with(&mut exec, |e| e.set_value(v).unwrap());
        } else {
            let updated = bare_with(&mut exec, |e| {
                let mut guard = e.params_mut();
                guard.set_step(i as u32);
                guard.set_value(v);
                guard.apply().unwrap()
            });
            assert_eq!(updated, 0, "indirect values update no node");
        }
        bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    }
    assert_eq!(
        p.out.to_vec().unwrap(),
        want,
        "generated: each launch's values"
    );
    drop_bare(exec);
    gpu.ctx.check_err().expect("no error stored by the drops");
}

/// Sets its flag when dropped.
struct Probe(Arc<AtomicBool>);

impl Drop for Probe {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Buffers made and dropped, a user object made, retained by a graph and released, and an
/// executable cache filled and evicting, each on a fresh thread; the user object's value is
/// dropped once its graph and executable are gone.
#[test]
fn buffers_user_objects_and_caches_on_threads_without_a_context() {
    let test = "buffers_user_objects_and_caches_on_threads_without_a_context";
    let Some(gpu) = gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
    let x = bare(|| DeviceBuffer::from_host(&gpu.stream, &x_host).unwrap());
    let y = bare(|| HostBuffer::from_slice(&gpu.ctx, &y_host).unwrap());
    let dev_y = bare(|| DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap());
    let out = zeros::<f32>(&gpu, n);

    // dev_y = y (host to device), out = a x + dev_y; the graph holds a user object.
    let dropped = Arc::new(AtomicBool::new(false));
    let object = bare(|| UserObject::new(Probe(dropped.clone())).unwrap());
    let build = |a: f32| {
        bare(|| {
            let mut g = Graph::new(&gpu.ctx).unwrap();
            let up = g.add_memcpy(Memcpy::htod(&y, &dev_y), &[]).unwrap();
            g.add_kernel(
                &k.axpy_out,
                cfg(n),
                (n as u32, a, &x, &dev_y, &out),
                &[up.id()],
            )
            .unwrap();
            g
        })
    };
    let mut g = build(1.0);
    bare_with(&mut g, |g| g.retain_user_object(&object).unwrap());
    drop_bare(object);
    let mut exec = bare(|| g.instantiate().unwrap());
    bare_with(&mut exec, |e| e.launch(&gpu.stream).unwrap());
    assert_read_close(&gpu.stream, "x + y", &out, &axpy(1.0, &x_host, &y_host));
    assert!(!dropped.load(Ordering::SeqCst), "the executable holds it");
    drop_bare(exec);
    // The driver hands the value back asynchronously once nothing holds it.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !dropped.load(Ordering::SeqCst) && std::time::Instant::now() < deadline {
        cudagraph_runtime::wait_for_releases(Duration::from_millis(100));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(
        dropped.load(Ordering::SeqCst),
        "the user object's value dropped"
    );

    // A cache of one: the second build evicts (drops) the first executable, on its thread.
    let mut cache: ExecCache<u32, GraphExec<'_>> = ExecCache::new(NonZeroUsize::MIN);
    let (a, b) = (rng.f32(), rng.f32());
    for (key, factor) in [(0u32, a), (1, b), (0, a)] {
        bare_with(&mut cache, |cache| {
            let exec = cache
                .get_or_build(&key, |_| build(factor).instantiate())
                .unwrap();
            exec.launch(&gpu.stream).unwrap();
        });
        assert_read_close(
            &gpu.stream,
            &format!("cached executable {key}"),
            &out,
            &axpy(factor, &x_host, &y_host),
        );
    }
    assert_eq!(cache.stats().evictions, 2);
    // Removed and cleared where no context is current (the builds above made one current).
    let removed = bare_with(&mut cache, |cache| cache.remove(&0));
    assert!(removed.is_some(), "executable 0 was cached");
    drop_bare(removed);
    bare_with(&mut cache, |cache| {
        cache.get_or_build(&2, |_| build(a).instantiate()).map(drop)
    })
    .unwrap();
    bare_with(&mut cache, ExecCache::clear);
    assert!(cache.is_empty());
    drop_bare(cache);

    // The buffers, last: dropped where no context is current.
    drop_bare((x, y, dev_y));
    gpu.stream.synchronize().unwrap();
    gpu.ctx.check_err().expect("no error stored by the drops");
}
