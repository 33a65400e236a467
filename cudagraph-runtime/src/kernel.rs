//! Kernels with typed argument lists, and the contract a kernel's author signs for them.

use std::any::TypeId;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;

use cudarc::driver::{sys, CudaFunction, DeviceRepr};

use crate::error::{Error, Result};
use crate::memory::operand::sealed::MemoryOperand;
use crate::memory::operand::{MemKey, Use};
use crate::memory::{DeviceDst, DeviceSrc};
use crate::ptr::{DevicePtr, DevicePtrMut};

/// A loaded kernel whose parameter list is the tuple `A`.
///
/// Creating one is `unsafe`: you vouch for what the kernel does with its arguments (see
/// [`Kernel::new`]), for every launch that passes the kernel's check ([`Kernel::requires`]).
/// From then on Rust checks every argument list given for it, and the runtime runs the check at
/// every node added and every node update.
///
/// ```no_run
/// # use cudagraph_runtime::prelude::*;
/// # fn f(func: cudarc::driver::CudaFunction) {
/// // extern "C" __global__ void saxpy(unsigned n, float a, const float* x, float* y) {
/// //     unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
/// //     if (i < n) y[i] = a * x[i] + y[i];
/// // }
/// // SAFETY: `saxpy` has this parameter list, reads `x[i]` and writes `y[i]` only for `i < n`,
/// // and the check below admits only launches whose `n` fits both buffers.
/// let saxpy: Kernel<(u32, f32, DevicePtr<f32>, DevicePtrMut<f32>)> = unsafe { Kernel::new(func) }
///     .requires(|_, (n, _, x, y)| n as usize <= x && n as usize <= y);
/// # }
/// ```
pub struct Kernel<A> {
    func: ManuallyDrop<CudaFunction>,
    /// The check of [`Kernel::requires`]: a `fn(&LaunchConfig, A::Checked) -> bool`, erased.
    check: Option<ErasedCheck>,
    /// Declared by [`Kernel::waits_for_dependency`].
    waits: bool,
    _args: PhantomData<fn(A)>,
}

/// A launch check of a kernel with its argument type erased; called only through the type it
/// was made from (see [`KernelContract::admits`]).
pub(crate) type ErasedCheck = fn();

impl<A> Clone for Kernel<A> {
    fn clone(&self) -> Self {
        Self {
            func: self.func.clone(),
            check: self.check,
            waits: self.waits,
            _args: PhantomData,
        }
    }
}

impl<A> Drop for Kernel<A> {
    /// The last reference to the kernel's module unloads it (a driver call): not inside a host
    /// node or a capture closure, where the release thread does it.
    fn drop(&mut self) {
        // Moved, not cloned: with a clone sent to the release thread and this reference dropped
        // here, the release thread may drop its clone first, and this drop would then be the last
        // one, unloading the module inside a host node after all.
        // SAFETY: `self.func` is not used again (this is the value's drop).
        let func = unsafe { ManuallyDrop::take(&mut self.func) };
        crate::reaper::release(func);
    }
}

impl<A> std::fmt::Debug for Kernel<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Kernel<{}>({:p})",
            std::any::type_name::<A>(),
            self.func.cu_function()
        )
    }
}

