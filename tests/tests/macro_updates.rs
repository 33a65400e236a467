//! Updating executables of a `cuda_graph!` declaration: `set_params` updates exactly the nodes
//! whose params changed (and says how many), handle updates last until the next `set_params`,
//! whole-graph update takes a graph of the same declaration, a kernel param can change its
//! function, a node disabled meanwhile takes its new params once enabled, and `TOPOLOGY` is the
//! graph the driver holds. Outputs are poisoned before every launch and compared with a CPU
//! reference after it.

use cudagraph_runtime::cuda_graph;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::{
    assert_close, compile, fill_buffer, function, read_back, upload, zeros, Gpu, Kernels, Rng,
    SaxpyArgs, KERNELS, POISON,
};

cuda_graph! {
    /// `y = c`, `y = a * x + y`, `y = b * y`, `y -> out`: `out = b * (a * x + c)`.
    graph Pipeline {
        params {
            saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)>,
            scale: Kernel<(u32, f32, DevicePtrMut<f32>)>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            out: HostBuffer<f32>,
            n: u32,
            a: f32,
            b: f32,
            c: f32,
        }
        clear: memset(y, c);
        axpy: kernel saxpy<<<n.div_ceil(128), 128>>>(n, a, x, y);
        times: kernel scale<<<n.div_ceil(128), 128>>>(n, b, y);
        down: memcpy(y -> out);
        clear -> axpy -> times -> down;
    }
}

/// The buffers one variant of the pipeline reads and writes.
struct Buffers {
    input: Vec<f32>,
    x: DeviceBuffer<f32>,
    y: DeviceBuffer<f32>,
    out: HostBuffer<f32>,
}

impl Buffers {
    fn new(gpu: &Gpu, rng: &mut Rng, n: usize) -> Self {
        let input = rng.f32s(n);
        Self {
            x: upload(gpu, &input),
            y: zeros(gpu, n),
            out: HostBuffer::from_slice(&gpu.ctx, &vec![POISON; n]).unwrap(),
            input,
        }
    }

    fn params(&self, k: &Kernels, rng: &mut Rng) -> PipelineParams {
        PipelineParams {
            saxpy: k.saxpy.clone(),
            scale: k.scale.clone(),
            x: self.x.clone(),
            y: self.y.clone(),
            out: self.out.clone(),
            n: self.input.len() as u32,
            a: rng.f32(),
            b: rng.f32(),
            c: rng.f32(),
        }
    }

    /// Poisons `y` and `out`, launches, and checks both against `b * (a * x + base)` where
    /// `base` is what `y` holds when `axpy` runs.
    fn launch_and_check(
        &self,
        gpu: &Gpu,
        exec: &mut PipelineExec,
        p: &PipelineParams,
        base: Option<&[f32]>,
        what: &str,
    ) {
        match base {
            Some(before) => self.y.copy_from(before).unwrap(),
            None => fill_buffer(&self.y, POISON),
        }
        gpu.stream.synchronize().unwrap();
        self.out.write().unwrap().fill(POISON);
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        let want: Vec<f32> = (0..self.input.len())
            .map(|i| p.b * (p.a * self.input[i] + base.map_or(p.c, |b| b[i])))
            .collect();
        assert_close(
            &format!("{what}: y"),
            &read_back(&gpu.stream, &self.y),
            &want,
            1e-5,
        );
        assert_close(
            &format!("{what}: out"),
            &self.out.read().unwrap(),
            &want,
            1e-5,
        );
    }
}

