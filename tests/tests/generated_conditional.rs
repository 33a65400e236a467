//! Conditional nodes declared with `cuda_graph!`: a WHILE loop, an IF/ELSE on a value a kernel
//! computes, a SWITCH on a value in device memory with a WHILE nested in one case. `set_params`
//! updates nodes inside the bodies, node handles reach them, and a whole-graph update from
//! another build keeps the executable consistent.

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{cuda_graph, ConditionalHandle, NodeKind, SET_CONDITIONAL_DECLARATION};
use cudagraph_tests::{compile, function, gpu, read_back, zeros, Gpu};

type Step = Kernel<(ConditionalHandle, DevicePtrMut<u32>, u32)>;
type Put = Kernel<(u32, DevicePtrMut<u32>)>;
type SetFrom = Kernel<(ConditionalHandle, DevicePtr<u32>)>;

cuda_graph! {
    /// Counts to `limit` on the GPU, marks the count odd or even, then runs the case `choice`
    /// holds.
    graph Flow {
        params {
            step: Step,
            put: Put,
            set_from: SetFrom,
            parity: SetFrom,
            counter: DeviceBuffer<u32>,
            out: DeviceBuffer<u32>,
            choice: DeviceBuffer<u32>,
            chosen: DeviceBuffer<u32>,
            limit: u32,
            tag: u32,
        }
        reset: memset(counter, 0u32);
        count: while more(default = 1) {
            bump: kernel step<<<1, 32>>>(more, counter, limit);
        }
        odd_even: kernel parity<<<1, 32>>>(odd, counter);
        branch: if odd {
            mark_odd: kernel put<<<1, 32>>>(tag + 1, out);
        } else {
            mark_even: kernel put<<<1, 32>>>(tag, out);
        }
        clear: memset(chosen, 0u32);
        pick: kernel set_from<<<1, 32>>>(case, choice);
        select: switch case {
            0 => { c0: kernel put<<<1, 32>>>(100, chosen); }
            1 => { c1: kernel put<<<1, 32>>>(101, chosen); }
            2 => {
                inner: while again(default = 1) {
                    c2: kernel step<<<1, 32>>>(again, chosen, 7);
                }
            }
        }
        reset -> count -> odd_even -> branch;
        // A WHILE loop (`count`, and `inner` in `select`) may not run beside another
        // conditional node: NVIDIA's driver faults on it (see the macro's concurrent-loop rule).
        [branch, clear, pick] -> select;
    }
}

const SRC: &str = r#"
extern "C" __global__ void step(unsigned long long h, unsigned* counter, unsigned limit) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        unsigned c = ++counter[0];
        cudaGraphSetConditional(h, c < limit ? 1u : 0u);
    }
}
extern "C" __global__ void put(unsigned v, unsigned* out) {
    if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = v;
}
extern "C" __global__ void set_from(unsigned long long h, const unsigned* value) {
    if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, value[0]);
}
extern "C" __global__ void parity(unsigned long long h, const unsigned* value) {
    if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(h, value[0] & 1u);
}
"#;

fn params(gpu: &Gpu, limit: u32, tag: u32) -> FlowParams {
    let module = compile(&gpu.ctx, &format!("{SET_CONDITIONAL_DECLARATION}{SRC}"));
    // Each kernel touches element 0 of its one buffer, from one thread; a conditional handle is
    // an `unsigned long long`, and each sets only its handle parameter and launches nothing.
    // SAFETY: `step` takes (unsigned long long, unsigned*, unsigned) and reads and writes
    // counter[0] only; the check keeps `counter` non-empty.
    let step = unsafe { Step::new(function(&module, "step")) }.requires(|_, (_, c, _)| c >= 1);
    // SAFETY: `put` takes (unsigned, unsigned*) and writes out[0] only; the check keeps `out`
    // non-empty.
    let put = unsafe { Put::new(function(&module, "put")) }.requires(|_, (_, out)| out >= 1);
    let reads_first = |_: &LaunchConfig, (_, value): ((), usize)| value >= 1;
    // SAFETY: `set_from` takes (unsigned long long, const unsigned*) and reads value[0] only;
    // the check keeps `value` non-empty.
    let set_from = unsafe { SetFrom::new(function(&module, "set_from")) }.requires(reads_first);
    // SAFETY: `parity`: the parameter list and the access of `set_from`, and its check.
    let parity = unsafe { SetFrom::new(function(&module, "parity")) }.requires(reads_first);
    FlowParams {
        step,
        put,
        set_from,
        parity,
        counter: zeros(gpu, 1),
        out: zeros(gpu, 1),
        choice: zeros(gpu, 1),
        chosen: zeros(gpu, 1),
        limit,
        tag,
    }
}

/// The box drawn for the conditional node `name` in `svg`: `(x, y, width, height)`.
fn conditional_box(svg: &str, name: &str) -> (i32, i32, i32, i32) {
    let label = svg
        .find(&format!(">{name}</tspan>"))
        .unwrap_or_else(|| panic!("no box for {name}: {svg}"));
    let rect = svg[..label].rfind("<rect ").unwrap();
    let attr = |key: &str| -> i32 {
        let at = rect + svg[rect..].find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
        let end = at + svg[at..].find('"').unwrap();
        svg[at..end].parse().unwrap()
    };
    (attr("x"), attr("y"), attr("width"), attr("height"))
}