impl<A: KernelArgs> Kernel<A> {
    /// Wraps `func`, declaring its parameter list to be `A`.
    ///
    /// # Safety
    /// For every launch this crate makes of the kernel whose launch configuration and arguments
    /// pass the kernel's check ([`Kernel::requires`]; without one, for every launch), the kernel:
    ///
    /// 1. has the C parameter list `A`, element for element: each element's device
    ///    representation has the size, alignment and meaning of the C parameter (a
    ///    [`DevicePtr<T>`] is a `const T*`, a [`DevicePtrMut<T>`] a `T*`, a
    ///    [`ConditionalHandle`](crate::ConditionalHandle) a `cudaGraphConditionalHandle`, a
    ///    [`DeviceGraph`](crate::DeviceGraph) a `cudaGraphExec_t`, a
    ///    [`DeviceNode`](crate::device_launch::DeviceNode) a `cudaGraphDeviceNode_t`);
    /// 2. reads and writes device or host memory only through its pointer parameters, and
    ///    through each only the elements `0..len` of the memory given for it, where `len` is
    ///    the length of that buffer, slice, view or raw pointer (what the check sees as the
    ///    argument: [`Param::Checked`]);
    /// 3. writes through a [`DevicePtrMut<T>`] only valid `T`s (for `T = bool`, only 0 and 1),
    ///    and writes nothing through a [`DevicePtr<T>`];
    /// 4. sets conditional handles only through its [`ConditionalHandle`](crate::ConditionalHandle)
    ///    parameters, and launches no work of its own (no dynamic parallelism) but graphs:
    ///    those given for its [`DeviceGraph`](crate::DeviceGraph) parameters, and the graph it
    ///    runs in (`cudaGetCurrentGraphExec()`), with `cudaGraphLaunch`;
    /// 5. updates kernel nodes from the device only through its
    ///    [`DeviceNode`](crate::device_launch::DeviceNode) parameters, and there only the value
    ///    parameters (at [`DeviceKernelNode::param_offset`](crate::device_launch::DeviceKernelNode::param_offset),
    ///    with valid values of the parameter's type), the grid and the enabled state, and only to
    ///    values and grids the updated node's kernel check ([`Kernel::requires`]) admits with the
    ///    node's other arguments (which host code cannot change: host updates of a
    ///    device-updatable node's arguments and kernel are refused).
    ///
    /// Point 2 is one a kernel cannot keep on its own when its accesses depend on a length
    /// parameter (`if (i < n) y[i] = ...`): give the check that keeps that length within the
    /// buffers, with [`Kernel::requires`]. Safe code cannot break the contract: every argument
    /// list a graph gives the kernel, when a node is added and at every update, passes the check
    /// first (refused with [`Error::Invalid`](crate::Error::Invalid) naming the node otherwise).
    pub unsafe fn new(func: CudaFunction) -> Self {
        Self {
            func: ManuallyDrop::new(func),
            check: None,
            waits: false,
            _args: PhantomData,
        }
    }

    /// The kernel with a check of its launches: `check` gets the launch configuration and the
    /// arguments, each value parameter as its value and each pointer parameter as the number of
    /// elements of the memory given for it ([`Param::Checked`]), and admits the launch by
    /// returning `true`. Every node added for the kernel and every update of such a node runs
    /// it first; a launch it refuses is an [`Error::Invalid`](crate::Error::Invalid) naming the
    /// node.
    ///
    /// This is what makes a kernel that trusts a length parameter sound: its author states,
    /// next to the kernel, which lengths and grids it can take ([`Kernel::new`], point 2).
    ///
    /// ```no_run
    /// # use cudagraph_runtime::prelude::*;
    /// # fn f(func: cudarc::driver::CudaFunction) {
    /// // extern "C" __global__ void fill(unsigned n, float v, float* y) {
    /// //     unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    /// //     if (i < n) y[i] = v;
    /// // }
    /// // SAFETY: `fill` writes y[i] for i < n only; the check keeps n within `y`.
    /// let fill: Kernel<(u32, f32, DevicePtrMut<f32>)> = unsafe { Kernel::new(func) }
    ///     .requires(|_config, (n, _v, y)| n as usize <= y);
    /// # }
    /// ```
    ///
    /// A kernel that does not bound its accesses by its arguments but by its grid (one thread
    /// per element, no `if`) checks the configuration instead:
    /// `|c, (y,)| c.grid_dim.0 as usize * c.block_dim.0 as usize <= y` (widened first: a
    /// product of two `u32`s wraps, and a wrapped thread count admits grids far too large).
    pub fn requires(mut self, check: fn(&LaunchConfig, A::Checked) -> bool) -> Self {
        // SAFETY: a function pointer as another function pointer type of the same size; it is
        // called only as its own type again (`KernelContract::admits`, whose caller checked
        // that the node launches a kernel of parameter list `A`).
        self.check = Some(unsafe {
            std::mem::transmute::<fn(&LaunchConfig, A::Checked) -> bool, ErasedCheck>(check)
        });
        self
    }

