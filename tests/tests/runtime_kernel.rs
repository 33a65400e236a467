//! Kernel nodes on real data: typed argument lists of every size and alignment, kernel chains
//! ordered by their dependencies, repeated launches, and instantiation with flags, with an upload
//! stream and with an explicit [`GraphExec::upload`].

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::DeviceBuffer;
use cudagraph_tests::{
    assert_read_close, cfg, compile, fill_buffer, function, read_back, upload, zeros, Gpu, Kernels,
    Rng, KERNELS, POISON,
};

/// `a * x + y`, element-wise: the CPU reference of `axpy_out` and `saxpy`.
fn axpy(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| a * x + y).collect()
}

#[test]
fn kernel_node_computes_with_typed_arguments() {
    let Some(gpu) = cudagraph_tests::gpu("kernel_node_computes_with_typed_arguments") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("kernel_node_computes_with_typed_arguments");
    let n = rng.len_in(1000, 50_000);
    let (a, x_host, y_host) = (rng.f32(), rng.f32s(n), rng.f32s(n));
    let (x, y) = (upload(&gpu, &x_host), upload(&gpu, &y_host));
    let out = zeros::<f32>(&gpu, n);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let args = (n as u32, a, &x, &y, &out);
    graph.add_kernel(&k.axpy_out, cfg(n), args, &[]).unwrap();
    let mut exec = graph.instantiate().unwrap();

    fill_buffer(&out, POISON);
    exec.launch(&gpu.stream).unwrap();
    assert_read_close(&gpu.stream, "a * x + y", &out, &axpy(a, &x_host, &y_host));
}

/// `mixed_args(u8 a, i16 b, i64 c, f64 d, f32 e, bool negate, u32 n, f64* out)`: parameters of
/// 1, 2, 8, 8, 4, 1, 4 and 8 bytes, several of which need padding before them.
type MixedArgs = (u8, i16, i64, f64, f32, bool, u32, DevicePtrMut<f64>);
/// Values for [`MixedArgs`]: the output as the buffer the kernel writes.
type MixedValues<'b> = (u8, i16, i64, f64, f32, bool, u32, &'b DeviceBuffer<f64>);

#[test]
fn kernel_arguments_of_every_size_reach_the_kernel() {
    let Some(gpu) = cudagraph_tests::gpu("kernel_arguments_of_every_size_reach_the_kernel") else {
        return;
    };
    let module = compile(&gpu.ctx, KERNELS);
    // SAFETY: `MixedArgs` is `mixed_args`'s C parameter list (`unsigned char`, `short`, `long long`,
    // `double`, `float`, `bool`, `unsigned`, `double*`); it writes out[i] for i < n only and
    // launches nothing; the check keeps n within out.
    let mixed = unsafe { Kernel::<MixedArgs>::new(function(&module, "mixed_args")) }
        .requires(|_, (.., n, out)| n as usize <= out);
    let mut rng = Rng::new("kernel_arguments_of_every_size_reach_the_kernel");
    let n = rng.len_in(1000, 20_000);
    let out = zeros::<f64>(&gpu, n);
    let mut graph = Graph::new(&gpu.ctx).unwrap();

    let draw = |rng: &mut Rng| -> MixedValues<'_> {
        let a = rng.next_u64() as u8;
        let b = rng.next_u64() as i16;
        let c = (rng.next_u64() >> 24) as i64 - (1 << 39);
        let d = rng.f32() as f64 * 1e3 + rng.f32() as f64 * 1e-6;
        (
            a,
            b,
            c,
            d,
            rng.f32(),
            rng.next_u64() & 1 == 1,
            n as u32,
            &out,
        )
    };
    let want = |(a, b, c, d, e, negate, _, _): MixedValues<'_>| -> Vec<f64> {
        (0..n)
            .map(|i| {
                let v = a as f64 + b as f64 + c as f64 + d + e as f64 + i as f64;
                if negate {
                    -v
                } else {
                    v
                }
            })
            .collect()
    };

    let first = draw(&mut rng);
    let node = graph.add_kernel(&mixed, cfg(n), first, &[]).unwrap();
    let mut exec = graph.instantiate().unwrap();
    fill_buffer(&out, f64::NAN);
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &out),
        want(first),
        "arguments {first:?}"
    );

    // The same marshalling through a single-node update.
    let second = draw(&mut rng);
    exec.set_kernel_params(node, cfg(n), second).unwrap();
    fill_buffer(&out, f64::NAN);
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(
        read_back(&gpu.stream, &out),
        want(second),
        "arguments {second:?}"
    );
}

