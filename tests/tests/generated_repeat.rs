//! Declarations by repetition: nodes declared in a `for` loop, one per iteration, with array
//! params indexed by the loop variable. The built graph is the declared one (names `attn[3]`,
//! dependencies within and between iterations, in declared order), each launch computes what a
//! CPU reference says, `set_params` updates exactly the instances that read a changed element,
//! a repeated node's handle updates its own instance, and memory that only the values show to
//! be shared between iterations is refused as for any two nodes.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::{
    assert_close, gpu, read_back, upload, zeros, AxpyOutArgs, Gpu, Kernels, Rng, SaxpyArgs,
    ScaleArgs,
};

cuda_graph! {
    /// `LAYERS` layers over `x`, which starts as `input`: layer `l` clears `h[l]`, makes
    /// `h[l] = scale[l] * x + w[l]` (`attn[l]`), then `x += alpha * h[l]` (`mlp[l]`).
    graph Layers {
        const LAYERS: usize = 8;
        params {
            axpy_out: Kernel<AxpyOutArgs>,
            saxpy: Kernel<SaxpyArgs>,
            input: DeviceBuffer<f32>,
            x: DeviceBuffer<f32>,
            w: [DeviceBuffer<f32>; LAYERS],
            h: [DeviceBuffer<f32>; LAYERS],
            scale: [f32; LAYERS],
            alpha: f32,
            n: u32,
        }
        embed: memcpy(input -> x);
        for l in 0..LAYERS {
            clear[l]: memset(h[l], 0.0f32);
            attn[l]: kernel axpy_out<<<n.div_ceil(256), 256>>>(n, scale[l], x, w[l], h[l]);
            mlp[l]: kernel saxpy<<<n.div_ceil(256), 256>>>(n, alpha, h[l], x);
            clear[l] -> attn[l] -> mlp[l];
        }
        for l in 0..LAYERS - 1 {
            mlp[l] -> clear[l + 1];
        }
        embed -> clear[0];
    }

    /// `g[i] *= 2` for each `i`, every node at once: the elements must be separate memory.
    graph Sides {
        const SIDES: usize = 4;
        params {
            scale: Kernel<ScaleArgs>,
            g: [DeviceBuffer<f32>; SIDES],
            n: u32,
        }
        for i in 0..SIDES {
            side[i]: kernel scale<<<n.div_ceil(256), 256>>>(n, 2.0, g[i]);
        }
    }

    /// `y[i] += x[i]` for each `i`, every node at once: two params whose elements must all be
    /// separate memory (each `x[i]` read, each `y[i]` written).
    graph Pairs {
        const PAIRS: usize = 4;
        params {
            saxpy: Kernel<SaxpyArgs>,
            x: [DeviceBuffer<f32>; PAIRS],
            y: [DeviceBuffer<f32>; PAIRS],
            n: u32,
        }
        for i in 0..PAIRS {
            pair[i]: kernel saxpy<<<n.div_ceil(256), 256>>>(n, 1.0, x[i], y[i]);
        }
    }

    /// Per iteration, a graph allocation: `t[i] = x + i + 1` (a copy of `x`, offset), summed
    /// into `y`, freed; `kept[i]` is left to the launch.
    graph Scratch {
        const STEPS: usize = 3;
        params {
            offset: Kernel<ScaleArgs>,
            saxpy: Kernel<SaxpyArgs>,
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            n: u32,
        }
        zero: memset(y, 0.0f32);
        for i in 0..STEPS {
            t[i]: alloc::<f32>(n as usize);
            fill[i]: memcpy(x -> t[i]);
            bump[i]: kernel offset<<<n.div_ceil(256), 256>>>(n, (i + 1) as f32, t[i]);
            sum[i]: kernel saxpy<<<n.div_ceil(256), 256>>>(n, 1.0, t[i], y);
            gone[i]: free(t[i]);
            kept[i]: alloc::<f32>(n as usize);
            copy[i]: memcpy(t[i] -> kept[i]);
            t[i] -> fill[i] -> bump[i] -> [sum[i], copy[i]] -> gone[i];
            kept[i] -> copy[i];
        }
        for i in 0..STEPS - 1 {
            sum[i] -> sum[i + 1];
        }
        zero -> sum[0];
    }
}