    /// The kernel, declared to wait for the kernels its node depends on through programmatic
    /// or launch-order edges ([`EdgeKind`](crate::EdgeKind)) before it touches memory: such an
    /// edge into a node of this kernel then orders memory like a plain edge (the node's uses
    /// come after everything before the edge's source), while the kernel's launch and its code
    /// before the wait overlap the source's tail.
    ///
    /// Without it such an edge orders only *launches*: the consumer may run while the producer
    /// still runs and may not see its writes, so the graph's memory checks (allocations freed
    /// after their last use, indirect values, host memory) do not count the edge as ordering,
    /// and the declaration (`cuda_graph!`) refuses a programmatic edge between two nodes whose
    /// uses of a buffer conflict unless the consumer is `#[waits]`.
    ///
    /// # Safety
    /// Every thread block of the kernel executes `griddepcontrol.wait`
    /// (`cudaGridDependencySynchronize()`) unconditionally, before it reads or writes any memory
    /// through its parameters: the wait returns once every kernel it depends on has completed
    /// and its writes are visible ([programmatic dependent launch]). A kernel launched without a
    /// programmatic dependency passes the wait at once, so the marker costs nothing elsewhere.
    ///
    /// [programmatic dependent launch]: https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#programmatic-dependent-launch-and-synchronization
    pub unsafe fn waits_for_dependency(mut self) -> Self {
        self.waits = true;
        self
    }

    /// Whether a launch with `config` and arguments `args` passes the kernel's check.
    #[inline]
    pub(crate) fn admits<'a>(
        &self,
        config: &LaunchConfig,
        args: &impl KernelArgValues<'a, A>,
    ) -> bool {
        self.contract().admits::<A>(config, || args.checked())
    }

    /// What a kernel node launching this kernel keeps of it.
    #[inline]
    pub(crate) fn contract(&self) -> KernelContract {
        KernelContract {
            func: self.func.cu_function(),
            params: Some(TypeId::of::<A>()),
            check: self.check,
            waits: self.waits,
        }
    }
}

/// What a kernel node keeps of the kernel it launches: the function (an update re-sends it),
/// the type of its parameter list (a `KernelNode<A>` handle updates the node only while it
/// launches a kernel of parameter list `A`: a whole-graph update or a re-instantiation may
/// change that), and its launch check.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KernelContract {
    pub(crate) func: sys::CUfunction,
    params: Option<TypeId>,
    check: Option<ErasedCheck>,
    /// The kernel waits for its programmatic dependencies before touching memory
    /// ([`Kernel::waits_for_dependency`]).
    pub(crate) waits: bool,
}

impl KernelContract {
    /// Not a kernel node (or a captured one, whose kernel this crate does not know).
    pub(crate) const NONE: Self = Self {
        func: std::ptr::null_mut(),
        params: None,
        check: None,
        waits: false,
    };

    /// A kernel node of this crate's own (no `KernelNode<A>` handle may update it).
    pub(crate) fn untyped(func: sys::CUfunction) -> Self {
        Self {
            func,
            params: None,
            check: None,
            waits: false,
        }
    }

    /// Whether both launch the same function with the same check and the same promise to wait
    /// (an update may not take the wait away from a node a programmatic edge orders through).
    #[inline(always)]
    pub(crate) fn same(&self, other: &KernelContract) -> bool {
        self.func == other.func
            && self.check.map(|c| c as usize) == other.check.map(|c| c as usize)
            && self.waits == other.waits
    }

    /// Whether the node launches a kernel of parameter list `A`.
    #[inline(always)]
    pub(crate) fn takes<A: KernelArgs>(&self) -> bool {
        self.params == Some(TypeId::of::<A>())
    }

    /// The parameter list of the kernel (`None` for a node that launches none).
    pub(crate) fn param_list(&self) -> Option<TypeId> {
        self.params
    }

