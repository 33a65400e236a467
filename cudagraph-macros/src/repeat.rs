//! What the macro computes of repetition at expansion time: the values of a graph's consts, the
//! range of a `for` loop, an index (`attn[layer + 1]`, `w[LAYERS - 1]`), an array param's length.
//!
//! The topology is fixed when the macro runs, so every count and every index that picks a node
//! or a buffer must be known then: integer literals, the consts declared in the graph, the loop
//! variable, and `+ - * / %` between them (parentheses, `as usize` allowed). A const declared
//! outside the graph is a path rustc resolves after the macro ran, so the macro cannot use it.
//!
//! The generated code computes an index again, with the tokens as written: the macro must find
//! the value rustc finds, or the rules judge another element than the one a node uses. So it
//! computes as rustc does, in `usize` arithmetic (a value on the way below zero overflows there),
//! and the generated code asserts that the `usize` an index casts to is the primitive
//! (`expand::hazards`): an alias of that name would make the cast truncate.

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Ident, Lit, Type};

use crate::tokens::name_of;

/// The names an index may use: the graph's consts (those the macro could evaluate) and the
/// loop variable, with the value it has in one iteration.
#[derive(Clone, Copy)]
pub struct Env<'e> {
    pub consts: &'e BTreeMap<String, usize>,
    pub var: Option<(&'e str, usize)>,
}

/// Why an expression has no value the macro knows.
#[derive(Debug, Clone)]
pub struct Unknown {
    /// The token to point at.
    pub span: Span,
    pub why: Why,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// A name the macro does not know (a param, a const declared outside the graph, another
    /// loop's variable).
    Name(String),
    /// An operation the macro does not evaluate (a call, a method, `<<`, ...).
    Unsupported,
    /// Below zero, or beyond `usize`: the value or one computed on the way to it.
    OutOfRange,
    /// A division or remainder by zero.
    DivisionByZero,
    /// A range without its start or its end (`0..`).
    OpenRange,
}

/// What the macro evaluates, said in messages.
pub const WHAT_IS_KNOWN: &str = "unsuffixed or `usize` integer literals, consts declared in \
                                 the graph and the loop variable, with `+`, `-`, `*`, `/` and `%` \
                                 in `usize` arithmetic";

impl Unknown {
    /// The reason, as a message says it: `` `n` is not a const of the graph``; `is_param` tells
    /// the graph's params, which are known only at run time.
    pub fn reason(&self, is_param: &dyn Fn(&str) -> bool) -> String {
        match &self.why {
            Why::Name(name) if is_param(name) => format!(
                "`{name}` is a param, known only when the graph is built, and the topology is \
                 fixed at compile time (the macro knows {WHAT_IS_KNOWN})"
            ),
            Why::Name(name) => format!(
                "`{name}` is not known when the macro expands (it knows {WHAT_IS_KNOWN}; a const \
                 declared outside the graph is not, declare it in the graph: `const {name}: \
                 usize = ...;`)"
            ),
            Why::Unsupported => format!("the macro evaluates only {WHAT_IS_KNOWN}"),
            Why::OutOfRange => "its value, or one computed on the way to it, is below zero or \
                                beyond `usize`, where rustc's `usize` arithmetic overflows: keep \
                                every value on the way in range (add before you subtract)"
                .to_owned(),
            Why::DivisionByZero => "it divides by zero".to_owned(),
            Why::OpenRange => "a repetition's range has a start and an end, `start..end` or \
                               `start..=end`"
                .to_owned(),
        }
    }
}

/// The value of `expr` in `env`.
pub fn eval(expr: &Expr, env: Env) -> Result<usize, Unknown> {
    let value = eval_wide(expr, env)?;
    usize::try_from(value.value).map_err(|_| Unknown {
        span: expr.span(),
        why: Why::OutOfRange,
    })
}

