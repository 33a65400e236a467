//! WHILE loops beside other conditional nodes: refused at instantiation.
//!
//! Not a rule of CUDA's documentation but a driver fault: two conditional nodes that may run at
//! the same time, one of them a WHILE node (or holding one in a body), make NVIDIA's driver fail
//! launches at random with `CUDA_ERROR_LAUNCH_FAILED` ("unspecified launch failure"), which ends
//! the context for the whole process. Seen with driver 580.159.04 (CUDA 13.0) on H100 and H200
//! with the runtime API alone, a WHILE beside an IF, IF/ELSE, SWITCH, WHILE or an IF holding a
//! WHILE failing within a few hundred launches, the same graphs with an edge between the two
//! clean, and a WHILE beside plain kernels clean too (the GPU witness is the test program
//! `witness_concurrent_loops`). Ordering the two nodes costs little and avoids it.

use super::bodies::LoopAt;
use super::definition::Graph;
use crate::error::{Error, Result};
use crate::memory::hazard::reaches;
use crate::node::NodeKind;

impl Graph<'_> {
    /// Records that this graph's node `index` is a WHILE node (one a capture recorded).
    pub(crate) fn add_loop(&mut self, index: u32) {
        self.tables_mut().loops.push(LoopAt::Own(index));
    }

    /// Refuses a graph with two conditional nodes, in this graph or in one of its bodies, that
    /// may run at the same time while one is or holds a WHILE node (see the module's docs).
    pub(crate) fn check_concurrent_loops(&self) -> Result<()> {
        let Some(tables) = self.tables.as_ref() else {
            return Ok(());
        };
        if tables.loops.is_empty() {
            return Ok(());
        }
        let ranges = tables.bodies.ranges();
        let loops = &tables.loops;
        // Whether each body holds a WHILE node, at any depth: a body's nested bodies come after
        // it in the table, so walking it backwards settles them first.
        let mut range_holds: Vec<bool> = ranges
            .iter()
            .map(|r| (r.start..r.start + r.len).any(|p| loops.contains(&LoopAt::Body(p))))
            .collect();
        for r in (0..ranges.len()).rev() {
            if let Some(parent) = ranges[r].parent {
                range_holds[parent as usize] |= range_holds[r];
            }
        }
        // Whether node `index` of the scope `parent` (None: this graph; Some(r): body r) is or
        // holds a WHILE node.
        let holds = |parent: Option<u32>, index: u32, at: LoopAt| -> bool {
            loops.contains(&at)
                || (0..ranges.len()).any(|r| {
                    ranges[r].parent == parent && ranges[r].owner == index && range_holds[r]
                })
        };
        // This graph's own nodes.
        let own: Vec<(u32, bool)> = (0..self.nodes.len() as u32)
            .filter(|&i| self.nodes[i as usize].kind == NodeKind::Conditional)
            .map(|i| (i, holds(None, i, LoopAt::Own(i))))
            .collect();
        let deps = |n: usize| self.deps_of(n);
        refuse_unordered(&own, deps, |i| self.name_of(i as usize))?;
        // Each body's.
        let base = self.nodes.len();
        let edges = self.edges();
        for (r, range) in ranges.iter().enumerate() {
            let nodes = &tables.bodies.nodes[range.start as usize..][..range.len as usize];
            let inside: Vec<(u32, bool)> = (0..range.len)
                .filter(|&j| nodes[j as usize].record.kind == NodeKind::Conditional)
                .map(|j| (j, holds(Some(r as u32), j, LoopAt::Body(range.start + j))))
                .collect();
            let deps = |n: usize| nodes.get(n).map_or(&[][..], |b| b.record.deps.get(edges));
            let name = |j: u32| self.name_of(base + (range.start + j) as usize);
            refuse_unordered(&inside, deps, name)?;
        }
        Ok(())
    }
}

/// Refuses the first pair of `conditionals` (index in one scope, and whether it is or holds
/// a WHILE node) that no path orders while one of them loops.
fn refuse_unordered<'d>(
    conditionals: &[(u32, bool)],
    deps: impl Fn(usize) -> &'d [u32] + Copy,
    name: impl Fn(u32) -> String,
) -> Result<()> {
    for (k, &(b, b_loops)) in conditionals.iter().enumerate() {
        for &(a, a_loops) in &conditionals[..k] {
            if !(a_loops || b_loops) || reaches(a as usize, b as usize, deps) {
                continue;
            }
            let looping = if a_loops { a } else { b };
            return Err(Error::Invalid {
                node: name(b),
                reason: format!(
                    "conditional nodes `{}` and `{}` may run at the same time, and `{}` is \
                     or holds a WHILE node: NVIDIA's driver (seen with 580) then fails \
                     launches at random with CUDA_ERROR_LAUNCH_FAILED, which ends the \
                     context; make `{}` depend on `{}`",
                    name(a),
                    name(b),
                    name(looping),
                    name(b),
                    name(a)
                ),
            });
        }
    }
    Ok(())
}
