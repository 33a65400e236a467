//! A graph's indirect values (see `crate::indirect`): its block, its fetch node, and which nodes
//! may read the values.

use super::definition::Graph;
use crate::error::{Error, Result};
use crate::indirect::{
    foreign_block, foreign_key, Indirect, IndirectBlock, IndirectLayout, IndirectOptions,
    IndirectScope,
};
use crate::memory::hazard::reaches;
use crate::memory::operand::{Hold, Use};
use crate::node::NodeId;

impl<'a> Graph<'a> {
    /// The fetch node, when the uses from `uses_from` on read this graph's indirect values and
    /// `deps` does not order the node after it.
    #[inline]
    pub(super) fn missing_fetch_dep(&self, uses_from: usize, deps: &[NodeId]) -> Option<NodeId> {
        let tables = self.tables.as_ref()?;
        let scope = tables.indirect?;
        let fetch = scope.fetch?;
        let reads = tables
            .uses
            .get(uses_from..)?
            .iter()
            .any(|u| matches!(u.hold, Hold::Indirect { block } if block == scope.block));
        let ordered = || {
            deps.iter().any(|d| {
                d.family == self.family
                    && reaches(fetch as usize, d.index as usize, |n| self.deps_of(n))
            })
        };
        (reads && !ordered()).then(|| self.id_at(fetch))
    }