#[test]
fn the_picture_draws_bodies_inside_their_conditional_nodes() {
    let svg = Flow::topology_svg();
    // Every node once; the six edges are the graph's own (the bodies have none).
    assert!(
        svg.contains("<title>Topology of Flow: 14 nodes, 6 edges</title>"),
        "{svg}"
    );
    for (label, count) in [
        ("count</tspan>: while", 1),
        ("branch</tspan>: if_else", 1),
        ("select</tspan>: switch", 1),
        ("inner</tspan>: while", 1),
        (">then</text>", 1),
        (">else</text>", 1),
        (">case 0</text>", 1),
        (">case 2</text>", 1),
        (">body</text>", 2),
    ] {
        assert_eq!(svg.matches(label).count(), count, "{label} in {svg}");
    }
    // The WHILE nested in case 2 is drawn inside the SWITCH.
    let (ox, oy, ow, oh) = conditional_box(svg, "select");
    let (ix, iy, iw, ih) = conditional_box(svg, "inner");
    assert!(
        ix > ox && iy > oy && ix + iw < ox + ow && iy + ih < oy + oh,
        "{svg}"
    );
}

#[test]
fn the_declared_shape_has_nested_bodies() {
    let t = Flow::TOPOLOGY;
    let names: Vec<&str> = t.nodes.iter().map(|n| n.0).collect();
    // The graph's own nodes first, then each conditional node's bodies, depth first.
    assert_eq!(
        names,
        [
            "reset",
            "count",
            "odd_even",
            "branch",
            "clear",
            "pick",
            "select",
            "bump",
            "mark_odd",
            "mark_even",
            "c0",
            "c1",
            "inner",
            "c2"
        ]
    );
    let kind = |name: &str| t.nodes[t.node(name).unwrap()].1;
    assert_eq!(kind("count"), NodeKind::Conditional);
    assert_eq!(kind("inner"), NodeKind::Conditional);
    let at = |name: &str| t.bodies[t.node(name).unwrap()];
    let (count, branch, select, inner) = (
        t.node("count").unwrap(),
        t.node("branch").unwrap(),
        t.node("select").unwrap(),
        t.node("inner").unwrap(),
    );
    assert_eq!(at("reset"), None);
    assert_eq!(at("bump"), Some((count, 0)));
    assert_eq!(at("mark_odd"), Some((branch, 0)));
    assert_eq!(at("mark_even"), Some((branch, 1)));
    assert_eq!(at("c1"), Some((select, 1)));
    assert_eq!(at("inner"), Some((select, 2)));
    assert_eq!(at("c2"), Some((inner, 0)));
    let dot = t.to_dot();
    assert!(
        dot.contains(&format!("subgraph cluster_{select}_2 {{")),
        "{dot}"
    );
    assert!(
        dot.contains(&format!("subgraph cluster_{inner}_0 {{")),
        "{dot}"
    );
    let mermaid = t.to_mermaid();
    assert!(
        mermaid.contains(&format!("subgraph b{branch}_1")),
        "{mermaid}"
    );
}

#[test]
fn declared_conditional_nodes_loop_branch_and_switch_on_the_gpu() {
    let Some(gpu) = gpu("declared_conditional_nodes_loop_branch_and_switch_on_the_gpu") else {
        return;
    };
    let mut p = params(&gpu, 5, 10);
    let graph = Flow::build(&gpu.ctx, &p).unwrap();
    assert_eq!(graph.graph().len(), 7, "the graph's own nodes");
    let mut exec = graph.instantiate().unwrap();
    let check = |exec: &mut FlowExec, p: &FlowParams, choice: u32, want: [u32; 3]| {
        p.choice.copy_from(&[choice]).unwrap();
        exec.launch(&gpu.stream).unwrap();
        let got = [
            read_back(&gpu.stream, &p.counter)[0],
            read_back(&gpu.stream, &p.out)[0],
            read_back(&gpu.stream, &p.chosen)[0],
        ];
        assert_eq!(got, want, "choice {choice} (counter, out, chosen)");
    };
    // 5 is odd: `mark_odd` writes tag + 1. Case 2 loops `chosen` up to 7; case 5 runs nothing.
    check(&mut exec, &p, 0, [5, 11, 100]);
    check(&mut exec, &p, 1, [5, 11, 101]);
    check(&mut exec, &p, 2, [5, 11, 7]);
    check(&mut exec, &p, 5, [5, 11, 0]);

    // `set_params`: the loop's limit (node `bump` in the WHILE body) and the tag (both IF/ELSE
    // bodies) change; exactly those three nodes are updated.
    p.limit = 8;
    p.tag = 20;
    assert_eq!(exec.set_params(&p).unwrap(), 3);
    check(&mut exec, &p, 1, [8, 20, 101]);

    // A node handle inside a body.
    exec.mark_even().set((30u32, &p.out)).unwrap();
    check(&mut exec, &p, 0, [8, 30, 100]);

    // A whole-graph update from another build (its own conditional handles).
    let other = params(&gpu, 3, 40);
    let rebuilt = Flow::build(&gpu.ctx, &other).unwrap();
    exec.update(&rebuilt).unwrap();
    check(&mut exec, &other, 2, [3, 41, 7]);
    check(&mut exec, &other, 0, [3, 41, 100]);
}

/// The picture of this declaration that `docs/features.md` shows is the one the macro draws
/// today.
#[test]
fn the_flow_picture_is_up_to_date() {
    crate::docs::check_picture("examples/pictures/flow.svg", Flow::topology_svg());
}
