//! A swap through the params guard changes the two params it names and nothing else: its `pick`
//! is given the params' slots (`<Graph>Slots`), not their values, so it cannot write a third
//! param behind the tracker's back (that does not compile: ui case
//! `soundness/swap_pick_writes_param`). Tokens moved around inside `pick` change nothing, and
//! the swap is tracked: its readers are updated, and the memory check judges the swapped params
//! from then on. Array params swap whole, by runs of elements or by element, each element's
//! reader updated. (A swap refused by a node and undone: `__private::tracked`'s unit tests.)

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, Error};
use cudagraph_tests::{gpu, read_back, upload, zeros};

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

const N: usize = 64;

#[test]
fn a_swap_changes_the_two_params_it_names_and_is_checked() {
    let Some(gpu) = gpu("a_swap_changes_the_two_params_it_names_and_is_checked") else {
        return;
    };
    let (a, b) = (upload(&gpu, &[1.0f32; N]), zeros::<f32>(&gpu, N));
    let params = UnorderedParams {
        x: a.clone(),
        y: b.clone(),
        z: zeros(&gpu, N),
        q1: zeros(&gpu, N),
        q2: zeros(&gpu, N),
        v1: 1.0,
        v2: 2.0,
    };
    let mut exec = Unordered::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();

    // `pick` moves the tokens of `x` and `y` around: the params are not touched by that; the
    // swap of `v1` and `v2` is made, and updates their readers, `w1` and `w2`, only.
    let mut guard = exec.params_mut();
    guard
        .swap(|p| {
            std::mem::swap(&mut p.x, &mut p.y);
            (&mut p.v1, &mut p.v2)
        })
        .unwrap();
    assert_eq!(guard.apply().unwrap(), 2, "w1 and w2");
    let now = exec.params();
    assert_eq!((now.v1, now.v2), (2.0, 1.0));
    assert_eq!(
        (now.x.addr(), now.y.addr()),
        (a.addr(), b.addr()),
        "x, y kept"
    );
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &params.q1), [2.0; N]);
    assert_eq!(read_back(&gpu.stream, &params.q2), [1.0; N]);
    assert_eq!(read_back(&gpu.stream, &b), [7.0; N], "w writes y = b");
    assert_eq!(
        read_back(&gpu.stream, &params.z),
        [1.0; N],
        "r copies x = a"
    );

    // `w` still writes `b`: making `r` read it is refused.
    assert!(matches!(exec.set_x(b.clone()), Err(Error::Hazard { .. })));
    assert_eq!(exec.params().x.addr(), a.addr(), "refused: x kept");

    // A swap of the two buffers the memory check judges: `w` writes `a`, `r` copies `b`.
    exec.params_mut().swap(|p| (&mut p.x, &mut p.y)).unwrap();
    exec.launch(&gpu.stream).unwrap();
    assert_eq!(read_back(&gpu.stream, &a), [7.0; N], "w writes y = a");
    assert_eq!(
        read_back(&gpu.stream, &params.z),
        [7.0; N],
        "r copies x = b"
    );
    // And the check sees the swapped params: `r` may not read `a` now.
    assert!(matches!(exec.set_x(a.clone()), Err(Error::Hazard { .. })));
}

cuda_graph! {
    /// `fill[i]` sets `a[i]` to `v[i]`, `mark[i]` sets `b[i]` to `v[i + 2]`.
    graph Arrays {
        const PAIRS: usize = 2;
        params {
            a: [DeviceBuffer<f32>; PAIRS],
            b: [DeviceBuffer<f32>; PAIRS],
            v: [f32; 4],
        }
        for i in 0..PAIRS {
            fill[i]: memset(a[i], v[i]);
            mark[i]: memset(b[i], v[i + 2]);
        }
    }
}

#[test]
fn a_swap_of_array_params_swaps_them_element_by_element() {
    let Some(gpu) = gpu("a_swap_of_array_params_swaps_them_element_by_element") else {
        return;
    };
    let buffers: Vec<DeviceBuffer<f32>> = (0..4).map(|_| zeros(&gpu, N)).collect();
    let params = ArraysParams {
        a: [buffers[0].clone(), buffers[1].clone()],
        b: [buffers[2].clone(), buffers[3].clone()],
        v: [1.0, 2.0, 3.0, 4.0],
    };
    let mut exec = Arrays::build(&gpu.ctx, &params)
        .unwrap()
        .instantiate()
        .unwrap();
    let addrs = |p: &[DeviceBuffer<f32>; 2]| [p[0].addr(), p[1].addr()];

    // Two whole array params: every element's reader updated.
    let mut guard = exec.params_mut();
    guard.swap(|p| (&mut p.a, &mut p.b)).unwrap();
    assert_eq!(guard.apply().unwrap(), 4, "fill[0..2], mark[0..2]");
    assert_eq!(addrs(&exec.params().a), addrs(&params.b));
    assert_eq!(addrs(&exec.params().b), addrs(&params.a));

    // Runs of elements of one array param: `v[0..2]` and `v[2..4]`.
    let mut guard = exec.params_mut();
    guard
        .swap(|p| {
            let (low, high) = p.v.split_at_mut(2);
            (
                <&mut [_; 2]>::try_from(low).unwrap(),
                <&mut [_; 2]>::try_from(high).unwrap(),
            )
        })
        .unwrap();
    assert_eq!(guard.apply().unwrap(), 4);
    assert_eq!(exec.params().v, [3.0, 4.0, 1.0, 2.0]);

    // One element with another: its reader only.
    let mut guard = exec.params_mut();
    guard
        .swap(|p| {
            let [first, _, _, last] = &mut p.v;
            (first, last)
        })
        .unwrap();
    assert_eq!(guard.apply().unwrap(), 2, "fill[0], mark[1]");
    assert_eq!(exec.params().v, [2.0, 4.0, 1.0, 3.0]);

    // `fill[i]` writes `a[i]` = the buffers of `b`, `mark[i]` those of `a`.
    exec.launch(&gpu.stream).unwrap();
    for (buffer, want) in buffers.iter().zip([1.0, 3.0, 2.0, 4.0]) {
        assert_eq!(read_back(&gpu.stream, buffer), [want; N]);
    }

    // A refused change gives the params back the values the swaps left (the executable's copy
    // of the applied params took each swap): `a[0]` made `b[0]`'s buffer is refused (two
    // unordered memsets would write it), and `a[0]` and `v[0]` are as they were.
    let before = (exec.params().a[0].addr(), exec.params().v);
    assert_eq!(before.0, buffers[2].addr());
    let mut guard = exec.params_mut();
    guard.set_v(0, 9.0).unwrap();
    let other = guard.b[0].clone();
    guard.set_a(0, other).unwrap();
    assert!(matches!(guard.apply(), Err(Error::Hazard { .. })));
    assert_eq!((exec.params().a[0].addr(), exec.params().v), before);
    exec.launch(&gpu.stream).unwrap();
    for (buffer, want) in buffers.iter().zip([1.0, 3.0, 2.0, 4.0]) {
        assert_eq!(read_back(&gpu.stream, buffer), [want; N]);
    }
}
