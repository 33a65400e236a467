//! The typed per-node handles of generated executables (`exec.<node>()`): kernel `set` and
//! `set_launch`, memset `set`, memcpy `set` in each direction, host `set`, child `set`, and
//! `set_enabled` / `is_enabled` on kernel, memset and memcpy nodes. Each change is followed by a
//! launch whose every output was poisoned (or filled with known values) first and is compared
//! with a CPU reference, including the buffers a node no longer points to.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, HostCallback, NodeKind};
use cudagraph_tests::{
    assert_close, assert_untouched, fill_buffer, read_back, zeros, Gpu, Kernels, Rng, ScaleArgs,
    POISON,
};

cuda_graph! {
    /// `z *= b`.
    graph Times {
        params {
            scale: Kernel<ScaleArgs>,
            z: DeviceBuffer<f32>,
            n: u32,
            b: f32,
        }
        mul: kernel scale<<<n.div_ceil(256), 256>>>(n, b, z);
    }

    /// `host_x -> x`, `y = c`, `y = a * x + y`, `y -> z`, `z *= b` (child), `z -> host_z`, then
    /// a host node. The kernel's parameter list is written out: its handle takes the arguments
    /// one by one.
    graph Handled {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            host_x: HostBuffer<f32>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            host_z: HostBuffer<f32>,
            n: u32,
            a: f32,
            c: f32,
            times: Times,
            report: HostCallback,
        }
        up: memcpy(host_x -> x);
        clear: memset(y, c);
        axpy: kernel saxpy<<<n.div_ceil(256), 256>>>(n, a, x, y);
        copy: memcpy(y -> z);
        sub: child(times);
        down: memcpy(z -> host_z);
        log: host(report);
        [up, clear] -> axpy -> copy -> sub -> down -> log;
    }
}

/// Everything a `Handled` executable reads and writes, two of each so that pointers can move.
struct Fixture {
    k: Kernels,
    n: usize,
    /// The factor of the child graph the executable is built with.
    b: f32,
    /// Launches made by [`Fixture::launch_and_check`].
    launches: usize,
    /// What `host_xs[i]` holds.
    inputs: [Vec<f32>; 2],
    host_xs: [HostBuffer<f32>; 2],
    xs: [DeviceBuffer<f32>; 2],
    ys: [DeviceBuffer<f32>; 2],
    zs: [DeviceBuffer<f32>; 2],
    host_zs: [HostBuffer<f32>; 2],
    /// Calls of the `HostCallback` the graph is built with.
    reports: Arc<AtomicUsize>,
    params: HandledParams,
}

/// What one launch computes, as the handles have left the nodes (`None`: the node is disabled).
#[derive(Debug, Clone, Copy)]
struct Want {
    /// `up`: which input it copies, into which `x`.
    up: Option<(usize, usize)>,
    /// `clear`: which `y` it writes, and the value.
    clear: Option<(usize, f32)>,
    /// `axpy`: which `y` it updates (reading `xs[0]`), with which `a`, over how many leading
    /// elements.
    axpy: Option<(usize, f32, usize)>,
    /// `copy`: which `y` it reads, which `z` it writes.
    copy: Option<(usize, usize)>,
    /// `sub`: which `z` the child scales, and by what.
    sub: (usize, f32),
    /// `down`: which `z` it reads, which host buffer it writes.
    down: Option<(usize, usize)>,
}