#[test]
fn kernel_chain_runs_in_dependency_order_on_every_launch() {
    let Some(gpu) = cudagraph_tests::gpu("kernel_chain_runs_in_dependency_order_on_every_launch")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("kernel_chain_runs_in_dependency_order_on_every_launch");
    let n = rng.len_in(1000, 50_000);
    let (x_host, y_host) = (rng.f32s(n), rng.f32s(n));
    let (x, y) = (upload(&gpu, &x_host), upload(&gpu, &y_host));
    let launches = 2 + rng.below(4) as usize;

    // y = 2y, then y = x + y: the two steps do not commute, and neither do successive launches.
    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let double = graph
        .add_kernel(&k.scale, cfg(n), (n as u32, 2.0, &y), &[])
        .unwrap();
    graph
        .add_kernel(&k.saxpy, cfg(n), (n as u32, 1.0, &x, &y), &[double.id()])
        .unwrap();
    let mut exec = graph.instantiate().unwrap();
    for _ in 0..launches {
        exec.launch(&gpu.stream).unwrap();
    }

    let mut want = y_host;
    for _ in 0..launches {
        for (w, x) in want.iter_mut().zip(&x_host) {
            *w = 2.0 * *w + x;
        }
    }
    assert_read_close(
        &gpu.stream,
        &format!("y after {launches} launches"),
        &y,
        &want,
    );
}

/// How an executable gets uploaded before its first launch.
#[derive(Debug, Clone, Copy)]
enum Upload {
    /// Not at all: the first launch does it.
    OnLaunch,
    /// By instantiation, into the given stream.
    AtInstantiation,
    /// By `GraphExec::upload`.
    Explicit,
}

fn instantiate_and_check(
    gpu: &Gpu,
    k: &Kernels,
    rng: &mut Rng,
    flags: InstantiateFlags,
    upload: Upload,
) {
    let n = rng.len_in(1000, 50_000);
    let a = rng.f32();
    let y_host = rng.f32s(n);
    let x = zeros::<f32>(gpu, n);
    let y = cudagraph_tests::upload(gpu, &y_host);
    let out = zeros::<f32>(gpu, n);

    let mut graph = Graph::new(&gpu.ctx).unwrap();
    let args = (n as u32, a, &x, &y, &out);
    graph.add_kernel(&k.axpy_out, cfg(n), args, &[]).unwrap();
    let mut exec = match upload {
        Upload::AtInstantiation => graph.instantiate_with(flags, Some(&gpu.stream)).unwrap(),
        Upload::OnLaunch | Upload::Explicit => graph.instantiate_with(flags, None).unwrap(),
    };
    if let Upload::Explicit = upload {
        exec.upload(&gpu.stream).unwrap();
    }

    // Several launches, each with fresh input: the executable reads `x` at launch time.
    for launch in 0..3 {
        let x_host = rng.f32s(n);
        x.copy_from(&x_host).unwrap();
        fill_buffer(&out, POISON);
        exec.launch(&gpu.stream).unwrap();
        let what = format!("flags {flags:?}, upload {upload:?}, launch {launch}");
        assert_read_close(&gpu.stream, &what, &out, &axpy(a, &x_host, &y_host));
    }
}

#[test]
fn instantiation_flags_and_uploads_give_working_executables() {
    let Some(gpu) =
        cudagraph_tests::gpu("instantiation_flags_and_uploads_give_working_executables")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("instantiation_flags_and_uploads_give_working_executables");
    let cases = [
        (InstantiateFlags::NONE, Upload::OnLaunch),
        (InstantiateFlags::NONE, Upload::AtInstantiation),
        (InstantiateFlags::NONE, Upload::Explicit),
        (InstantiateFlags::UPLOAD, Upload::AtInstantiation),
        (InstantiateFlags::AUTO_FREE_ON_LAUNCH, Upload::OnLaunch),
        (InstantiateFlags::USE_NODE_PRIORITY, Upload::AtInstantiation),
        (
            InstantiateFlags::AUTO_FREE_ON_LAUNCH | InstantiateFlags::USE_NODE_PRIORITY,
            Upload::Explicit,
        ),
        // A kernel-only graph may be made device-launchable; the host can still launch it.
        (InstantiateFlags::DEVICE_LAUNCH, Upload::Explicit),
    ];
    for (flags, upload) in cases {
        instantiate_and_check(&gpu, &k, &mut rng, flags, upload);
    }
}

