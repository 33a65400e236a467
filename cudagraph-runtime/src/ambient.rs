//! What the calling thread is doing now, as far as CUDA's rules care: running a host node's
//! closure, or a capture closure of this crate. Many layers ask (buffers, graphs, executables,
//! releases), so the state lives here, at the bottom, and nothing here depends on them.
//!
//! - In a host node CUDA forbids every driver call ([host functions]): this crate's calls refuse
//!   there ([`Error::InHostNode`](crate::Error::InHostNode)), and releases that would call the
//!   driver (destroying a graph, an executable or an event, freeing memory, unloading a module)
//!   go to the release thread (`crate::reaper`).
//! - In a capture closure a call that waits on the host breaks the capture: such calls refuse
//!   ([`refuse_waiting_in_capture`]), and releases go to the release thread as well.
//!
//! [host functions]: https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__STREAM.html

use std::cell::Cell;

use crate::error::{Error, Result};

thread_local! {
    /// How many capture closures of this crate the thread is running (a closure may capture
    /// another stream in turn).
    static CAPTURES: Cell<u32> = const { Cell::new(0) };
    /// Whether the thread is running a host node's closure now.
    static IN_HOST_NODE: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread is running a capture closure of this crate.
#[inline]
pub(crate) fn in_capture() -> bool {
    CAPTURES.with(Cell::get) > 0
}

/// Whether this thread is running a host node's closure now.
#[inline]
pub(crate) fn in_host_node() -> bool {
    IN_HOST_NODE.with(Cell::get)
}

/// Whether a release that calls the driver must be left to the release thread here.
#[inline]
pub(crate) fn must_defer_releases() -> bool {
    in_host_node() || in_capture()
}

/// Refuses `call`, which waits on the host for the GPU or may synchronize the device, inside a
/// capture closure.
#[inline]
pub(crate) fn refuse_waiting_in_capture(call: &str) -> Result<()> {
    if in_capture() {
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
        CAPTURES.with(|n| n.set(n.get() + 1));
        InCapture(())
    }
}

impl Drop for InCapture {
    fn drop(&mut self) {
        CAPTURES.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// Marks the thread as running a host node while alive.
pub(crate) struct InHostNode(());

impl InHostNode {
    pub(crate) fn enter() -> Self {
        IN_HOST_NODE.with(|flag| flag.set(true));
        InHostNode(())
    }
}

impl Drop for InHostNode {
    fn drop(&mut self) {
        IN_HOST_NODE.with(|flag| flag.set(false));
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
    fn waiting_is_refused_inside_a_capture_closure() {
        assert!(refuse_waiting_in_capture("HostBuffer::read").is_ok());
        let _inside = InCapture::enter();
        match refuse_waiting_in_capture("HostBuffer::read") {
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
}