impl Fixture {
    fn new(gpu: &Gpu, rng: &mut Rng) -> Self {
        let k = Kernels::load(&gpu.ctx);
        let n = rng.len_in(1000, 50_000);
        let inputs = [rng.f32s(n), rng.f32s(n)];
        let host = |data: &[f32]| HostBuffer::from_slice(&gpu.ctx, data).unwrap();
        let host_xs = [host(&inputs[0]), host(&inputs[1])];
        let alloc = || -> [DeviceBuffer<f32>; 2] { [zeros(gpu, n), zeros(gpu, n)] };
        let (xs, ys, zs) = (alloc(), alloc(), alloc());
        let host_zs = [host(&vec![POISON; n]), host(&vec![POISON; n])];
        let b = factor(rng, true);
        let times = times(gpu, &k, &zs[0], b);
        let reports = Arc::new(AtomicUsize::new(0));
        let counter = reports.clone();
        let params = HandledParams {
            saxpy: k.saxpy.clone(),
            host_x: host_xs[0].clone(),
            x: xs[0].clone(),
            y: ys[0].clone(),
            z: zs[0].clone(),
            host_z: host_zs[0].clone(),
            n: n as u32,
            a: 1.0 + 0.5 * rng.f32(),
            c: rng.f32(),
            times,
            report: HostCallback::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            }),
        };
        Self {
            k,
            n,
            b,
            launches: 0,
            inputs,
            host_xs,
            xs,
            ys,
            zs,
            host_zs,
            reports,
            params,
        }
    }

    fn build(&self, gpu: &Gpu) -> HandledExec {
        Handled::build(&gpu.ctx, &self.params)
            .unwrap()
            .instantiate()
            .unwrap()
    }

    /// What a launch computes with the nodes as built.
    fn as_built(&self) -> Want {
        Want {
            up: Some((0, 0)),
            clear: Some((0, self.params.c)),
            axpy: Some((0, self.params.a, self.n)),
            copy: Some((0, 0)),
            sub: (0, self.b),
            down: Some((0, 0)),
        }
    }

    /// Fills the device buffers with random previous contents and the host outputs with poison,
    /// launches, and checks every buffer against `want`.
    fn launch_and_check(
        &mut self,
        gpu: &Gpu,
        rng: &mut Rng,
        exec: &mut HandledExec,
        want: Want,
        what: &str,
    ) {
        let n = self.n;
        let mut prior = |buf: &DeviceBuffer<f32>| {
            let data = rng.f32s(n);
            buf.copy_from(&data).unwrap();
            data
        };
        let mut x_want = [prior(&self.xs[0]), prior(&self.xs[1])];
        let mut y_want = [prior(&self.ys[0]), prior(&self.ys[1])];
        for z in &self.zs {
            fill_buffer(z, POISON);
        }
        for h in &self.host_zs {
            h.write().unwrap().fill(POISON);
        }
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        self.launches += 1;

        if let Some((from, to)) = want.up {
            x_want[to].clone_from(&self.inputs[from]);
        }
        for (i, x) in x_want.iter().enumerate() {
            assert_eq!(&read_back(&gpu.stream, &self.xs[i]), x, "{what}: xs[{i}]");
        }
        if let Some((to, value)) = want.clear {
            y_want[to] = vec![value; n];
        }
        if let Some((to, a, m)) = want.axpy {
            for i in 0..m {
                y_want[to][i] += a * x_want[0][i];
            }
        }
        for (i, y) in y_want.iter().enumerate() {
            let got = read_back(&gpu.stream, &self.ys[i]);
            assert_close(&format!("{what}: ys[{i}]"), &got, y, 1e-5);
        }
        let mut z_want = [vec![POISON; n], vec![POISON; n]];
        if let Some((from, to)) = want.copy {
            z_want[to].clone_from(&y_want[from]);
        }
        for v in &mut z_want[want.sub.0] {
            *v *= want.sub.1;
        }
        let got_z = [
            read_back(&gpu.stream, &self.zs[0]),
            read_back(&gpu.stream, &self.zs[1]),
        ];
        for (i, z) in z_want.iter().enumerate() {
            assert_close_or_nan(&format!("{what}: zs[{i}]"), &got_z[i], z);
        }
        for (i, h) in self.host_zs.iter().enumerate() {
            let got = h.to_vec().unwrap();
            match want.down {
                Some((from, to)) if to == i => {
                    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&got_z[from]), "{what}: host_zs[{i}]");
                }
                _ => assert_untouched(&format!("{what}: host_zs[{i}]"), &got, POISON),
            }
        }
        exec.as_exec().check_host_panics().unwrap();
    }
}

/// A `Times` graph: `z *= b`.
fn times(gpu: &Gpu, k: &Kernels, z: &DeviceBuffer<f32>, b: f32) -> Times {
    let params = TimesParams {
        scale: k.scale.clone(),
        n: z.len() as u32,
        z: z.clone(),
        b,
    };
    Times::build(&gpu.ctx, &params).unwrap()
}

/// Element-wise: close to `want`, or NaN where `want` is NaN (poison, maybe scaled).
#[track_caller]
fn assert_close_or_nan(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = if w.is_nan() {
            g.is_nan()
        } else {
            (g - w).abs() <= 1e-5 * w.abs().max(1.0)
        };
        assert!(ok, "{what}: element {i}: got {g}, want {w}");
    }
}

