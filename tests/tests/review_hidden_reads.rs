//! REVIEW (rev-macro): node expressions that read another element of an array param than the
//! tokens the macro analyses say. The macro registers the node as a reader of the element the
//! tokens name; rustc reads another; a setter of the element actually read then leaves the node
//! stale, against the promise that the nodes are afterwards what `build` would make from the
//! params. Each case is safe code.

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
/// `macro_rules!`, so the const shadows a local `l` in the rest of the caller's block.
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
            n: u32,
            ya: DeviceBuffer<f32>,
            yb: DeviceBuffer<f32>,
            yc: [DeviceBuffer<f32>; 2],
        }
        // The tokens say `scale[0]`; rustc reads `scale[1]`.
        a: kernel scale_k<<<1, 32>>>(n, next!(scale[0]), ya);
        // The macro evaluates `K` as the graph's const (0); rustc reads the block's (1).
        b: kernel scale_k<<<1, 32>>>(n, { const K: usize = 1; scale[K] }, yb);
        for l in 0..2 {
            // The macro takes `l` as the iteration's; rustc reads `zero_l!`'s const (0).
            c[l]: kernel scale_k<<<1, 32>>>(n, { zero_l!(); scale[l] }, yc[l]);
        }
    }
}

/// Sets both elements of `scale` through the setters and checks that every node then computes
/// with the params it reads (`y = 1.0 * scale[...]`).
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
        n: n as u32,
        ya: buf(),
        yb: buf(),
        yc: [buf(), buf()],
    };
    let mut exec = Hidden::build(&gpu.ctx, &p).unwrap().instantiate().unwrap();
    let run = |exec: &mut HiddenExec| -> [f32; 4] {
        let ps = exec.params();
        let outs = [&ps.ya, &ps.yb, &ps.yc[0], &ps.yc[1]].map(|b| b.clone());
        for b in &outs {
            fill_buffer(b, 1.0);
        }
        exec.launch(&gpu.stream).unwrap();
        outs.map(|b| b.to_vec().unwrap()[0])
    };
    // As built: a and b read scale[1], c[0] and c[1] scale[0].
    assert_eq!(run(&mut exec), [3.0, 3.0, 2.0, 2.0], "as built");
    exec.set_scale(1, 5.0).unwrap();
    exec.set_scale(0, 7.0).unwrap();
    // What `Hidden::build` makes from the params now: a and b 5.0, c[0] and c[1] 7.0.
    assert_eq!(
        run(&mut exec),
        [5.0, 5.0, 7.0, 7.0],
        "after set_scale(1, 5.0) and set_scale(0, 7.0) (order: a, b, c[0], c[1])"
    );
}
