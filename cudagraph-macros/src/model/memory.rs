//! The memory a node uses, and how a param's type spells its memory.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::{Ident, PathArguments, Token, Type};

use crate::parse::{CollectiveKind, KernelOp, NodeDecl, NodeOp};
use crate::repeat;

use super::*;

/// Where memory lives, as a param's type says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Space {
    Device,
    Host,
}

/// What a type says about memory *as written*. Only a shortcut: a type written through an alias,
/// or by a name the macro does not know, is `Unknown`, and the generated code asks the type
/// system (`cudagraph_runtime::__private::ParamProbe`); no rule is decided on the spelling of an
/// `Unknown` type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelled {
    /// One of the runtime's memory types by name (`DeviceBuffer<T>`, `HostPtr<T>`, ...).
    Memory(Space),
    /// A primitive (`u32`, `f32`, `bool`, ...): never memory.
    Plain,
    Unknown,
}

/// The primitive types, which are never memory.
const PRIMITIVES: [&str; 17] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "bool", "char", "str",
];

/// What `ty` says about memory as written (see [`Spelled`]).
pub fn spelled(ty: &Type) -> Spelled {
    let Type::Path(path) = ty else {
        return Spelled::Unknown;
    };
    if path.qself.is_some() {
        return Spelled::Unknown;
    }
    let Some(last) = path.path.segments.last() else {
        return Spelled::Unknown;
    };
    match last.ident.to_string().as_str() {
        "DeviceBuffer" | "DevicePtr" | "DevicePtrMut" | "GraphAlloc" => {
            Spelled::Memory(Space::Device)
        }
        "HostBuffer" | "HostPtr" | "HostPtrMut" => Spelled::Memory(Space::Host),
        // `::u32` is an extern crate's path, not the primitive.
        name if path.path.segments.len() == 1
            && path.path.leading_colon.is_none()
            && matches!(last.arguments, PathArguments::None)
            && PRIMITIVES.contains(&name) =>
        {
            Spelled::Plain
        }
        _ => Spelled::Unknown,
    }
}

/// How a kernel parameter type, as written, passes its argument: `Some(Some(write))` for a
/// pointer (`DevicePtr` reads, `DevicePtrMut` writes), `Some(None)` for a value, `None` when the
/// spelling does not say (an alias: the generated code asks the type system).
pub fn spelled_slot(ty: &Type) -> Option<Option<bool>> {
    if spelled(ty) == Spelled::Plain {
        return Some(None);
    }
    match last_segment(ty).as_deref() {
        Some("DevicePtrMut") => Some(Some(true)),
        Some("DevicePtr") => Some(Some(false)),
        Some("ConditionalHandle") => Some(None),
        _ => None,
    }
}

/// How a node uses memory, as far as the declaration shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    Read,
    Write,
    /// Passed to kernel parameter `arg` of the kernel param `kernel`, whose type the declaration
    /// does not spell out (`Kernel<Alias>`, or an alias in the tuple): a read, a write or no use
    /// of memory at all (a value), as the type system says.
    Slot {
        kernel: usize,
        arg: usize,
    },
}

impl Access {
    /// Whether it writes, if the declaration says.
    pub fn known_write(self) -> Option<bool> {
        match self {
            Access::Read => Some(false),
            Access::Write => Some(true),
            Access::Slot { .. } => None,
        }
    }
}

/// Whether what a use names is memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mem {
    /// Certainly: an allocation, an operand whose node takes memory only (a memset's
    /// destination, ...), or a param whose type is written as one of the runtime's memory types.
    Yes,
    /// As the type system says of the param's type (an alias, or a type the macro does not
    /// know, mentioned in a kernel argument).
    Probe,
}

/// Memory a node can use: a buffer param (or one element of an array param) or an allocation
/// of the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Buffer {
    /// A param, by index; for an array param, the element used, when the macro knows which
    /// (`None`: the param as a whole, or an element it cannot tell).
    Param(usize, Option<usize>),
    /// An allocation, by the index of its alloc node.
    Alloc(usize),
}

impl Buffer {
    /// Whether two uses certainly use the same memory: one allocation, one param, one element
    /// of an array param or an element the macro cannot tell. (Different params, or different
    /// elements, may share memory too: only their values show, see `check::hazards`.)
    pub fn same(self, other: Buffer) -> bool {
        match (self, other) {
            (Buffer::Param(a, x), Buffer::Param(b, y)) => {
                a == b && (x.is_none() || y.is_none() || x == y)
            }
            (a, b) => a == b,
        }
    }

    /// The param, if it is one (or an element of one).
    pub fn param(self) -> Option<usize> {
        match self {
            Buffer::Param(p, _) => Some(p),
            Buffer::Alloc(_) => None,
        }
    }
}

