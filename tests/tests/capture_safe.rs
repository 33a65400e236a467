//! Safe stream capture on a GPU: the memory given to a capture, its views in cudarc's calls, the
//! capture scope's own calls (kernels, copies, memsets, host functions, allocations, conditional
//! nodes), memory borrowed for a scope, and the memory the capture was not given, refused.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{Condition, Error, Mut, Replay, SET_CONDITIONAL_DECLARATION};
use cudagraph_tests::{cfg, compile, function, gpu, read_back, Rng};

const SOURCE: &str = r#"
extern "C" __global__ void scale(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i];
}
extern "C" __global__ void set_if_positive(cudaGraphConditionalHandle h, const float* x) {
    cudaGraphSetConditional(h, x[0] > 0.0f ? 1u : 0u);
}
"#;

type Scale = Kernel<(u32, f32, DevicePtrMut<f32>)>;
type SetIf = Kernel<(ConditionalHandle, DevicePtr<f32>)>;

fn kernels(ctx: &Arc<cudagraph_runtime::cudarc::driver::CudaContext>) -> (Scale, SetIf) {
    let src = format!(
        "typedef unsigned long long cudaGraphConditionalHandle;\n{SET_CONDITIONAL_DECLARATION}{SOURCE}"
    );
    let module = compile(ctx, &src);
    // SAFETY: `scale` takes (unsigned, float, float*), reads and writes y[i] for i < n only,
    // and launches nothing; the check keeps n within y.
    let scale =
        unsafe { Scale::new(function(&module, "scale")) }.requires(|_, (n, _, y)| n as usize <= y);
    // SAFETY: `set_if_positive` takes (cudaGraphConditionalHandle, const float*), reads x[0]
    // only, sets only its handle, and launches nothing; the check keeps x non-empty.
    let set_if =
        unsafe { SetIf::new(function(&module, "set_if_positive")) }.requires(|_, (_, x)| x >= 1);
    (scale, set_if)
}

#[test]
fn cudarc_copies_on_views_and_typed_kernels_are_recorded() {
    let Some(gpu) = gpu("cudarc_copies_on_views_and_typed_kernels_are_recorded") else {
        return;
    };
    let (scale, _) = kernels(&gpu.ctx);
    let mut rng = Rng::new("cudarc_copies_on_views_and_typed_kernels_are_recorded");
    let n = rng.len_in(1000, 50_000);
    let data = rng.f32s(n);
    let x = DeviceBuffer::from_host(&gpu.stream, &data).unwrap();
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let graph = Graph::capture(&gpu.stream, (&x, Mut(&y)), move |s, (x, mut y)| {
        s.memcpy_dtod(&x, &mut y)?; // cudarc's copy, on the views
        s.launch(&scale, cfg(n), (n as u32, 2.0f32, &y))?; // this crate's, on a view
        Ok::<(), Error>(())
    })
    .unwrap();
    assert_eq!(y.to_vec().unwrap(), vec![0.0; n], "recorded, not run");
    let mut exec = graph.instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    let want: Vec<f32> = data.iter().map(|v| 2.0 * v).collect();
    assert_eq!(y.to_vec().unwrap(), want);
}

#[test]
fn memory_not_given_to_a_capture_is_refused() {
    let Some(gpu) = gpu("memory_not_given_to_a_capture_is_refused") else {
        return;
    };
    let n = 4096;
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    // A cudarc buffer whose uses cudarc tracks: waiting for them inside the capture breaks it.
    let tracked = gpu.stream.alloc_zeros::<f32>(n).unwrap();
    let tracked = Arc::new(tracked);
    let t = tracked.clone();
    let broken = Graph::capture(&gpu.stream, Mut(&y), move |s, mut y| {
        s.memcpy_dtod(&*t, &mut y)
    });
    assert!(
        matches!(broken, Err(Error::CaptureBroken { .. })),
        "an undeclared tracked buffer: {broken:?}"
    );
    // The stream is usable again.
    gpu.stream.synchronize().unwrap();
    assert_eq!(read_back(&gpu.stream, &*tracked), vec![0.0; n]);
}

