//! `PtcRunner.SubAgent.Loop.JsonHandler`'s `atomize_value/2`,
//! `safe_to_atom/1` and `validate_return/2`, as `PtcToolProtocol`
//! re-exports them for the MCP server's `validated` path
//! (`spec/json_handler.md`, `JH-`).
//!
//! `atomize_value/2` coerces a raw JSON value into the shape a parsed
//! signature's type implies: string map keys become atoms where the VM
//! already has the atom, `:datetime` strings become UTC `DateTime`s.
//! `validate_return/2` checks a value against the signature
//! ([`crate::signature_validator`]).

use crate::atom_table;
use crate::chars;
use crate::datetime;
use crate::elixir::enumerable;
use crate::keyword::map_get;
use crate::signature_validator;
use crate::term::{Map, TemporalKind, Term};
use crate::{Raised, Release};
use std::collections::BTreeSet;

const MODULE: &str = "PtcRunner.SubAgent.Loop.JsonHandler";

/// `atomize_value/2` (JH-1 to JH-10). The atoms the two arguments hold
/// exist on every VM that receives them, so a key naming one becomes that
/// atom (JH-6).
pub fn atomize_value(rel: Release, value: &Term, ty: &Term) -> Result<Term, Raised> {
    let held = atom_table::atoms_of(rel, &[value, ty]);
    atomize(rel, value, ty, &held)
}

/// `{tag, inner}` when `ty` is a 2-tuple whose first element is `tag`.
/// (JH-1: the shape of the type decides which clause fits.)
fn tagged<'a>(ty: &'a Term, tag: &str) -> Option<&'a Term> {
    match ty {
        Term::Tuple(t) if t.len() == 2 && t[0].as_atom() == Some(tag) => Some(&t[1]),
        _ => None,
    }
}

/// JH-1: the first clause that fits decides, in this order.
fn atomize(rel: Release, value: &Term, ty: &Term, held: &BTreeSet<String>) -> Result<Term, Raised> {
    // JH-1, JH-3: a map typed `{:map, fields}` or `{:closed_map, fields}`.
    if value.is_map() {
        if let Some(fields) = tagged(ty, "closed_map").or_else(|| tagged(ty, "map")) {
            return atomize_fields(rel, value, fields, held);
        }
    }
    // JH-1: a list typed `{:list, inner}`, element by element.
    if let (Term::List(items), Some(inner)) = (value, tagged(ty, "list")) {
        return items
            .iter()
            .map(|v| atomize(rel, v, inner, held))
            .collect::<Result<_, _>>()
            .map(Term::List);
    }
    // JH-1: `{:optional, inner}` is `inner`.
    if let Some(inner) = tagged(ty, "optional") {
        return atomize(rel, value, inner, held);
    }
    // JH-9: a binary typed `:datetime` is parsed; a `DateTime` stays.
    if ty.as_atom() == Some("datetime") {
        if let Some(bytes) = value.as_binary() {
            return Ok(
                datetime::from_iso8601_utc(bytes).map_or_else(|| value.clone(), Term::Temporal)
            );
        }
        if matches!(value, Term::Temporal(t) if t.kind == TemporalKind::DateTime) {
            return Ok(value.clone());
        }
    }
    // JH-1, JH-2: any other map rebuilt; any other list element by element; the rest as it is.
    match value {
        _ if value.is_map() => map_new(value, |k, v| {
            let key = key_of(rel, k, held);
            let v = atomize(rel, v, &Term::Nil, held)?;
            Ok((key, v))
        }),
        Term::List(items) => items
            .iter()
            .map(|v| atomize(rel, v, &Term::Nil, held))
            .collect::<Result<_, _>>()
            .map(Term::List),
        _ => Ok(value.clone()),
    }
}

