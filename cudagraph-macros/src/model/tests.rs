//! Tests of the model: what a declaration's nodes read, write and order, found from its tokens.

use super::memory::{spelled, spelled_slot, Space};
use super::order::topological_order;
use super::*;
use crate::tokens::{collect_mentions, format_args_of};

#[test]
fn order_follows_declaration_among_ready_nodes() {
    // 0 -> 2, 1 -> 2, 3 independent: declaration order wherever dependencies allow.
    assert_eq!(
        topological_order(4, &[(0, 2), (1, 2)]),
        Ok(vec![0, 1, 2, 3])
    );
    // A node declared first but depending on a later one goes after it.
    assert_eq!(topological_order(3, &[(2, 0)]), Ok(vec![1, 2, 0]));
    // Ties are broken by declaration index, not by discovery order.
    assert_eq!(
        topological_order(4, &[(3, 1), (0, 2)]),
        Ok(vec![0, 2, 3, 1])
    );
    assert_eq!(topological_order(0, &[]), Ok(vec![]));
}

#[test]
fn order_is_independent_of_edge_listing_order() {
    let a = topological_order(5, &[(0, 4), (1, 3), (3, 4), (2, 4)]);
    let b = topological_order(5, &[(2, 4), (3, 4), (1, 3), (0, 4)]);
    assert_eq!(a, b);
    assert_eq!(a, Ok(vec![0, 1, 2, 3, 4]));
}

#[test]
fn cycles_leave_nodes_unplaced() {
    assert_eq!(
        topological_order(3, &[(0, 1), (1, 0), (1, 2)]),
        Err(vec![0, 1, 2])
    );
}

#[test]
fn every_edge_of_a_cycle_is_reported_with_the_same_cycle() {
    // 0 -> 1 -> 2 -> 0, plus 2 -> 3 which is on no cycle.
    let edges = [(0, 1), (1, 2), (2, 0), (2, 3)];
    let found = cycle_edges(4, &edges);
    assert_eq!(
        found,
        vec![(0, vec![0, 1, 2]), (1, vec![0, 1, 2]), (2, vec![0, 1, 2])]
    );
}

#[test]
fn overlapping_cycles_report_a_shortest_cycle_per_edge() {
    // 0 <-> 1 and 1 -> 2 -> 0.
    let edges = [(0, 1), (1, 0), (1, 2), (2, 0)];
    let found = cycle_edges(3, &edges);
    assert_eq!(
        found,
        vec![
            (0, vec![0, 1]),
            (1, vec![0, 1]),
            (2, vec![0, 1, 2]),
            (3, vec![0, 1, 2])
        ]
    );
    assert!(cycle_edges(3, &[(0, 1), (1, 2), (0, 2)]).is_empty());
}

/// The first graph of `source`, resolved, given to `f`.
fn with_model(source: &str, f: impl FnOnce(&Model)) {
    let input: crate::parse::Input = syn::parse_str(source).expect("parses");
    f(&Model::new(&input.graphs[0]));
}

#[test]
fn spelling_is_only_a_shortcut() {
    let ty = |s: &str| syn::parse_str::<Type>(s).expect("a type");
    assert_eq!(
        spelled(&ty("DeviceBuffer<f32>")),
        Spelled::Memory(Space::Device)
    );
    assert_eq!(
        spelled(&ty("cudagraph_runtime::HostPtr<u8>")),
        Spelled::Memory(Space::Host)
    );
    assert_eq!(spelled(&ty("u32")), Spelled::Plain);
    // A path or an alias says nothing: the type system decides.
    for unknown in [
        "std::primitive::u32",
        "Buf",
        "&'static DeviceBuffer<f32>",
        "(u32,)",
    ] {
        assert_eq!(spelled(&ty(unknown)), Spelled::Unknown, "{unknown}");
    }
    assert_eq!(spelled_slot(&ty("DevicePtrMut<f32>")), Some(Some(true)));
    assert_eq!(spelled_slot(&ty("f32")), Some(None));
    assert_eq!(spelled_slot(&ty("Out")), None);
}

