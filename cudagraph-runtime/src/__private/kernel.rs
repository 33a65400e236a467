//! Kernel nodes: the kernel a node launches and its `<<<...>>>` configuration.

use crate::{Kernel, KernelArgs, LaunchConfig};

// ---------------------------------------------------------------------------------------------
// Kernel nodes.

/// What a kernel node launches: a [`Kernel`] with its parameter tuple.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a kernel",
    label = "a kernel node launches a param of type `Kernel<(argument types, ...)>`",
    note = "declare the param as `name: Kernel<(u32, DevicePtr<f32>, ...)>` in `params {{ }}`"
)]
pub trait KernelType {
    /// The kernel's parameter tuple.
    type Args: KernelArgs;
    /// As a kernel.
    fn as_kernel(&self) -> &Kernel<Self::Args>;
    /// The identity of the kernel's function. An executable keeps the modules of its kernels
    /// loaded, so the identity of a function it launches is not reused while it is compared.
    #[inline]
    fn function_id(&self) -> usize {
        self.as_kernel().cu_function() as usize
    }
    /// A copy, for the graph and the executable that keep the params.
    fn keep(&self) -> Self
    where
        Self: Sized;
}

impl<A: KernelArgs> KernelType for Kernel<A> {
    type Args = A;
    #[inline(always)]
    fn as_kernel(&self) -> &Kernel<A> {
        self
    }
    #[inline]
    fn keep(&self) -> Self {
        self.clone()
    }
}

/// A grid or block size: `u32`, `(u32, u32)` or `(u32, u32, u32)`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a grid or block size",
    label = "expected a `u32`, `(u32, u32)` or `(u32, u32, u32)`"
)]
pub trait Dim3 {
    /// As `(x, y, z)`.
    fn dim3(self) -> (u32, u32, u32);
}

impl Dim3 for u32 {
    #[inline(always)]
    fn dim3(self) -> (u32, u32, u32) {
        (self, 1, 1)
    }
}

impl Dim3 for (u32, u32) {
    #[inline(always)]
    fn dim3(self) -> (u32, u32, u32) {
        (self.0, self.1, 1)
    }
}

impl Dim3 for (u32, u32, u32) {
    #[inline(always)]
    fn dim3(self) -> (u32, u32, u32) {
        self
    }
}

/// `<<<grid, block, shared_mem_bytes>>>`.
#[inline(always)]
pub fn launch(grid: impl Dim3, block: impl Dim3, shared_mem_bytes: u32) -> LaunchConfig {
    LaunchConfig {
        grid_dim: grid.dim3(),
        block_dim: block.dim3(),
        shared_mem_bytes,
    }
}

/// The single part of `<<<config>>>`: a whole [`LaunchConfig`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a launch configuration",
    label = "expected a `LaunchConfig`",
    note = "`<<<config>>>` takes a `LaunchConfig`; for sizes write `<<<grid, block>>>` or \
            `<<<grid, block, shared_mem_bytes>>>`"
)]
pub trait WholeLaunchConfig {
    /// The configuration.
    fn config(self) -> LaunchConfig;
}

impl WholeLaunchConfig for LaunchConfig {
    #[inline(always)]
    fn config(self) -> LaunchConfig {
        self
    }
}

/// `<<<config>>>`.
#[inline(always)]
pub fn launch_config(config: impl WholeLaunchConfig) -> LaunchConfig {
    config.config()
}

/// A node declared `#[waits]`: its kernel must be one made with
/// [`Kernel::waits_for_dependency`](crate::Kernel::waits_for_dependency), the promise the
/// declaration's memory rule counted on.
#[inline]
pub fn declared_waits<A>(kernel: &crate::Kernel<A>, node: &'static str) -> crate::Result<()> {
    if kernel.waits() {
        return Ok(());
    }
    Err(crate::Error::Invalid {
        node: node.into(),
        reason: "the node is declared `#[waits]`, but its kernel was not made with \
                 `Kernel::waits_for_dependency` (the `unsafe` promise that it executes \
                 `griddepcontrol.wait` before it touches memory): mark the kernel, or drop \
                 `#[waits]`"
            .into(),
    })
}

// ---------------------------------------------------------------------------------------------
// Device-updatable kernel nodes (`#[device_updatable]`).

/// `param_offset(x, index)`: the byte offset of value parameter `index` of a kernel whose
/// parameter tuple is `A`, evaluated where the declaration is compiled (the generated code calls
/// it in a `const` block). `0` for an index that [`device_param_exists`] or
/// [`device_param_settable`] refuses: the generated code asserts both beside it, failing the
/// build at the user's index with a message naming the parameter.
pub const fn device_param_offset<A: KernelArgs>(index: usize) -> u64 {
    if device_param_exists::<A>(index) && device_param_settable::<A>(index) {
        A::OFFSETS[index] as u64
    } else {
        0
    }
}

/// Whether a kernel whose parameter tuple is `A` has a parameter `index`.
pub const fn device_param_exists<A: KernelArgs>(index: usize) -> bool {
    index < A::COUNT
}

/// Whether parameter `index` of a kernel whose parameter tuple is `A` is a value a device-side
/// update may change (`cudaGraphKernelNodeSetParam`): not memory nor a handle, since the memory
/// a node uses stays what the host gave it. (`false` past the last parameter.)
pub const fn device_param_settable<A: KernelArgs>(index: usize) -> bool {
    index < A::COUNT && A::SETTABLE[index]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DevicePtrMut;

    #[test]
    fn param_offsets_are_given_for_value_parameters_only() {
        type Args = (u32, DevicePtrMut<u32>, f64);
        const ANSWERS: [(bool, bool); 4] = [
            (
                device_param_exists::<Args>(0),
                device_param_settable::<Args>(0),
            ),
            (
                device_param_exists::<Args>(1),
                device_param_settable::<Args>(1),
            ),
            (
                device_param_exists::<Args>(2),
                device_param_settable::<Args>(2),
            ),
            (
                device_param_exists::<Args>(3),
                device_param_settable::<Args>(3),
            ),
        ];
        assert_eq!(
            ANSWERS,
            [(true, true), (true, false), (true, true), (false, false)]
        );
        // A refused index gives 0 (the generated assertions fail the build first).
        const OFFSETS: [u64; 3] = [
            device_param_offset::<Args>(0),
            device_param_offset::<Args>(1),
            device_param_offset::<Args>(3),
        ];
        assert_eq!(OFFSETS, [0, 0, 0]);
        assert_eq!(
            device_param_offset::<Args>(2),
            <Args as KernelArgs>::OFFSETS[2] as u64
        );
        assert!(device_param_offset::<Args>(2) > 0);
    }
}