#[test]
fn host_functions_allocations_and_conditional_nodes_in_a_capture() {
    let Some(gpu) = gpu("host_functions_allocations_and_conditional_nodes_in_a_capture") else {
        return;
    };
    let (scale, set_if) = kernels(&gpu.ctx);
    let n = 1024;
    let x = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let out = HostBuffer::<f32>::zeroed(&gpu.ctx, n).unwrap();
    let seen = Arc::new(AtomicU32::new(0));
    let (o, s2) = (out.clone(), seen.clone());
    let graph = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        // tmp = x * 3, in an allocation of the capture
        let tmp = s.alloc::<f32>(n)?;
        s.memcpy(Memcpy::dtod(&x, &tmp))?;
        s.launch(&scale, cfg(n), (n as u32, 3.0f32, &tmp))?;
        // if x[0] > 0: tmp *= 10
        let h = s.conditional_handle(Some(0))?;
        s.launch(&set_if, LaunchConfig::for_num_elems(1), (h, &x))?;
        s.add_conditional(h, Condition::If, |bodies| {
            bodies[0]
                .add_kernel(&scale, cfg(n), (n as u32, 10.0f32, &x), &[])
                .map(drop)
        })?;
        s.memcpy(Memcpy::dtoh(&tmp, &o))?;
        s.free(tmp)?;
        let seen = s2.clone();
        s.host(&o, move |v: &[f32]| {
            seen.store(v[0].to_bits(), Ordering::SeqCst);
        })?;
        Ok::<(), Error>(())
    })
    .unwrap();
    let mut exec = graph.instantiate().unwrap();
    for (start, want_tmp, want_x) in [(2.0f32, 6.0f32, 20.0f32), (-1.0, -3.0, -1.0)] {
        x.copy_from(&vec![start; n]).unwrap();
        exec.launch(&gpu.stream).unwrap();
        assert_eq!(
            out.to_vec().unwrap(),
            vec![want_tmp; n],
            "the allocation's copy"
        );
        assert_eq!(
            x.to_vec().unwrap(),
            vec![want_x; n],
            "the conditional body ran or not"
        );
        assert_eq!(
            f32::from_bits(seen.load(Ordering::SeqCst)),
            want_tmp,
            "what the host function saw"
        );
    }
}

#[test]
fn a_scope_captures_borrowed_cudarc_memory() {
    let Some(gpu) = gpu("a_scope_captures_borrowed_cudarc_memory") else {
        return;
    };
    let (scale, _) = kernels(&gpu.ctx);
    let n = 2048;
    let mut y = gpu.stream.clone_htod(&vec![1.5f32; n]).unwrap();
    cudagraph_runtime::scope(|sc| {
        let graph = sc
            .capture(&gpu.stream, &mut y, move |s, y| {
                s.launch(&scale, cfg(n), (n as u32, 4.0f32, &y))
            })
            .unwrap();
        let mut exec = graph.instantiate().unwrap();
        exec.launch(&gpu.stream).unwrap();
        exec.launch(&gpu.stream).unwrap();
        std::mem::forget(exec); // the scope waits for the launches all the same
    });
    assert_eq!(read_back(&gpu.stream, &y), vec![24.0; n]);
}

#[test]
fn replay_warms_up_captures_and_replays_with_new_inputs() {
    let Some(gpu) = gpu("replay_warms_up_captures_and_replays_with_new_inputs") else {
        return;
    };
    let (scale, _) = kernels(&gpu.ctx);
    let n = 512;
    let x = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let mut step = Replay::new(&gpu.stream, 2, (&x, Mut(&y)), move |s, (x, mut y)| {
        s.memcpy_dtod(&x, &mut y)?;
        s.launch(&scale, cfg(n), (n as u32, 0.5f32, &y))?;
        Ok::<(), Error>(())
    })
    .unwrap();
    for v in [2.0f32, 8.0, -6.0] {
        x.copy_from(&vec![v; n]).unwrap();
        step.replay(&gpu.stream).unwrap();
        assert_eq!(y.to_vec().unwrap(), vec![v * 0.5; n]);
    }
}

/// Runs `f`, which must panic, and returns its panic message.
fn panic_message(f: impl FnOnce()) -> String {
    let panic =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).expect_err("expected a panic");
    match panic.downcast::<String>() {
        Ok(message) => *message,
        Err(panic) => panic
            .downcast::<&str>()
            .map(|m| m.to_string())
            .unwrap_or_default(),
    }
}