/// A graph and its executable moved to a thread where no context is current (a fresh thread):
/// adding a kernel node, instantiating, updating the node and launching all work and compute
/// what they should. The driver's kernel-node calls crash on such a thread (see the witness
/// below), so the crate makes the graph's context current for them.
#[test]
fn graphs_and_executables_work_from_a_thread_with_no_current_context() {
    let test = "graphs_and_executables_work_from_a_thread_with_no_current_context";
    let Some(gpu) = cudagraph_tests::gpu(test) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new(test);
    let n = rng.len_in(1000, 50_000);
    let (a, b, x_host, y_host) = (rng.f32(), rng.f32(), rng.f32s(n), rng.f32s(n));
    let (x, y) = (upload(&gpu, &x_host), upload(&gpu, &y_host));
    let out = zeros::<f32>(&gpu, n);
    let graph = Graph::new(&gpu.ctx).unwrap();
    let no_context = || {
        let current = cudagraph_runtime::cudarc::driver::result::ctx::get_current().unwrap();
        assert_eq!(current, None, "a fresh thread has no current context");
    };
    std::thread::scope(|s| {
        let (graph, node) = s
            .spawn(|| {
                no_context();
                let mut graph = graph;
                let node = graph
                    .add_kernel(&k.axpy_out, cfg(n), (n as u32, a, &x, &y, &out), &[])
                    .unwrap();
                (graph, node)
            })
            .join()
            .unwrap();
        let mut exec = s
            .spawn(|| {
                no_context();
                graph.instantiate().unwrap()
            })
            .join()
            .unwrap();
        fill_buffer(&out, POISON);
        exec.launch(&gpu.stream).unwrap();
        assert_read_close(&gpu.stream, "a * x + y", &out, &axpy(a, &x_host, &y_host));
        let (x, y, out, stream) = (&x, &y, &out, &gpu.stream);
        let mut exec = s
            .spawn(move || {
                no_context();
                exec.set_kernel_params(node, cfg(n), (n as u32, b, x, y, out))
                    .unwrap();
                exec
            })
            .join()
            .unwrap();
        fill_buffer(out, POISON);
        s.spawn(move || {
            no_context();
            exec.launch(stream).unwrap();
        })
        .join()
        .unwrap();
        assert_read_close(stream, "b * x + y", out, &axpy(b, &x_host, &y_host));
    });
}

/// Set in the child process of the witness below: it makes the raw call there.
const NO_CONTEXT_CHILD: &str = "CUDAGRAPH_WITNESS_NO_CONTEXT_CHILD";

/// Witness: the driver crashes when a kernel node of an executable is updated
/// (`cuGraphExecKernelNodeSetParams`) on a thread where no context is current, though the
/// parameters name the context. The crash would end the test program, so a child process (this
/// test program, running this test alone) makes the call, and the test checks that the child
/// died of a signal.
#[test]
fn witness_kernel_node_calls_need_a_current_context() {
    let test = "witness_kernel_node_calls_need_a_current_context";
    let Some(gpu) = cudagraph_tests::gpu(test) else {
        return;
    };
    if std::env::var_os(NO_CONTEXT_CHILD).is_some() {
        let k = Kernels::load(&gpu.ctx);
        let y = zeros::<f32>(&gpu, 32);
        let mut graph = Graph::new(&gpu.ctx).unwrap();
        let node = graph
            .add_kernel(&k.scale, cfg(32), (32u32, 2.0f32, &y), &[])
            .unwrap();
        let raw_node = graph.raw_node(node).unwrap();
        let exec = graph.instantiate().unwrap();
        let (raw_exec, func, ctx) = (exec.raw(), k.scale.cu_function(), gpu.ctx.cu_ctx());
        let (exec_addr, node_addr, func_addr, ctx_addr, y_addr) = (
            raw_exec as usize,
            raw_node as usize,
            func as usize,
            ctx as usize,
            y.addr(),
        );
        let code = std::thread::spawn(move || {
            let (mut n, mut a, mut y) = (32u32, 3.0f32, y_addr);
            let mut args: [*mut std::ffi::c_void; 3] = [
                (&mut n as *mut u32).cast(),
                (&mut a as *mut f32).cast(),
                (&mut y as *mut u64).cast(),
            ];
            let p = cudagraph_tests::raw::kernel_node_params(
                func_addr as _,
                &cfg(32),
                args.as_mut_ptr(),
                ctx_addr as _,
            );
            // SAFETY: a live executable of this process and its kernel node, parameters of
            // `scale`'s list; this thread has no current context, which is the point.
            unsafe {
                cudagraph_runtime::cudarc::driver::sys::cuGraphExecKernelNodeSetParams_v2(
                    exec_addr as _,
                    node_addr as _,
                    &p,
                )
            }
        })
        .join()
        .unwrap();
        // Reached only if the driver returned: the parent sees a clean exit and says so.
        println!("cuGraphExecKernelNodeSetParams on a thread with no context: {code:?}");
        drop(exec);
        return;
    }
    drop(gpu); // the child opens the GPU itself
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            &format!("runtime_kernel::{test}"),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(NO_CONTEXT_CHILD, "1")
        .output()
        .expect("running the child");
    let said = String::from_utf8_lossy(&child.stdout);
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            child.status.signal(),
            Some(11),
            "the child should die of SIGSEGV in the driver; it ended {:?}, saying:\n{said}",
            child.status
        );
    }
    #[cfg(not(unix))]
    assert!(!child.status.success(), "{said}");
}