/// A value the macro computed, with what it needs to compute as rustc does.
#[derive(Clone, Copy)]
struct Value {
    value: i128,
    /// Whether the expression is a `usize` to rustc whatever surrounds it: it holds the loop
    /// variable, a const of the graph, a `usize` literal or a cast to `usize`. Integer literals
    /// alone are an `i32` inside a cast (`(2 + 3) as usize`).
    typed: bool,
    /// The largest value computed on the way (its own included).
    peak: i128,
}

/// The value of `expr`, computed as the generated code computes it: in `usize` arithmetic, where
/// a value below zero or beyond `usize` is an overflow (a panic with overflow checks, a wrapped
/// value without, which the macro cannot follow: `(layer - 3) % 3` at `layer = 0` is 1 in a
/// release build). So every value on the way must be a `usize`, not only the result: the macro
/// judges the element the generated code picks, in any build.
fn eval_wide(expr: &Expr, env: Env) -> Result<Value, Unknown> {
    let unsupported = || Unknown {
        span: expr.span(),
        why: Why::Unsupported,
    };
    let out_of_range = || Unknown {
        span: expr.span(),
        why: Why::OutOfRange,
    };
    let checked = |value: Option<i128>, typed: bool, peak: i128| match value {
        Some(value) if (0..=usize::MAX as i128).contains(&value) => Ok(Value {
            value,
            typed,
            peak: peak.max(value),
        }),
        _ => Err(out_of_range()),
    };
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            // A suffix other than `usize` gives the literal another type, whose arithmetic (and
            // whose overflow, where a lint is allowed) is not `usize`'s.
            Lit::Int(int) if matches!(int.suffix(), "" | "usize") => {
                let value = int.base10_parse::<i128>().map_err(|_| out_of_range())?;
                checked(Some(value), int.suffix() == "usize", value)
            }
            _ => Err(unsupported()),
        },
        Expr::Path(path) if path.qself.is_none() => {
            let Some(ident) = path.path.get_ident() else {
                return Err(unsupported());
            };
            let name = name_of(ident);
            let found = match env.var {
                Some((var, value)) if var == name => Some(value),
                _ => env.consts.get(&name).copied(),
            };
            match found {
                Some(value) => checked(Some(value as i128), true, value as i128),
                None => Err(Unknown {
                    span: ident.span(),
                    why: Why::Name(name),
                }),
            }
        }
        Expr::Paren(inner) => eval_wide(&inner.expr, env),
        Expr::Group(inner) => eval_wide(&inner.expr, env),
        // `layer as usize`: the value is already one. Of integer literals alone, rustc computes
        // an `i32`: each value on the way must be one too.
        Expr::Cast(cast) if is_usize(&cast.ty) => {
            let inner = eval_wide(&cast.expr, env)?;
            if !inner.typed && inner.peak > i32::MAX as i128 {
                return Err(out_of_range());
            }
            Ok(Value {
                typed: true,
                ..inner
            })
        }
        Expr::Binary(binary) => {
            let (a, b) = (
                eval_wide(&binary.left, env)?,
                eval_wide(&binary.right, env)?,
            );
            let (typed, peak) = (a.typed || b.typed, a.peak.max(b.peak));
            let (a, b) = (a.value, b.value);
            let value = match binary.op {
                BinOp::Add(_) => a.checked_add(b),
                BinOp::Sub(_) => a.checked_sub(b),
                BinOp::Mul(_) => a.checked_mul(b),
                BinOp::Div(_) | BinOp::Rem(_) if b == 0 => {
                    return Err(Unknown {
                        span: binary.right.span(),
                        why: Why::DivisionByZero,
                    })
                }
                BinOp::Div(_) => a.checked_div(b),
                BinOp::Rem(_) => a.checked_rem(b),
                _ => return Err(unsupported()),
            };
            checked(value, typed, peak)
        }
        _ => Err(unsupported()),
    }
}

/// `usize`, as a cast's target or a const's type is written: `usize`, or its full path
/// (`core::primitive::usize`, `std::primitive::usize`, with or without leading `::`), which a
/// module naming another type `usize` needs.
pub fn is_usize(ty: &Type) -> bool {
    let Type::Path(p) = ty else {
        return false;
    };
    if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
        return false;
    }
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    match names.as_slice() {
        [ty] => ty == "usize" && p.path.leading_colon.is_none(),
        [krate, module, ty] => {
            (krate == "core" || krate == "std") && module == "primitive" && ty == "usize"
        }
        _ => false,
    }
}

