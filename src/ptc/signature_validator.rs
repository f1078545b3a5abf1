//! `PtcRunner.SubAgent.Signature.validate/2` and the
//! `PtcRunner.SubAgent.Signature.Validator` it calls: a value checked
//! against a signature's return type, with one `%{path: [...], message:
//! "..."}` per failure, in the order the type is walked
//! (`spec/json_handler.md` JH-11 to JH-19).

use crate::elixir::enumerable::{self, Walk};
use crate::inspect::inspect_bytes_at;
use crate::key_normalizer::normalize_key;
use crate::term::{map_key_cmp, Map, Struct, TemporalKind, Term};
use crate::{Raised, Release};

const VALIDATOR: &str = "PtcRunner.SubAgent.Signature.Validator";
const LISP_KEYWORD: &str = "PtcRunner.Lisp.Keyword";

/// `Signature.validate/2`: `Validator.validate(data, return_type)` for a
/// `{:signature, params, return_type}` tuple, else an `{:error, message}`
/// naming the term (JH-11).
pub fn signature_validate(rel: Release, signature: &Term, data: &Term) -> Result<Term, Raised> {
    match signature {
        // JH-12: the return type's errors, or :ok.
        Term::Tuple(t) if t.len() == 3 && t[0].as_atom() == Some("signature") => {
            validate(rel, data, &t[2])
        }
        _ => {
            let mut text = b"signature must be a parsed signature tuple, got ".to_vec();
            text.extend(inspect_bytes_at(rel, signature));
            Ok(Term::error(Term::binary(text)))
        }
    }
}

/// `Validator.validate/2`: `:ok` for `[]`, else `{:error, errors}` (JH-12),
/// whatever `errors` is (JH-15); an improper list has no tagged form.
pub fn validate(rel: Release, data: &Term, ty: &Term) -> Result<Term, Raised> {
    Ok(match validate_type(rel, data, ty, &[])? {
        Errors::List(errors) if errors.is_empty() => Term::atom("ok"),
        Errors::List(errors) => Term::error(Term::List(errors)),
        Errors::Other(t) => Term::error(t),
        Errors::Improper(_, tail) => {
            return Err(Raised::no_tagged_form(format!(
                "improper list tail {}",
                crate::inspect::inspect_at(rel, &tail)
            )))
        }
    })
}

/// What `validate_type/3` returns: a list of errors, unless an arity-2
/// function in place of a map's fields handed back something else as its
/// errors (JH-15), which then flows on through `++` and `Enum.flat_map/2`.
enum Errors {
    /// A proper list.
    List(Vec<Term>),
    /// A non-empty improper list: its elements and its tail, not a list.
    Improper(Vec<Term>, Term),
    /// Not a list.
    Other(Term),
}

impl Errors {
    fn from_term(t: Term) -> Errors {
        match t {
            Term::List(items) => Errors::List(items),
            other => Errors::Other(other),
        }
    }

    /// Erlang's `self ++ right`: the left operand must be a proper list
    /// (else `ArgumentError` "argument error"); the right one may be
    /// anything, the result an improper list when it is not a list.
    fn append(self, right: Errors) -> Result<Errors, Raised> {
        let Errors::List(mut left) = self else {
            return Err(Raised::argument("argument error"));
        };
        Ok(match right {
            Errors::List(r) => {
                left.extend(r);
                Errors::List(left)
            }
            Errors::Improper(r, tail) => {
                left.extend(r);
                Errors::Improper(left, tail)
            }
            Errors::Other(tail) if left.is_empty() => Errors::Other(tail),
            Errors::Other(tail) => Errors::Improper(left, tail),
        })
    }
}

fn error_at(path: &[Term], message: Vec<u8>) -> Term {
    Term::map(vec![
        (Term::atom("path"), Term::List(path.to_vec())),
        (Term::atom("message"), Term::binary(message)),
    ])
}