/// The `{:map, fields}` and `{:closed_map, fields}` clause: `Map.new(fields)`
/// gives each field's type, looked up by `to_string(key)` and then by the
/// key as it came (JH-3).
fn atomize_fields(
    rel: Release,
    value: &Term,
    fields: &Term,
    held: &BTreeSet<String>,
) -> Result<Term, Raised> {
    let field_types = map_new_1(fields)?;
    map_new(value, |k, v| {
        let key = key_of(rel, k, held);
        let by_name = field_types.get(&Term::binary(chars::to_string(rel, &key)?));
        let field_type = match by_name {
            Some(t) if !matches!(t, Term::Nil | Term::Bool(false)) => t.clone(),
            _ => field_types.get(k).cloned().unwrap_or(Term::Nil),
        };
        Ok((key, atomize(rel, v, &field_type, held)?))
    })
}

/// `if is_binary(k), do: safe_to_atom(rel, k), else: k`.
fn key_of(rel: Release, k: &Term, held: &BTreeSet<String>) -> Term {
    match k.as_binary() {
        Some(bytes) => safe_to_atom(rel, bytes, held),
        None => k.clone(),
    }
}

/// `safe_to_atom/1`: the existing atom the binary names, or the binary
/// (JH-4 to JH-6).
pub fn safe_to_atom(rel: Release, bytes: &[u8], held: &BTreeSet<String>) -> Term {
    atom_table::existing_atom(rel, bytes, held).unwrap_or_else(|| Term::binary(bytes.to_vec()))
}

/// JH-2: a plain map in iteration order, a struct enumerated (a MapSet's
/// members must be pairs); JH-8: a later key that became the same atom wins.
/// `Map.new(map, fun)`: a plain map's entries in iteration order; a
/// struct is enumerated (`Enumerable`: a `MapSet`'s members, whose
/// function clause wants `{k, v}` pairs). Later keys win.
fn map_new(
    value: &Term,
    mut f: impl FnMut(&Term, &Term) -> Result<(Term, Term), Raised>,
) -> Result<Term, Raised> {
    let elements = match value {
        Term::Map(m) => m
            .iter()
            .map(|(k, v)| Term::Tuple(vec![k.clone(), v.clone()]))
            .collect(),
        _ => enumerable::to_list(value)?,
    };
    let mut out = Vec::with_capacity(elements.len());
    for e in &elements {
        match e {
            Term::Tuple(kv) if kv.len() == 2 => out.push(f(&kv[0], &kv[1])?),
            _ => {
                return Err(Raised::function_clause_in(&format!(
                    "anonymous fn/1 in {MODULE}.atomize_value/2"
                )))
            }
        }
    }
    Ok(Term::Map(Map::from_pairs(out)))
}

/// `Map.new/1`: a list of pairs (`:maps.from_list/1`), a plain map as it
/// is, anything else enumerated first.
/// (JH-3: `Map.new(fields)` first: pairs, a plain map, or enumerated.)
fn map_new_1(fields: &Term) -> Result<Map, Raised> {
    let pairs = match fields {
        Term::Map(m) => return Ok(m.clone()),
        Term::List(items) => items.clone(),
        other => enumerable::to_list(other)?,
    };
    pairs
        .into_iter()
        .map(|p| match p {
            Term::Tuple(mut kv) if kv.len() == 2 => {
                let v = kv.pop().unwrap_or(Term::Nil);
                Ok((kv.pop().unwrap_or(Term::Nil), v))
            }
            _ => Err(Raised::argument("argument error")),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Map::from_pairs)
}

/// `validate_return/2` (JH-10): `:ok` for a `nil` signature or an `:any`
/// return type, else `Signature.validate/2`. A term that is not a map with
/// a `:parsed_signature` key raises `FunctionClauseError`.
pub fn validate_return(rel: Release, definition: &Term, value: &Term) -> Result<Term, Raised> {
    let parsed = match definition {
        Term::Map(_) | Term::Struct(_) => map_get(definition, "parsed_signature"),
        _ => None,
    }
    .ok_or_else(|| Raised::function_clause(MODULE, "validate_return", 2))?;
    match parsed {
        Term::Nil => Ok(Term::atom("ok")),
        Term::Tuple(t)
            if t.len() == 3
                && t[0].as_atom() == Some("signature")
                && t[2].as_atom() == Some("any") =>
        {
            Ok(Term::atom("ok"))
        }
        _ => signature_validator::signature_validate(rel, parsed, value),
    }
}
