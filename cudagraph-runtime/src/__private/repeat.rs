//! What the code of a declaration with `for` loops calls: a loop's nodes are added by one
//! function for all their iterations, which finds each instance's dependencies in a table, and
//! the executable hands out a repeated node's handles by index.

use crate::error::{Error, Result};
use crate::node::NodeId;

/// The dependencies of the node about to be added, at position `ids.len()`: the ids of the
/// nodes at the positions `list[start[p]..start[p + 1]]` lists (`ids`: the nodes added so far,
/// by position).
pub fn deps_at(ids: &[NodeId], list: &[u32], start: &[u32]) -> Vec<NodeId> {
    let p = ids.len();
    list[start[p] as usize..start[p + 1] as usize]
        .iter()
        .map(|&d| ids[d as usize])
        .collect()
}

/// `Ok` if a node declared in a loop, `node`, has an instance of index `index` (it has `count`).
pub fn instance(node: &str, index: usize, count: usize) -> Result<()> {
    if index < count {
        return Ok(());
    }
    Err(Error::Invalid {
        node: format!("{node}[{index}]"),
        reason: format!(
            "node `{node}` is declared in a `for` loop of {count} iteration{}: its instances are \
             `{node}[0]` to `{node}[{}]`",
            if count == 1 { "" } else { "s" },
            count.saturating_sub(1)
        ),
    })
}

/// `Ok` if the instance of index `index` of a repeated alloc node, `node`, is one whose
/// allocation a launch leaves (`left[i]`: whether instance `i`'s is: the graph frees the others).
pub fn instance_left(node: &str, index: usize, left: &[bool]) -> Result<()> {
    instance(node, index, left.len())?;
    if left[index] {
        return Ok(());
    }
    Err(Error::Invalid {
        node: format!("{node}[{index}]"),
        reason: format!(
            "the graph frees allocation `{node}[{index}]` before the launch ends: only the \
             allocations a launch leaves can be read after it"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_come_from_the_table_by_position() {
        let ids: Vec<NodeId> = (0..3).map(|index| NodeId { family: 7, index }).collect();
        // Node 3 depends on nodes 0 and 2; node 4 (not added yet here) on node 3.
        let (list, start) = ([0, 2, 3], [0, 0, 0, 0, 2, 3]);
        assert_eq!(deps_at(&ids, &list, &start), [ids[0], ids[2]]);
        assert!(deps_at(&ids[..1], &list, &start).is_empty());
    }

    #[test]
    fn indices_beyond_the_loop_are_refused_with_the_instances() {
        assert!(instance("attn", 31, 32).is_ok());
        let error = instance("attn", 32, 32).unwrap_err().to_string();
        assert!(error.contains("`attn[0]` to `attn[31]`"), "{error}");
        assert!(instance_left("t", 1, &[false, true]).is_ok());
        let error = instance_left("t", 0, &[false, true])
            .unwrap_err()
            .to_string();
        assert!(error.contains("frees allocation `t[0]`"), "{error}");
        assert!(instance_left("t", 2, &[false, true]).is_err());
    }
}