#[test]
fn kernel_arguments_through_aliases_are_left_to_the_types() {
    let source = "graph G {
        params { k: Kernel<(u32, Out, DevicePtr<f32>)>, a: Kernel<Args>, y: Buf, x: DeviceBuffer<f32>, n: u32 }
        s: kernel k<<<1, 1>>>(n, y, x);
        t: kernel a<<<1, 1>>>(n, y);
    }";
    with_model(source, |m| {
        let uses = m.memory_uses(&m.nodes[0]);
        let found: Vec<(String, Access, Mem)> = uses
            .iter()
            .map(|u| (m.buffer_name(u.buffer), u.access, u.mem))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "y".to_owned(),
                    Access::Slot { kernel: 0, arg: 1 },
                    Mem::Probe
                ),
                ("x".to_owned(), Access::Read, Mem::Yes),
            ]
        );
        // `n` is a primitive: never memory, whatever the parameter.
        let uses = m.memory_uses(&m.nodes[1]);
        assert_eq!(uses.len(), 1);
        assert_eq!(uses[0].access, Access::Slot { kernel: 1, arg: 1 });
    });
}

#[test]
fn pointer_arguments_use_what_their_form_names() {
    let source = "graph G {
        const L: usize = 2;
        params {
            k: Kernel<(u32, DevicePtrMut<f32>)>,
            a: Kernel<(u32, Out)>,
            y: DeviceBuffer<f32>,
            z: DeviceBuffer<f32>,
            w: [DeviceBuffer<f32>; L],
            n: u32,
            i: usize,
        }
        s: kernel k<<<1, 1>>>(n, y.slice(..z.len()));
        for l in 0..L { t[l]: kernel k<<<1, 1>>>(n, w[l]); }
        u: kernel a<<<1, 1>>>(n, pick(y));
        v: kernel a<<<1, 1>>>(n, w[i]);
        x: kernel a<<<1, 1>>>(n + 1, z);
    }";
    with_model(source, |m| {
        let names = |node: usize| -> Vec<String> {
            m.memory_uses(&m.nodes[node])
                .iter()
                .map(|u| m.buffer_name(u.buffer))
                .collect()
        };
        // `z` only sizes the range: the memory is `y`'s.
        assert_eq!(names(0), ["y"]);
        assert_eq!(
            (names(1), names(2)),
            (vec!["w[0]".to_owned()], vec!["w[1]".to_owned()])
        );
        // Out of the forms, for a parameter behind an alias: no memory, asserted a value.
        assert!(names(3).is_empty() && names(4).is_empty());
        assert_eq!(names(5), ["z"]);
        let analysis = m.hazards();
        let values: Vec<(usize, usize)> = analysis.values.iter().map(|v| (v.node, v.arg)).collect();
        assert_eq!(values, [(3, 1), (4, 1)]);
        let slices: Vec<(usize, usize)> =
            analysis.slices.iter().map(|s| (s.node, s.param)).collect();
        assert_eq!(slices, [(0, 2)]);
    });
}

#[test]
fn suggested_edges_are_checked() {
    let source = "graph G {
        a: empty; b: empty; c: empty;
        branch: if h { inner: empty; }
        a -> b -> c;
    }";
    with_model(source, |m| {
        let reach = m.reachability();
        let node = |name: &str| {
            (0..m.nodes.len())
                .find(|&i| m.nodes[i].name == name)
                .unwrap()
        };
        let (a, b, c, branch, inner) = (
            node("a"),
            node("b"),
            node("c"),
            node("branch"),
            node("inner"),
        );
        assert!(m.edge_legal(a, c, reach), "a redundant edge is legal");
        assert!(!m.edge_legal(a, b, reach), "declared already");
        assert!(!m.edge_legal(c, a, reach), "a cycle");
        assert!(!m.edge_legal(a, a, reach), "a self edge");
        assert!(!m.edge_legal(a, inner, reach), "across a body");
        assert!(m.edge_legal(c, branch, reach));
        assert_eq!(
            m.path(a, c).map(|p| m.path_text(&p)),
            Some("a -> b -> c".to_owned())
        );
        assert_eq!(m.path(c, a), None);
    });
}

