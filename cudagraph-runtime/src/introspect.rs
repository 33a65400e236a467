//! Pictures and exports of any graph: built at run time, captured, or declared with
//! `cuda_graph!` (whose graph is a [`Graph`] too).
//!
//! - [`Graph::to_svg`]: the graph drawn from the crate's own node records (names, kinds,
//!   dependencies, conditional bodies as boxes inside their node), with the layout the macro
//!   uses for the pictures in the generated docs (`cudagraph-layout`); no driver call.
//! - [`Graph::debug_dot_print`]: the driver's own view (`cuGraphDebugDotPrint`), written to a
//!   DOT file, with as much detail as [`DotFlags`] asks for.

use std::path::Path;

use cudagraph_layout::{Body, Node, Picture};
use cudarc::driver::{sys, DriverError};

use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::node::NodeKind;

/// The shape of a graph with its conditional bodies, flattened as [`Topology`](crate::Topology)
/// has it: the graph's own nodes, then its bodies' nodes in the order an executable numbers
/// them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Each node's name and kind.
    pub(crate) nodes: Vec<(String, NodeKind)>,
    /// `(dependency, dependent)` pairs, by index into `nodes`; never across a body's border.
    pub(crate) edges: Vec<(usize, usize)>,
    /// Where each node is: `None` for the graph's own, `Some((c, b))` for body `b` of the
    /// conditional node `c`.
    pub(crate) bodies: Vec<Option<(usize, u32)>>,
    /// Every body `(c, b)`, empty ones too, in order.
    pub(crate) scopes: Vec<(usize, u32)>,
}

/// One body's place in a graph's flat node list, as the graph's body table records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Range {
    /// Its first node's position among the bodies' nodes.
    pub(crate) start: usize,
    /// How many nodes it has (its own, not its nested bodies').
    pub(crate) len: usize,
    /// Its conditional node, by index in the graph (`parent: None`) or in body `parent`.
    pub(crate) owner: usize,
    /// The body holding its conditional node, by index among the ranges.
    pub(crate) parent: Option<usize>,
}

impl Shape {
    /// The flat shape of a graph of `own` nodes whose bodies are `ranges`; `node(i)` is the
    /// name, kind and dependencies of node `i` (a body's node by index in its body).
    pub(crate) fn new<'d>(
        own: usize,
        ranges: &[Range],
        node: impl Fn(usize) -> (String, NodeKind, &'d [u32]),
    ) -> Shape {
        let body_nodes: usize = ranges.iter().map(|r| r.len).sum();
        let mut shape = Shape {
            nodes: Vec::with_capacity(own + body_nodes),
            edges: Vec::new(),
            bodies: vec![None; own],
            scopes: Vec::with_capacity(ranges.len()),
        };
        // The flat index of each body's conditional node, and the body's number among its
        // node's bodies.
        let owner_of = |r: &Range| match r.parent {
            None => r.owner,
            Some(p) => own + ranges[p].start + r.owner,
        };
        let mut scope = Vec::with_capacity(body_nodes);
        for (i, r) in ranges.iter().enumerate() {
            let owner = owner_of(r);
            let number = ranges[..i].iter().filter(|o| owner_of(o) == owner).count() as u32;
            shape.scopes.push((owner, number));
            scope.extend(std::iter::repeat_n((r.start, owner, number), r.len));
        }
        for i in 0..own + scope.len() {
            let (name, kind, deps) = node(i);
            shape.nodes.push((name, kind));
            // A body's dependencies are indices in the body: its first node is `own + start`.
            let base = match scope.get(i.wrapping_sub(own)) {
                Some(&(start, owner, number)) if i >= own => {
                    shape.bodies.push(Some((owner, number)));
                    own + start
                }
                _ => 0,
            };
            shape
                .edges
                .extend(deps.iter().map(|&d| (base + d as usize, i)));
        }
        shape
    }

    /// The picture of the nodes of one scope (the graph's own, or one body), each conditional
    /// node holding its bodies' pictures.
    fn picture(&self, scope: Option<(usize, u32)>) -> Picture {
        let members: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.bodies[i] == scope)
            .collect();
        let position = |i: usize| members.iter().position(|&m| m == i);
        let nodes = members
            .iter()
            .map(|&i| {
                let (name, kind) = &self.nodes[i];
                let bodies = self
                    .scopes
                    .iter()
                    .filter(|&&(c, _)| c == i)
                    .map(|&(_, b)| Body {
                        label: format!("body {b}"),
                        picture: self.picture(Some((i, b))),
                    })
                    .collect();
                Node {
                    label: name.clone(),
                    kind: kind.name().to_owned(),
                    bodies,
                }
            })
            .collect();
        let edges = self
            .edges
            .iter()
            .filter_map(|&(a, b)| Some((position(a)?, position(b)?)))
            .collect();
        Picture { nodes, edges }
    }

    /// The picture of the whole graph.
    pub(crate) fn to_picture(&self) -> Picture {
        self.picture(None)
    }
}

