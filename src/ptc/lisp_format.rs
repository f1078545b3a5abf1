//! `PtcRunner.Lisp.Format.to_clojure/2`: PTC-Lisp values printed the way a
//! Clojure REPL would show them, for LLM feedback (`spec/ptc_tool_protocol_from_step.md`,
//! rules PP-120 and up). Results and memory previews of
//! `render_success_from_step` are built from it.
//!
//! Internal Lisp shapes (closures, builtins, var references, regexes) are
//! first replaced by display wrappers ([`sanitize`]); the printer then walks
//! the value. Collections longer than the `limit` option show their first
//! `limit` items and a `(shown/total)` count, and report truncation.
//!
//! The text is a binary, as in Elixir: names interpolated into it (Lisp
//! keywords, closure parameters, vars) keep their bytes, invalid UTF-8
//! included, and the JSON encoder that receives the text rejects them.

use crate::elixir::enumerable;
use crate::term::{term_cmp, Map, Struct, Term};
use crate::{chars, inspect, num, Raised, Release};

const FORMAT: &str = "PtcRunner.Lisp.Format";
const FN: &str = "PtcRunner.Lisp.Format.Fn";
const BUILTIN: &str = "PtcRunner.Lisp.Format.Builtin";
const VAR: &str = "PtcRunner.Lisp.Format.Var";
const SYMBOL_REF: &str = "PtcRunner.Lisp.Format.SymbolRef";
const REGEX: &str = "PtcRunner.Lisp.Format.RegexLiteral";
const KEYWORD: &str = "PtcRunner.Lisp.Keyword";
const DURATION: &str = "PtcRunner.Lisp.Runtime.Interop.Duration";
const ENV_BUILTIN: &str = "PtcRunner.Lisp.Env.Builtin";

/// `to_clojure(rel, value, limit: limit)`: the text and whether any collection
/// in it was cut. `None` is `limit: :infinity`. Raises where Elixir does:
/// on a float too large for the fixed-point buffer (PP-123) and on
/// references, pids and ports (PP-131).
pub fn to_clojure(
    rel: Release,
    value: &Term,
    limit: Option<usize>,
) -> Result<(Vec<u8>, bool), Raised> {
    format(rel, &sanitize(rel, value)?, limit)
}