    /// Whether a launch with `config` and the arguments `checked` gives passes the check, for a
    /// node that launches a kernel of parameter list `A` (the caller checked [`Self::takes`]).
    #[inline(always)]
    pub(crate) fn admits<A: KernelArgs>(
        &self,
        config: &LaunchConfig,
        checked: impl FnOnce() -> A::Checked,
    ) -> bool {
        match self.check {
            None => true,
            Some(check) => {
                debug_assert!(self.takes::<A>());
                // SAFETY: made from a `fn(&LaunchConfig, A::Checked) -> bool` by
                // `Kernel::<A>::requires`: the node launches a kernel of parameter list `A`.
                let check = unsafe {
                    std::mem::transmute::<ErasedCheck, fn(&LaunchConfig, A::Checked) -> bool>(check)
                };
                check(config, checked())
            }
        }
    }
}

impl<A> Kernel<A> {
    /// Whether the kernel was declared to wait for its programmatic dependencies
    /// ([`Kernel::waits_for_dependency`]).
    pub fn waits(&self) -> bool {
        self.waits
    }

    /// The cudarc function.
    pub fn function(&self) -> &CudaFunction {
        &self.func
    }

    /// The raw driver handle.
    pub fn cu_function(&self) -> sys::CUfunction {
        self.func.cu_function()
    }
}

/// A value a kernel takes by value (a number, or a struct of your own): it has a device
/// representation.
///
/// # Safety
/// `Repr` must be the exact bit pattern the kernel's C parameter expects for this value.
pub unsafe trait KernelParam: Copy + 'static {
    /// The bits the kernel receives.
    type Repr: DeviceRepr + Copy;
    /// Converts to those bits.
    fn to_repr(&self) -> Self::Repr;
}

macro_rules! plain_params {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive is passed as itself.
        unsafe impl KernelParam for $t {
            type Repr = $t;
            #[inline(always)]
            fn to_repr(&self) -> $t { *self }
        }
    )*};
}
plain_params!(bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64);

/// One parameter of a kernel's signature: a [`KernelParam`] (by value), or a pointer,
/// [`DevicePtr<T>`] (`const T*`) or [`DevicePtrMut<T>`] (`T*`).
pub trait Param: private::Sealed + 'static {
    /// The bits the kernel receives.
    #[doc(hidden)]
    type Repr: DeviceRepr + Copy;
    /// What a kernel's launch check ([`Kernel::requires`]) sees of an argument for this
    /// parameter: a value parameter's value; for a pointer parameter, the number of elements of
    /// the memory given (`usize`); nothing (`()`) for a conditional handle.
    type Checked: Copy;
    /// Whether a kernel may set it from the device in a device-updatable node
    /// (`cudaGraphKernelNodeSetParam`): value parameters only, never memory or handles.
    #[doc(hidden)]
    const DEVICE_SETTABLE: bool = false;
}

/// The traits below hand the driver raw bits and addresses: only this crate implements them.
pub(crate) mod private {
    /// Sealed: a parameter type.
    pub trait Sealed {}
    /// Sealed: a value given for a parameter of type `P`.
    pub trait Argument<'a, P> {}
    /// Sealed: a tuple of parameter types.
    pub trait Signature {}
    /// Sealed: a tuple of values for a signature `A`.
    pub trait Arguments<'a, A> {}
}

impl<P: KernelParam> private::Sealed for P {}
impl<P: KernelParam> Param for P {
    type Repr = P::Repr;
    type Checked = P;
    const DEVICE_SETTABLE: bool = true;
}
impl<T: 'static> private::Sealed for DevicePtr<T> {}
impl<T: 'static> Param for DevicePtr<T> {
    type Repr = sys::CUdeviceptr;
    type Checked = usize;
}
impl<T: 'static> private::Sealed for DevicePtrMut<T> {}
impl<T: 'static> Param for DevicePtrMut<T> {
    type Repr = sys::CUdeviceptr;
    type Checked = usize;
}