/// What `Layers` leaves in `x`: `x = input`, then per layer `x += alpha * (scale[l] * x + w[l])`
/// (a layer whose `mlp` is off leaves `x`).
fn layers_on_cpu(
    input: &[f32],
    w: &[Vec<f32>],
    scale: &[f32],
    alpha: f32,
    off: &[usize],
) -> Vec<f32> {
    let mut x = input.to_vec();
    for (l, (w, &s)) in w.iter().zip(scale).enumerate() {
        if off.contains(&l) {
            continue;
        }
        for (x, &w) in x.iter_mut().zip(w) {
            *x += alpha * (s * *x + w);
        }
    }
    x
}

/// `Layers`' inputs and buffers.
struct Data {
    input: Vec<f32>,
    w: Vec<Vec<f32>>,
}

fn layers_params(gpu: &Gpu, k: &Kernels, rng: &mut Rng, n: usize) -> (LayersParams, Data) {
    let data = Data {
        input: rng.f32s(n),
        w: (0..LAYERS).map(|_| rng.f32s(n)).collect(),
    };
    let params = LayersParams {
        axpy_out: k.axpy_out.clone(),
        saxpy: k.saxpy.clone(),
        input: upload(gpu, &data.input),
        x: zeros(gpu, n),
        w: std::array::from_fn(|l| upload(gpu, &data.w[l])),
        h: std::array::from_fn(|_| zeros(gpu, n)),
        scale: std::array::from_fn(|l| 0.25 + l as f32 / 16.0),
        alpha: 0.5,
        n: n as u32,
    };
    (params, data)
}

/// Launches `exec` and checks `x` against the CPU.
fn launch_and_check(
    gpu: &Gpu,
    exec: &mut LayersExec,
    p: &LayersParams,
    w: &[Vec<f32>],
    input: &[f32],
    off: &[usize],
    what: &str,
) {
    exec.launch(&gpu.stream).unwrap();
    let want = layers_on_cpu(input, w, &p.scale, p.alpha, off);
    assert_close(what, &read_back(&gpu.stream, &p.x), &want, 1e-4);
}

#[test]
fn a_repeated_declaration_is_the_declared_graph_and_computes_its_layers() {
    let Some(gpu) = gpu("a_repeated_declaration_is_the_declared_graph_and_computes_its_layers")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("a_repeated_declaration_is_the_declared_graph");
    let n = rng.len_in(1000, 20_000);
    let (p, data) = layers_params(&gpu, &k, &mut rng, n);
    let graph = Layers::build(&gpu.ctx, &p).unwrap();

    // Built in TOPOLOGY's order: `embed`, then the layers one after the other, each instance
    // named with its index, dependencies in declared order.
    let t = Layers::TOPOLOGY;
    assert_eq!(t.nodes.len(), 1 + 3 * LAYERS);
    let names: Vec<&str> = t.nodes.iter().map(|&(name, _)| name).collect();
    assert_eq!(
        &names[..7],
        ["embed", "clear[0]", "attn[0]", "mlp[0]", "clear[1]", "attn[1]", "mlp[1]"]
    );
    let nodes: Vec<_> = graph.graph().nodes().collect();
    assert_eq!(nodes.len(), t.nodes.len());
    for (i, (info, &(name, kind))) in nodes.iter().zip(t.nodes).enumerate() {
        assert_eq!((info.index, info.name.as_str(), info.kind), (i, name, kind));
        let deps: Vec<usize> = info.deps.iter().map(|&d| d as usize).collect();
        let want: Vec<usize> = t.dependencies(i).collect();
        assert_eq!(deps, want, "dependencies of `{name}`");
    }
    let position = |name: &str| names.iter().position(|&n| n == name).unwrap();
    assert_eq!(
        t.dependencies(position("clear[5]")).collect::<Vec<_>>(),
        [position("mlp[4]")]
    );
    assert_eq!(
        t.dependencies(position("clear[0]")).collect::<Vec<_>>(),
        [position("embed")]
    );

    let mut exec = graph.instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "as built");
}

