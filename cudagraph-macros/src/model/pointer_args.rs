//! The forms a kernel argument for a pointer parameter may take (rule T14). The race rule sees a
//! node's memory through the params and allocations it names, so an argument that gives a kernel
//! memory must be one whose memory provably *is* what it names: a name, an element picked by an
//! index the macro knows, and the runtime's own sub-range of a buffer; parentheses and `&`
//! around them change no memory, so they are read through (no memory type the eval function
//! binds is passed by `&` today, but a type error says so better than this rule). Anything else
//! (a block, an `if`, a call, another method) could compute other memory while mentioning a
//! param: `if f { STATIC.get().unwrap() } else { x }`.
//!
//! Why these forms are sound, in the code the macro generates: a param or allocation name in a
//! node expression is a local the eval function binds (`expand::Gen::bindings`), and the forms
//! hold no block, closure or `let` that could bind the name to something else; an index the
//! macro knows is a `usize` (integer literals, the graph's consts and the loop variable), so it
//! indexes an array by the language's own indexing, not by a user's `Index` impl (which a local
//! index type would allow on a foreign array); `slice` on a place bound to a `DeviceBuffer<T>` or
//! `HostBuffer<T>` (by reference, as the eval function binds it) is their inherent method, which
//! method resolution picks before any trait's: the generated code asserts that the param's type
//! is one of those (`__private::SliceProbe`), since a name can be an import of another type. The
//! range given to `slice` is a plain value: it may be any expression.

use syn::{Expr, Ident};

use super::{Buffer, Model, NodeOp, Rep};
use crate::repeat;

/// The forms, as messages list them.
pub const FORMS: &str = "a param or allocation by name (`x`), an element of an array \
                         param or of a repeated allocation whose index the macro knows \
                         (`w[layer]`), or part of a `DeviceBuffer<T>` or `HostBuffer<T>` \
                         param (`y.slice(..half)`)";

/// A kernel argument in one of the forms whose memory is what it names.
#[derive(Debug, Clone, Copy)]
pub struct PointerArg<'e> {
    /// The param or allocation named.
    pub name: &'e Ident,
    /// The index after the name (`w[layer]`).
    pub index: Option<&'e Expr>,
    /// The method name of the first `.slice(range)` taken of it, if any.
    pub slice: Option<&'e Ident>,
}

/// `expr` as a pointer argument, if it has one of the forms (see the module docs): `&` and
/// parentheses around a receiver; a receiver is a place or a receiver's `.slice(range)`; a place
/// is a name or a name with an index. Attributes on any part leave the forms (`#[cfg]` could
/// remove it).
pub fn pointer_arg(expr: &Expr) -> Option<PointerArg<'_>> {
    match expr {
        Expr::Reference(r) if r.attrs.is_empty() && r.mutability.is_none() => pointer_arg(&r.expr),
        Expr::Paren(p) if p.attrs.is_empty() => pointer_arg(&p.expr),
        Expr::Group(g) if g.attrs.is_empty() => pointer_arg(&g.expr),
        _ => receiver(expr),
    }
}

/// A place, or a receiver's `.slice(range)`. No `&` here: method resolution on `(&y).slice(..)`
/// would look at a trait implemented for `&DeviceBuffer<T>` before the inherent method.
fn receiver(expr: &Expr) -> Option<PointerArg<'_>> {
    match expr {
        Expr::Paren(p) if p.attrs.is_empty() => receiver(&p.expr),
        Expr::Group(g) if g.attrs.is_empty() => receiver(&g.expr),
        Expr::MethodCall(m)
            if m.attrs.is_empty()
                && m.method == "slice"
                && m.turbofish.is_none()
                && m.args.len() == 1 =>
        {
            let mut inner = receiver(&m.receiver)?;
            inner.slice.get_or_insert(&m.method);
            Some(inner)
        }
        Expr::Index(i) if i.attrs.is_empty() => Some(PointerArg {
            name: name(&i.expr)?,
            index: Some(&i.index),
            slice: None,
        }),
        _ => Some(PointerArg {
            name: name(expr)?,
            index: None,
            slice: None,
        }),
    }
}