/// A value given for a kernel parameter of type `P`: `P` itself for a [`KernelParam`]; device
/// memory the kernel reads ([`DeviceSrc<T>`]) for a [`DevicePtr<T>`], or writes ([`DeviceDst<T>`])
/// for a [`DevicePtrMut<T>`]: a `DeviceBuffer<T>` (kept alive by the graph), a cudarc slice or
/// view (borrowed for the graph's lifetime `'a`), or a raw pointer.
///
/// Sealed: its implementations give the driver the bits and addresses a launch uses.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed for a kernel parameter of type `{P}`",
    label = "not a `{P}`",
    note = "a `DevicePtr<T>` parameter (`const T*`) takes device memory the kernel reads: a \
            `&DeviceBuffer<T>` or a cudarc `&CudaSlice<T>`; a `DevicePtrMut<T>` parameter (`T*`) takes \
            memory it writes: a `&DeviceBuffer<T>` or a cudarc `&mut CudaSlice<T>`"
)]
pub trait KernelArg<'a, P: Param>: private::Argument<'a, P> {
    /// The bits the kernel receives.
    #[doc(hidden)]
    fn repr(&self) -> P::Repr;
    /// What the kernel's launch check sees of it.
    #[doc(hidden)]
    fn checked(&self) -> P::Checked;
    /// The memory it points to, for a pointer.
    #[doc(hidden)]
    fn memory(&self) -> Option<MemKey>;
    /// The bits, and for a pointer the memory as a use, kept alive as the value says.
    #[doc(hidden)]
    fn into_part(self) -> Result<(P::Repr, Option<Use<'a>>)>;
}

impl<'a, P: KernelParam> private::Argument<'a, P> for P {}
impl<'a, P: KernelParam> KernelArg<'a, P> for P {
    #[inline(always)]
    fn repr(&self) -> P::Repr {
        self.to_repr()
    }
    #[inline(always)]
    fn checked(&self) -> P {
        *self
    }
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        None
    }
    #[inline(always)]
    fn into_part(self) -> Result<(P::Repr, Option<Use<'a>>)> {
        Ok((self.to_repr(), None))
    }
}

impl<'a, T: 'static, V: DeviceSrc<'a, T>> private::Argument<'a, DevicePtr<T>> for V {}
#[diagnostic::do_not_recommend]
impl<'a, T: 'static, V: DeviceSrc<'a, T>> KernelArg<'a, DevicePtr<T>> for V {
    #[inline(always)]
    fn repr(&self) -> sys::CUdeviceptr {
        self.key().start
    }
    #[inline(always)]
    fn checked(&self) -> usize {
        MemoryOperand::len(self)
    }
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        Some(self.key())
    }
    #[inline]
    fn into_part(self) -> Result<(sys::CUdeviceptr, Option<Use<'a>>)> {
        let used = MemoryOperand::into_use(self, false)?;
        Ok((used.start, Some(used)))
    }
}

impl<'a, T: 'static, V: DeviceDst<'a, T>> private::Argument<'a, DevicePtrMut<T>> for V {}
#[diagnostic::do_not_recommend]
impl<'a, T: 'static, V: DeviceDst<'a, T>> KernelArg<'a, DevicePtrMut<T>> for V {
    #[inline(always)]
    fn repr(&self) -> sys::CUdeviceptr {
        self.key().start
    }
    #[inline(always)]
    fn checked(&self) -> usize {
        MemoryOperand::len(self)
    }
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        Some(self.key())
    }
    #[inline]
    fn into_part(self) -> Result<(sys::CUdeviceptr, Option<Use<'a>>)> {
        let used = MemoryOperand::into_use(self, true)?;
        Ok((used.start, Some(used)))
    }
}

/// One kernel argument, checked where it is written: the code `cuda_graph!` generates wraps each
/// argument at its own location (so a mismatch is reported there, once), then passes these on.
/// Its bits and the memory it points to are read at once; the memory is taken as a use (for a
/// `DeviceBuffer`, a reference count) only when a node starts using it, not on every update that
/// passes the memory the node already has.
#[doc(hidden)]
pub struct KernelArgPart<'a, P: Param, V> {
    repr: P::Repr,
    checked: P::Checked,
    memory: Option<MemKey>,
    value: V,
    // `V::into_part`, stored so that this type is a `KernelArg` whatever `V` is: a `V` that is
    // not an argument for `P` is then reported by `new` alone, at the argument.
    into_part: fn(V) -> Result<Part<'a, P>>,
}

