//! What the code `cuda_graph!` generates asks the type system about a declaration's params.
//!
//! The macro sees tokens, not types: a param written `y: Buf` (with `type Buf =
//! DeviceBuffer<f32>`) or a kernel parameter written through an alias is memory all the same,
//! and a rule that read the spelling would let two unordered writers of `y` race unreported.
//! So where the spelling does not say, the generated code asks rustc, through the items here,
//! and checks the answer at compile time (constant assertions with the macro's message) or, for
//! what only the values tell (the memory of two params, a child graph's uses), when the graph
//! is built.
//!
//! The probes (`ParamProbe<T>`, `SlotProbe<T>`, `ArgsProbe<K>`, `BodyProbe<T>`) answer for
//! any concrete type: an inherent constant that exists when `T` has the property, and a trait's
//! default (the `...Fallback` traits, which the generated code brings into scope) when not. Rust
//! picks the inherent item when its bounds hold, so no bound is required of the user's type and
//! a type that has nothing to do with memory gets a plain `false`, never a second error.

use std::marker::PhantomData;

use super::child::ChildGraph;
use super::kernel::{KernelType, WholeLaunchConfig};
use super::memory::MemoryParam;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::kernel::KernelParam;
use crate::memory::alloc::Space;
use crate::{DeviceBuffer, DevicePtr, DevicePtrMut, GraphAlloc, HostBuffer, HostPtr, HostPtrMut};

pub use crate::memory::operand::{Bytes, DeclaredUse};

// ---------------------------------------------------------------------------------------------
// Whether a param's type is memory.

/// A type whose value is memory a kernel argument can point to: the runtime's buffers, raw
/// pointers and graph allocations, and references to them.
///
/// # Safety
/// `bytes` is the memory the value gives the nodes that use it, exactly: the overlap check
/// between params trusts it. Implemented by the runtime only.
pub unsafe trait MemoryLike {
    /// The memory, as a byte range.
    fn bytes(&self) -> Bytes;
}

macro_rules! memory_like {
    ($($ty:ident),*) => {$(
        // SAFETY: the type's own memory, as every use of it reports it.
        unsafe impl<T: Send + Sync + 'static> MemoryLike for $ty<T> {
            #[inline]
            fn bytes(&self) -> Bytes {
                MemoryParam::bytes(self)
            }
        }
    )*};
}
memory_like!(
    DeviceBuffer,
    HostBuffer,
    DevicePtr,
    DevicePtrMut,
    HostPtr,
    HostPtrMut,
    GraphAlloc
);

// SAFETY: the referent's memory, which `M` vouches for.
unsafe impl<M: MemoryLike + ?Sized> MemoryLike for &M {
    #[inline]
    fn bytes(&self) -> Bytes {
        (**self).bytes()
    }
}

/// Asks about a param's type `T`: `IS_MEMORY` (a [`MemoryLike`] type), `IS_VALUE` (a
/// [`KernelParam`]: a number, `bool`, or a type whose bits its implementer vouched for, never
/// a buffer), `IS_HANDLE` (a conditional handle), and `bytes(&value)`, its memory (`None` when
/// not memory).
#[derive(Debug)]
pub struct ParamProbe<T: ?Sized>(PhantomData<T>);

/// The answers of [`ParamProbe`] for types without the property asked about.
pub trait ParamFallback<T: ?Sized> {
    /// Not memory.
    const IS_MEMORY: bool = false;
    /// Not a kernel parameter value.
    const IS_VALUE: bool = false;
    /// Not a conditional handle.
    const IS_HANDLE: bool = false;
    /// No memory.
    #[inline(always)]
    fn bytes(_: &T) -> Option<Bytes> {
        None
    }
}

impl<T: ?Sized> ParamFallback<T> for ParamProbe<T> {}

impl<T: MemoryLike + ?Sized> ParamProbe<T> {
    /// Memory.
    pub const IS_MEMORY: bool = true;
    /// Its memory.
    #[inline]
    pub fn bytes(value: &T) -> Option<Bytes> {
        Some(value.bytes())
    }
}

