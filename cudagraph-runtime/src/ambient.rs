//! What the calling thread is doing now, as far as CUDA's rules care: running a host node's
//! closure, or a capture closure of this crate. Many layers ask (buffers, graphs, executables,
//! releases), so the state lives here, at the bottom, and nothing here depends on them.
//!
//! - In a host node CUDA forbids every driver call ([host functions]): this crate's calls refuse
//!   there ([`Error::InHostNode`](crate::Error::InHostNode)), and releases that would call the
//!   driver (destroying a graph, an executable or an event, freeing memory, unloading a module)
//!   go to the release thread (`crate::reaper`).
//! - In a capture closure a call that waits on the host breaks the capture: such calls refuse
//!   ([`refuse_waiting`]), and releases go to the release thread as well.
//!
//! [host functions]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__STREAM.html

use std::cell::Cell;

use crate::error::{Error, Result};

thread_local! {
    /// What the thread is doing, in one word so that the hot paths (a launch, a release) ask with
    /// one read: [`HOST_NODE`] while it runs a host node's closure, and below it how many capture
    /// closures of this crate it is running (a closure may capture another stream in turn).
    static AMBIENT: Cell<u32> = const { Cell::new(0) };
}

/// The bit of [`AMBIENT`] set while the thread runs a host node's closure.
const HOST_NODE: u32 = 1 << 31;

/// The bit of [`AMBIENT`] set while the thread runs a capture closure eagerly, as a warm-up
/// (`Replay`): inside a launch gate of the memory given to it (see [`in_warm_up`]).
const WARM_UP: u32 = 1 << 30;

/// The bits of [`AMBIENT`] that count the capture closures the thread runs.
const CAPTURES: u32 = !(HOST_NODE | WARM_UP);

/// The thread's state: 0 when it runs neither a host node nor a capture closure.
#[inline]
fn ambient() -> u32 {
    AMBIENT.with(Cell::get)
}

/// Whether this thread is running a capture closure of this crate.
#[inline]
pub(crate) fn in_capture() -> bool {
    ambient() & CAPTURES != 0
}

/// Whether this thread is running a capture closure eagerly, as a warm-up. The warm-up holds
/// the memory given to it as a launch holds its memory: its launch gate is entered until the
/// closure returns, so a host access to that memory from this thread would wait for itself.
#[inline]
pub(crate) fn in_warm_up() -> bool {
    ambient() & WARM_UP != 0
}

/// Whether this thread is running a host node's closure now.
#[inline]
pub(crate) fn in_host_node() -> bool {
    ambient() & HOST_NODE != 0
}

/// Whether a release that calls the driver must be left to the release thread here: inside a
/// host node or a capture closure (one read).
#[inline]
pub(crate) fn must_defer_releases() -> bool {
    ambient() != 0
}

/// Refuses `call`, which calls the driver, inside a host node ([`Error::InHostNode`]).
#[inline]
pub(crate) fn refuse_in_host_node(call: &'static str) -> Result<()> {
    if in_host_node() {
        return Err(in_host_node_error(call));
    }
    Ok(())
}

#[cold]
fn in_host_node_error(call: &'static str) -> Error {
    Error::InHostNode { what: call }
}

/// Refuses `call`, which waits on the host for the GPU or may synchronize the device, inside a
/// host node ([`Error::InHostNode`]: no driver call there) or a capture closure
/// ([`Error::Capturing`]); one read when neither.
#[inline]
pub(crate) fn refuse_waiting(call: &'static str) -> Result<()> {
    if must_defer_releases() {
        refuse_in_host_node(call)?;
        return Err(waiting_in_capture(call));
    }
    Ok(())
}

#[cold]
fn waiting_in_capture(call: &str) -> Error {
    Error::Capturing {
        what: format!(
            "{call} inside a capture closure: it waits on the host for the GPU (or may \
             synchronize the device), which CUDA forbids on the capturing thread, and it could \
             not see the captured work, which runs only when the graph is launched; do it before \
             or after the capture"
        ),
    }
}

/// Marks the thread as running a capture closure while alive.
pub(crate) struct InCapture(());

impl InCapture {
    pub(crate) fn enter() -> Self {
        AMBIENT.with(|n| n.set(n.get() + 1));
        InCapture(())
    }
}

impl Drop for InCapture {
    fn drop(&mut self) {
        // The count, below the host-node and warm-up bits (a capture cannot begin in a host
        // node: refused).
        AMBIENT.with(|n| n.set(n.get() - (n.get() & CAPTURES).min(1)));
    }
}

/// Marks the thread as running a warm-up while alive (restoring what it was before).
pub(crate) struct InWarmUp(bool);

impl InWarmUp {
    pub(crate) fn enter() -> Self {
        InWarmUp(AMBIENT.with(|n| {
            let before = n.get() & WARM_UP != 0;
            n.set(n.get() | WARM_UP);
            before
        }))
    }
}

impl Drop for InWarmUp {
    fn drop(&mut self) {
        if !self.0 {
            AMBIENT.with(|n| n.set(n.get() & !WARM_UP));
        }
    }
}

/// Marks the thread as running a host node while alive.
pub(crate) struct InHostNode(());

impl InHostNode {
    pub(crate) fn enter() -> Self {
        AMBIENT.with(|n| n.set(n.get() | HOST_NODE));
        InHostNode(())
    }
}

