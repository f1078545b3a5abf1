//! `Enumerable` as `Enum` meets it at the boundary: lists, maps (their
//! `{key, value}` pairs in map order), `MapSet`s (their members) and
//! functions of arity 2, which Elixir treats as a reducer to be called.
//!
//! A function of arity 2 is called as `fun.({:cont, acc}, reducer)` and
//! `Enum` takes `elem(result, 1)` as the final accumulator; what that
//! accumulator means then depends on the `Enum` function (a reversed list
//! for `Enum.to_list/1`, reversed iodata for `Enum.map_join/3`). The
//! function's spec decides the result whatever its arguments, so the
//! reducer is never applied to anything.

use crate::errors::{module_not_available, protocol_undefined, Protocol};
use crate::term::{FunSpec, Term};
use crate::Raised;

/// What one `Enum` traversal sees: the elements of an enumerable that holds
/// them, or the accumulator an arity-2 function handed back.
pub enum Walk {
    /// The elements, in `Enum`'s order.
    Elements(Vec<Term>),
    /// `elem(fun.({:cont, acc}, reducer), 1)`: what the function returned
    /// as its accumulator.
    Accumulator(Term),
}

/// `Enumerable.reduce/3` as `Enum.reduce/3` runs it: the elements of a
/// list, map or `MapSet`, or the accumulator an arity-2 function returns.
/// Anything else raises `Protocol.UndefinedError` (`Enumerable`); a
/// function that raises passes its `RuntimeError` on.
pub fn walk(t: &Term) -> Result<Walk, Raised> {
    match t {
        Term::List(items) => Ok(Walk::Elements(items.clone())),
        Term::Map(m) => Ok(Walk::Elements(
            m.iter()
                .map(|(k, v)| Term::Tuple(vec![k.clone(), v.clone()]))
                .collect(),
        )),
        Term::Struct(s) if s.module == "MapSet" => match s.field("map") {
            Some(Term::Map(m)) => Ok(Walk::Elements(m.iter().map(|(k, _)| k.clone()).collect())),
            _ => Err(not_enumerable(t)),
        },
        Term::Fun(f) if f.arity() == Some(2) => match &**f {
            FunSpec::Raises { message, .. } => Err(Raised::new("RuntimeError", message.clone())),
            FunSpec::Returns { returns, .. } => elem_1(returns).map(Walk::Accumulator),
            FunSpec::Named(name) => Err(call_capture(name, t)),
        },
        other => Err(not_enumerable(other)),
    }
}

/// `Enum.to_list/1`: an arity-2 function's accumulator is a list in
/// reverse (`:lists.reverse/1`, which refuses anything but a list).
pub fn to_list(t: &Term) -> Result<Vec<Term>, Raised> {
    match walk(t)? {
        Walk::Elements(items) => Ok(items),
        Walk::Accumulator(acc) => lists_reverse(&acc),
    }
}

/// `Enum.map_join(t, joiner, mapper)`: the mapped elements joined by
/// `joiner`. For an arity-2 function `Enum.map_intersperse/3` reads the
/// accumulator: `:first` is no element (`""`), anything else is reversed
/// (`:lists.reverse/1`) and made a binary with `IO.iodata_to_binary/1`, the
/// mapper never running.
/// (LF-10, LF-11, LF-14: the formatter's element lists; EX-8: `MapSet.new/1`.)
pub fn map_join(
    t: &Term,
    joiner: &[u8],
    mut mapper: impl FnMut(&Term) -> Result<Vec<u8>, Raised>,
) -> Result<Vec<u8>, Raised> {
    match walk(t)? {
        Walk::Elements(items) => {
            let mut out = Vec::new();
            for (i, e) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(joiner);
                }
                out.extend(mapper(e)?);
            }
            Ok(out)
        }
        Walk::Accumulator(Term::Atom(a)) if a == "first" => Ok(Vec::new()),
        Walk::Accumulator(acc) => crate::chars::iodata_to_binary(&Term::List(lists_reverse(&acc)?)),
    }
}

/// `elem(result, 1)`, with `:erlang.element/2`'s messages.
fn elem_1(t: &Term) -> Result<Term, Raised> {
    match t {
        Term::Tuple(items) if items.len() >= 2 => Ok(items[1].clone()),
        Term::Tuple(_) => Err(badarg("1st", "out of range")),
        _ => Err(badarg("2nd", "not a tuple")),
    }
}

/// `:lists.reverse/1`, which has no clause for anything but a list.
fn lists_reverse(t: &Term) -> Result<Vec<Term>, Raised> {
    match t {
        Term::List(items) => Ok(items.iter().rev().cloned().collect()),
        _ => Err(Raised::function_clause_in(":lists.reverse/1")),
    }
}

/// Calling the named capture `&Mod.fun/2`, its module read as the
/// adapters read it (`:mod` an Erlang module, `Mod` an Elixir alias): the
/// reference knows no module of that name (`spec/README.md` LOOSE-5), so
/// the call fails as it does for a module the VM cannot load.
fn call_capture(name: &str, t: &Term) -> Raised {
    match crate::term::capture_parts(name) {
        Some((atom, function, _)) => module_not_available(&atom, function, 2),
        None => not_enumerable(t),
    }
}

fn not_enumerable(t: &Term) -> Raised {
    protocol_undefined(Protocol::Enumerable, t)
}

/// `ArgumentError` of an Erlang BIF: `position` argument (`1st`), `reason`.
pub fn badarg(position: &str, reason: &str) -> Raised {
    crate::errors::raise(
        &crate::elixir::messages::ERLANG_BADARG,
        &[("position", position), ("reason", reason)],
    )
}