impl<T: KernelParam> ParamProbe<T> {
    /// A kernel parameter value.
    pub const IS_VALUE: bool = true;
}

#[cfg(not(feature = "cuda-12020"))]
impl ParamProbe<crate::node::ConditionalHandle> {
    /// A conditional handle.
    pub const IS_HANDLE: bool = true;
}

/// A reference to one gives the handle all the same (`*h` is a kernel argument).
#[cfg(not(feature = "cuda-12020"))]
impl ParamProbe<&crate::node::ConditionalHandle> {
    /// A conditional handle, by reference.
    pub const IS_HANDLE: bool = true;
}

/// Asks whether `A` and `B` are one type: `SAME`. The rules read a type written as a
/// primitive's name (`u32`) as that primitive, a plain value that holds no memory; the generated
/// code checks with this that the name is not an alias or import of another type
/// (`type u32 = DeviceBuffer<f32>;` would hide a buffer from the race rule).
#[derive(Debug)]
pub struct SameProbe<A: ?Sized, B: ?Sized>(PhantomData<A>, PhantomData<B>);

/// The answer of [`SameProbe`] for two different types.
pub trait SameFallback {
    /// Not the same type.
    const SAME: bool = false;
}

impl<A: ?Sized, B: ?Sized> SameFallback for SameProbe<A, B> {}

impl<T: ?Sized> SameProbe<T, T> {
    /// The same type.
    pub const SAME: bool = true;
}

/// Asks whether `T` is a buffer whose own `slice` gives part of its memory: `OWN_SLICE`, for
/// a [`DeviceBuffer`] or [`HostBuffer`] and a shared reference to one. The race rule judges a
/// kernel argument `y.slice(range)` as param `y`; the call is the buffer's inherent method
/// (which method resolution picks before any trait's) only when `y`'s type is one of these, and
/// a type written `DeviceBuffer<T>` may be an import of another. (Not `&mut`, nor `&&`: through
/// those, a trait's `slice` would come first.)
#[derive(Debug)]
pub struct SliceProbe<T: ?Sized>(PhantomData<T>);

/// The answer of [`SliceProbe`] for any other type.
pub trait SliceFallback {
    /// Not a buffer with its own `slice`.
    const OWN_SLICE: bool = false;
}

impl<T: ?Sized> SliceFallback for SliceProbe<T> {}

macro_rules! own_slice {
    ($($buffer:ident),*) => {$(
        impl<T: 'static> SliceProbe<$buffer<T>> {
            /// Its `slice` is its own.
            pub const OWN_SLICE: bool = true;
        }

        impl<T: 'static> SliceProbe<&$buffer<T>> {
            /// Its `slice` is the buffer's own.
            pub const OWN_SLICE: bool = true;
        }
    )*};
}
own_slice!(DeviceBuffer, HostBuffer);

/// Whether two params' memories (`None`: not memory) overlap.
#[inline]
pub fn overlap_bytes(a: Option<Bytes>, b: Option<Bytes>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a.0 == b.0 && a.1 < b.2 && b.1 < a.2)
}

// ---------------------------------------------------------------------------------------------
// How a kernel parameter passes its argument.

/// A kernel parameter that takes a value.
pub const VALUE: u8 = 0;
/// A kernel parameter that points to memory the kernel reads (`DevicePtr<T>`), or a node
/// reading memory.
pub const READ: u8 = 1;
/// A kernel parameter that points to memory the kernel writes (`DevicePtrMut<T>`), or a node
/// writing memory.
pub const WRITE: u8 = 2;

/// How a kernel parameter type passes its argument: [`VALUE`], [`READ`] or [`WRITE`].
pub trait SlotAccess {
    /// The access.
    const ACCESS: u8;
    /// Whether the kernel may launch what it is given (a [`DeviceGraph`](crate::DeviceGraph)):
    /// the race rule checks the memory of the launched graph through the param the argument
    /// names, so the argument must name one.
    const LAUNCHES: bool = false;
}

impl<P: KernelParam> SlotAccess for P {
    const ACCESS: u8 = VALUE;
}

impl<T> SlotAccess for DevicePtr<T> {
    const ACCESS: u8 = READ;
}