#[test]
fn set_params_and_handles_update_one_iteration() {
    let Some(gpu) = gpu("set_params_and_handles_update_one_iteration") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("set_params_and_handles_update_one_iteration");
    let n = rng.len_in(1000, 20_000);
    let (mut p, mut data) = layers_params(&gpu, &k, &mut rng, n);
    let mut exec = Layers::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "as built");

    // One element of a value array: the one instance that reads it.
    p.scale[3] = -1.5;
    assert_eq!(exec.set_params(&p).unwrap(), 1, "scale[3]: attn[3] only");
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "scale[3]");

    // One element of a buffer array, to another buffer: its reader only.
    data.w[5] = rng.f32s(n);
    p.w[5] = upload(&gpu, &data.w[5]);
    assert_eq!(exec.set_params(&p).unwrap(), 1, "w[5]: attn[5] only");
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "w[5]");

    // A scalar every iteration reads: every instance of its reader.
    p.alpha = 0.25;
    assert_eq!(exec.set_params(&p).unwrap(), LAYERS, "alpha: every mlp");
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "alpha");

    // The element setters: one element, the one instance that reads it, one update.
    p.scale[6] = 0.75;
    let old = exec.set_scale(6, 0.75).unwrap();
    assert_eq!(old, 0.25 + 6.0 / 16.0, "the old element comes back");
    launch_and_check(
        &gpu,
        &mut exec,
        &p,
        &data.w,
        &data.input,
        &[],
        "set_scale(6)",
    );
    data.w[1] = rng.f32s(n);
    p.w[1] = upload(&gpu, &data.w[1]);
    exec.set_w(1, p.w[1].clone()).unwrap();
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "set_w(1)");
    // Through the guard, counted: one element, one node; two elements of one array, two; an
    // element twice, once; a scalar every instance reads, every instance.
    let mut guard = exec.params_mut();
    guard.set_scale(0, 0.5).unwrap();
    assert_eq!(guard.apply().unwrap(), 1, "scale[0]: attn[0] only");
    let mut guard = exec.params_mut();
    guard.set_scale(1, 0.25).unwrap();
    guard.set_scale(7, 0.125).unwrap();
    guard.set_scale(7, 0.0625).unwrap();
    assert_eq!(
        guard.apply().unwrap(),
        2,
        "scale[1], scale[7]: attn[1], attn[7]"
    );
    (p.scale[0], p.scale[1], p.scale[7]) = (0.5, 0.25, 0.0625);
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "guard");
    let mut guard = exec.params_mut();
    guard.set_alpha(0.5);
    assert_eq!(guard.apply().unwrap(), LAYERS, "alpha: every mlp");
    p.alpha = 0.5;
    // Beyond the array: refused, nothing changed.
    let beyond = exec.set_scale(LAYERS, 2.0).unwrap_err();
    assert!(
        matches!(&beyond, Error::Invalid { node, .. } if node == &format!("scale[{LAYERS}]")),
        "{beyond}"
    );
    assert!(exec.params_mut().set_w(LAYERS, p.w[0].clone()).is_err());
    assert_eq!(exec.params().scale, p.scale, "nothing changed");
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "refused");
    // A swap of two elements marks the two, nothing else.
    let mut guard = exec.params_mut();
    guard
        .swap(|q| {
            let (low, high) = q.w.split_at_mut(4);
            (&mut low[2], &mut high[0])
        })
        .unwrap();
    assert_eq!(guard.apply().unwrap(), 2, "w[2] <-> w[4]: attn[2], attn[4]");
    p.w.swap(2, 4);
    data.w.swap(2, 4);
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "swap");

    // The handle of one instance: its own node; `set_params` sets it back.
    // (The kernel's parameters are an alias, `AxpyOutArgs`: its arguments come as one tuple.)
    exec.attn(2)
        .unwrap()
        .set((n as u32, 3.0f32, &p.x, &p.w[2], &p.h[2]))
        .unwrap();
    let mut by_handle = p.scale;
    by_handle[2] = 3.0;
    exec.launch(&gpu.stream).unwrap();
    let want = layers_on_cpu(&data.input, &data.w, &by_handle, p.alpha, &[]);
    assert_close("attn(2).set", &read_back(&gpu.stream, &p.x), &want, 1e-4);
    assert_eq!(exec.set_params(&p).unwrap(), 1, "attn[2] set back");
    launch_and_check(&gpu, &mut exec, &p, &data.w, &data.input, &[], "set back");

    // One instance off: its layer leaves `x`.
    exec.mlp(4).unwrap().set_enabled(false).unwrap();
    assert!(!exec.mlp(4).unwrap().is_enabled().unwrap());
    assert!(exec.mlp(3).unwrap().is_enabled().unwrap());
    launch_and_check(
        &gpu,
        &mut exec,
        &p,
        &data.w,
        &data.input,
        &[4],
        "mlp[4] off",
    );
    exec.mlp(4).unwrap().set_enabled(true).unwrap();

    // No instance beyond the loop.
    let refused = exec.attn(LAYERS).map(|_| ()).unwrap_err();
    assert!(
        matches!(&refused, Error::Invalid { node, .. } if node == "attn[8]"),
        "{refused}"
    );

    // A whole-graph update from a graph of other params.
    let (q, other) = layers_params(&gpu, &k, &mut rng, n);
    let rebuilt = Layers::build(&gpu.ctx, &q).unwrap();
    exec.update(&rebuilt).unwrap();
    launch_and_check(
        &gpu,
        &mut exec,
        &q,
        &other.w,
        &other.input,
        &[],
        "after update",
    );
}