/// `"expected <what>, got <type_name>"` at `path` (JH-13).
fn expected(rel: Release, path: &[Term], what: &str, data: &Term) -> Vec<Term> {
    let mut text = format!("expected {what}, got ").into_bytes();
    text.extend(type_name(rel, data));
    vec![error_at(path, text)]
}

/// A `PtcRunner.Lisp.Keyword` struct: a keyword (JH-14), named
/// `keyword` (JH-13).
fn is_lisp_keyword(t: &Term) -> bool {
    matches!(t, Term::Struct(s) if s.module == LISP_KEYWORD)
}

/// `PtcRunner.Lisp.Keyword.valid_name?/1` on a binary:
/// `~r/\A[a-zA-Z0-9+\-*<>=?!_]+\z/` (JH-14).
fn valid_keyword_name(b: &[u8]) -> bool {
    !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"+-*<>=?!_".contains(c))
}

/// `path ++ [segment]`: a field's name or a list index (JH-12).
fn with(path: &[Term], segment: Term) -> Vec<Term> {
    let mut p = path.to_vec();
    p.push(segment);
    p
}

fn validate_type(rel: Release, data: &Term, ty: &Term, path: &[Term]) -> Result<Errors, Raised> {
    let ok = |good: bool, what: &str| {
        if good {
            vec![]
        } else {
            expected(rel, path, what, data)
        }
    };
    // JH-13, JH-14: the primitive types; JH-19: any other atom.
    if let Some(name) = ty.as_atom() {
        return Ok(Errors::List(match name {
            "string" => ok(data.is_binary(), "string"),
            "int" => ok(matches!(data, Term::Int(_)), "int"),
            "float" => ok(matches!(data, Term::Int(_) | Term::Float(_)), "float"),
            "bool" => ok(matches!(data, Term::Bool(_)), "bool"),
            "keyword" => ok(
                data.is_atom()
                    || is_lisp_keyword(data)
                    || data.as_binary().is_some_and(valid_keyword_name),
                "keyword",
            ),
            "map" => ok(matches!(data, Term::Map(_)), "map"),
            "any" => vec![],
            "datetime" => ok(
                matches!(data, Term::Temporal(t) if t.kind == TemporalKind::DateTime),
                "datetime (%DateTime{})",
            ),
            _ => return Err(Raised::function_clause(VALIDATOR, "validate_type", 3)),
        }));
    }
    let Term::Tuple(t) = ty else {
        return Err(Raised::function_clause(VALIDATOR, "validate_type", 3));
    };
    match (t.len(), t.first().and_then(Term::as_atom)) {
        // JH-16: `{:optional, t}` accepts nil, anything else as `t`.
        (2, Some("optional")) if matches!(data, Term::Nil) => Ok(Errors::List(vec![])),
        (2, Some("optional")) => validate_type(rel, data, &t[1], path),
        // JH-18: a list, each element at `path ++ [index]`, errors in element order.
        (2, Some("list")) => match data {
            // `Enum.flat_map/2`: each element's errors in turn, one that is
            // not a list through `Enum.to_list/1` before the next element;
            // then the `++`s, which refuse an improper list.
            Term::List(items) => {
                let mut errors = vec![];
                let mut improper = false;
                for (i, item) in items.iter().enumerate() {
                    match validate_type(rel, item, &t[1], &with(path, Term::int(i as i64)))? {
                        Errors::List(e) => errors.extend(e),
                        Errors::Improper(..) => improper = true,
                        Errors::Other(other) => errors.extend(enumerable::to_list(&other)?),
                    }
                }
                if improper {
                    return Err(Raised::argument("argument error"));
                }
                Ok(Errors::List(errors))
            }
            _ => Ok(Errors::List(expected(rel, path, "list", data))),
        },
        // JH-15: a plain map, its fields walked in order.
        (2, Some("map")) => match data {
            Term::Map(m) => Ok(validate_fields(rel, m, &t[1], path)?.0),
            _ => Ok(Errors::List(expected(rel, path, "map", data))),
        },
        // JH-17: `field_errors ++ validate_no_extra_fields(...)`: the extra
        // fields first, then the `++`.
        (2, Some("closed_map")) => match data {
            Term::Map(m) => {
                let (errors, consumed) = validate_fields(rel, m, &t[1], path)?;
                let extra = no_extra_fields(rel, m, &consumed, path)?;
                errors.append(Errors::List(extra))
            }
            _ => Ok(Errors::List(expected(rel, path, "map", data))),
        },
        _ => Err(Raised::function_clause(VALIDATOR, "validate_type", 3)),
    }
}