impl<T> SlotAccess for DevicePtrMut<T> {
    const ACCESS: u8 = WRITE;
}

#[cfg(not(feature = "cuda-12020"))]
impl SlotAccess for crate::node::ConditionalHandle {
    const ACCESS: u8 = VALUE;
}

/// A handle, not memory; what the launched graph uses is checked through the param given.
impl SlotAccess for crate::DeviceGraph {
    const ACCESS: u8 = VALUE;
    const LAUNCHES: bool = true;
}

#[cfg(not(any(feature = "cuda-12020", feature = "cuda-12030")))]
impl SlotAccess for crate::device_launch::DeviceNode {
    const ACCESS: u8 = VALUE;
}

/// How each parameter of a kernel's parameter tuple passes its argument.
pub trait ArgsAccess {
    /// One [`SlotAccess::ACCESS`] per parameter.
    const ACCESS: &'static [u8];
    /// One [`SlotAccess::LAUNCHES`] per parameter.
    const LAUNCHES: &'static [bool];
}

macro_rules! args_access {
    ($($t:ident),*) => {
        impl<$($t: SlotAccess),*> ArgsAccess for ($($t,)*) {
            const ACCESS: &'static [u8] = &[$($t::ACCESS),*];
            const LAUNCHES: &'static [bool] = &[$($t::LAUNCHES),*];
        }
    };
}
args_access!();
args_access!(A);
args_access!(A, B);
args_access!(A, B, C);
args_access!(A, B, C, D);
args_access!(A, B, C, D, E);
args_access!(A, B, C, D, E, F);
args_access!(A, B, C, D, E, F, G);
args_access!(A, B, C, D, E, F, G, H);
args_access!(A, B, C, D, E, F, G, H, I);
args_access!(A, B, C, D, E, F, G, H, I, J);
args_access!(A, B, C, D, E, F, G, H, I, J, K);
args_access!(A, B, C, D, E, F, G, H, I, J, K, L);

/// Asks how a kernel parameter type `S` passes its argument: `ACCESS` ([`VALUE`] for a type
/// that is no kernel parameter: the argument list is refused elsewhere).
#[derive(Debug)]
pub struct SlotProbe<S: ?Sized>(PhantomData<S>);

/// The answer of [`SlotProbe`] for a type that is no kernel parameter.
pub trait SlotFallback {
    /// No memory.
    const ACCESS: u8 = VALUE;
    /// Launches nothing.
    const LAUNCHES: bool = false;
}

impl<S: ?Sized> SlotFallback for SlotProbe<S> {}

impl<S: SlotAccess> SlotProbe<S> {
    /// The access.
    pub const ACCESS: u8 = S::ACCESS;
    /// Whether the kernel may launch what it is given.
    pub const LAUNCHES: bool = S::LAUNCHES;
}

/// Asks how the parameters of the kernel param type `K` pass their arguments: `ACCESS`, one
/// per parameter (none for a type that is no kernel: it is refused elsewhere).
#[derive(Debug)]
pub struct ArgsProbe<K: ?Sized>(PhantomData<K>);

/// The answer of [`ArgsProbe`] for a type that is no kernel.
pub trait ArgsFallback {
    /// No parameters.
    const ACCESS: &'static [u8] = &[];
    /// No parameters.
    const LAUNCHES: &'static [bool] = &[];
}

impl<K: ?Sized> ArgsFallback for ArgsProbe<K> {}

impl<K: KernelType> ArgsProbe<K>
where
    K::Args: ArgsAccess,
{
    /// One access per parameter.
    pub const ACCESS: &'static [u8] = <K::Args as ArgsAccess>::ACCESS;
    /// Per parameter, whether the kernel may launch what it is given.
    pub const LAUNCHES: &'static [bool] = <K::Args as ArgsAccess>::LAUNCHES;
}

/// Parameter `i` of `launches` (`false` past its end).
pub const fn slot_launches(launches: &[bool], i: usize) -> bool {
    i < launches.len() && launches[i]
}

/// Parameter `i` of `access` ([`VALUE`] past its end: the argument count is refused
/// elsewhere).
pub const fn slot(access: &[u8], i: usize) -> u8 {
    if i < access.len() {
        access[i]
    } else {
        VALUE
    }
}

