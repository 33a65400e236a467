//! Node expressions whose index of an array param may pick another element than its tokens
//! compute with the graph's consts and the loop variable: a macro call may rewrite the index, an
//! item may hide a graph const or the loop variable (declared by a macro, without the tokens
//! writing the name). Such a node reads every element of the param, so the setters of any
//! element, `set_params` and the guard reach it, and it is afterwards what `build` would make
//! from the params. Each case is safe code.

use cudagraph_runtime::cuda_graph;
use cudagraph_runtime::prelude::*;
use cudagraph_tests::{fill_buffer, Kernels, ScaleArgs};

/// `next!(w[i])` reads `w[i + 1]`: a macro may reinterpret the tokens it is given. (The eval
/// function gives it `w[i]` rewritten as `(&Bind(&w[i])).__cg_bind()`: the first arm takes that
/// shape apart; the second is the macro as a user would write it.)
macro_rules! next {
    ((& $(::)? $($seg:ident)::+ (& $a:ident [$i:expr])) . $m:ident ()) => {
        $a[$i + 1]
    };
    ($a:ident [$i:expr]) => {
        $a[$i + 1]
    };
}

/// Declares `const l: usize = 0;` where it is called: items are not hygienic in
/// `macro_rules!`, so the const hides a local `l` in the rest of the caller's block.
macro_rules! zero_l {
    () => {
        #[allow(non_upper_case_globals, dead_code)]
        const l: usize = 0;
    };
}

cuda_graph! {
    graph Hidden {
        const K: usize = 0;
        params {
            scale_k: Kernel<ScaleArgs>,
            scale: [f32; 2],
            lens: [usize; 2],
            n: u32,
            ya: DeviceBuffer<f32>,
            yb: DeviceBuffer<f32>,
            yc: [DeviceBuffer<f32>; 2],
            yd: DeviceBuffer<f32>,
            ye: DeviceBuffer<f32>,
        }
        // The tokens say `scale[0]`; rustc reads `scale[1]`.
        a: kernel scale_k<<<1, 32>>>(n, next!(scale[0]), ya);
        // The graph's `K` is 0; rustc reads the block's (1).
        b: kernel scale_k<<<1, 32>>>(n, { const K: usize = 1; scale[K] }, yb);
        for l in 0..2 {
            // The iteration's `l` is 0 or 1; rustc reads `zero_l!`'s const (0).
            c[l]: kernel scale_k<<<1, 32>>>(n, { zero_l!(); scale[l] }, yc[l]);
        }
        // Written plainly: `scale[0]`.
        d: kernel scale_k<<<1, 32>>>(n, scale[K], yd);
        // The range of a slice: rustc reads `lens[1]`.
        e: kernel scale_k<<<1, 32>>>(n, 1.0, ye.slice(..{ const K: usize = 1; lens[K] }));
    }
}