#[test]
fn set_params_updates_exactly_the_nodes_whose_params_changed() {
    let Some(gpu) =
        cudagraph_tests::gpu("set_params_updates_exactly_the_nodes_whose_params_changed")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_params_updates_exactly_the_nodes_whose_params_changed");
    let n = rng.len_in(1000, 50_000);
    let (mut b1, b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let mut p = b1.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    b1.launch_and_check(&gpu, &mut exec, &p, None, "as built");

    assert_eq!(
        exec.set_params(&p).unwrap(),
        0,
        "unchanged params update no node"
    );
    for (what, change, nodes) in [
        (
            "a",
            (|p: &mut PipelineParams, r: &mut Rng| p.a = r.f32())
                as fn(&mut PipelineParams, &mut Rng),
            1,
        ),
        ("b", |p, r| p.b = r.f32(), 1),
        ("c", |p, r| p.c = r.f32(), 1),
        ("a and b", |p, r| (p.a, p.b) = (r.f32(), r.f32()), 2),
    ] {
        change(&mut p, &mut rng);
        assert_eq!(exec.set_params(&p).unwrap(), nodes, "changing {what}");
        b1.launch_and_check(&gpu, &mut exec, &p, None, &format!("after changing {what}"));
    }

    // Another input: only `axpy` reads `x`; it now reads b2's input and writes b1's `y`.
    p.x = b2.x.clone();
    assert_eq!(exec.set_params(&p).unwrap(), 1, "changing x");
    b1.input.clone_from(&b2.input);
    b1.launch_and_check(&gpu, &mut exec, &p, None, "after changing x");

    // b2's buffers throughout: every node reads `x`, `y` or `out`.
    let q = b2.params(&k, &mut rng);
    let p2 = PipelineParams {
        a: p.a,
        b: p.b,
        c: p.c,
        saxpy: p.saxpy.clone(),
        scale: p.scale.clone(),
        ..q
    };
    assert_eq!(exec.set_params(&p2).unwrap(), 4, "moving to b2's buffers");
    b2.launch_and_check(&gpu, &mut exec, &p2, None, "on b2's buffers");
    // b1's outputs are left alone now.
    fill_buffer(&b1.y, POISON);
    b2.launch_and_check(&gpu, &mut exec, &p2, None, "on b2's buffers again");
    assert!(
        read_back(&gpu.stream, &b1.y).iter().all(|v| v.is_nan()),
        "b1's y was written"
    );
}

#[test]
fn handle_updates_last_until_the_next_set_params() {
    let Some(gpu) = cudagraph_tests::gpu("handle_updates_last_until_the_next_set_params") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("handle_updates_last_until_the_next_set_params");
    let n = rng.len_in(1000, 50_000);
    let b1 = Buffers::new(&gpu, &mut rng, n);
    let p = b1.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();

    // The handle sets `times` alone; the launch configuration stays.
    let b = rng.f32();
    let config = exec.times().launch_config();
    exec.times().set(p.n, b, &p.y).unwrap();
    assert_eq!(exec.times().launch_config().grid_dim, config.grid_dim);
    b1.launch_and_check(
        &gpu,
        &mut exec,
        &PipelineParams {
            b,
            ..clone_params(&p)
        },
        None,
        "after the handle's set",
    );

    // `set_params` with unchanged params restores what the params say, on that node only.
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "the node set through its handle"
    );
    b1.launch_and_check(&gpu, &mut exec, &p, None, "after set_params");
    assert_eq!(exec.set_params(&p).unwrap(), 0);
}

#[test]
fn whole_graph_update_takes_another_build_of_the_declaration() {
    let Some(gpu) =
        cudagraph_tests::gpu("whole_graph_update_takes_another_build_of_the_declaration")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("whole_graph_update_takes_another_build_of_the_declaration");
    let n = rng.len_in(1000, 50_000);
    let (b1, b2) = (
        Buffers::new(&gpu, &mut rng, n),
        Buffers::new(&gpu, &mut rng, n),
    );
    let (p1, mut p2) = (b1.params(&k, &mut rng), b2.params(&k, &mut rng));
    let mut exec = Pipeline::build(&gpu.ctx, &p1)
        .unwrap()
        .instantiate()
        .unwrap();
    b1.launch_and_check(&gpu, &mut exec, &p1, None, "p1");

    exec.update(&Pipeline::build(&gpu.ctx, &p2).unwrap())
        .unwrap();
    fill_buffer(&b1.y, POISON);
    b2.launch_and_check(&gpu, &mut exec, &p2, None, "updated to p2");
    assert!(
        read_back(&gpu.stream, &b1.y).iter().all(|v| v.is_nan()),
        "p1's y was written"
    );

    // `set_params` now compares with p2.
    assert_eq!(exec.set_params(&p2).unwrap(), 0);
    p2.c = rng.f32();
    assert_eq!(exec.set_params(&p2).unwrap(), 1);
    b2.launch_and_check(&gpu, &mut exec, &p2, None, "p2 with another c");
}