#[test]
fn elements_that_share_memory_are_refused_where_iterations_race() {
    let Some(gpu) = gpu("elements_that_share_memory_are_refused_where_iterations_race") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1000;
    let start: Vec<Vec<f32>> = (0..SIDES).map(|i| vec![i as f32 + 1.0; n]).collect();
    let mut p = SidesParams {
        scale: k.scale.clone(),
        g: std::array::from_fn(|i| upload(&gpu, &start[i])),
        n: n as u32,
    };
    let mut exec = Sides::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    for i in 0..SIDES {
        assert_close(
            &format!("g[{i}]"),
            &read_back(&gpu.stream, &p.g[i]),
            &vec![2.0 * (i as f32 + 1.0); n],
            0.0,
        );
    }

    // `side[1]` and `side[2]` run at once: one buffer in both elements is a race.
    let shared = SidesParams {
        g: std::array::from_fn(|i| {
            if i == 2 {
                p.g[1].clone()
            } else {
                p.g[i].clone()
            }
        }),
        scale: p.scale.clone(),
        n: p.n,
    };
    for refused in [
        Sides::build(&gpu.ctx, &shared).map(|_| ()).unwrap_err(),
        exec.set_params(&shared).map(|_| ()).unwrap_err(),
    ] {
        let Error::Hazard {
            first,
            second,
            reason,
        } = &refused
        else {
            panic!("expected a hazard, got {refused}");
        };
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("side[1]", "side[2]"),
            "{reason}"
        );
        assert!(
            reason.contains("`g[1]`") && reason.contains("`g[2]`"),
            "{reason}"
        );
    }
    // Refused as a whole: the executable still runs the params it had.
    p.g[3] = upload(&gpu, &vec![0.5; n]);
    assert_eq!(exec.set_params(&p).unwrap(), 1, "g[3]: side[3] only");
    exec.launch(&gpu.stream).unwrap();
    assert_close("g[3]", &read_back(&gpu.stream, &p.g[3]), &vec![1.0; n], 0.0);
}