/// A kernel argument's bits, and the memory it points to as a use.
type Part<'a, P> = (<P as Param>::Repr, Option<Use<'a>>);

impl<'a, P: Param, V> KernelArgPart<'a, P, V> {
    /// Wraps `value`.
    #[inline(always)]
    pub fn new(value: V) -> Self
    where
        V: KernelArg<'a, P>,
    {
        Self {
            repr: value.repr(),
            checked: value.checked(),
            memory: value.memory(),
            value,
            into_part: V::into_part,
        }
    }
}

impl<'a, P: Param, V> private::Argument<'a, P> for KernelArgPart<'a, P, V> {}
impl<'a, P: Param, V> KernelArg<'a, P> for KernelArgPart<'a, P, V> {
    #[inline(always)]
    fn repr(&self) -> P::Repr {
        self.repr
    }
    #[inline(always)]
    fn checked(&self) -> P::Checked {
        self.checked
    }
    #[inline(always)]
    fn memory(&self) -> Option<MemKey> {
        self.memory
    }
    #[inline]
    fn into_part(self) -> Result<(P::Repr, Option<Use<'a>>)> {
        (self.into_part)(self.value)
    }
}

impl<P: Param, V> std::fmt::Debug for KernelArgPart<'_, P, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KernelArgPart")
            .field("memory", &self.memory)
            .finish_non_exhaustive()
    }
}

/// The most parameters a kernel's signature has ([`KernelArgs`] is made for tuples up to 12).
pub(crate) const MAX_PARAMS: usize = 12;

/// The memory of a kernel's pointer arguments, in order: at most 12 keys (one per parameter),
/// in an array nothing initialises beyond them (a kernel node's update fills one each time its
/// memory changes; a struct holding the count too is zeroed whole by the optimizer). Not an
/// API: the generated code's.
pub struct MemKeys(std::mem::MaybeUninit<[MemKey; MemKeys::CAPACITY]>);

impl std::fmt::Debug for MemKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // How many keys are written is the caller's to know.
        f.debug_struct("MemKeys").finish_non_exhaustive()
    }
}

impl MemKeys {
    /// As many as a kernel has parameters.
    pub(crate) const CAPACITY: usize = MAX_PARAMS;

    /// No keys.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self(std::mem::MaybeUninit::uninit())
    }

    /// Writes `key` as key number `*len`, and counts it.
    ///
    /// # Panics
    /// When [`MemKeys::CAPACITY`] keys are in already (a kernel has no more parameters).
    #[inline(always)]
    pub(crate) fn push(&mut self, len: &mut usize, key: MemKey) {
        assert!(*len < Self::CAPACITY, "a kernel has at most 12 parameters");
        // SAFETY: within the array (checked above); writing through a raw pointer reads
        // nothing of the uninitialised entries.
        unsafe { self.0.as_mut_ptr().cast::<MemKey>().add(*len).write(key) };
        *len += 1;
    }

    /// The first `len` keys.
    ///
    /// # Safety
    /// `len` keys were written by [`MemKeys::push`] (`len` is the count it kept).
    #[inline(always)]
    pub(crate) unsafe fn first(&self, len: usize) -> &[MemKey] {
        // SAFETY: the caller's promise; `push` keeps the count within the array.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr().cast::<MemKey>(), len) }
    }
}

/// A kernel's whole signature: a tuple of [`Param`]s (up to 12). Sealed.
pub trait KernelArgs: private::Signature + 'static {
    /// Number of parameters.
    const COUNT: usize;
    /// What a launch check sees of the arguments: the tuple of each parameter's
    /// [`Param::Checked`].
    type Checked: Copy;
    /// The parameters' device representations, as a tuple.
    #[doc(hidden)]
    type Reprs;
    /// Each parameter's byte offset in the kernel's parameter buffer (each at its own
    /// alignment, in order, as CUDA lays them out): what device-side updates address.
    #[doc(hidden)]
    const OFFSETS: &'static [usize];
    /// Each parameter's [`Param::DEVICE_SETTABLE`].
    #[doc(hidden)]
    const SETTABLE: &'static [bool];
    /// Calls `f` with a `void**` array of pointers to each of `reprs`, as `kernelParams` wants
    /// it. The pointers are valid only during the call.
    #[doc(hidden)]
    fn with_reprs<R>(reprs: &mut Self::Reprs, f: impl FnOnce(*mut *mut c_void) -> R) -> R;
}