/// A launch configuration as comparable values: (grid, block, shared memory bytes).
fn dims(c: LaunchConfig) -> ((u32, u32, u32), (u32, u32, u32), u32) {
    (c.grid_dim, c.block_dim, c.shared_mem_bytes)
}

/// A factor in [0.5, 1.5) or (-1.5, -0.5]: far from 0, and from the factors of the other sign.
fn factor(rng: &mut Rng, positive: bool) -> f32 {
    let f = 1.0 + 0.5 * rng.f32();
    if positive {
        f
    } else {
        -f
    }
}

#[test]
fn kernel_handle_sets_arguments_and_launch_configuration() {
    let Some(gpu) = cudagraph_tests::gpu("kernel_handle_sets_arguments_and_launch_configuration")
    else {
        return;
    };
    let mut rng = Rng::new("kernel_handle_sets_arguments_and_launch_configuration");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let mut want = f.as_built();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "as built");
    let (n, x, y) = (f.params.n, f.params.x.clone(), f.params.y.clone());
    let built = exec.axpy().launch_config();
    assert_eq!(built.grid_dim, (n.div_ceil(256), 1, 1), "declared grid");
    assert_eq!(built.block_dim, (256, 1, 1), "declared block");

    // `set`: new arguments, one by one; the launch configuration stays.
    let a2 = factor(&mut rng, false);
    exec.axpy().set(n, a2, &x, &y).unwrap();
    assert_eq!(dims(exec.axpy().launch_config()), dims(built));
    want.axpy = Some((0, a2, f.n));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set(a2)");

    // `set_launch`: 2 blocks of 64 threads cover the first 128 elements only, whatever `n` says.
    let small = LaunchConfig {
        grid_dim: (2, 1, 1),
        block_dim: (64, 1, 1),
        shared_mem_bytes: 0,
    };
    let a3 = factor(&mut rng, true);
    exec.axpy().set_launch(small, n, a3, &x, &y).unwrap();
    assert_eq!(dims(exec.axpy().launch_config()), dims(small));
    want.axpy = Some((0, a3, 128));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set_launch(2 x 64, a3)");

    // `set` keeps the configuration `set_launch` gave.
    let a4 = factor(&mut rng, false);
    exec.axpy().set(n, a4, &x, &y).unwrap();
    assert_eq!(dims(exec.axpy().launch_config()), dims(small));
    want.axpy = Some((0, a4, 128));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set(a4) after set_launch");

    // A pointer argument: `axpy` now updates ys[1]; ys[0] keeps the memset value.
    exec.axpy().set_launch(built, n, a4, &x, &f.ys[1]).unwrap();
    want.axpy = Some((1, a4, f.n));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set_launch(ys[1])");
}

#[test]
fn memset_handle_sets_destination_and_value() {
    let Some(gpu) = cudagraph_tests::gpu("memset_handle_sets_destination_and_value") else {
        return;
    };
    let mut rng = Rng::new("memset_handle_sets_destination_and_value");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let mut want = f.as_built();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "as built");

    let c2 = rng.f32();
    exec.clear().set(&f.params.y, c2).unwrap();
    want.clear = Some((0, c2));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set(ys[0], c2)");

    // Another destination: ys[1] holds the value, ys[0] keeps its previous contents (plus a*x).
    let c3 = rng.f32();
    exec.clear().set(&f.ys[1], c3).unwrap();
    want.clear = Some((1, c3));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "set(ys[1], c3)");
}

