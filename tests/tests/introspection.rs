//! Pictures and introspection of any graph on a GPU: `Graph::to_svg` of a graph built at run time
//! (conditional bodies drawn inside their node) and of a captured one, the driver's own DOT
//! export (`Graph::debug_dot_print`) read back from its file, and `driver_version` against the
//! kernel module's driver series (580 is CUDA 13.0, the GPU machine's).

use std::path::PathBuf;
use std::sync::Arc;

use cudagraph_runtime::prelude::*;
use cudagraph_runtime::{
    binding_version, driver_version, Condition, DotFlags, Error, Mut, SET_CONDITIONAL_DECLARATION,
};
use cudagraph_tests::{cfg, compile, function, gpu};

const SOURCE: &str = r#"
extern "C" __global__ void scale(unsigned n, float a, float* y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * y[i];
}
extern "C" __global__ void set_if_positive(cudaGraphConditionalHandle h, const float* x) {
    cudaGraphSetConditional(h, x[0] > 0.0f ? 1u : 0u);
}
"#;

type Scale = Kernel<(u32, f32, DevicePtrMut<f32>)>;
type SetIf = Kernel<(ConditionalHandle, DevicePtr<f32>)>;

fn kernels(ctx: &Arc<cudagraph_runtime::cudarc::driver::CudaContext>) -> (Scale, SetIf) {
    let src = format!(
        "typedef unsigned long long cudaGraphConditionalHandle;\n{SET_CONDITIONAL_DECLARATION}{SOURCE}"
    );
    let module = compile(ctx, &src);
    // SAFETY: `scale` takes (unsigned, float, float*), reads and writes y[i] for i < n only,
    // and launches nothing; the check keeps n within y.
    let scale =
        unsafe { Scale::new(function(&module, "scale")) }.requires(|_, (n, _, y)| n as usize <= y);
    // SAFETY: `set_if_positive` takes (cudaGraphConditionalHandle, const float*), reads x[0]
    // only, sets only its handle, and launches nothing; the check keeps x non-empty.
    let set_if =
        unsafe { SetIf::new(function(&module, "set_if_positive")) }.requires(|_, (_, x)| x >= 1);
    (scale, set_if)
}

/// A path in the temporary folder for this test's file.
fn temp_path(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cudagraph-{}-{test}.dot", std::process::id()))
}

/// `svg` is one line of SVG with `title` (the node and edge counts) as its accessible name.
fn assert_one_svg(svg: &str, title: &str) {
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.ends_with("</svg>"), "{svg}");
    assert!(!svg.contains('\n'), "one line: {svg}");
    assert!(svg.contains(&format!("<title>{title}</title>")), "{svg}");
}

#[test]
fn to_svg_draws_a_runtime_graph_with_its_conditional_bodies() {
    let Some(gpu) = gpu("to_svg_draws_a_runtime_graph_with_its_conditional_bodies") else {
        return;
    };
    let (scale, set_if) = kernels(&gpu.ctx);
    let n = 256;
    let x = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let y = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();

    // reset -> decide -> branch(then: grow, else: clear) -> finish
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let reset = g
        .name_next("reset")
        .add_memset(Memset::new(&y, 1.0f32), &[])
        .unwrap();
    let handle = g.conditional_handle(Some(0)).unwrap();
    let decide = g
        .name_next("decide")
        .add_kernel(&set_if, cfg(1), (handle, &x), &[reset.id()])
        .unwrap();
    let branch = g
        .name_next("branch")
        .add_conditional(handle, Condition::IfElse, &[decide.id()], |b| {
            b[0].name_next("grow")
                .add_kernel(&scale, cfg(n), (n as u32, 2.0f32, &y), &[])?;
            b[1].name_next("clear")
                .add_memset(Memset::new(&y, 0.0f32), &[])?;
            Ok(())
        })
        .unwrap();
    g.name_next("finish")
        .add_kernel(&scale, cfg(n), (n as u32, 3.0f32, &y), &[branch.id()])
        .unwrap();

    let svg = g.to_svg();
    assert_one_svg(&svg, "Graph topology: 6 nodes, 3 edges");
    for name in ["reset", "decide", "grow", "clear", "finish"] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}: {svg}");
    }
    // The conditional node is a box holding its two bodies (dashed), its header naming it.
    assert!(
        svg.contains("<tspan font-weight=\"bold\">branch</tspan>: conditional"),
        "{svg}"
    );
    assert_eq!(svg.matches("stroke-dasharray").count(), 2, "{svg}");
    assert!(
        svg.contains(">body 0</text>") && svg.contains(">body 1</text>"),
        "{svg}"
    );
    // The same picture every time, and the graph still builds into an executable.
    assert_eq!(svg, g.to_svg());
    let _exec = g.instantiate().unwrap();
}

#[test]
fn to_svg_draws_a_captured_graph() {
    let Some(gpu) = gpu("to_svg_draws_a_captured_graph") else {
        return;
    };
    let (scale, set_if) = kernels(&gpu.ctx);
    let n = 256;
    let x = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let graph = Graph::capture(&gpu.stream, Mut(&x), move |s, x| {
        s.launch(&scale, cfg(n), (n as u32, 3.0f32, &x))?;
        let h = s.conditional_handle(Some(0))?;
        s.launch(&set_if, cfg(1), (h, &x))?;
        s.add_conditional(h, Condition::If, |bodies| {
            bodies[0]
                .add_kernel(&scale, cfg(n), (n as u32, 10.0f32, &x), &[])
                .map(drop)
        })?;
        Ok::<(), Error>(())
    })
    .unwrap();
    let own = graph.len();
    assert_eq!(own, 3, "{:?}", graph.nodes().collect::<Vec<_>>());

    let svg = graph.to_svg();
    // The graph's three nodes in a chain, and the body's kernel inside the conditional node.
    assert_one_svg(&svg, "Graph topology: 4 nodes, 2 edges");
    assert_eq!(
        svg.matches("stroke-dasharray").count(),
        1,
        "one body: {svg}"
    );
    assert!(svg.contains(">body 0</text>"), "{svg}");
    // A capture's nodes are named by kind and index: three plain boxes and the conditional's.
    assert_eq!(svg.matches("<text x=").count(), 2 * 3 + 2, "{svg}");
    let _exec = graph.instantiate().unwrap();
}