/// Values for a whole signature `A`: a tuple whose elements are [`KernelArg`]s of `A`'s. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` are not arguments for a kernel with parameters `{A}`",
    label = "expected one argument per kernel parameter, each fitting its type",
    note = "each argument is the parameter's type itself, or for a `DevicePtr<T>` / `DevicePtrMut<T>` \
            parameter a `&DeviceBuffer<T>` or a cudarc slice"
)]
pub trait KernelArgValues<'a, A: KernelArgs>: private::Arguments<'a, A> {
    /// The arguments' device representations (for [`KernelArgs::with_reprs`]), without taking
    /// the memory they point to.
    #[doc(hidden)]
    fn reprs(&self) -> A::Reprs;
    /// What the kernel's launch check sees of the arguments.
    #[doc(hidden)]
    fn checked(&self) -> A::Checked;
    /// Whether the pointer arguments are exactly the memory `keys` (in order).
    #[doc(hidden)]
    fn same_memory<'k>(&self, keys: impl Iterator<Item = &'k MemKey>) -> bool;
    /// The memory of the pointer arguments (in order), written into `keys` by
    /// [`MemKeys::push`]; returns how many.
    #[doc(hidden)]
    fn memory_keys(&self, keys: &mut MemKeys) -> usize;
    /// The arguments' device representations; the memory the pointers point to (in order), kept
    /// alive as the values say, is appended to `uses`.
    #[doc(hidden)]
    fn into_parts(self, uses: &mut Vec<Use<'a>>) -> Result<A::Reprs>;
}

macro_rules! tuple_args {
    ($count:expr; $($t:ident $v:ident $i:tt),*) => {
        impl<$($t: Param),*> private::Signature for ($($t,)*) {}
        impl<$($t: Param),*> KernelArgs for ($($t,)*) {
            const COUNT: usize = $count;
            type Checked = ($($t::Checked,)*);
            type Reprs = ($($t::Repr,)*);
            #[allow(unused_comparisons)]
            const OFFSETS: &'static [usize] = &{
                let sizes: [usize; $count] = [$(std::mem::size_of::<$t::Repr>()),*];
                let aligns: [usize; $count] = [$(std::mem::align_of::<$t::Repr>()),*];
                let mut out = [0usize; $count];
                let (mut at, mut i) = (0usize, 0usize);
                while i < $count {
                    at = at.div_ceil(aligns[i]) * aligns[i];
                    out[i] = at;
                    at += sizes[i];
                    i += 1;
                }
                out
            };
            const SETTABLE: &'static [bool] = &[$($t::DEVICE_SETTABLE),*];
            #[inline]
            #[allow(unused_variables, clippy::unused_unit)]
            fn with_reprs<R>(reprs: &mut Self::Reprs, f: impl FnOnce(*mut *mut c_void) -> R) -> R {
                let mut ptrs: [*mut c_void; $count] = [$(&mut reprs.$i as *mut $t::Repr as *mut c_void),*];
                f(ptrs.as_mut_ptr())
            }
        }

        impl<'a, $($t: Param, $v: KernelArg<'a, $t>),*> private::Arguments<'a, ($($t,)*)> for ($($v,)*) {}
        #[diagnostic::do_not_recommend]
        impl<'a, $($t: Param, $v: KernelArg<'a, $t>),*> KernelArgValues<'a, ($($t,)*)> for ($($v,)*) {
            #[inline(always)]
            #[allow(clippy::unused_unit)]
            fn reprs(&self) -> ($($t::Repr,)*) {
                ($(KernelArg::<'a, $t>::repr(&self.$i),)*)
            }

            #[inline(always)]
            #[allow(clippy::unused_unit)]
            fn checked(&self) -> ($($t::Checked,)*) {
                ($(KernelArg::<'a, $t>::checked(&self.$i),)*)
            }

            #[inline]
            #[allow(unused_mut, unused_variables)]
            fn same_memory<'k>(&self, mut keys: impl Iterator<Item = &'k MemKey>) -> bool {
                true $(&& match KernelArg::<'a, $t>::memory(&self.$i) {
                    Some(key) => keys.next().is_some_and(|k| *k == key),
                    None => true,
                })* && keys.next().is_none()
            }

            #[inline]
            #[allow(unused_mut, unused_variables)]
            fn memory_keys(&self, keys: &mut MemKeys) -> usize {
                let mut len = 0;
                $(if let Some(key) = KernelArg::<'a, $t>::memory(&self.$i) {
                    keys.push(&mut len, key);
                })*
                len
            }

            #[inline]
            #[allow(unused_variables, clippy::unused_unit)]
            fn into_parts(self, uses: &mut Vec<Use<'a>>) -> Result<($($t::Repr,)*)> {
                Ok(($({
                    let (repr, used) = KernelArg::<'a, $t>::into_part(self.$i)?;
                    uses.extend(used);
                    repr
                },)*))
            }
        }
    };
}
tuple_args!(0;);
tuple_args!(1; A VA 0);
tuple_args!(2; A VA 0, B VB 1);
tuple_args!(3; A VA 0, B VB 1, C VC 2);
tuple_args!(4; A VA 0, B VB 1, C VC 2, D VD 3);
tuple_args!(5; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4);
tuple_args!(6; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5);
tuple_args!(7; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6);
tuple_args!(8; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6, H VH 7);
tuple_args!(9; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6, H VH 7, I VI 8);
tuple_args!(10; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6, H VH 7, I VI 8, J VJ 9);
tuple_args!(11; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6, H VH 7, I VI 8, J VJ 9, K VK 10);
tuple_args!(12; A VA 0, B VB 1, C VC 2, D VD 3, E VE 4, F VF 5, G VG 6, H VH 7, I VI 8, J VJ 9, K VK 10, L VL 11);