#[test]
fn memcpy_handles_set_source_and_destination_in_their_direction() {
    let Some(gpu) =
        cudagraph_tests::gpu("memcpy_handles_set_source_and_destination_in_their_direction")
    else {
        return;
    };
    let mut rng = Rng::new("memcpy_handles_set_source_and_destination_in_their_direction");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let mut want = f.as_built();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "as built");
    let (x0, y0, z0) = (f.params.x.clone(), f.params.y.clone(), f.params.z.clone());
    let (x1, z1) = (f.xs[1].clone(), f.zs[1].clone());
    let (host_x1, host_z1) = (f.host_xs[1].clone(), f.host_zs[1].clone());

    // Host to device: another source.
    exec.up().set(&host_x1, &x0).unwrap();
    want.up = Some((1, 0));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "up: host_xs[1] -> xs[0]");
    // Host to device: another destination (an owned `HostBuffer`, given by value, is accepted
    // too); `axpy` then reads the previous contents of xs[0].
    exec.up().set(f.host_xs[0].clone(), &x1).unwrap();
    want.up = Some((0, 1));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "up: host_xs[0] -> xs[1]");
    exec.up().set(&f.params.host_x, &x0).unwrap();
    want.up = Some((0, 0));

    // Device to device: into zs[1], which the child does not scale; zs[0] stays poison.
    exec.copy().set(&y0, &z1).unwrap();
    want.copy = Some((0, 1));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "copy: ys[0] -> zs[1]");

    // Device to host: from zs[1] into host_zs[1]; host_zs[0] stays poison.
    exec.down().set(&z1, &host_z1).unwrap();
    want.down = Some((1, 1));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "down: zs[1] -> host_zs[1]");

    // Back to the declared copies (owned buffers by value, as the params hold them).
    exec.copy().set(y0, z0.clone()).unwrap();
    exec.down().set(z0, f.params.host_z.clone()).unwrap();
    want.copy = Some((0, 0));
    want.down = Some((0, 0));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "declared copies again");
}

/// Calls of [`counted_fn`], a `fn()` a host handle is set to (only one test uses it).
static FN_CALLS: AtomicUsize = AtomicUsize::new(0);

fn counted_fn() {
    FN_CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn host_handle_replaces_the_callable() {
    let Some(gpu) = cudagraph_tests::gpu("host_handle_replaces_the_callable") else {
        return;
    };
    let mut rng = Rng::new("host_handle_replaces_the_callable");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let want = f.as_built();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "as built");
    assert_eq!(
        f.reports.load(Ordering::SeqCst),
        1,
        "the declared callback ran"
    );

    // A closure that reads what `down` copied (host_zs[0], given to the node to read): it runs
    // in the node's place, after `down`.
    let seen = Arc::new(Mutex::new(Vec::<Vec<f32>>::new()));
    let log = seen.clone();
    exec.log()
        .set_with(&f.params.host_z, move |data: &[f32]| {
            log.lock().unwrap().push(data.to_vec());
        })
        .unwrap();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "closure");
    assert_eq!(
        f.reports.load(Ordering::SeqCst),
        1,
        "the old callback no longer runs"
    );
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1, "the closure ran once");
        assert_eq!(
            seen[0],
            f.host_zs[0].to_vec().unwrap(),
            "the closure ran after `down`"
        );
    }

    // A `HostCallback`, then a `fn()`.
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    exec.log()
        .set(HostCallback::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        }))
        .unwrap();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "HostCallback");
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "HostCallback again");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "the new callback ran twice"
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "the closure no longer runs");

    exec.log().set(counted_fn).unwrap();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "fn()");
    assert_eq!(FN_CALLS.load(Ordering::SeqCst), 1, "the fn ran");
    assert_eq!(
        calls.load(Ordering::SeqCst),
        2,
        "the callback no longer runs"
    );
    assert_eq!(f.reports.load(Ordering::SeqCst), 1, "nor the declared one");
}

#[test]
fn child_handle_replaces_the_embedded_graph() {
    let Some(gpu) = cudagraph_tests::gpu("child_handle_replaces_the_embedded_graph") else {
        return;
    };
    let mut rng = Rng::new("child_handle_replaces_the_embedded_graph");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let mut want = f.as_built();
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "as built");

    // Another factor: the replacement graph is dropped at once, the executable keeps its nodes.
    let b2 = factor(&mut rng, false);
    exec.sub().set(&times(&gpu, &f.k, &f.params.z, b2)).unwrap();
    want.sub = (0, b2);
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "b2");

    // Another target: the child scales zs[1] (poison), zs[0] keeps the unscaled copy.
    let b3 = factor(&mut rng, true);
    exec.sub().set(&times(&gpu, &f.k, &f.zs[1], b3)).unwrap();
    want.sub = (1, b3);
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "zs[1] *= b3");

    // set_params embeds the declared graph again: the node was set through its handle.
    assert_eq!(
        exec.set_params(&f.params).unwrap(),
        1,
        "sub, set by its handle"
    );
    want.sub = (0, f.b);
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "the declared child again");
}