/// The keys a map's declared fields consumed: the `MapSet` built while
/// walking them, or whatever an arity-2 function handed back as its
/// accumulator's second element.
enum Consumed {
    Keys(Vec<Term>),
    Other(Term),
}

/// `validate_map_fields_tracking/3`: each declared field in order, its
/// errors and the data keys it consumed (JH-15, JH-16).
fn validate_fields(
    rel: Release,
    data: &Map,
    fields: &Term,
    path: &[Term],
) -> Result<(Errors, Consumed), Raised> {
    let items = match enumerable::walk(fields)? {
        Walk::Elements(items) => items,
        Walk::Accumulator(acc) => return accumulator(rel, acc),
    };
    let (mut errors, mut consumed) = (Errors::List(vec![]), vec![]);
    for item in &items {
        let (name, field_type) = match item {
            Term::Tuple(p) if p.len() == 2 => (&p[0], &p[1]),
            _ => {
                return Err(Raised::function_clause_in(&format!(
                    "anonymous fn/2 in {VALIDATOR}.validate_map_fields_tracking/3"
                )))
            }
        };
        match get_field(data, name)? {
            Some((key, value)) => {
                let field_errors =
                    validate_type(rel, value, field_type, &with(path, name.clone()))?;
                errors = errors.append(field_errors)?;
                // JH-17: the data key a field found is consumed.
                if !consumed.contains(key) {
                    consumed.push(key.clone());
                }
            }
            None if tagged_optional(field_type) => {}
            None => {
                errors = errors.append(Errors::List(vec![error_at(
                    &with(path, name.clone()),
                    b"expected field, got nil".to_vec(),
                )]))?
            }
        }
    }
    Ok((errors, Consumed::Keys(consumed)))
}

/// `{errors, consumed} = acc` for the accumulator an arity-2 function
/// returned in place of a field list; the errors may be any term (JH-15).
/// Anything else raises `MatchError` with `inspect/1` of it as release
/// `rel`'s build prints it (a display struct in another's field is an
/// `Inspect.Error` at v0.11.0, REL-7).
fn accumulator(rel: Release, acc: Term) -> Result<(Errors, Consumed), Raised> {
    match acc {
        Term::Tuple(mut p) if p.len() == 2 => {
            let consumed = p.pop().unwrap_or(Term::Nil);
            let errors = p.pop().unwrap_or(Term::Nil);
            Ok((Errors::from_term(errors), Consumed::Other(consumed)))
        }
        other => Err(crate::errors::raise(
            &crate::elixir::messages::MATCH_ERROR,
            &[("term", &crate::inspect::inspect_at(rel, &other))],
        )),
    }
}

/// `optional?/1`: a missing field of type `{:optional, _}` is skipped
/// (JH-16).
fn tagged_optional(ty: &Term) -> bool {
    matches!(ty, Term::Tuple(t) if t.len() == 2 && t[0].as_atom() == Some("optional"))
}