/// Grid, block and dynamic shared memory of a launch (cudarc's type).
pub use cudarc::driver::LaunchConfig;

/// The error for a kernel launch that the kernel's check ([`Kernel::requires`]) refuses.
#[cold]
pub(crate) fn launch_refused(node: String, config: &LaunchConfig) -> Error {
    Error::Invalid {
        node,
        reason: format!(
            "the kernel's check (`Kernel::requires`) refuses this launch (grid {:?}, block {:?}): \
             its arguments would make it read or write outside the memory given to it; give \
             lengths and buffers that fit, or a grid that does",
            config.grid_dim, config.block_dim
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_point_at_each_argument() {
        // SAFETY: never dereferenced on a device.
        let p = unsafe { DevicePtr::<f32>::from_raw(0xdead_0000, 4) };
        let args = (7u32, 2.5f32, p);
        let mut reprs = KernelArgValues::<(u32, f32, DevicePtr<f32>)>::reprs(&args);
        <(u32, f32, DevicePtr<f32>)>::with_reprs(&mut reprs, |ptrs| {
            // SAFETY: `with_reprs` gives three valid pointers to the device representations.
            unsafe {
                assert_eq!(*(*ptrs.add(0) as *const u32), 7);
                assert_eq!(*(*ptrs.add(1) as *const f32), 2.5);
                assert_eq!(*(*ptrs.add(2) as *const u64), 0xdead_0000);
            }
        });
        assert_eq!(<(u32, f32, DevicePtr<f32>)>::COUNT, 3);
    }

    #[test]
    fn offsets_follow_the_c_layout_of_the_parameters() {
        // `(char, double, int, T*)`: 0, 8, 16, 24 (each at its own alignment).
        assert_eq!(<(u8, f64, i32, DevicePtr<f32>)>::OFFSETS, &[0, 8, 16, 24]);
        assert_eq!(<(u32, u32, u64)>::OFFSETS, &[0, 4, 8]);
        assert_eq!(<(bool, u16)>::OFFSETS, &[0, 2]);
        assert_eq!(<(u32, DevicePtrMut<u32>)>::SETTABLE, &[true, false]);
        assert!(<()>::OFFSETS.is_empty());
    }
}