/// The types that casts in `expr` name as `usize` (`layer as usize`), in the part of it the macro
/// evaluates: the generated code asserts that each is the primitive (see the module docs).
pub fn usize_casts(expr: &Expr, out: &mut Vec<Type>) {
    match expr {
        Expr::Paren(inner) => usize_casts(&inner.expr, out),
        Expr::Group(inner) => usize_casts(&inner.expr, out),
        Expr::Cast(cast) if is_usize(&cast.ty) => {
            out.push((*cast.ty).clone());
            usize_casts(&cast.expr, out);
        }
        Expr::Binary(binary) => {
            usize_casts(&binary.left, out);
            usize_casts(&binary.right, out);
        }
        _ => {}
    }
}

/// The graph's consts, evaluated in declared order (a const may use those before it). A const
/// the macro cannot evaluate is left out, with why (`check::repetition` reports it).
pub fn eval_consts<'a>(
    consts: impl IntoIterator<Item = &'a syn::ItemConst>,
) -> (BTreeMap<String, usize>, Vec<(&'a syn::ItemConst, Unknown)>) {
    let mut values = BTreeMap::new();
    let mut failed = Vec::new();
    for item in consts {
        let env = Env {
            consts: &values,
            var: None,
        };
        match eval(&item.expr, env) {
            Ok(value) => {
                values.entry(name_of(&item.ident)).or_insert(value);
            }
            Err(why) => failed.push((item, why)),
        }
    }
    (values, failed)
}

/// The range of a `for` loop, `start..end` or `start..=end`, as the values it takes.
pub fn eval_range(
    range: &Expr,
    consts: &BTreeMap<String, usize>,
) -> Result<(usize, usize), Unknown> {
    let env = Env { consts, var: None };
    let Expr::Range(r) = range else {
        return Err(Unknown {
            span: range.span(),
            why: Why::Unsupported,
        });
    };
    let (Some(start), Some(end)) = (&r.start, &r.end) else {
        return Err(Unknown {
            span: range.span(),
            why: Why::OpenRange,
        });
    };
    let (start, end) = (eval(start, env)?, eval(end, env)?);
    let end = match r.limits {
        syn::RangeLimits::HalfOpen(_) => end,
        syn::RangeLimits::Closed(_) => end.checked_add(1).ok_or(Unknown {
            span: range.span(),
            why: Why::OutOfRange,
        })?,
    };
    Ok((start, end.max(start)))
}

/// The longest array param whose elements are values of their own (compared and indexed one
/// by one); a longer array is one value, as any other param.
pub const MAX_ELEMENTS: usize = 65_536;

/// `n` as messages write it: `65,536`.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `[T; N]`: the element type and the length, when the macro knows `N` (at most
/// [`MAX_ELEMENTS`]).
pub fn array_of<'t>(ty: &'t Type, consts: &BTreeMap<String, usize>) -> Option<(&'t Type, usize)> {
    match ty {
        Type::Array(array) => {
            let env = Env { consts, var: None };
            eval(&array.len, env)
                .ok()
                .filter(|&len| len <= MAX_ELEMENTS)
                .map(|len| (&*array.elem, len))
        }
        Type::Group(group) => array_of(&group.elem, consts),
        Type::Paren(paren) => array_of(&paren.elem, consts),
        _ => None,
    }
}

/// Calls `f` on every identifier of `tokens` that may be a local variable (see
/// `tokens::each_ident`), with the bracketed group right after it if there is one (`w[layer]`:
/// `w` and `[layer]`).
pub fn each_indexed(tokens: TokenStream, f: &mut dyn FnMut(&Ident, Option<&Group>)) {
    crate::tokens::each_mention_then(tokens, &mut |ident, next| {
        let index = match next {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => Some(g),
            _ => None,
        };
        f(ident, index);
    });
}