impl Drop for InHostNode {
    fn drop(&mut self) {
        AMBIENT.with(|n| n.set(n.get() & !HOST_NODE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capture_flag_counts_nested_closures_per_thread() {
        assert!(!in_capture() && !must_defer_releases());
        {
            let _outer = InCapture::enter();
            {
                let _inner = InCapture::enter();
                assert!(in_capture());
            }
            assert!(in_capture() && must_defer_releases());
            // Another thread is not inside this thread's capture.
            assert!(!std::thread::spawn(in_capture).join().unwrap());
        }
        assert!(!in_capture());
    }

    #[test]
    fn a_warm_up_is_a_capture_closure_and_says_so() {
        assert!(!in_warm_up());
        {
            let _capture = InCapture::enter();
            let _warm = InWarmUp::enter();
            assert!(in_warm_up() && in_capture());
            {
                let _nested = InWarmUp::enter();
            }
            assert!(in_warm_up(), "a nested marker leaves the outer one");
        }
        assert!(!in_warm_up() && !in_capture() && !must_defer_releases());
    }

    #[test]
    fn waiting_is_refused_inside_a_capture_closure() {
        assert!(refuse_waiting("HostBuffer::read").is_ok());
        let _inside = InCapture::enter();
        match refuse_waiting("HostBuffer::read") {
            Err(Error::Capturing { what }) => {
                assert!(what.starts_with("HostBuffer::read inside a capture closure"))
            }
            other => panic!("expected Error::Capturing, got {other:?}"),
        }
    }

    #[test]
    fn the_host_node_flag_is_set_while_the_marker_lives() {
        assert!(!in_host_node());
        {
            let _inside = InHostNode::enter();
            assert!(in_host_node() && must_defer_releases());
        }
        assert!(!in_host_node() && !must_defer_releases());
    }

    /// Inside a host node every call of this crate that reaches the driver refuses, with
    /// `Error::InHostNode`, before any driver call (CUDA forbids them there). Needs a driver to
    /// make the objects first (the null driver will do); skipped without one.
    #[test]
    fn a_host_node_gets_in_host_node_from_every_driver_call() {
        use crate::node::Memset;
        use crate::{open_device, DeviceBuffer, Event, Graph, HostBuffer, UserObject};
        let Ok(ctx) = open_device(0) else {
            eprintln!("skipped a_host_node_gets_in_host_node_from_every_driver_call: no driver");
            return;
        };
        let stream = ctx.new_stream().unwrap();
        let buf = DeviceBuffer::<u32>::zeros(&stream, 16).unwrap();
        let host = HostBuffer::<u32>::zeroed(&ctx, 16).unwrap();
        let mut graph = Graph::new(&ctx).unwrap();
        let set = graph.add_memset(Memset::new(&buf, 1u32), &[]).unwrap();
        let other = graph.try_clone().unwrap();
        let spare = graph.try_clone().unwrap();
        let mut exec = graph.instantiate().unwrap();

        let _inside = InHostNode::enter();
        let mut results: Vec<(&str, Result<()>)> = vec![
            ("open_device", open_device(0).map(drop)),
            ("Graph::new", Graph::new(&ctx).map(drop)),
            ("Graph::try_clone", other.try_clone().map(drop)),
            ("Graph::instantiate", spare.instantiate().map(drop)),
            ("GraphExec::launch", exec.launch(&stream)),
            ("GraphExec::upload", exec.upload(&stream)),
            ("GraphExec::update", exec.update(&other)),
            ("GraphExec::set_enabled", exec.set_enabled(set, false)),
            (
                "GraphExec::set_memset_params",
                exec.set_memset_params(set, Memset::new(&buf, 2u32)),
            ),
            (
                "DeviceBuffer::zeros",
                DeviceBuffer::<u32>::zeros(&stream, 4).map(drop),
            ),
            (
                "DeviceBuffer::from_host",
                DeviceBuffer::from_host(&stream, &[1u32]).map(drop),
            ),
            ("DeviceBuffer::to_vec", buf.to_vec().map(drop)),
            ("DeviceBuffer::copy_from", buf.copy_from(&[0u32; 16])),
            ("DeviceBuffer::access", buf.access().map(drop)),
            (
                "HostBuffer::zeroed",
                HostBuffer::<u32>::zeroed(&ctx, 4).map(drop),
            ),
            ("HostBuffer::read", host.read().map(drop)),
            ("HostBuffer::write", host.write().map(drop)),
            ("UserObject::new", UserObject::new(5u32).map(drop)),
            ("Event::new", Event::new(&ctx).map(drop)),
        ];
        let mut g = other;
        results.push(("Graph::add_empty", g.add_empty(&[]).map(drop)));
        results.push((
            "Graph::add_memset",
            g.add_memset(Memset::new(&buf, 3u32), &[]).map(drop),
        ));
        results.push((
            "Graph::capture",
            Graph::capture(&stream, (), |_, ()| Ok::<(), Error>(())).map(drop),
        ));
        for (call, result) in results {
            assert!(
                matches!(result, Err(Error::InHostNode { .. })),
                "{call} inside a host node: {result:?}"
            );
        }
        drop(_inside);
        // Outside, the same calls work again.
        assert!(exec.launch(&stream).is_ok());
        assert!(g.add_empty(&[]).is_ok());
    }
}