/// One use of memory by a node.
#[derive(Debug, Clone, Copy)]
pub struct MemUse {
    /// The memory used.
    pub buffer: Buffer,
    pub access: Access,
    /// The token naming the memory in the node.
    pub span: Span,
    pub mem: Mem,
}

/// A node whose memory uses the declaration does not show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opaque {
    /// A capture node without a list of uses: its recorded work may use any memory.
    Capture,
    /// A child-graph node: the embedded graph's uses are known when the graph is built, and
    /// checked then.
    Child,
}

impl Model<'_> {
    /// What param `index`'s type says about memory, as written (of its elements, for an array
    /// param).
    pub fn param_spelled(&self, index: usize) -> Spelled {
        spelled(self.value_type(index))
    }

    /// The type of param `index`'s values: its elements', for an array param, else its own.
    pub fn value_type(&self, index: usize) -> &Type {
        match self.arrays[index] {
            Some((elem, _)) => elem,
            None => &self.params[index].ty,
        }
    }

    /// The name of a buffer, as messages say it: `x`, `w[3]`, `t[0]`.
    pub fn buffer_name(&self, buffer: Buffer) -> String {
        match buffer {
            Buffer::Param(i, None) => name_of(&self.params[i].name),
            Buffer::Param(i, Some(k)) => format!("{}[{k}]", name_of(&self.params[i].name)),
            Buffer::Alloc(i) => self.nodes[i].name.clone(),
        }
    }

    /// The buffer `name` (with `index` after it, in iteration `rep`) may name: a param or one
    /// of its elements (memory or not: the type system may have to say), else an allocation.
    pub fn buffer(
        &self,
        name: &Ident,
        index: Option<&syn::Expr>,
        rep: Option<Rep>,
    ) -> Option<Buffer> {
        match self.param(name) {
            Some(i) => Some(Buffer::Param(
                i,
                index.and_then(|index| self.element(i, index, rep)),
            )),
            None => match self.repeated(name) {
                Some(r) => index
                    .and_then(|index| repeat::eval(index, self.env(rep)).ok())
                    .and_then(|v| r.at(v))
                    .filter(|&a| matches!(self.nodes[a].op, NodeOp::Alloc(_)))
                    .map(Buffer::Alloc),
                None => self.allocation(name).map(Buffer::Alloc),
            },
        }
    }

    /// Whether node `node`'s memory uses are not in the declaration, and why.
    pub fn opaque(&self, node: &NodeDecl) -> Option<Opaque> {
        match &node.op {
            NodeOp::Capture(c) if c.uses.is_none() => Some(Opaque::Capture),
            NodeOp::Child(_) => Some(Opaque::Child),
            _ => None,
        }
    }

    /// How kernel node `k` passes its argument `arg`, as its kernel param's type is written:
    /// `Read` for a `DevicePtr<T>` parameter, `Write` for a `DevicePtrMut<T>`, `Slot` when the
    /// type does not say (an alias, or a kernel type behind one: the type system decides), `None`
    /// for a value (a primitive, a `ConditionalHandle`) or past the written parameters.
    pub fn slot_access(&self, k: &KernelOp, arg: usize) -> Option<Access> {
        let kernel = self.param(&k.kernel)?;
        match kernel_params(&self.params[kernel].ty) {
            Some(types) => match spelled_slot(types.get(arg)?) {
                Some(None) => None,
                Some(Some(true)) => Some(Access::Write),
                Some(Some(false)) => Some(Access::Read),
                None => Some(Access::Slot { kernel, arg }),
            },
            None => Some(Access::Slot { kernel, arg }),
        }
    }

    /// The memory (params and allocations) `node` uses and how: kernel arguments (what an
    /// argument in one of the forms of `pointer_args` names; read for a `DevicePtr` parameter,
    /// written for a `DevicePtrMut`, as the type system says when the parameter's type is not
    /// written out), a memset's destination (written), a memcpy's
    /// source (read) and destination (written), a host node's buffers (`mut`: written), a
    /// capture node's declared uses (`mut`: written). Params whose type is written as a
    /// primitive are never memory; `#[indirect]` params are read through keys of their own
    /// (only the fetch node writes them).
    pub fn memory_uses(&self, node: &Inst) -> Vec<MemUse> {
        let mut uses = Vec::new();
        let rep = node.rep;
        // An operand that must be memory (its node's traits take memory only).
        let operand =
            |ident: &Ident, index: Option<&syn::Expr>, access: Access, uses: &mut Vec<MemUse>| {
                if let Some(buffer) = self.buffer(ident, index, rep) {
                    uses.push(MemUse {
                        buffer,
                        access,
                        span: ident.span(),
                        mem: Mem::Yes,
                    });
                }
            };
        let operand_expr = |expr: &syn::Expr, access: Access, uses: &mut Vec<MemUse>| {
            if let Some((ident, index)) = operand_name(expr) {
                operand(ident, index, access, uses);
            }
        };
        match &node.op {
            NodeOp::Kernel(k) => {
                for (arg, expr) in k.args.iter().enumerate() {
                    let Some(access) = self.slot_access(k, arg) else {
                        continue; // a value (or too many arguments)
                    };
                    // Only the forms whose memory is what they name give memory: anything else
                    // is refused for a pointer parameter (`check::operands`), asserted to be
                    // a value for one behind an alias (`expand::hazards`).
                    let Some(form) = pointer_arg(expr) else {
                        continue;
                    };
                    let Some(buffer) = self.pointer_buffer(&form, rep) else {
                        continue;
                    };
                    let mem = match buffer {
                        Buffer::Param(i, _) if self.is_indirect(i) => continue,
                        Buffer::Param(i, _) => match self.param_spelled(i) {
                            Spelled::Plain => continue,
                            Spelled::Memory(_) => Mem::Yes,
                            Spelled::Unknown => Mem::Probe,
                        },
                        Buffer::Alloc(_) => Mem::Yes,
                    };
                    uses.push(MemUse {
                        buffer,
                        access,
                        span: form.name.span(),
                        mem,
                    });
                }
            }
            NodeOp::Memset(m) => operand_expr(&m.dst, Access::Write, &mut uses),
            NodeOp::Memcpy(m) => {
                operand_expr(&m.src, Access::Read, &mut uses);
                operand_expr(&m.dst, Access::Write, &mut uses);
            }
            NodeOp::Host(h) => {
                for b in &h.buffers {
                    let access = if b.mutability.is_some() {
                        Access::Write
                    } else {
                        Access::Read
                    };
                    operand(
                        &b.name,
                        b.index.as_ref().map(|i| &i.expr),
                        access,
                        &mut uses,
                    );
                }
            }
            NodeOp::Capture(c) => {
                for b in c.uses.iter().flat_map(|u| &u.buffers) {
                    let access = if b.mutability.is_some() {
                        Access::Write
                    } else {
                        Access::Read
                    };
                    // Params only: a capture's work cannot know an allocation's address.
                    if self.param(&b.name).is_some() {
                        operand(
                            &b.name,
                            b.index.as_ref().map(|i| &i.expr),
                            access,
                            &mut uses,
                        );
                    }
                }
            }
            // A collective reads its source and writes its destination; its one buffer, it reads
            // and writes (all-reduce, broadcast on the root), writes (receive) or reads (send).
            NodeOp::Collective(c) => match &c.dst {
                Some(dst) => {
                    operand(&c.src, None, Access::Read, &mut uses);
                    operand(dst, None, Access::Write, &mut uses);
                }
                None if c.kind == CollectiveKind::Send => {
                    operand(&c.src, None, Access::Read, &mut uses)
                }
                None => operand(&c.src, None, Access::Write, &mut uses),
            },
            NodeOp::Child(_)
            | NodeOp::Empty(_)
            | NodeOp::Alloc(_)
            | NodeOp::Free(_)
            | NodeOp::Record(_)
            | NodeOp::Wait(_)
            | NodeOp::SemaphoreSignal(_)
            | NodeOp::SemaphoreWait(_)
            | NodeOp::Conditional(_) => {}
        }
        uses
    }

    /// The buffers named in a node's `#[unordered(...)]` attributes, with their tokens: a
    /// param (all its elements, for an array param), or an allocation (of a repeated alloc
    /// node, the node's own iteration's).
    pub fn unordered_buffers(&self, node: &Inst) -> Vec<(Ident, Option<Buffer>)> {
        node.attrs
            .iter()
            .filter(|a| a.path().is_ident("unordered"))
            .filter_map(|a| {
                a.parse_args_with(Punctuated::<Ident, Token![,]>::parse_terminated)
                    .ok()
            })
            .flatten()
            .map(|ident| {
                let own = self.repeated(&ident).and_then(|r| {
                    let rep = node.rep?;
                    let first = &self.nodes[r.first];
                    (first.rep?.lp == rep.lp && matches!(first.op, NodeOp::Alloc(_)))
                        .then(|| r.at(rep.value))?
                        .map(Buffer::Alloc)
                });
                let buffer = own.or_else(|| self.buffer(&ident, None, None));
                (ident, buffer)
            })
            .collect()
    }
}