#[test]
fn debug_dot_print_writes_the_drivers_dot_file() {
    let Some(gpu) = gpu("debug_dot_print_writes_the_drivers_dot_file") else {
        return;
    };
    let (scale, set_if) = kernels(&gpu.ctx);
    let n = 256;
    let x = DeviceBuffer::<f32>::zeros(&gpu.stream, n).unwrap();
    let mut g = Graph::new(&gpu.ctx).unwrap();
    let zero = g.add_memset(Memset::new(&x, 1.0f32), &[]).unwrap();
    let handle = g.conditional_handle(Some(0)).unwrap();
    let decide = g
        .add_kernel(&set_if, cfg(1), (handle, &x), &[zero.id()])
        .unwrap();
    // while x[0] > 0: x *= 0.5 (never ends on its own; only drawn and exported here)
    g.add_conditional(handle, Condition::While, &[decide.id()], |b| {
        let half = b[0].add_kernel(&scale, cfg(n), (n as u32, 0.5f32, &x), &[])?;
        b[0].add_kernel(&set_if, cfg(1), (handle, &x), &[half.id()])?;
        Ok(())
    })
    .unwrap();

    let terse = temp_path("terse");
    let verbose = temp_path("verbose");
    g.debug_dot_print(&terse, DotFlags::NONE).unwrap();
    g.debug_dot_print(
        &verbose,
        DotFlags::VERBOSE | DotFlags::CONDITIONAL_NODE_PARAMS | DotFlags::HANDLES,
    )
    .unwrap();
    let read = |path: &PathBuf| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        std::fs::remove_file(path).unwrap();
        text
    };
    let (terse, verbose) = (read(&terse), read(&verbose));
    for dot in [&terse, &verbose] {
        assert!(dot.trim_start().starts_with("digraph"), "{dot}");
        assert!(dot.contains("->"), "the edges: {dot}");
    }
    assert!(
        verbose.len() > terse.len(),
        "the flags add details:\n{terse}\n---\n{verbose}"
    );
    // The kernels' functions are named with the kernel parameters.
    assert!(verbose.contains("set_if_positive"), "{verbose}");
    let _exec = g.instantiate().unwrap();
}

#[test]
fn debug_dot_print_to_an_unwritable_path_is_a_driver_error() {
    let Some(gpu) = gpu("debug_dot_print_to_an_unwritable_path_is_a_driver_error") else {
        return;
    };
    let mut g = Graph::new(&gpu.ctx).unwrap();
    g.add_empty(&[]).unwrap();
    let missing = std::env::temp_dir()
        .join(format!("cudagraph-no-such-folder-{}", std::process::id()))
        .join("g.dot");
    let err = g.debug_dot_print(&missing, DotFlags::NONE).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Driver {
                call: "cuGraphDebugDotPrint",
                ..
            }
        ),
        "{err:?}"
    );
    let err = g.debug_dot_print("a\0b.dot", DotFlags::NONE).unwrap_err();
    assert!(matches!(err, Error::Invalid { .. }), "{err:?}");
}

/// The CUDA version of each Linux driver series (the first number of the kernel module's
/// version): what `cuDriverGetVersion` reports with it.
const SERIES: &[(u32, (u32, u32))] = &[
    (535, (12, 2)),
    (545, (12, 3)),
    (550, (12, 4)),
    (555, (12, 5)),
    (560, (12, 6)),
    (565, (12, 7)),
    (570, (12, 8)),
    (575, (12, 9)),
    (580, (13, 0)),
];

/// The driver series of the loaded kernel module (`/proc/driver/nvidia/version`), if readable.
fn driver_series() -> Option<u32> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 ..."
    text.split_whitespace()
        .find(|w| w.contains('.') && w.chars().next().is_some_and(|c| c.is_ascii_digit()))?
        .split('.')
        .next()?
        .parse()
        .ok()
}

#[test]
fn driver_version_is_the_machines() {
    let Some(_gpu) = gpu("driver_version_is_the_machines") else {
        return;
    };
    let version = driver_version().unwrap();
    assert_eq!(version, driver_version().unwrap(), "kept");
    let series = driver_series();
    eprintln!(
        "driver_version: CUDA {}.{}, driver series {series:?}, binding CUDA {}.{}",
        version.0,
        version.1,
        binding_version().0,
        binding_version().1
    );
    // This crate's calls with its default binding need CUDA 12.3 at least, and every test
    // that got here built graphs.
    assert!(version >= (12, 3), "{version:?}");
    match series.and_then(|s| SERIES.iter().find(|(k, _)| *k == s)) {
        Some(&(s, cuda)) => assert_eq!(version, cuda, "driver series {s}"),
        None => eprintln!("driver series {series:?} not in the table: only the minimum checked"),
    }
    // The GPU machine's driver (580) is CUDA 13.0.
    if series == Some(580) {
        assert_eq!(version, (13, 0));
    }
}