/// An element index is computed with the loop variable only where the name is the loop
/// variable: an expression that binds the name again (`let`, a closure's or a match arm's
/// pattern) reads another element than the iteration's, and a node that reads `scale[0]`
/// must be updated when `scale[0]` changes (else it keeps the old value after `set_params`).
#[test]
fn an_index_under_a_rebound_loop_variable_reads_any_element() {
    let source = "graph G {
        params { k: Kernel<(f32, DevicePtrMut<f32>)>, scale: [f32; 2], y: [DeviceBuffer<f32>; 2] }
        for i in 0..2 {
            a[i]: kernel k<<<1, 1>>>({ let i = 0; scale[i] }, y[i]);
            b[i]: kernel k<<<1, 1>>>((|i: usize| scale[i])(0), y[i]);
            c[i]: kernel k<<<1, 1>>>(match 0 { i => scale[i] }, y[i]);
            d[i]: kernel k<<<1, 1>>>(scale[i] + 1.0, y[i]);
            e[i]: kernel k<<<1, 1>>>(if i > 0 || i == 0 { scale[i] } else { 0.0 }, y[i]);
            a[i] -> b[i] -> c[i] -> d[i] -> e[i];
        }
    }";
    with_model(source, |m| {
        let scale = m.slots(1);
        let slots = |name: &str| {
            let node = m.nodes.iter().find(|n| n.name == name).unwrap();
            let found = m.slot_mentions(node);
            scale
                .clone()
                .filter(|s| found.contains(s))
                .collect::<Vec<_>>()
        };
        for name in ["a[1]", "b[1]", "c[1]"] {
            assert_eq!(slots(name), [scale.start, scale.start + 1], "{name}");
        }
        // Not rebound (`||` is no closure): the iteration's element only.
        assert_eq!(slots("d[1]"), [scale.start + 1]);
        assert_eq!(slots("e[1]"), [scale.start + 1]);
    });
}

/// An index is computed from the tokens as written, so where rustc may pick another element
/// than those tokens say, the node reads every element: it must be updated whichever
/// changes (else `set_scale(k, v)` and `set_params` leave it with the old value):
/// - a macro may rewrite the tokens it is given (`next!(scale[0])` expanding to
///   `scale[0 + 1]`);
/// - an item hides a graph const in its block (`{ const K: usize = 1; scale[K] }` with the
///   graph's `K = 0`), also without writing the name (`use other::*;`);
/// - a macro may declare an item that hides the loop variable without the tokens writing
///   it (`{ zero_l!(); scale[l] }`, `zero_l!` expanding to `const l: usize = 0;`: items are
///   not hygienic in `macro_rules!`);
/// - the same in the range of a pointer argument's `slice`.
///
/// The plain forms keep their one element, also beside a pattern that writes none of the
/// index's names.
#[test]
fn elements_read_behind_a_shadowing_item_or_a_macro_are_read_by_the_node() {
    let source = "graph G {
        const K: usize = 0;
        params {
            k: Kernel<(f32, DevicePtrMut<f32>)>,
            scale: [f32; 2],
            lens: [usize; 2],
            y: DeviceBuffer<f32>,
        }
        a: kernel k<<<1, 1>>>(next!(scale[0]), y);
        b: kernel k<<<1, 1>>>({ const K: usize = 1; scale[K] }, y);
        for l in 0..2 {
            c[l]: kernel k<<<1, 1>>>({ zero_l!(); scale[l] }, y);
        }
        d: kernel k<<<1, 1>>>(0.0, y.slice(..{ const K: usize = 1; lens[K] }));
        e: kernel k<<<1, 1>>>({ use other::*; scale[K] }, y);
        plain: kernel k<<<1, 1>>>(scale[K] + { let x = 2.0; x }, y.slice(..lens[K]));
        for l in 0..2 {
            each[l]: kernel k<<<1, 1>>>(scale[l], y);
            next[l]: kernel k<<<1, 1>>>(scale[(l + 1) % 2] * (|x: f32| x)(1.0), y);
        }
        a -> b -> c[0] -> c[1] -> d -> e -> plain -> each[0] -> next[0] -> each[1] -> next[1];
    }";
    with_model(source, |m| {
        let elements = |name: &str, param: usize| {
            let node = m.nodes.iter().find(|n| n.name == name).unwrap();
            let found = m.slot_mentions(node);
            let slots = m.slots(param);
            slots
                .clone()
                .filter(|s| found.contains(s))
                .map(|s| s - slots.start)
                .collect::<Vec<_>>()
        };
        // rustc reads scale[1] in `a`, `b` (and `e`, if `other::K` is 1), scale[0] in
        // `c[1]`, lens[1] in `d`: each reads every element.
        for name in ["a", "b", "c[0]", "c[1]", "e"] {
            assert_eq!(elements(name, 1), [0, 1], "{name}");
        }
        assert_eq!(elements("d", 2), [0, 1], "d");
        assert_eq!(elements("plain", 1), [0]);
        assert_eq!(elements("plain", 2), [0]);
        assert_eq!(elements("each[1]", 1), [1]);
        assert_eq!(elements("next[0]", 1), [1]);
        assert_eq!(elements("next[1]", 1), [0]);
    });
}

