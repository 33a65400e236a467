//! Event nodes: the event a record or wait node takes.

use crate::Event;

// ---------------------------------------------------------------------------------------------
// Event nodes.

/// The param of an event record or wait node: an [`Event`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event",
    label = "`record(...)` and `wait(...)` take a param of type `Event`",
    note = "declare the param as `cudagraph_runtime::Event` (a shared cudarc event: \
            `Event::new(&ctx)?` or `Event::from(cuda_event)`)",
    note = "to wait for an external semaphore, write `wait(sem = value)`"
)]
pub trait EventParam {
    /// The event.
    fn event(&self) -> &Event;
}

impl EventParam for Event {
    #[inline(always)]
    fn event(&self) -> &Event {
        self
    }
}