/// Sets the elements of `scale` (through the setters, then `set_params`, then the guard) and
/// checks that every node then computes with the params it reads (`y = 1.0 * scale[...]`); sets
/// `lens[1]` below `n`, which the kernel's check refuses in node `e` if the setter reaches it.
#[test]
fn setters_reach_nodes_that_read_an_element_through_a_macro_or_a_shadowing_item() {
    let Some(gpu) = cudagraph_tests::gpu(
        "setters_reach_nodes_that_read_an_element_through_a_macro_or_a_shadowing_item",
    ) else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 32;
    let buf = || DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let p = HiddenParams {
        scale_k: k.scale.clone(),
        scale: [2.0, 3.0],
        lens: [n, n],
        n: n as u32,
        ya: buf(),
        yb: buf(),
        yc: [buf(), buf()],
        yd: buf(),
        ye: buf(),
    };
    let mut exec = Hidden::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    let run = |exec: &mut HiddenExec| -> [f32; 5] {
        let ps = exec.params();
        let outs = [&ps.ya, &ps.yb, &ps.yc[0], &ps.yc[1], &ps.yd].map(|b| b.clone());
        for b in &outs {
            fill_buffer(b, 1.0);
        }
        exec.launch(&gpu.stream).unwrap();
        outs.map(|b| b.to_vec().unwrap()[0])
    };
    // As built: a and b read scale[1], c[0], c[1] and d scale[0].
    assert_eq!(run(&mut exec), [3.0, 3.0, 2.0, 2.0, 2.0], "as built");
    exec.set_scale(1, 5.0).unwrap();
    exec.set_scale(0, 7.0).unwrap();
    // What `Hidden::build` makes from the params now.
    assert_eq!(
        run(&mut exec),
        [5.0, 5.0, 7.0, 7.0, 7.0],
        "after set_scale(1, 5.0) and set_scale(0, 7.0) (order: a, b, c[0], c[1], d)"
    );
    let ps = exec.params();
    let changed = HiddenParams {
        scale_k: ps.scale_k.clone(),
        scale: [11.0, 13.0],
        lens: ps.lens,
        n: ps.n,
        ya: ps.ya.clone(),
        yb: ps.yb.clone(),
        yc: ps.yc.clone(),
        yd: ps.yd.clone(),
        ye: ps.ye.clone(),
    };
    exec.set_params(&changed).unwrap();
    assert_eq!(
        run(&mut exec),
        [13.0, 13.0, 11.0, 11.0, 11.0],
        "after set_params"
    );
    {
        let mut guard = exec.params_mut();
        guard.set_scale(1, 17.0).unwrap();
        guard.apply().unwrap();
    }
    assert_eq!(
        run(&mut exec),
        [17.0, 17.0, 11.0, 11.0, 11.0],
        "after the guard's set_scale(1, 17.0)"
    );
    // `e` reads lens[1]: giving it a slice shorter than `n` must reach its update, which the
    // kernel's check (n within y) refuses, leaving everything as it was.
    assert!(
        exec.set_lens(1, n / 2).is_err(),
        "set_lens(1, n / 2) updated no node that reads lens[1]"
    );
    assert_eq!(exec.params().lens, [n, n]);
    // lens[0] is no element `e` reads: its update (every element, to the macro) passes.
    exec.set_lens(0, n / 2).unwrap();
}

cuda_graph! {
    graph Included {
        params {
            scale_k: Kernel<ScaleArgs>,
            scale: [f32; 2],
            n: u32,
            y: DeviceBuffer<f32>,
        }
        // The tokens say `scale[0]`; the file `include!` pastes reads `scale[1]` too (as would
        // a procedural macro's output with the call site's hygiene).
        a: kernel scale_k<<<1, 32>>>(n, scale[0] + include!("generated_hidden_reads/scale_1.rs"), y);
    }
}

/// `set_scale(1, ..)`, `set_params` and the guard reach a node that reads `scale[1]` only through
/// a file `include!` pastes: afterwards it computes what `build` would make from the params.
#[test]
fn setters_reach_nodes_that_read_an_element_through_an_included_file() {
    let Some(gpu) =
        cudagraph_tests::gpu("setters_reach_nodes_that_read_an_element_through_an_included_file")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 32;
    let p = IncludedParams {
        scale_k: k.scale.clone(),
        scale: [2.0, 3.0],
        n: n as u32,
        y: DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap(),
    };
    let mut exec = Included::build(&gpu.ctx, &p)
        .unwrap()
        .instantiate()
        .unwrap();
    let run = |exec: &mut IncludedExec| -> f32 {
        let y = exec.params().y.clone();
        fill_buffer(&y, 1.0);
        exec.launch(&gpu.stream).unwrap();
        y.to_vec().unwrap()[0]
    };
    assert_eq!(run(&mut exec), 5.0, "as built: scale[0] + scale[1]");
    exec.set_scale(1, 10.0).unwrap();
    assert_eq!(run(&mut exec), 12.0, "after set_scale(1, 10.0)");
    let ps = exec.params();
    let changed = IncludedParams {
        scale_k: ps.scale_k.clone(),
        scale: [ps.scale[0], 20.0],
        n: ps.n,
        y: ps.y.clone(),
    };
    exec.set_params(&changed).unwrap();
    assert_eq!(run(&mut exec), 22.0, "after set_params (scale[1] = 20)");
    {
        let mut guard = exec.params_mut();
        guard.set_scale(1, 40.0).unwrap();
        guard.apply().unwrap();
    }
    assert_eq!(run(&mut exec), 42.0, "after the guard's set_scale(1, 40.0)");
}