impl Graph<'_> {
    /// The graph's shape, conditional bodies included, from the crate's node records.
    pub(crate) fn shape(&self) -> Shape {
        let ranges: Vec<Range> = self
            .body_ranges()
            .iter()
            .map(|r| Range {
                start: r.start as usize,
                len: r.len as usize,
                owner: r.owner as usize,
                parent: r.parent.map(|p| p as usize),
            })
            .collect();
        Shape::new(self.len(), &ranges, |i| {
            let kind = self.record(i).map_or(NodeKind::Other, |r| r.kind);
            (self.name_of(i), kind, self.local_deps_of(i))
        })
    }

    /// The graph drawn as one line of SVG, titled "Graph topology": the picture the macro puts
    /// in a declared graph's docs, here for any graph, built at run time or captured.
    ///
    /// Each node is a box with its name (the one given, or `kind#index`) over its kind, coloured
    /// by kind; edges point from a dependency to its dependents; a conditional node is a larger
    /// box holding its bodies side by side (`body 0`, `body 1`, ...), nested to any depth. Drawn
    /// from what the crate recorded while the graph was built (no driver call): a captured
    /// graph's nodes have the kinds the driver reported and the names `kind#index`. A graph
    /// embedded as a child-graph node is one box (`child_graph`).
    ///
    /// Write it to a `.svg` file, or inline it into HTML (it is one line). For the driver's own
    /// view, with parameters, see [`Graph::debug_dot_print`]; as text, [`Graph::to_dot`].
    pub fn to_svg(&self) -> String {
        cudagraph_layout::render_svg(&self.shape().to_picture())
    }

    /// Writes the driver's view of the graph to `path` as Graphviz DOT (`cuGraphDebugDotPrint`),
    /// with the details `flags` asks for ([`DotFlags::VERBOSE`] for all of them).
    ///
    /// Unlike [`Graph::to_dot`], this is what the driver holds: its node handles, and with the
    /// flags, kernel parameters, copy extents, conditional handles and so on. Refused with
    /// [`Error::Invalid`] for a path with a NUL byte, with [`Error::DriverTooOld`] for
    /// [`DotFlags::CONDITIONAL_NODE_PARAMS`] before CUDA 12.3, and with [`Error::Driver`] when
    /// the driver fails (a path it cannot write, say).
    pub fn debug_dot_print(&self, path: impl AsRef<Path>, flags: DotFlags) -> Result<()> {
        crate::ambient::refuse_in_host_node("Graph::debug_dot_print")?;
        if flags.contains(DotFlags::CONDITIONAL_NODE_PARAMS) {
            crate::version::DOT_CONDITIONAL_PARAMS.require()?;
        }
        self.check_not_broken()?;
        let path = c_path(path.as_ref())?;
        self.context()
            .bind_to_thread()
            .map_err(|source| Error::Driver {
                call: "cuCtxSetCurrent",
                source,
            })?;
        // SAFETY: a live graph, and a NUL-terminated path that outlives the call.
        match unsafe { sys::cuGraphDebugDotPrint(self.raw(), path.as_ptr(), flags.bits()) } {
            sys::CUresult::CUDA_SUCCESS => Ok(()),
            code => Err(Error::Driver {
                call: "cuGraphDebugDotPrint",
                source: DriverError(code),
            }),
        }
    }
}

/// `path` as the C string the driver takes.
fn c_path(path: &Path) -> Result<std::ffi::CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = match path.to_str() {
        Some(s) => s.as_bytes().to_vec(),
        None => {
            return Err(Error::Invalid {
                node: "Graph::debug_dot_print".into(),
                reason: format!("the path {} is not valid Unicode", path.display()),
            })
        }
    };
    std::ffi::CString::new(bytes).map_err(|_| Error::Invalid {
        node: "Graph::debug_dot_print".into(),
        reason: format!("the path {} holds a NUL byte", path.display()),
    })
}

