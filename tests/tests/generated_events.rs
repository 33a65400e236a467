//! Event nodes declared with `cuda_graph!`: one declaration records an event after its kernel,
//! another waits for it before its own, on another stream; `set_params` switches the events, and
//! a node handle sets one.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, NodeKind};
use cudagraph_tests::{read_back, zeros, AddU32Args, Kernels};

cuda_graph! {
    /// `x += k`, then record `done`.
    graph Produce {
        params {
            add_u32: Kernel<AddU32Args>,
            x: DeviceBuffer<u32>,
            n: u32,
            k: u32,
            done: Event,
        }
        bump: kernel add_u32<<<n.div_ceil(128), 128>>>(n, k, x);
        signal: record(done);
        bump -> signal;
    }

    /// Wait for `ready`, then copy `x` into `y`.
    graph Consume {
        params {
            x: DeviceBuffer<u32>,
            y: DeviceBuffer<u32>,
            ready: Event,
        }
        hold: wait(ready);
        copy: memcpy(x -> y);
        hold -> copy;
    }
}

#[test]
fn declared_graphs_order_each_other_through_event_nodes() {
    let Some(gpu) = cudagraph_tests::gpu("declared_graphs_order_each_other_through_event_nodes")
    else {
        return;
    };
    let k = Kernels::load(&gpu.ctx);
    let n = 1 << 16;
    let (s1, s2) = (gpu.ctx.new_stream().unwrap(), gpu.ctx.new_stream().unwrap());
    let event = Event::new(&gpu.ctx).unwrap();
    let x = zeros::<u32>(&gpu, n);
    let mut produce = ProduceParams {
        add_u32: k.add_u32.clone(),
        x: x.clone(),
        n: n as u32,
        k: 3,
        done: event.clone(),
    };
    let mut consume = ConsumeParams {
        x,
        y: zeros::<u32>(&gpu, n),
        ready: event,
    };
    let mut a = Produce::build(&gpu.ctx, &produce)
        .unwrap()
        .instantiate()
        .unwrap();
    let mut b = Consume::build(&gpu.ctx, &consume)
        .unwrap()
        .instantiate()
        .unwrap();
    for round in 1..=3u32 {
        a.launch(&s1).unwrap();
        b.launch(&s2).unwrap();
        assert_eq!(
            read_back(&s2, &consume.y),
            vec![3 * round; n],
            "round {round}"
        );
    }
    // Another event for both: set_params updates exactly the event nodes.
    let other = Event::new(&gpu.ctx).unwrap();
    produce.done = other.clone();
    consume.ready = other.clone();
    assert_eq!(a.set_params(&produce).unwrap(), 1);
    assert_eq!(b.set_params(&consume).unwrap(), 1);
    a.launch(&s1).unwrap();
    b.launch(&s2).unwrap();
    assert_eq!(read_back(&s2, &consume.y), vec![12u32; n]);
    // Through the handle.
    b.hold().set(&other).unwrap();
    a.launch(&s1).unwrap();
    b.launch(&s2).unwrap();
    assert_eq!(read_back(&s2, &consume.y), vec![15u32; n]);

    assert_eq!(
        Produce::TOPOLOGY.nodes[1],
        ("signal", NodeKind::EventRecord)
    );
    assert_eq!(Consume::TOPOLOGY.nodes[0], ("hold", NodeKind::EventWait));
}