/// `get_field/2`: the field's name normalized, as given, and normalized
/// with `_` made `-`, each tried in turn (JH-15).
fn get_field<'a>(data: &'a Map, name: &Term) -> Result<Option<(&'a Term, &'a Term)>, Raised> {
    let normalized = normalize_key(name);
    let hyphenated = match normalized.as_binary() {
        Some(b) => Term::binary(
            b.iter()
                .map(|&c| if c == b'_' { b'-' } else { c })
                .collect(),
        ),
        None => return Err(Raised::function_clause(VALIDATOR, "hyphenate", 1)),
    };
    let mut candidates: Vec<Term> = vec![];
    for c in [normalized, name.clone(), hyphenated] {
        if !candidates.contains(&c) {
            candidates.push(c);
        }
    }
    for key in &candidates {
        let Some(bytes) = key.as_binary() else {
            return Err(Raised::function_clause(VALIDATOR, "try_key", 2));
        };
        if let Some(found) = try_key(data, key, bytes) {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// `try_key/2`: the atom key (`String.to_existing_atom/1`; an atom a map
/// holds exists), the binary key, then `%PtcRunner.Lisp.Keyword{name: key}`
/// (JH-15's three forms of a candidate).
fn try_key<'a>(data: &'a Map, key: &Term, bytes: &[u8]) -> Option<(&'a Term, &'a Term)> {
    let as_atom = std::str::from_utf8(bytes).ok().map(Term::atom);
    let keyword = Term::Struct(Box::new(Struct {
        module: LISP_KEYWORD.to_owned(),
        fields: vec![("name".to_owned(), key.clone())],
    }));
    let wanted = as_atom.into_iter().chain([key.clone(), keyword]);
    for w in wanted {
        if let Ok(i) = data.pairs().binary_search_by(|(k, _)| map_key_cmp(k, &w)) {
            let (k, v) = &data.pairs()[i];
            return Some((k, v));
        }
    }
    None
}

/// `validate_no_extra_fields/3`: every data key no field consumed, sorted
/// by its `inspect/1` text (JH-17).
fn no_extra_fields(
    rel: Release,
    data: &Map,
    consumed: &Consumed,
    path: &[Term],
) -> Result<Vec<Term>, Raised> {
    let mut extra = vec![];
    for (k, _) in data.iter() {
        let member = match consumed {
            Consumed::Keys(keys) => keys.contains(k),
            Consumed::Other(Term::Struct(s)) if s.module == "MapSet" => {
                matches!(s.field("map"), Some(Term::Map(m)) if m.get(k).is_some())
            }
            Consumed::Other(_) => return Err(Raised::function_clause("MapSet", "member?", 2)),
        };
        if !member {
            extra.push((inspect_bytes_at(rel, k), k));
        }
    }
    extra.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(extra
        .into_iter()
        .map(|(_, k)| {
            error_at(
                &with(path, path_segment(rel, k)),
                "unexpected field — schema disallows additional properties"
                    .as_bytes()
                    .to_vec(),
            )
        })
        .collect())
}

/// `path_segment/1`: a keyword struct's name, a binary or atom as
/// `to_string/1` gives it, anything else inspected (JH-17).
fn path_segment(rel: Release, key: &Term) -> Term {
    match key {
        Term::Struct(s) if s.module == LISP_KEYWORD => {
            s.field("name").cloned().unwrap_or(Term::Nil)
        }
        Term::Str(_) | Term::Bytes(_) => key.clone(),
        _ => match key.as_atom() {
            Some("nil") => Term::str(""),
            Some(a) => Term::str(a),
            None => Term::binary(inspect_bytes_at(rel, key)),
        },
    }
}

/// `type_name/1` (JH-13): `nil` and every other atom are `"keyword"`.
fn type_name(rel: Release, data: &Term) -> Vec<u8> {
    let name = match data {
        Term::Str(_) | Term::Bytes(_) => "string",
        Term::Int(_) => "int",
        Term::Float(_) => "float",
        Term::Bool(_) => "bool",
        Term::Nil | Term::Atom(_) => "keyword",
        _ if is_lisp_keyword(data) => "keyword",
        Term::Map(_) => "map",
        Term::List(_) => "list",
        _ => return inspect_bytes_at(rel, data),
    };
    name.as_bytes().to_vec()
}