#[test]
fn enable_and_disable_kernel_memset_and_memcpy_nodes() {
    let Some(gpu) = cudagraph_tests::gpu("enable_and_disable_kernel_memset_and_memcpy_nodes")
    else {
        return;
    };
    let mut rng = Rng::new("enable_and_disable_kernel_memset_and_memcpy_nodes");
    let mut f = Fixture::new(&gpu, &mut rng);
    let mut exec = f.build(&gpu);
    let built = f.as_built();
    let mut want = built;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "all enabled");
    assert!(exec.axpy().is_enabled().unwrap());
    assert!(exec.clear().is_enabled().unwrap());
    assert!(exec.up().is_enabled().unwrap());
    assert!(exec.copy().is_enabled().unwrap());
    assert!(exec.down().is_enabled().unwrap());

    // The handle's runtime node is the executable's node of that name.
    let node = exec.axpy().node();
    assert_eq!(exec.as_exec().graph().node_name(node), "axpy");
    assert_eq!(
        exec.as_exec()
            .graph()
            .nodes()
            .nth(node.id().index())
            .map(|i| i.kind),
        Some(NodeKind::Kernel)
    );

    // Kernel: disabled, it acts as an empty node.
    exec.axpy().set_enabled(false).unwrap();
    assert!(!exec.axpy().is_enabled().unwrap());
    assert!(
        !exec.as_exec().is_enabled(node).unwrap(),
        "the runtime agrees"
    );
    want.axpy = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "axpy disabled");

    // An update while disabled (set_params, then the handle) does not enable it ...
    f.params.a = factor(&mut rng, false);
    assert_eq!(exec.set_params(&f.params).unwrap(), 1, "axpy");
    let a2 = factor(&mut rng, true);
    let (n, x, y) = (f.params.n, f.params.x.clone(), f.params.y.clone());
    exec.axpy().set(n, a2, &x, &y).unwrap();
    assert!(!exec.axpy().is_enabled().unwrap());
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "axpy disabled, updated");
    // ... and takes effect once it is enabled: the latest one (the handle's).
    exec.axpy().set_enabled(true).unwrap();
    assert!(exec.axpy().is_enabled().unwrap());
    want.axpy = Some((0, a2, f.n));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "axpy enabled with a2");
    // set_params sets the node back to the params, and keeps it enabled.
    assert_eq!(
        exec.set_params(&f.params).unwrap(),
        1,
        "axpy, set by its handle"
    );
    want.axpy = Some((0, f.params.a, f.n));
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "axpy back to params");

    // Memset: disabled, ys[0] keeps its previous contents (plus a*x).
    exec.clear().set_enabled(false).unwrap();
    assert!(!exec.clear().is_enabled().unwrap());
    want.clear = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "clear disabled");
    exec.clear().set_enabled(true).unwrap();
    want.clear = built.clear;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "clear enabled");

    // Memcpy host to device: disabled, xs[0] keeps its previous contents.
    exec.up().set_enabled(false).unwrap();
    assert!(!exec.up().is_enabled().unwrap());
    want.up = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "up disabled");
    exec.up().set_enabled(true).unwrap();
    want.up = built.up;

    // Memcpy device to device: disabled, zs[0] stays poison (scaled by the child).
    exec.copy().set_enabled(false).unwrap();
    want.copy = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "copy disabled");
    exec.copy().set_enabled(true).unwrap();
    want.copy = built.copy;

    // Memcpy device to host: disabled, host_zs[0] stays poison.
    exec.down().set_enabled(false).unwrap();
    assert!(!exec.down().is_enabled().unwrap());
    want.down = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "down disabled");
    exec.down().set_enabled(true).unwrap();
    want.down = built.down;

    // Each switch is independent: two off at once, then all on again.
    exec.clear().set_enabled(false).unwrap();
    exec.down().set_enabled(false).unwrap();
    want.clear = None;
    want.down = None;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "clear and down disabled");
    exec.clear().set_enabled(true).unwrap();
    exec.down().set_enabled(true).unwrap();
    want.clear = built.clear;
    want.down = built.down;
    f.launch_and_check(&gpu, &mut rng, &mut exec, want, "all enabled again");
    assert_eq!(
        f.reports.load(Ordering::SeqCst),
        f.launches,
        "the host node ran at every launch"
    );
}