#[test]
fn an_element_of_one_param_sharing_memory_with_another_params_element_is_refused() {
    // The check across two params of unordered iterations sorts every element of both once
    // (its code is linear in the iterations): `pair[2]` writing the buffer `pair[0]` reads is a
    // race, refused by build, set_params and the setter naming both nodes and both elements.
    let Some(gpu) =
        gpu("an_element_of_one_param_sharing_memory_with_another_params_element_is_refused")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1000;
    let mut p = PairsParams {
        saxpy: k.saxpy.clone(),
        x: std::array::from_fn(|i| upload(&gpu, &vec![i as f32 + 1.0; n])),
        y: std::array::from_fn(|_| upload(&gpu, &vec![10.0; n])),
        n: n as u32,
    };
    let mut exec = Pairs::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    exec.launch(&gpu.stream).unwrap();
    for i in 0..PAIRS {
        let want = vec![10.0 + i as f32 + 1.0; n];
        assert_close(
            &format!("y[{i}]"),
            &read_back(&gpu.stream, &p.y[i]),
            &want,
            0.0,
        );
    }

    let shared = PairsParams {
        saxpy: p.saxpy.clone(),
        x: p.x.clone(),
        y: std::array::from_fn(|i| if i == 2 { &p.x[0] } else { &p.y[i] }.clone()),
        n: p.n,
    };
    let built = Pairs::build(&gpu.ctx, &shared).map(|_| ());
    let set = exec.set_params(&shared).map(|_| ());
    let setter = exec.set_y(2, p.x[0].clone()).map(|_| ());
    for (how, refused) in [("build", built), ("set_params", set), ("set_y", setter)] {
        let Err(Error::Hazard {
            first,
            second,
            reason,
        }) = &refused
        else {
            panic!("{how}: expected a hazard, got {refused:?}");
        };
        assert_eq!(
            (first.as_str(), second.as_str()),
            ("pair[0]", "pair[2]"),
            "{how}: {reason}"
        );
        assert!(
            reason.contains("`x[0]`") && reason.contains("`y[2]`"),
            "{how}: {reason}"
        );
    }
    // Refused as a whole: the executable still runs the params it had.
    p.y[3] = upload(&gpu, &vec![0.5; n]);
    assert_eq!(exec.set_params(&p).unwrap(), 1, "y[3]: pair[3] only");
    exec.launch(&gpu.stream).unwrap();
    assert_close("y[3]", &read_back(&gpu.stream, &p.y[3]), &vec![4.5; n], 0.0);
}

#[test]
fn each_iteration_has_its_own_allocation() {
    let Some(gpu) = gpu("each_iteration_has_its_own_allocation") else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let mut rng = Rng::new("each_iteration_has_its_own_allocation");
    let n = rng.len_in(1000, 10_000);
    let x = rng.f32s(n);
    let p = ScratchParams {
        offset: k.offset.clone(),
        saxpy: k.saxpy.clone(),
        x: upload(&gpu, &x),
        y: zeros(&gpu, n),
        n: n as u32,
    };
    let mut exec = Scratch::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    for launch in 0..2 {
        let left = exec.launch(&gpu.stream).unwrap();
        for i in 0..STEPS {
            let want: Vec<f32> = x.iter().map(|v| v + (i + 1) as f32).collect();
            assert_close(
                &format!("kept[{i}], launch {launch}"),
                &left.read_kept(i).unwrap(),
                &want,
                0.0,
            );
        }
        assert!(left.read_kept(STEPS).is_err(), "no kept[{STEPS}]");
        // y = sum over i of (x + i + 1).
        let want: Vec<f32> = x
            .iter()
            .map(|v| (0..STEPS).map(|i| v + (i + 1) as f32).sum())
            .collect();
        assert_close(
            &format!("y, launch {launch}"),
            &read_back(&gpu.stream, &p.y),
            &want,
            1e-4,
        );
    }
}
