//! Semaphore nodes: the semaphores a signal or wait node takes, and their values.

use crate::ExternalSemaphore;

/// The param of a semaphore signal or wait node: an [`ExternalSemaphore`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an external semaphore",
    label = "`signal(sem = value)` and `wait(sem = value)` take a param of type `ExternalSemaphore`",
    note = "declare the param as `cudagraph_runtime::ExternalSemaphore` (a semaphore of another \
            API imported into CUDA: `ExternalSemaphore::from_fd(&ctx, fd, SemaphoreKind::Timeline)?`)"
)]
pub trait SemaphoreParam {
    /// The semaphore.
    fn semaphore(&self) -> &ExternalSemaphore;
}

impl SemaphoreParam for ExternalSemaphore {
    #[inline(always)]
    fn semaphore(&self) -> &ExternalSemaphore {
        self
    }
}

/// A semaphore's value in a node, as written: a `u64` (a mismatch is reported at the value).
#[inline(always)]
pub fn semaphore_value(value: u64) -> u64 {
    value
}
