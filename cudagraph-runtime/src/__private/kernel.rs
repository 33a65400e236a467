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
/// it in a `const` block): an index past the last parameter, or a memory or handle parameter
/// (which a device-side update may not change: the memory a node uses stays what the host gave
/// it), fails the build with the message below.
pub const fn device_param_offset<A: KernelArgs>(index: usize) -> u64 {
    assert!(
        index < A::COUNT,
        "`param_offset(node, index)`: the index is past the kernel's last parameter"
    );
    assert!(
        A::SETTABLE[index],
        "`param_offset(node, index)`: that parameter is memory or a handle; a device-side update \
         may change only value parameters (`cudaGraphKernelNodeSetParam`), the memory a node \
         uses stays what the host gave it"
    );
    A::OFFSETS[index] as u64
}