#[test]
fn a_kernel_param_can_change_its_function() {
    let Some(gpu) = cudagraph_tests::gpu("a_kernel_param_can_change_its_function") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let module = compile(&gpu.ctx, KERNELS);
    // SAFETY: `saxpy` of `KERNELS` takes (unsigned, float, const float*, float*), reads x[i]
    // and reads and writes y[i] for i < n only, and launches nothing; the check keeps n within
    // x and y.
    let other = unsafe { Kernel::<SaxpyArgs>::new(function(&module, "saxpy")) }
        .requires(|_, (n, _, x, y)| n as usize <= x.min(y));
    assert_ne!(
        other.cu_function(),
        k.saxpy.cu_function(),
        "another function"
    );
    let mut rng = Rng::new("a_kernel_param_can_change_its_function");
    let n = rng.len_in(1000, 50_000);
    let b1 = Buffers::new(&gpu, &mut rng, n);
    let p = b1.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();

    // Another function for `saxpy` and a new `c` in one call: `axpy` and `clear` are updated.
    let changed = PipelineParams {
        saxpy: other.clone(),
        c: p.c + 1.0,
        ..clone_params(&p)
    };
    assert_eq!(exec.set_params(&changed).unwrap(), 2, "axpy and clear");
    b1.launch_and_check(&gpu, &mut exec, &changed, None, "after switching `saxpy`");

    // Whole-graph update back to the first function.
    exec.update(&Pipeline::build(&gpu.ctx, &p).unwrap())
        .unwrap();
    b1.launch_and_check(&gpu, &mut exec, &p, None, "after the update back");

    // The same function through another `Kernel` value is no change.
    let same = PipelineParams {
        saxpy: k.saxpy.clone(),
        ..clone_params(&p)
    };
    assert_eq!(exec.set_params(&same).unwrap(), 0);
}

#[test]
fn a_disabled_node_takes_its_new_params_once_enabled() {
    let Some(gpu) = cudagraph_tests::gpu("a_disabled_node_takes_its_new_params_once_enabled")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_disabled_node_takes_its_new_params_once_enabled");
    let n = rng.len_in(1000, 50_000);
    let b1 = Buffers::new(&gpu, &mut rng, n);
    let mut p = b1.params(&k, &mut rng);
    let mut exec = Pipeline::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();

    exec.clear().set_enabled(false).unwrap();
    assert!(!exec.clear().is_enabled().unwrap());
    p.c = rng.f32();
    assert_eq!(
        exec.set_params(&p).unwrap(),
        1,
        "a disabled node is still updated"
    );
    // Disabled, `clear` leaves `y` as it was.
    let before = rng.f32s(n);
    b1.launch_and_check(&gpu, &mut exec, &p, Some(&before), "with clear disabled");

    exec.clear().set_enabled(true).unwrap();
    assert!(exec.clear().is_enabled().unwrap());
    b1.launch_and_check(&gpu, &mut exec, &p, None, "with clear enabled again");
}

#[test]
fn topology_is_the_graph_the_driver_holds() {
    let Some(gpu) = cudagraph_tests::gpu("topology_is_the_graph_the_driver_holds") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("topology_is_the_graph_the_driver_holds");
    let b1 = Buffers::new(&gpu, &mut rng, 256);
    let graph = Pipeline::build(&gpu.ctx, &b1.params(&k, &mut rng)).unwrap();
    let topology = Pipeline::TOPOLOGY;
    let nodes: Vec<_> = graph.graph().nodes().collect();
    assert_eq!(nodes.len(), topology.nodes.len());
    for (node, (name, kind)) in nodes.iter().zip(topology.nodes) {
        assert_eq!((node.name.as_str(), node.kind), (*name, *kind));
        let deps: Vec<usize> = node.deps.iter().map(|&d| d as usize).collect();
        assert_eq!(
            deps,
            topology.dependencies(node.index).collect::<Vec<_>>(),
            "dependencies of {name}"
        );
    }
    assert_eq!(
        graph
            .graph()
            .to_dot()
            .replacen("\"graph\"", "\"Pipeline\"", 1),
        topology.to_dot()
    );
}

/// `p`, field by field (the params struct is not `Clone`: it need not be).
fn clone_params(p: &PipelineParams) -> PipelineParams {
    PipelineParams {
        saxpy: p.saxpy.clone(),
        scale: p.scale.clone(),
        x: p.x.clone(),
        y: p.y.clone(),
        out: p.out.clone(),
        n: p.n,
        a: p.a,
        b: p.b,
        c: p.c,
    }
}