/// [`each_indexed`], telling `f` too whether the bracketed group may pick another element than
/// its tokens compute with the graph's consts and the loop variable, or whether other elements
/// than the one it picks may be read: in a macro call's input (the macro may rewrite it), beside
/// a macro call anywhere in `tokens` (which may read any element without writing its index, see
/// [`Binders::macros`](crate::tokens::Binders::macros)), or using a name that an item or a
/// pattern in `tokens` may hide (`tokens::index_may_be_hidden`).
pub fn each_indexed_where(tokens: TokenStream, f: &mut dyn FnMut(&Ident, Option<&Group>, bool)) {
    let binders = crate::tokens::Binders::of(tokens.clone());
    crate::tokens::each_mention_where(tokens.clone(), false, &mut |ident, next, in_macro| {
        let index = match next {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => Some(g),
            _ => None,
        };
        let hidden = index.is_some_and(|g| {
            in_macro
                || binders.macros
                || crate::tokens::index_may_be_hidden(&tokens, binders, &g.stream())
        });
        f(ident, index, hidden);
    });
}

/// The expression in an index group (`[layer + 1]`), if it is one.
pub fn index_expr(group: &Group) -> Option<Expr> {
    syn::parse2(group.stream()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consts() -> BTreeMap<String, usize> {
        BTreeMap::from([("LAYERS".to_owned(), 32), ("HEADS".to_owned(), 4)])
    }

    fn value(source: &str, var: Option<(&str, usize)>) -> Result<usize, Why> {
        let consts = consts();
        let expr: Expr = syn::parse_str(source).unwrap();
        eval(
            &expr,
            Env {
                consts: &consts,
                var,
            },
        )
        .map_err(|u| u.why)
    }

    #[test]
    fn indices_are_evaluated() {
        assert_eq!(value("LAYERS - 1", None), Ok(31));
        assert_eq!(value("(layer + 1) % 2", Some(("layer", 3))), Ok(0));
        assert_eq!(value("layer * HEADS + 3", Some(("layer", 2))), Ok(11));
        assert_eq!(value("layer as usize", Some(("layer", 5))), Ok(5));
        assert_eq!(value("0x10", None), Ok(16));
    }

    #[test]
    fn what_the_macro_cannot_know_is_said() {
        assert_eq!(value("n", None), Err(Why::Name("n".to_owned())));
        assert_eq!(value("layer - 1", Some(("layer", 0))), Err(Why::OutOfRange));
        assert_eq!(
            value("LAYERS / (HEADS - 4)", None),
            Err(Why::DivisionByZero)
        );
        assert_eq!(value("f(1)", None), Err(Why::Unsupported));
        assert_eq!(value("1 << 2", None), Err(Why::Unsupported));
        assert_eq!(value("-1", None), Err(Why::Unsupported));
    }

    #[test]
    fn indices_are_computed_as_rustc_computes_them() {
        // In `usize` arithmetic, every value on the way is one: `layer - 3` overflows at 0 (and
        // wraps without overflow checks, to a value whose remainder is another element).
        assert_eq!(
            value("(layer - 3) % 3", Some(("layer", 0))),
            Err(Why::OutOfRange)
        );
        assert_eq!(
            value("(layer - 1) / 2 % 2", Some(("layer", 0))),
            Err(Why::OutOfRange)
        );
        assert_eq!(value("(layer + 3 - 3) % 3", Some(("layer", 0))), Ok(0));
        // A suffix gives a literal another type, whose arithmetic is not `usize`'s.
        assert_eq!(value("1usize + layer", Some(("layer", 2))), Ok(3));
        assert_eq!(value("256u8 as usize", None), Err(Why::Unsupported));
        assert_eq!(
            value("layer + 1u32", Some(("layer", 2))),
            Err(Why::Unsupported)
        );
        // Integer literals alone are an `i32` in a cast.
        assert_eq!(
            value("(2147483647 + 1) as usize", None),
            Err(Why::OutOfRange)
        );
        assert_eq!(
            value("(2147483647 + LAYERS) as usize", None),
            Ok(2_147_483_679)
        );
        assert_eq!(value("(2 + 3) as usize * 4", None), Ok(20));
    }

    #[test]
    fn consts_use_the_consts_before_them() {
        let items: Vec<syn::ItemConst> = [
            "const A: usize = 4;",
            "const B: usize = A * 2;",
            "const C: usize = D;",
            "const D: usize = 1;",
        ]
        .iter()
        .map(|s| syn::parse_str(s).unwrap())
        .collect();
        let (values, failed) = eval_consts(&items);
        assert_eq!(values.get("B"), Some(&8));
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].0.ident, "C");
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(65_536), "65,536");
        assert_eq!(grouped(1_200_000), "1,200,000");
    }

    /// The indices of `source`, as written, each with whether it may pick another element than
    /// its tokens compute.
    fn hidden(source: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        each_indexed_where(source.parse().unwrap(), &mut |_, index, hidden| {
            if let Some(index) = index {
                out.push((index.stream().to_string(), hidden));
            }
        });
        out
    }

    #[test]
    fn indices_that_an_item_a_macro_or_a_pattern_may_hide() {
        let each = |pairs: &[(&str, bool)]| {
            pairs
                .iter()
                .map(|&(s, h)| (s.to_owned(), h))
                .collect::<Vec<_>>()
        };
        // In a macro's input, any index: the macro may rewrite it. Beside a macro call, any
        // index too, even one without names: the call may read other elements (`include!`, a
        // procedural macro's output with the call site's hygiene).
        assert_eq!(
            hidden("w[0] + m!(w[0]) + a::b!{ w[1] }"),
            each(&[("0", true), ("0", true), ("1", true)])
        );
        assert_eq!(hidden("w[0] + include!(\"w1.rs\")"), each(&[("0", true)]));
        assert_eq!(
            hidden("{ macro_rules! m { () => { w[0] } } m!() }"),
            each(&[("0", true)])
        );
        // An item or a macro call anywhere: every index with a name, written or not.
        for source in [
            "{ const K: usize = 1; w[K] }",
            "{ let x = w[K]; const K: usize = 1; x }",
            "{ use other::*; w[K] }",
            "{ zero!(); w[K] }",
            "w[K] + { struct S; 0 }",
            "w[1 as usize] + { fn f() {} 0 }",
        ] {
            assert!(hidden(source).iter().all(|(_, h)| *h), "{source}");
        }
        assert_eq!(
            hidden("{ const K: usize = 1; w[0] }"),
            each(&[("0", false)])
        );
        // A pattern: the names it writes.
        assert_eq!(hidden("{ let K = 1; w[K] }"), each(&[("K", true)]));
        assert_eq!(
            hidden("{ let x = 1; w[K] + x } + (|y: f32| y)(w[l + 1])"),
            each(&[("K", false), ("l + 1", false)])
        );
        // A keyword is no macro's name, `||` no closure.
        assert_eq!(
            hidden("if !(w[K] > 0) || w[l] > 0 { 1 } else { 2 }"),
            each(&[("K", false), ("l", false)])
        );
    }

    #[test]
    fn ranges_and_array_lengths() {
        let consts = consts();
        let range = |s: &str| eval_range(&syn::parse_str(s).unwrap(), &consts).map_err(|u| u.why);
        assert_eq!(range("0..LAYERS"), Ok((0, 32)));
        assert_eq!(range("1..=3"), Ok((1, 4)));
        assert_eq!(range("5..2"), Ok((5, 5)));
        assert_eq!(range("0.."), Err(Why::OpenRange));
        let ty: Type = syn::parse_str("[DeviceBuffer<f32>; LAYERS]").unwrap();
        assert_eq!(array_of(&ty, &consts).map(|(_, n)| n), Some(32));
        let ty: Type = syn::parse_str("[f32; OUTSIDE]").unwrap();
        assert!(array_of(&ty, &consts).is_none());
    }
}