/// The strongest of `accesses` ([`WRITE`] over [`READ`] over [`VALUE`]).
pub const fn access_max(accesses: &[u8]) -> u8 {
    let mut max = VALUE;
    let mut i = 0;
    while i < accesses.len() {
        if accesses[i] > max {
            max = accesses[i];
        }
        i += 1;
    }
    max
}

/// Whether two nodes using one buffer with accesses `a` and `b` race: both use it, one
/// writes.
pub const fn races(a: u8, b: u8) -> bool {
    a != VALUE && b != VALUE && (a == WRITE || b == WRITE)
}

/// The message for a race with accesses `a` and `b`: `messages` are for (write, read), (read,
/// write) and (write, write).
pub const fn race_message(a: u8, b: u8, messages: [&'static str; 3]) -> &'static str {
    match (a == WRITE, b == WRITE) {
        (true, false) => messages[0],
        (false, true) => messages[1],
        _ => messages[2],
    }
}

// ---------------------------------------------------------------------------------------------
// Launch configurations given as params.

/// What `set_params` compares of a launch configuration param: its grid, block and dynamic
/// shared memory sizes (cudarc's `LaunchConfig` has no `PartialEq`).
pub type LaunchKey = ((u32, u32, u32), (u32, u32, u32), u32);

/// A param that is a kernel node's whole launch configuration (`<<<cfg>>>`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a launch configuration",
    label = "expected a `LaunchConfig`",
    note = "`<<<config>>>` takes a `LaunchConfig`; for sizes write `<<<grid, block>>>` or \
            `<<<grid, block, shared_mem_bytes>>>`"
)]
pub trait ConfigParam {
    /// The sizes, to compare.
    fn launch_key(&self) -> LaunchKey;
}

impl<T: WholeLaunchConfig + Copy> ConfigParam for T {
    #[inline]
    fn launch_key(&self) -> LaunchKey {
        let c = (*self).config();
        (c.grid_dim, c.block_dim, c.shared_mem_bytes)
    }
}

// ---------------------------------------------------------------------------------------------
// What `set_params` keeps of params with a role.

/// Asks for what `set_params` keeps of a param that a node gives a role: a child graph's
/// identity, a launch configuration's sizes. For a type without that role (the node's own code
/// reports it, at the node), a stand-in, so that the error is not repeated at the param.
#[derive(Debug)]
pub struct RoleProbe<T: ?Sized>(PhantomData<T>);

/// The stand-ins of [`RoleProbe`].
///
/// The copies are never made: a param without its role is an error at the node that gives it
/// the role, so a program whose code reaches them does not compile.
pub trait RoleFallback<T: ?Sized> {
    /// No identity.
    #[inline(always)]
    fn identity(_: &T) -> Option<u64> {
        None
    }
    /// No sizes.
    #[inline(always)]
    fn launch_key(_: &T) -> LaunchKey {
        ((0, 0, 0), (0, 0, 0), 0)
    }
    /// Never made (see above).
    fn duplicate(_: &T) -> Result<T>
    where
        T: Sized,
    {
        unreachable!("a child-graph param that is no graph does not compile")
    }
    /// Never made (see above).
    fn keep_config(_: &T) -> T
    where
        T: Sized,
    {
        unreachable!("a launch-configuration param that is none does not compile")
    }
}

impl<T: ?Sized> RoleFallback<T> for RoleProbe<T> {}

impl<T: ChildGraph + ?Sized> RoleProbe<T> {
    /// The graph's identity.
    #[inline(always)]
    pub fn identity(graph: &T) -> Option<u64> {
        graph.identity()
    }
}

impl<T: ChildGraph> RoleProbe<T> {
    /// A copy of the graph (see [`ChildGraph::duplicate`]).
    #[inline]
    pub fn duplicate(graph: &T) -> Result<T> {
        graph.duplicate()
    }
}

impl<T: ConfigParam> RoleProbe<T> {
    /// The sizes.
    #[inline(always)]
    pub fn launch_key(config: &T) -> LaunchKey {
        config.launch_key()
    }
}