/// What [`Graph::debug_dot_print`] writes beyond the topology (`CUgraphDebugDot_flags`).
/// Combine with `|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DotFlags(u32);

impl DotFlags {
    /// The topology only: nodes, their types and the edges.
    pub const NONE: Self = Self(0);
    /// Every detail below (`CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE`).
    pub const VERBOSE: Self = Self(1);
    /// Runtime API types rather than driver API ones.
    pub const RUNTIME_TYPES: Self = Self(1 << 1);
    /// Kernel nodes' launch parameters.
    pub const KERNEL_NODE_PARAMS: Self = Self(1 << 2);
    /// Memcpy nodes' parameters.
    pub const MEMCPY_NODE_PARAMS: Self = Self(1 << 3);
    /// Memset nodes' parameters.
    pub const MEMSET_NODE_PARAMS: Self = Self(1 << 4);
    /// Host nodes' parameters.
    pub const HOST_NODE_PARAMS: Self = Self(1 << 5);
    /// Event record and wait nodes' events.
    pub const EVENT_NODE_PARAMS: Self = Self(1 << 6);
    /// External semaphore signal nodes' parameters.
    pub const EXT_SEMAS_SIGNAL_NODE_PARAMS: Self = Self(1 << 7);
    /// External semaphore wait nodes' parameters.
    pub const EXT_SEMAS_WAIT_NODE_PARAMS: Self = Self(1 << 8);
    /// Kernel nodes' attributes.
    pub const KERNEL_NODE_ATTRIBUTES: Self = Self(1 << 9);
    /// Node handles, and the handles of the objects they use.
    pub const HANDLES: Self = Self(1 << 10);
    /// Alloc nodes' parameters.
    pub const MEM_ALLOC_NODE_PARAMS: Self = Self(1 << 11);
    /// Free nodes' parameters.
    pub const MEM_FREE_NODE_PARAMS: Self = Self(1 << 12);
    /// Batch memory operation nodes' parameters.
    pub const BATCH_MEM_OP_NODE_PARAMS: Self = Self(1 << 13);
    /// Edge ids and node ids of the topology.
    pub const EXTRA_TOPO_INFO: Self = Self(1 << 14);
    /// Conditional nodes' parameters (CUDA 12.3 or newer).
    pub const CONDITIONAL_NODE_PARAMS: Self = Self(1 << 15);

    /// The raw bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for DotFlags {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for DotFlags {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cudarc::driver::sys::CUgraphDebugDot_flags as F;

    #[test]
    fn flags_are_the_drivers() {
        let pairs = [
            (DotFlags::VERBOSE, F::CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE),
            (
                DotFlags::RUNTIME_TYPES,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
            ),
            (
                DotFlags::KERNEL_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_PARAMS,
            ),
            (
                DotFlags::MEMCPY_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_MEMCPY_NODE_PARAMS,
            ),
            (
                DotFlags::MEMSET_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_MEMSET_NODE_PARAMS,
            ),
            (
                DotFlags::HOST_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_HOST_NODE_PARAMS,
            ),
            (
                DotFlags::EVENT_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_EVENT_NODE_PARAMS,
            ),
            (
                DotFlags::EXT_SEMAS_SIGNAL_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_SIGNAL_NODE_PARAMS,
            ),
            (
                DotFlags::EXT_SEMAS_WAIT_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_WAIT_NODE_PARAMS,
            ),
            (
                DotFlags::KERNEL_NODE_ATTRIBUTES,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_KERNEL_NODE_ATTRIBUTES,
            ),
            (DotFlags::HANDLES, F::CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES),
            (
                DotFlags::MEM_ALLOC_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_MEM_ALLOC_NODE_PARAMS,
            ),
            (
                DotFlags::MEM_FREE_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_MEM_FREE_NODE_PARAMS,
            ),
            (
                DotFlags::BATCH_MEM_OP_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_BATCH_MEM_OP_NODE_PARAMS,
            ),
            (
                DotFlags::EXTRA_TOPO_INFO,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_EXTRA_TOPO_INFO,
            ),
            #[cfg(not(feature = "cuda-12020"))]
            (
                DotFlags::CONDITIONAL_NODE_PARAMS,
                F::CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS,
            ),
        ];
        for (ours, theirs) in pairs {
            assert_eq!(ours.bits(), theirs as u32, "{theirs:?}");
        }
        let both = DotFlags::HANDLES | DotFlags::KERNEL_NODE_PARAMS;
        assert!(both.contains(DotFlags::HANDLES) && !both.contains(DotFlags::VERBOSE));
        assert!(both.contains(DotFlags::NONE));
    }