/// A view handed to a cudarc call on a stream outside the capture would give that work memory
/// nothing orders or keeps alive: the work would run now (not when the graph runs), racing with
/// launches that use the buffer, and after a failed capture on memory already freed. The view
/// refuses (it can only panic: cudarc asks for the address where no error can be returned), in a
/// capture and in a warm-up alike, and on a forked stream once its fork has returned.
#[test]
fn views_refuse_streams_outside_their_capture() {
    let Some(gpu) = gpu("views_refuse_streams_outside_their_capture") else {
        return;
    };
    let n = 1 << 16;
    let ones = vec![1u32; n];
    let y = DeviceBuffer::from_host(&gpu.stream, &ones).unwrap();
    let other = gpu.ctx.new_stream().unwrap();

    // In a capture: before the fix, `other` zeroed `y` at once, with no launch at all.
    let (o, yy) = (other.clone(), y.clone());
    let stream = gpu.stream.clone();
    let message = panic_message(move || {
        let _ = Graph::capture(&stream, Mut(yy), move |_s, mut y| {
            o.memset_zeros(&mut y)?;
            Ok::<(), Error>(())
        });
    });
    assert!(
        message.contains("not one of its capture's streams"),
        "{message}"
    );
    other.synchronize().unwrap();
    assert_eq!(y.to_vec().unwrap(), ones, "nothing ran outside the capture");

    // In a warm-up (the work runs eagerly, ordered on the capture's stream only).
    let (o, yy) = (other.clone(), y.clone());
    let stream = gpu.stream.clone();
    let message = panic_message(move || {
        let _ = Replay::new(&stream, 1, Mut(yy), move |_s, mut y| {
            o.memset_zeros(&mut y)?;
            Ok::<(), Error>(())
        });
    });
    assert!(
        message.contains("not one of its capture's streams"),
        "{message}"
    );
    other.synchronize().unwrap();
    assert_eq!(y.to_vec().unwrap(), ones, "nothing ran outside the warm-up");

    // A forked stream takes the views while its fork lasts, and not after it returned (it is
    // no longer ordered with the capture's stream then). Each run warms up once, then captures.
    for late in [false, true] {
        let (o, yy) = (other.clone(), y.clone());
        let stream = gpu.stream.clone();
        let run = move || {
            Replay::new(&stream, 1, Mut(yy), move |s, mut y| {
                s.fork(&o, |t| t.memset_zeros(&mut y))?;
                if late {
                    o.memset_zeros(&mut y)?;
                }
                Ok::<(), Error>(())
            })
            .map(|_| ())
        };
        if late {
            let message = panic_message(move || drop(run()));
            assert!(
                message.contains("not one of its capture's streams"),
                "{message}"
            );
        } else {
            run().unwrap();
        }
    }
}

/// A warm-up (`Replay::new` running the work eagerly) holds the memory given to it as a launch
/// does: host access to that memory waits for it. From the warm-up's own closure an access
/// would wait for itself, forever: it is refused there (and in the capture that follows, whose
/// stream is the buffer's own), and the warm-up and capture go on.
#[test]
fn an_access_inside_a_warm_up_is_refused_not_waited_for() {
    let Some(gpu) = gpu("an_access_inside_a_warm_up_is_refused_not_waited_for") else {
        return;
    };
    let (scale, _) = kernels(&gpu.ctx);
    let n = 256;
    let x = DeviceBuffer::from_host(&gpu.stream, &vec![1.0f32; n]).unwrap();
    let xx = x.clone();
    let refusals = Arc::new(AtomicU32::new(0));
    let counted = refusals.clone();
    let mut step = Replay::new(&gpu.stream, 2, Mut(x.clone()), move |s, x| {
        match xx.access() {
            Err(Error::Capturing { .. }) => {
                counted.fetch_add(1, Ordering::SeqCst);
            }
            other => panic!("expected the access to be refused, got {other:?}"),
        }
        s.launch(&scale, cfg(n), (n as u32, 2.0f32, &x))
    })
    .unwrap();
    assert_eq!(
        refusals.load(Ordering::SeqCst),
        3,
        "two warm-ups and the capture"
    );
    assert_eq!(x.to_vec().unwrap(), vec![4.0; n], "the two warm-ups ran");
    step.replay(&gpu.stream).unwrap();
    assert_eq!(x.to_vec().unwrap(), vec![8.0; n]);
}