impl<T: ConfigParam + Copy> RoleProbe<T> {
    /// A copy.
    #[inline(always)]
    pub fn keep_config(config: &T) -> T {
        *config
    }
}

// ---------------------------------------------------------------------------------------------
// Messages made at compile time.

/// Stops the evaluation of a constant with `message`: rustc reports it as an error at the call
/// (`track_caller`), which the generated code locates at the user's token.
#[track_caller]
pub const fn fail(message: &str) -> ! {
    panic!("{}", message)
}

/// A message joined from parts in a constant (`panic!` in a constant takes one `&str`).
#[derive(Debug, Clone, Copy)]
pub struct ConstMessage {
    bytes: [u8; ConstMessage::CAPACITY],
    len: usize,
}

impl ConstMessage {
    /// The longest message; a longer one is cut at a character boundary.
    pub const CAPACITY: usize = 2048;

    /// `parts`, joined.
    pub const fn join(parts: &[&str]) -> Self {
        let mut bytes = [0u8; Self::CAPACITY];
        let mut len = 0;
        let mut p = 0;
        while p < parts.len() {
            let part = parts[p].as_bytes();
            let mut i = 0;
            while i < part.len() && len < Self::CAPACITY {
                bytes[len] = part[i];
                len += 1;
                i += 1;
            }
            p += 1;
        }
        // Cut at a character boundary: drop a sequence's leading and continuation bytes that
        // lost their end.
        if len == Self::CAPACITY {
            while len > 0 && bytes[len - 1] & 0b1100_0000 == 0b1000_0000 {
                len -= 1;
            }
            if len > 0 && bytes[len - 1] >= 0b1100_0000 {
                len -= 1;
            }
        }
        Self { bytes, len }
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        match std::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Conditional bodies and child graphs.

/// A graph a child node embeds, with whether CUDA allows it in a conditional body: CUDA's body
/// rules hold at any depth, so a child graph holding a host, event or memory node (or embedding
/// one that does) cannot be embedded in a body; nor can one holding an NCCL collective, which
/// no body may run (a rank could skip it while its peers wait in it). A declared graph knows at compile time; a
/// runtime [`Graph`] is checked when it is embedded ([`Graph::add_child_graph`]).
pub trait BodyRules {
    /// `None`, or what CUDA refuses in a body ("holds host node `log`").
    const FORBIDDEN_IN_BODY: Option<&'static str>;
}

impl BodyRules for Graph<'static> {
    /// Checked when the graph is embedded.
    const FORBIDDEN_IN_BODY: Option<&'static str> = None;
}

impl<G: BodyRules + ?Sized> BodyRules for &G {
    const FORBIDDEN_IN_BODY: Option<&'static str> = G::FORBIDDEN_IN_BODY;
}

/// Asks [`BodyRules::FORBIDDEN_IN_BODY`] of a child graph param's type `T` (`None` for a type
/// that is no child graph: it is refused elsewhere).
#[derive(Debug)]
pub struct BodyProbe<T: ?Sized>(PhantomData<T>);

/// The answer of [`BodyProbe`] for a type that is no child graph.
pub trait BodyFallback {
    /// Nothing known.
    const FORBIDDEN_IN_BODY: Option<&'static str> = None;
}

impl<T: ?Sized> BodyFallback for BodyProbe<T> {}

impl<T: BodyRules + ?Sized> BodyProbe<T> {
    /// As the type says.
    pub const FORBIDDEN_IN_BODY: Option<&'static str> = T::FORBIDDEN_IN_BODY;
}

/// The first of `found` that is `Some`.
pub const fn first_forbidden(found: &[Option<&'static str>]) -> Option<&'static str> {
    let mut i = 0;
    while i < found.len() {
        if found[i].is_some() {
            return found[i];
        }
        i += 1;
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Child graphs' memory, checked when a declared graph is built.
//
// The declaration shows which params each node uses, but not what an embedded graph uses: that
// is in the child graph's record of its nodes' memory (`Graph::all_uses`), known when the
// parent is built. A child node and a node no edge orders with it race when the child's graph
// uses memory the other node uses, one of them writing; both may opt out for a param they name
// in `#[unordered(...)]`.

/// What a node uses of one param: its memory unless the access is [`VALUE`] (a kernel
/// parameter that takes a value: the param gives no memory there).
#[inline]
pub fn declared_use(access: u8, bytes: Option<Bytes>) -> DeclaredUse {
    if access == VALUE {
        (None, false)
    } else {
        (bytes, access == WRITE)
    }
}

/// Refuses a child node (`names.0`, embedding `child`) whose graph uses memory that the node
/// `names.1`, not ordered with it, uses as `uses` says, one of them writing, outside the memory
/// both opted out for (`exempt`).
pub fn check_child_uses(
    child: &Graph<'_>,
    uses: &[DeclaredUse],
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    let theirs: Vec<(Bytes, bool)> = uses
        .iter()
        .filter_map(|&(bytes, write)| Some((bytes?, write)))
        .collect();
    conflict(child, &theirs, exempt, names)
}

/// Refuses two child nodes, no edge ordering them, whose graphs use common memory, one of them
/// writing, outside the memory both opted out for (`exempt`).
pub fn check_children(
    (a, b): (&Graph<'_>, &Graph<'_>),
    exempt: &[Option<Bytes>],
    names: (&str, &str),
) -> Result<()> {
    let theirs: Vec<(Bytes, bool)> = b
        .uses_by_node()
        .flatten()
        .filter(|u| u.end > u.start)
        .map(|u| ((u.space, u.start, u.end), u.write))
        .collect();
    conflict(a, &theirs, exempt, names)
}

fn conflict(
    child: &Graph<'_>,
    theirs: &[(Bytes, bool)],
    exempt: &[Option<Bytes>],
    (child_node, other_node): (&str, &str),
) -> Result<()> {
    if theirs.is_empty() {
        return Ok(());
    }
    let within = |space: Space, start: u64, end: u64| {
        exempt
            .iter()
            .flatten()
            .any(|&(s, lo, hi)| s == space && lo <= start && end <= hi)
    };
    // The child's uses in place (no clone of its table: this runs at every `set_params`).
    for u in child.uses_by_node().flatten() {
        for &((space, start, end), write) in theirs {
            let overlaps = u.space == space && u.start < end && start < u.end;
            if overlaps && (u.write || write) && !within(space, u.start.max(start), u.end.min(end))
            {
                let (mine, other) = (verb(u.write), verb(write));
                return Err(Error::Hazard {
                    first: child_node.to_owned(),
                    second: other_node.to_owned(),
                    reason: format!(
                        "the graph that child node `{child_node}` embeds {mine} memory that \
                         `{other_node}` {other}, and no edge orders the two nodes (a data race): \
                         add an edge between them, give them separate buffers, or, if they use \
                         disjoint parts of a buffer param or only atomics, mark both \
                         `#[unordered(param)]`"
                    ),
                });
            }
        }
    }
    Ok(())
}

fn verb(write: bool) -> &'static str {
    if write {
        "writes"
    } else {
        "reads"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Buffer = DeviceBuffer<f32>;
    struct NotMemory;

    #[test]
    fn probes_answer_for_any_type() {
        const MEMORY: [bool; 4] = [
            <ParamProbe<Buffer>>::IS_MEMORY,
            <ParamProbe<&'static HostBuffer<u8>>>::IS_MEMORY,
            <ParamProbe<u32>>::IS_MEMORY,
            <ParamProbe<NotMemory>>::IS_MEMORY,
        ];
        assert_eq!(MEMORY, [true, true, false, false]);
        const VALUE: [bool; 4] = [
            <ParamProbe<u32>>::IS_VALUE,
            <ParamProbe<Buffer>>::IS_VALUE,
            <ParamProbe<NotMemory>>::IS_VALUE,
            // `Copy`, yet it may hold memory: no value.
            <ParamProbe<Option<DevicePtrMut<f32>>>>::IS_VALUE,
        ];
        assert_eq!(VALUE, [true, false, false, false]);
        assert_eq!(<ParamProbe<NotMemory>>::bytes(&NotMemory), None);
        #[cfg(not(feature = "cuda-12020"))]
        {
            use crate::node::ConditionalHandle;
            const HANDLE: [bool; 3] = [
                <ParamProbe<ConditionalHandle>>::IS_HANDLE,
                <ParamProbe<&'static ConditionalHandle>>::IS_HANDLE,
                <ParamProbe<Buffer>>::IS_HANDLE,
            ];
            assert_eq!(HANDLE, [true, true, false]);
        }
    }

    #[test]
    fn the_slice_probe_answers_for_buffers_and_their_shared_references_only() {
        const OWN: [bool; 8] = [
            <SliceProbe<Buffer>>::OWN_SLICE,
            <SliceProbe<&'static HostBuffer<u8>>>::OWN_SLICE,
            // A pointer has no `slice` of its own (`try_slice`): a trait's would be called.
            <SliceProbe<DevicePtrMut<f32>>>::OWN_SLICE,
            <SliceProbe<GraphAlloc<f32>>>::OWN_SLICE,
            // Through these, method resolution finds a trait's `slice` first.
            <SliceProbe<&'static mut Buffer>>::OWN_SLICE,
            <SliceProbe<&'static &'static Buffer>>::OWN_SLICE,
            <SliceProbe<NotMemory>>::OWN_SLICE,
            <SliceProbe<[Buffer; 2]>>::OWN_SLICE,
        ];
        assert_eq!(OWN, [true, true, false, false, false, false, false, false]);
    }

    #[test]
    fn the_same_probe_tells_a_primitive_from_an_alias_of_another_type() {
        #[allow(non_camel_case_types)]
        type u32 = DeviceBuffer<f32>;
        type Count = core::primitive::u32;
        const ANSWERS: [bool; 3] = [
            <SameProbe<Count, core::primitive::u32>>::SAME,
            <SameProbe<u32, core::primitive::u32>>::SAME,
            <SameProbe<f32, core::primitive::f64>>::SAME,
        ];
        assert_eq!(ANSWERS, [true, false, false]);
    }

    #[test]
    fn kernel_parameters_say_how_they_pass_arguments() {
        type Out = DevicePtrMut<f32>;
        type Args = (u32, DevicePtr<f32>, Out);
        const SLOTS: [u8; 3] = [
            <SlotProbe<Out>>::ACCESS,
            <SlotProbe<f64>>::ACCESS,
            <SlotProbe<NotMemory>>::ACCESS,
        ];
        assert_eq!(SLOTS, [WRITE, VALUE, VALUE]);
        const ARGS: &[u8] = <ArgsProbe<crate::Kernel<Args>>>::ACCESS;
        assert_eq!(ARGS, [VALUE, READ, WRITE]);
        assert!(<ArgsProbe<NotMemory>>::ACCESS.is_empty());
        assert_eq!((slot(ARGS, 2), slot(ARGS, 7)), (WRITE, VALUE));
        assert_eq!(access_max(&[READ, VALUE]), READ);
        assert!(races(READ, WRITE) && !races(READ, READ) && !races(VALUE, WRITE));
    }

    #[test]
    fn messages_join_at_compile_time() {
        const JOINED: ConstMessage = ConstMessage::join(&["a `", "é", "` b"]);
        assert_eq!(JOINED.as_str(), "a `é` b");
        let long = "é".repeat(ConstMessage::CAPACITY);
        let cut = ConstMessage::join(&["x", &long]);
        assert!(cut.as_str().len() > ConstMessage::CAPACITY - 3);
        assert!(cut.as_str().starts_with("xé"));
    }

    #[test]
    fn the_first_forbidden_kind_is_named() {
        const FOUND: Option<&str> = first_forbidden(&[None, Some("holds host node `h`"), None]);
        assert_eq!(FOUND, Some("holds host node `h`"));
        assert_eq!(<BodyProbe<NotMemory>>::FORBIDDEN_IN_BODY, None);
        assert!(!overlap_bytes(None, Some((Space::Device, 0, 4))));
        assert!(overlap_bytes(
            Some((Space::Device, 0, 8)),
            Some((Space::Device, 4, 12))
        ));
    }
}