/// A bare name (no path, no generic arguments).
fn name(expr: &Expr) -> Option<&Ident> {
    match expr {
        Expr::Path(p) if p.attrs.is_empty() && p.qself.is_none() => p.path.get_ident(),
        _ => None,
    }
}

impl Model<'_> {
    /// The memory a pointer argument of node instance `rep` gives, when the macro can tell: a
    /// param (not `#[indirect]` when sliced), an element of an array param of a length the macro
    /// knows at an index it knows, an allocation, or one instance of a repeated alloc node.
    /// `None`: the argument names something else, or picks what the macro cannot tell.
    pub fn pointer_buffer(&self, arg: &PointerArg, rep: Option<Rep>) -> Option<Buffer> {
        let known = |index: &Expr| repeat::eval(index, self.env(rep)).ok();
        if let Some(param) = self.param(arg.name) {
            if arg.slice.is_some() && self.is_indirect(param) {
                return None;
            }
            return match (arg.index, self.arrays[param]) {
                (None, _) => Some(Buffer::Param(param, None)),
                (Some(index), Some((_, len))) => known(index)
                    .filter(|&k| k < len)
                    .map(|k| Buffer::Param(param, Some(k))),
                (Some(_), None) => None,
            };
        }
        // An allocation has no sub-range method: `.slice` on one names no memory the macro sees.
        if arg.slice.is_some() {
            return None;
        }
        match (arg.index, self.repeated(arg.name)) {
            (Some(index), Some(r)) => known(index)
                .and_then(|v| r.at(v))
                .filter(|&a| matches!(self.nodes[a].op, NodeOp::Alloc(_)))
                .map(Buffer::Alloc),
            (None, _) => self.allocation(arg.name).map(Buffer::Alloc),
            (Some(_), None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(source: &str) -> Option<(String, Option<String>, bool)> {
        let expr: Expr = syn::parse_str(source).expect("an expression");
        pointer_arg(&expr).map(|a| {
            (
                a.name.to_string(),
                a.index
                    .map(|i| crate::text::pretty_expr(quote::ToTokens::to_token_stream(i))),
                a.slice.is_some(),
            )
        })
    }

    #[test]
    fn the_forms_whose_memory_is_what_they_name() {
        let named = |name: &str, index: Option<&str>, slice| {
            Some((name.to_owned(), index.map(str::to_owned), slice))
        };
        assert_eq!(form("x"), named("x", None, false));
        assert_eq!(form("&x"), named("x", None, false));
        assert_eq!(form("(&(x))"), named("x", None, false));
        assert_eq!(form("w[layer]"), named("w", Some("layer"), false));
        assert_eq!(form("&t[l + 1]"), named("t", Some("l + 1"), false));
        assert_eq!(form("y.slice(..half)"), named("y", None, true));
        assert_eq!(form("&y.slice(..n as usize / 2)"), named("y", None, true));
        assert_eq!(
            form("w[l].slice(1..).slice(..{ let y = 3; y })"),
            named("w", Some("l"), true)
        );
    }

    #[test]
    fn anything_else_may_compute_other_memory() {
        for source in [
            "if flag { STATIC.get().unwrap() } else { x }",
            "{ let _ = x; other() }",
            "pick(x, &OTHER)",
            "x.other()",
            "x.slice(..1).unwrap()",
            "x.slice::<std::ops::RangeFull>(..)",
            "x.slice()",
            "(&x).slice(..1)",
            "&mut x",
            "*x",
            "x.0",
            "self::x",
            "m!(x)",
            "|| x",
            "match x { y => y }",
            "f(x)[0]",
            "#[cfg(all())] x",
        ] {
            assert_eq!(form(source), None, "{source}");
        }
    }
}