/// Replaces internal Lisp shapes by their display wrappers, recursing
/// through lists, tuples and plain maps' values but not into structs
/// (PP-130).
pub fn sanitize(rel: Release, value: &Term) -> Result<Term, Raised> {
    if let Some(wrapped) = wrapper_for(rel, value)? {
        return Ok(wrapped);
    }
    Ok(match value {
        Term::Map(m) => Term::Map(Map::from_sorted_unchecked(
            m.iter()
                .map(|(k, v)| Ok((k.clone(), sanitize(rel, v)?)))
                .collect::<Result<_, Raised>>()?,
        )),
        Term::List(items) => Term::List(
            items
                .iter()
                .map(|i| sanitize(rel, i))
                .collect::<Result<_, _>>()?,
        ),
        Term::Tuple(items) => Term::Tuple(
            items
                .iter()
                .map(|i| sanitize(rel, i))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

/// The wrapper struct an internal shape displays as, if `value` is one
/// (PP-130's table and its `PtcRunner.Lisp.Env.Builtin` structs).
fn wrapper_for(rel: Release, value: &Term) -> Result<Option<Term>, Raised> {
    let is_fun = |t: &Term| matches!(t, Term::Fun(_));
    if let Term::Struct(s) = value {
        if s.module == ENV_BUILTIN {
            let collect = matches!(s.field("binding"), Some(Term::Tuple(b))
                if b.len() == 2 && b[0].as_atom() == Some("collect") && is_fun(&b[1]));
            return Ok(Some(if collect {
                wrapper(FN, "params", Term::str("..."))
            } else {
                wrapper_unit(BUILTIN)
            }));
        }
        return Ok(None);
    }
    let Term::Tuple(t) = value else {
        return Ok(None);
    };
    let tag = t.first().and_then(Term::as_atom);
    Ok(match (tag, t.len()) {
        (Some("closure"), 6) => Some(wrapper(
            FN,
            "params",
            Term::binary(param_names(rel, &t[1])?),
        )),
        (Some("normal"), 2) if is_fun(&t[1]) => Some(wrapper_unit(BUILTIN)),
        (Some("variadic"), 3) if is_fun(&t[1]) => Some(wrapper_unit(BUILTIN)),
        (Some("variadic_nonempty"), 3) if t[1].is_atom() && is_fun(&t[2]) => {
            Some(wrapper_unit(BUILTIN))
        }
        (Some("multi_arity"), 3) if t[1].is_atom() && matches!(t[2], Term::Tuple(_)) => {
            Some(wrapper_unit(BUILTIN))
        }
        (Some("collect"), 2) if is_fun(&t[1]) => Some(wrapper(FN, "params", Term::str("..."))),
        (Some("var"), 2) if t[1].is_atom() || t[1].is_binary() => {
            Some(wrapper(VAR, "name", t[1].clone()))
        }
        (Some("symbol_ref"), 2) if t[1].is_binary() => {
            Some(wrapper(SYMBOL_REF, "name", t[1].clone()))
        }
        (Some("re_mp"), 4) => Some(wrapper(REGEX, "source", t[3].clone())),
        _ => None,
    })
}

fn wrapper(module: &str, field: &str, value: Term) -> Term {
    Term::Struct(Box::new(Struct {
        module: module.to_owned(),
        fields: vec![(field.to_owned(), value)],
    }))
}

fn wrapper_unit(module: &str) -> Term {
    Term::Struct(Box::new(Struct {
        module: module.to_owned(),
        fields: vec![],
    }))
}

/// A closure's parameter names joined by spaces: `{:var, name}` shows
/// its name, any other pattern `_` (PP-130's params text, enumerated as
/// LF-14 says).
fn param_names(rel: Release, params: &Term) -> Result<Vec<u8>, Raised> {
    enumerable::map_join(params, b" ", |p| match p {
        Term::Tuple(t) if t.len() == 2 && t[0].as_atom() == Some("var") => {
            chars::to_string(rel, &t[1])
        }
        _ => Ok(b"_".to_vec()),
    })
}

fn format(rel: Release, value: &Term, limit: Option<usize>) -> Result<(Vec<u8>, bool), Raised> {
    let plain = |s: String| Ok((s.into_bytes(), false));
    match value {
        // PP-120: nil, booleans, integers.
        Term::Nil => plain("nil".into()),
        Term::Bool(b) => plain(b.to_string()),
        Term::Int(i) => plain(i.to_string()),
        // PP-121: other atoms as keywords, unquoted; the three special atoms.
        Term::Atom(a) => plain(match a.as_str() {
            "infinity" => "##Inf".into(),
            "negative_infinity" => "##-Inf".into(),
            "nan" => "##NaN".into(),
            _ => format!(":{a}"),
        }),
        // PP-122: the float form (LF-2); PP-123: its sign and 256-byte buffer.
        Term::Float(x) => plain(num::float_to_binary_compact_10(*x)?),
        // PP-126: binaries as `inspect/1` shows them.
        Term::Str(_) | Term::Bytes(_) => plain(inspect::inspect_binary(
            value.as_binary().unwrap_or_default(),
        )),
        Term::Fun(_) => plain("#<fn>".into()),
        // PP-129: calendar values as quoted ISO 8601 text.
        Term::Temporal(t) => plain(format!("\"{}\"", t.iso)),
        Term::Struct(s) => format_struct(rel, s, limit),
        // PP-124: lists and tuples as vectors; PP-131: past 50 items cut, not printed.
        Term::List(items) | Term::Tuple(items) => {
            let (shown, cut) = apply_limit(items, limit);
            let (text, child_cut) = format_items(rel, shown, limit)?;
            Ok(collection(
                "[",
                &text,
                "]",
                cut,
                shown.len(),
                items.len(),
                child_cut,
            ))
        }
        Term::Map(m) => format_map(rel, m, limit),
        // PP-132: references, pids and ports raise.
        Term::Opaque(..) => Err(Raised::function_clause(FORMAT, "format_clojure", 2)),
    }
}

fn format_struct(
    rel: Release,
    s: &Struct,
    limit: Option<usize>,
) -> Result<(Vec<u8>, bool), Raised> {
    // `"open#{field}close"`: the field's `String.Chars` bytes as they are.
    let around = |open: &str, name: &str, close: &str| -> Result<Vec<u8>, Raised> {
        let mut out = open.as_bytes().to_vec();
        out.extend(chars::to_string(rel, s.field(name).unwrap_or(&Term::Nil))?);
        out.extend_from_slice(close.as_bytes());
        Ok(out)
    };
    let text = match s.module.as_str() {
        // PP-130: each display struct's field interpolated with `String.Chars`.
        KEYWORD => around(":", "name", "")?,
        FN => around("#fn[", "params", "]")?,
        BUILTIN => b"#<builtin>".to_vec(),
        VAR => around("#'", "name", "")?,
        SYMBOL_REF => around("'", "name", "")?,
        REGEX => around("#\"", "source", "\"")?,
        DURATION => around("#duration[", "milliseconds", "ms]")?,
        // PP-128: a MapSet's elements, not through PP-130's pass.
        "MapSet" => {
            let items: Vec<Term> = match s.field("map") {
                Some(Term::Map(m)) => m.iter().map(|(k, _)| k.clone()).collect(),
                _ => vec![],
            };
            let (shown, cut) = apply_limit(&items, limit);
            let (text, child_cut) = format_items(rel, shown, limit)?;
            return Ok(collection(
                "#{",
                &text,
                "}",
                cut,
                shown.len(),
                items.len(),
                child_cut,
            ));
        }
        _ => inspect::inspect_bytes_at(rel, &Term::Struct(Box::new(s.clone()))),
    };
    Ok((text, false))
}

/// Map entries sorted by key in term order, keys printed by [`format_key`].
fn format_map(rel: Release, m: &Map, limit: Option<usize>) -> Result<(Vec<u8>, bool), Raised> {
    // PP-125: entries in term order of keys, the value printed before the key.
    let mut entries: Vec<&(Term, Term)> = m.iter().collect();
    entries.sort_by(|a, b| term_cmp(&a.0, &b.0));
    let (shown, cut) = apply_limit(&entries, limit);
    let mut parts = Vec::with_capacity(shown.len());
    let mut child_cut = false;
    for (k, v) in shown.iter().copied() {
        let (text, c) = format(rel, v, limit)?;
        // PP-131: a cut anywhere inside makes the whole preview cut.
        child_cut |= c;
        let mut part = format_key(rel, k)?;
        part.push(b' ');
        part.extend(text);
        parts.push(part);
    }
    let text = parts.join(&b' ');
    Ok(collection(
        "{",
        &text,
        "}",
        cut,
        shown.len(),
        entries.len(),
        child_cut,
    ))
}

/// A map key: atoms (`nil` included, which shows as `:`) and Lisp keywords
/// as `:name`, binaries as `inspect/1` shows them, anything else printed
/// without a collection limit (PP-127).
fn format_key(rel: Release, k: &Term) -> Result<Vec<u8>, Raised> {
    if let Some(a) = k.as_atom() {
        return Ok(format!(":{}", if k == &Term::Nil { "" } else { a }).into_bytes());
    }
    match k {
        Term::Struct(s) if s.module == KEYWORD => {
            let mut out = b":".to_vec();
            out.extend(chars::to_string(
                rel,
                s.field("name").unwrap_or(&Term::Nil),
            )?);
            Ok(out)
        }
        Term::Str(_) | Term::Bytes(_) => {
            Ok(inspect::inspect_binary(k.as_binary().unwrap_or_default()).into_bytes())
        }
        _ => format(rel, k, None).map(|(s, _)| s),
    }
}

/// A list's or tuple's items printed one by one, separated by one space
/// (PP-124); a cut inside any of them cuts the whole (PP-131).
fn format_items(
    rel: Release,
    items: &[Term],
    limit: Option<usize>,
) -> Result<(Vec<u8>, bool), Raised> {
    let mut parts = Vec::with_capacity(items.len());
    let mut cut = false;
    for item in items {
        let (text, c) = format(rel, item, limit)?;
        cut |= c;
        parts.push(text);
    }
    Ok((parts.join(&b' '), cut))
}

/// The first `limit` items and whether more were left out (PP-131: items
/// past the limit are not printed at all).
fn apply_limit<T>(items: &[T], limit: Option<usize>) -> (&[T], bool) {
    match limit {
        Some(n) if items.len() > n => (&items[..n], true),
        _ => (items, false),
    }
}

/// `open items close`, or with ` ...` and `(shown/total)` when cut
/// (PP-131).
fn collection(
    open: &str,
    text: &[u8],
    close: &str,
    cut: bool,
    shown: usize,
    total: usize,
    child_cut: bool,
) -> (Vec<u8>, bool) {
    let mut out = open.as_bytes().to_vec();
    out.extend_from_slice(text);
    if cut {
        out.extend(format!(" ...{close} ({shown}/{total})").into_bytes());
        (out, true)
    } else {
        out.extend_from_slice(close.as_bytes());
        (out, child_cut)
    }
}