    #[test]
    fn a_path_with_a_nul_byte_is_refused() {
        let err = c_path(Path::new("a\0b.dot")).unwrap_err();
        assert!(matches!(err, Error::Invalid { .. }), "{err:?}");
        assert_eq!(
            c_path(Path::new("/tmp/g.dot")).unwrap().as_bytes(),
            b"/tmp/g.dot"
        );
    }

    /// `zero -> solve -> back`, `solve` a WHILE whose body `step -> check` holds an IF/ELSE
    /// `branch` (bodies `[fix]` and `[]`), as the body table records them: the outer body's
    /// range, then its nested bodies'.
    fn nested() -> Shape {
        let own = [
            ("zero", NodeKind::Memset, &[][..]),
            ("solve", NodeKind::Conditional, &[0][..]),
            ("back", NodeKind::Memcpy, &[1][..]),
        ];
        // Body nodes: `step`, `check`, `branch` (the WHILE's body), then `fix` (IF's then).
        let body = [
            ("step", NodeKind::Kernel, &[][..]),
            ("check", NodeKind::Kernel, &[0][..]),
            ("branch", NodeKind::Conditional, &[1][..]),
            ("fix", NodeKind::Kernel, &[][..]),
        ];
        let ranges = [
            Range {
                start: 0,
                len: 3,
                owner: 1,
                parent: None,
            },
            Range {
                start: 3,
                len: 1,
                owner: 2,
                parent: Some(0),
            },
            Range {
                start: 4,
                len: 0,
                owner: 2,
                parent: Some(0),
            },
        ];
        Shape::new(3, &ranges, |i| {
            let (name, kind, deps) = if i < 3 { own[i] } else { body[i - 3] };
            (name.to_owned(), kind, deps)
        })
    }

    #[test]
    fn bodies_are_flattened_as_topology_has_them() {
        let shape = nested();
        let names: Vec<&str> = shape.nodes.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["zero", "solve", "back", "step", "check", "branch", "fix"]
        );
        // Body dependencies are rebased onto the flat numbering.
        assert_eq!(shape.edges, [(0, 1), (1, 2), (3, 4), (4, 5)]);
        assert_eq!(
            shape.bodies,
            [
                None,
                None,
                None,
                Some((1, 0)),
                Some((1, 0)),
                Some((1, 0)),
                Some((5, 0)),
            ]
        );
        assert_eq!(shape.scopes, [(1, 0), (5, 0), (5, 1)]);
    }

    #[test]
    fn the_picture_nests_bodies_inside_their_nodes() {
        let picture = nested().to_picture();
        let labels: Vec<&str> = picture.nodes.iter().map(|n| n.label.as_str()).collect();
        assert_eq!(labels, ["zero", "solve", "back"]);
        assert_eq!(picture.edges, [(0, 1), (1, 2)]);
        let solve = &picture.nodes[1];
        assert_eq!(solve.kind, "conditional");
        assert_eq!(solve.bodies.len(), 1);
        assert_eq!(solve.bodies[0].label, "body 0");
        let inner = &solve.bodies[0].picture;
        assert_eq!(inner.edges, [(0, 1), (1, 2)]);
        // The IF/ELSE's else body is empty, and drawn all the same.
        let branch = &inner.nodes[2];
        assert_eq!(branch.bodies.len(), 2);
        assert_eq!(branch.bodies[0].picture.nodes[0].label, "fix");
        assert!(branch.bodies[1].picture.nodes.is_empty());
        assert_eq!(branch.bodies[1].label, "body 1");
        let svg = cudagraph_layout::render_svg(&picture);
        assert!(svg.contains("Graph topology: 7 nodes, 4 edges"), "{svg}");
        assert!(svg.contains(">fix</text>"), "{svg}");
    }

    #[test]
    fn a_graph_without_bodies_is_drawn_flat() {
        let shape = Shape::new(2, &[], |i| {
            let deps: &[u32] = if i == 1 { &[0] } else { &[] };
            (format!("n{i}"), NodeKind::Kernel, deps)
        });
        assert_eq!(shape.edges, [(0, 1)]);
        assert_eq!(shape.bodies, [None, None]);
        assert!(shape.scopes.is_empty());
        let svg = cudagraph_layout::render_svg(&shape.to_picture());
        assert!(svg.contains("2 nodes, 1 edge"), "{svg}");
    }
}