/// A macro call may read any element of an array param the node names, without the tokens
/// writing it: `include!` pastes a file's tokens, and a procedural macro may give its output
/// the call site's hygiene, so either reads the eval function's locals (every param the node
/// names is one), `scale[1]` as well as `scale` whole. So beside a macro call, even an index
/// written as a literal (`scale[0]`) does not say which elements the node reads: it reads
/// every one (else `set_scale(1, v)` and `set_params` leave it with the old value).
#[test]
fn elements_a_macro_call_may_read_are_read_by_the_node() {
    let source = r#"graph G {
        params { k: Kernel<(f32, DevicePtrMut<f32>)>, scale: [f32; 2], y: DeviceBuffer<f32> }
        a: kernel k<<<1, 1>>>(scale[0] + include!("scale_1.rs"), y);
        b: kernel k<<<1, 1>>>(scale[0] + call_site!(), y);
        c: kernel k<<<1, 1>>>(scale[0], y);
        a -> b -> c;
    }"#;
    with_model(source, |m| {
        let elements = |name: &str| {
            let node = m.nodes.iter().find(|n| n.name == name).unwrap();
            let found = m.slot_mentions(node);
            let slots = m.slots(1);
            slots
                .clone()
                .filter(|s| found.contains(s))
                .map(|s| s - slots.start)
                .collect::<Vec<_>>()
        };
        assert_eq!(elements("a"), [0, 1], "a");
        assert_eq!(elements("b"), [0, 1], "b");
        assert_eq!(elements("c"), [0], "c");
    });
}

#[test]
fn mentions_skip_fields_methods_and_paths() {
    let mut seen = Vec::new();
    collect_mentions(quote::quote!(a.b + c::d + f(e..g) + h.0 + (i)), &mut |i| {
        seen.push(i.to_string())
    });
    assert_eq!(seen, ["a", "c", "f", "e", "g", "h", "i"]);
}

#[test]
fn mentions_include_inline_format_arguments() {
    assert_eq!(
        format_args_of(r#""{n} {x:?} {{y}} {0} {_z}""#),
        ["n", "x", "_z"]
    );
    assert!(format_args_of("1u32").is_empty());
    // Widths and precisions from variables, after any fill, alignment and flags; names
    // that are not ASCII.
    assert_eq!(
        format_args_of(r#""{:>w$} {0:x^0v$.p$} {:.*} {:1$} {ñ:?} {:#<_q$} {ä:é$}""#),
        ["w", "v", "p", "ñ", "_q", "ä", "é"]
    );
    assert_eq!(
        format_args_of(r##"r#"{a:b}{"#"##),
        ["a"],
        "an unclosed placeholder ends the scan"
    );
    let mut seen = Vec::new();
    collect_mentions(quote::quote!(println!("step {step}")), &mut |i| {
        seen.push(i.to_string())
    });
    assert_eq!(seen, ["println", "step"]);
    // A param read only as a width is read by the node: its setter must update it.
    with_model(
        r#"graph G { params { w: usize, p: usize, q: u32 }
            a: host(move || println!("{:>w$.p$}", 1.0)); }"#,
        |model| assert_eq!(model.mentions(model.nodes[0].decl), [0, 1]),
    );
}