    /// Why a node using `uses` may not read the indirect values among them, if it may not: they
    /// are this graph's, and the node is ordered after the fetch node (`after_fetch(fetch)` says
    /// whether it is; a conditional body's nodes are, through their conditional node).
    pub(super) fn check_indirect_uses(
        &self,
        uses: &[Use<'_>],
        after_fetch: &dyn Fn(usize) -> bool,
    ) -> std::result::Result<(), String> {
        let scope = self.tables.as_ref().and_then(|t| t.indirect);
        for u in uses {
            let Hold::Indirect { block } = u.hold else {
                continue;
            };
            if let Some(why) = foreign_block(scope, block) {
                if scope.is_none() && self.is_body() {
                    return Err(
                        "a conditional body reads its graph's indirect values only when \
                                the conditional node is ordered after the fetch node: list \
                                `Graph::indirect_fetch()` in its dependencies"
                            .into(),
                    );
                }
                return Err(why.into());
            }
            if let Some(fetch) = scope.and_then(|s| s.fetch) {
                if !after_fetch(fetch as usize) {
                    return Err("it reads an indirect value but is not ordered after the \
                                graph's fetch node, which fills the values at the start of each \
                                launch: add an edge from `Graph::indirect_fetch()`"
                        .into());
                }
            }
        }
        Ok(())
    }

    /// Checks that node `index`, already in the graph, may read the indirect values among `uses`
    /// (an executable's update of its parameters): no edge can be added there, so it must already
    /// be ordered after the fetch node. A conditional body's node (numbered after the graph's
    /// own, as executables number them) is ordered as its conditional node is: its body runs
    /// only once that node has started.
    pub(crate) fn check_indirect_uses_of(&self, index: usize, uses: &[Use<'_>]) -> Result<()> {
        if !uses.iter().any(|u| matches!(u.hold, Hold::Indirect { .. })) {
            return Ok(());
        }
        let node = match index.checked_sub(self.nodes.len()) {
            None => index,
            Some(i) => self.body_nodes().get(i).map_or(index, |b| b.owner as usize),
        };
        // Whether the refusal (if any) is for the order, which a body's node owes its conditional.
        let unordered = std::cell::Cell::new(false);
        self.check_indirect_uses(uses, &|fetch| {
            let ordered = fetch != node && reaches(fetch, node, |n| self.deps_of(n));
            unordered.set(!ordered);
            ordered
        })
        .map_err(|reason| Error::Invalid {
            node: self.name_of(index),
            reason: if node == index || !unordered.get() {
                reason
            } else {
                format!(
                    "{reason} (the node is in a conditional body: its conditional node, `{}`, \
                     must follow the fetch node)",
                    self.name_of(node)
                )
            },
        })
    }

    /// Whether the graph's nodes may read indirect values: it has a block of them (see
    /// [`Graph::add_indirect`]), or it is a conditional body reading its graph's. Such a graph
    /// cannot be cloned, embedded in another or updated as a whole.
    pub fn has_indirect(&self) -> bool {
        self.tables.as_ref().is_some_and(|t| t.indirect.is_some())
    }

    /// Adds the graph's block of indirect values, sized by `options`, and its fetch node (a
    /// kernel node without dependencies, named `indirect_fetch`); returns the fetch node. Needed
    /// only for a block other than the default one, before the first
    /// [`Graph::add_indirect`], which otherwise adds it. The [`indirect`](crate::indirect)
    /// module says what the block costs.
    ///
    /// Refused in a conditional body (its kernels read the values of the graph it belongs to),
    /// and when the graph has a block already.
    pub fn add_indirect_block(&mut self, options: IndirectOptions) -> Result<NodeId> {
        let refused = |reason: &str| {
            Err(Error::Invalid {
                node: "add_indirect_block".into(),
                reason: reason.into(),
            })
        };
        if self.is_body() {
            return refused(
                "a conditional body has no indirect values of its own: add them to the graph the \
                 conditional node is in, and order the conditional node after its fetch node",
            );
        }
        if self.has_indirect() {
            return refused("the graph has its block of indirect values already");
        }
        let block = IndirectBlock::new(&self.ctx, options)?;
        let mut params = block.fetch_params(self.ctx.cu_ctx());
        // The name given for the next node is the caller's, for a node of their own.
        let pending = self.next_name.replace("indirect_fetch".into());
        let added = self.add_node(&mut params, &[], self.uses_len());
        self.next_name = pending;
        let fetch = added?;
        let mut block = block;
        block.fetch_node_added(self.nodes[fetch.index as usize].raw);
        let tables = self.tables_mut();
        tables.indirect = Some(IndirectScope {
            block: block.id(),
            fetch: Some(fetch.index),
        });
        tables.indirect_block.0 = Some(Box::new(block));
        Ok(fetch)
    }

    /// Adds an indirect value holding `initial` to the graph's block (made on first use, with
    /// [`IndirectOptions::default`]): a key that kernels take for a [`DevicePtr<T>`](crate::DevicePtr)
    /// parameter (`const T*` in CUDA C, read with `*p`), and that
    /// [`GraphExec::set_indirect`](crate::GraphExec::set_indirect) changes between launches
    /// without a driver call. Every node given the key is ordered after the graph's fetch node.
    ///
    /// `T` is a plain value (`DeviceRepr`), aligned to at most 16 bytes; the block holds the
    /// values one after the other, each aligned to its type.
    pub fn add_indirect<T: cudarc::driver::DeviceRepr + Copy + Send + 'static>(
        &mut self,
        initial: T,
    ) -> Result<Indirect<T>> {
        if !self.has_indirect() {
            self.add_indirect_block(IndirectOptions::default())?;
        }
        let fetch = self.indirect_fetch();
        // The fetch node's handle, read before the block is borrowed: the parameters below
        // borrow the block (their values are its staged copy) until the driver took them.
        let raw = fetch.map(|f| self.nodes[f.index as usize].raw);
        let ctx = self.ctx.cu_ctx();
        let Some(block) = self.block_mut() else {
            return Err(Error::Invalid {
                node: "add_indirect".into(),
                reason: "a conditional body has no indirect values of its own: add them to the \
                         graph the conditional node is in"
                    .into(),
            });
        };
        let key = block.add(initial)?;
        let params = block.fetch_params(ctx);
        let (fetch, raw) = fetch
            .zip(raw)
            .expect("a graph with a block has a fetch node");
        // SAFETY: `raw` is this graph's fetch node, a kernel node launching the fetch kernel.
        unsafe { params.set_on(raw) }.map_err(|e| e.at_node(|| self.name_of(fetch.index())))?;
        Ok(key)
    }

    /// The fetch node: the kernel node that fills the graph's indirect values at the start of
    /// each launch (see [`Graph::add_indirect`]), if the graph has any. Nodes that read a value
    /// are ordered after it for you; a conditional node whose bodies read values must list it
    /// (or a node after it) in its dependencies.
    pub fn indirect_fetch(&self) -> Option<NodeId> {
        let fetch = self.tables.as_ref()?.indirect?.fetch?;
        Some(self.id_at(fetch))
    }

    /// Sets the value the first launch of this graph's executable reads for `key`.
    pub fn set_indirect<T: Copy>(&mut self, key: &Indirect<T>, value: T) -> Result<()> {
        let block = self.own_block(key)?;
        block.set(key, value);
        Ok(())
    }

    /// The value set for `key` (what the executable's first launch will read). Once the graph
    /// is instantiated, its executable holds the values: ask it ([`GraphExec::indirect`](crate::GraphExec::indirect)).
    pub fn indirect<T: Copy>(&self, key: &Indirect<T>) -> Result<T> {
        let block = self
            .tables
            .as_ref()
            .and_then(|t| t.indirect_block.0.as_deref())
            .filter(|b| b.id() == key.block_id())
            .ok_or_else(|| foreign_key("indirect"))?;
        Ok(block.get(key))
    }

    /// The size of the graph's block of indirect values and the memory it takes, if it has one
    /// (and is not instantiated yet: then its executable has it).
    pub fn indirect_layout(&self) -> Option<IndirectLayout> {
        let block = self.tables.as_ref()?.indirect_block.0.as_deref()?;
        Some(block.layout())
    }

    fn block_mut(&mut self) -> Option<&mut IndirectBlock> {
        self.tables.as_mut()?.indirect_block.0.as_deref_mut()
    }

    fn own_block<T>(&mut self, key: &Indirect<T>) -> Result<&mut IndirectBlock> {
        self.block_mut()
            .filter(|b| b.id() == key.block_id())
            .ok_or_else(|| foreign_key("set_indirect"))
    }

    /// Moves the block of indirect values out, for the executable: `Ok(None)` when the graph has
    /// none; refused for a conditional body that reads its graph's values (it cannot run alone).
    pub(crate) fn take_indirect_block(&mut self) -> Result<Option<Box<IndirectBlock>>> {
        let Some(tables) = self.tables.as_mut() else {
            return Ok(None);
        };
        match (tables.indirect, tables.indirect_block.0.take()) {
            (None, _) => Ok(None),
            (Some(_), Some(block)) => Ok(Some(block)),
            (Some(_), None) => Err(Error::Invalid {
                node: "instantiate".into(),
                reason: "the graph's kernels read the indirect values of another graph (it is a \
                         conditional body): instantiate the graph they belong to"
                    .into(),
            }),
        }
    }

    /// The scope of indirect values that the bodies of a conditional node added after `deps` may
    /// read: this graph's, when `deps` orders the node after the fetch node.
    #[cfg(not(feature = "cuda-12020"))]
    pub(super) fn indirect_scope_for_bodies(&self, deps: &[NodeId]) -> Option<IndirectScope> {
        let scope = self.tables.as_ref()?.indirect?;
        let ordered = match scope.fetch {
            None => true,
            Some(fetch) => deps.iter().any(|d| {
                d.family == self.family
                    && reaches(fetch as usize, d.index as usize, |n| self.deps_of(n))
            }),
        };
        ordered.then_some(IndirectScope {
            block: scope.block,
            fetch: None,
        })
    }
}
