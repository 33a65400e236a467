//! OPEN HOLE (found in review, not fixed): `params_mut().swap(pick)` lends `pick` the whole
//! `&mut Params`, and only the two values it returns are tracked. A `pick` that also changes
//! another param (`p.y = other`, or `mem::swap(&mut p.x, &mut p.y)` inside) leaves the nodes
//! reading that param un-updated while the params say otherwise, and the build-time overlap
//! check, which judges the params, then admits changes that make two unordered nodes share
//! memory, one writing it (a data race). The test asserts the sound outcome and is ignored
//! until the hole is closed: `cargo test --test gpu generated_untracked_changes -- --ignored`.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::gpu;

cuda_graph! {
    /// `w` writes `y`, `r` reads `x`, unordered: `x` and `y` must not share memory.
    graph Unordered {
        params {
            x: DeviceBuffer<f32>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            q1: DeviceBuffer<f32>,
            q2: DeviceBuffer<f32>,
            v1: f32,
            v2: f32,
        }
        w: memset(y, 7.0f32);
        r: memcpy(x -> z);
        w1: memset(q1, v1);
        w2: memset(q2, v2);
    }
}

#[test]
#[ignore = "open hole: a swap's pick closure changes params untracked"]
fn a_swap_that_changes_another_param_cannot_get_past_the_overlap_check() {
    let Some(gpu) = gpu("a_swap_that_changes_another_param_cannot_get_past_the_overlap_check")
    else {
        return;
    };
    let buf = || DeviceBuffer::<f32>::zeros(&gpu.stream, 64).unwrap();
    let (a, b) = (buf(), buf());
    let params = UnorderedParams {
        x: a.clone(),
        y: b.clone(),
        z: buf(),
        q1: buf(),
        q2: buf(),
        v1: 1.0,
        v2: 2.0,
    };
    // Control: `w` writes `b`; making `r` read `b` too is refused.
    let mut exec = Unordered::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    assert!(matches!(exec.set_x(b.clone()), Err(Error::Hazard { .. })));
    // The swap of `v1`/`v2` (read by `w1`, `w2` only) also sets `y = a`, untracked: `w` still
    // writes `b`.
    let mut exec = Unordered::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    let sneaked = a.clone();
    let swapped = exec.params_mut().swap(move |p| {
        p.y = sneaked;
        (&mut p.v1, &mut p.v2)
    });
    // Sound outcomes: the swap refused, or `y`'s change tracked (then `w` writes `a` and the
    // next `set_x(b)` is fine), or `set_x(b)` refused. Today: the swap is accepted, `w` still
    // writes `b`, and `set_x(b)` is accepted, so `r` reads `b` while `w` writes it.
    if swapped.is_ok() {
        exec.launch(&gpu.stream).unwrap();
        gpu.stream.synchronize().unwrap();
        let w_wrote_b = b.to_vec().unwrap().iter().all(|&v| v == 7.0);
        let set = exec.set_x(b.clone());
        assert!(
            !w_wrote_b || matches!(set, Err(Error::Hazard { .. })),
            "`w` still writes `b` (the params say `y` is `a`), and `r` was made to read `b`"
        );
    }
}
