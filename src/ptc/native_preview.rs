//! `PtcRunner.SubAgent.Loop.NativePreview`: the preview a combined-mode
//! agent shows the LLM instead of a cached native tool result, and its
//! `cache_hint` sentence (`spec/native_preview.md`, `NP-`). Includes
//! `PtcRunner.Temporal.walk/1`, which the rows preview applies.

use crate::key_normalizer::canonical_cache_key;
use crate::keyword;
use crate::term::{FunSpec, Map, Term};
use crate::{chars, jason, lisp_formatter, Raised, Release};

const MODULE: &str = "PtcRunner.SubAgent.Loop.NativePreview";
const MAX_PROPERTIES: usize = 20;
const DEFAULT_ROW_LIMIT: i64 = 20;

/// `cache_hint/2`: "Call lisp_eval and then call (tool/NAME ARGS) to process
/// the full cached result.", ARGS being the canonical args rendered as a
/// PTC-Lisp map with keys sorted by their string form.
pub fn cache_hint(rel: Release, tool_name: &Term, args: &Term) -> Result<Term, Raised> {
    // NP-1: a binary name and a map (a struct too) args, else raises.
    let name = match tool_name.as_binary() {
        Some(name) if args.is_map() => name,
        _ => return Err(Raised::function_clause(MODULE, "cache_hint", 2)),
    };
    let canonical = match canonical_cache_key(tool_name, args)? {
        Term::Tuple(mut kv) if kv.len() == 2 => kv.swap_remove(1),
        _ => Term::Nil,
    };
    // NP-2: the args fragment is `format/1` of the AST of the canonical args.
    let fragment = lisp_formatter::format(rel, &to_ast(rel, &canonical)?)?;
    let mut out = b"Call lisp_eval and then call (tool/".to_vec();
    out.extend_from_slice(name);
    out.push(b' ');
    out.extend_from_slice(fragment.as_binary().unwrap_or_default());
    out.extend_from_slice(b") to process the full cached result.");
    Ok(Term::binary(out))
}

/// `build/3`: `{:ok, preview}`, or `{:fallback, preview}` when a custom
/// preview function failed and the metadata preview stands in. Every
/// preview carries `status`, `full_result_cached` and `cache_hint`.
pub fn build(rel: Release, tool: &Term, full_result: &Term, args: &Term) -> Result<Term, Raised> {
    // NP-6: a `%Tool{}` and map args, else raises; the cache fields come first.
    let tool = match tool {
        Term::Struct(s) if s.module == "PtcRunner.Tool" && args.is_map() => s,
        _ => return Err(Raised::function_clause(MODULE, "build", 3)),
    };
    let name = tool.field("name").cloned().unwrap_or(Term::Nil);
    let cache_fields = [
        ("status", Term::str("ok")),
        ("full_result_cached", Term::Bool(true)),
        ("cache_hint", cache_hint(rel, &name, args)?),
    ];
    let merged = |mut preview: Map| {
        for (k, v) in &cache_fields {
            preview.insert(Term::str(*k), v.clone());
        }
        preview
    };
    // NP-7: the preview kind comes from `native_result`.
    let native_result = tool.field("native_result").cloned().unwrap_or(Term::Nil);
    let (status, preview) = match preview_kind(rel, &native_result)? {
        Kind::Metadata => ("ok", merged(metadata_preview(rel, full_result)?)),
        Kind::Rows(limit) => ("ok", merged(rows_preview(rel, full_result, &limit)?)),
        // NP-21, NP-22: a custom preview, or the metadata preview as fallback.
        Kind::Custom(fun) => match custom_preview(&fun)? {
            Some(own) if encodable(rel, &merged(own.clone()))? => ("ok", merged(own)),
            _ => ("fallback", merged(metadata_preview(rel, full_result)?)),
        },
    };
    Ok(Term::Tuple(vec![Term::atom(status), Term::Map(preview)]))
}

enum Kind {
    Metadata,
    Rows(Term),
    Custom(FunSpec),
}

/// The preview kind from `native_result`: `nil`, or a keyword list whose
/// `:preview` is `:metadata`, `:rows` or a 1-ary function; any other
/// `:preview` value means metadata. A non-list raises.
fn preview_kind(rel: Release, native_result: &Term) -> Result<Kind, Raised> {
    let opts = match native_result {
        Term::Nil => return Ok(Kind::Metadata),
        // NP-7: a list is read with `Keyword.get/3`; a non-list raises.
        Term::List(opts) => opts,
        _ => return Err(Raised::function_clause(MODULE, "preview_kind", 1)),
    };
    let preview = keyword::get_in(rel, opts, "preview")?.unwrap_or(Term::atom("metadata"));
    Ok(match preview {
        Term::Atom(a) if a == "rows" => {
            Kind::Rows(keyword::get_in(rel, opts, "limit")?.unwrap_or(Term::int(DEFAULT_ROW_LIMIT)))
        }
        Term::Fun(f) if f.arity() == Some(1) => Kind::Custom(*f),
        _ => Kind::Metadata,
    })
}

/// Runs a custom preview function (its argument, the full result, plays no
/// part in a behaviour spec): `Some(map)` with atom keys stringified when it
/// returned a map, `None` when it raised or returned a non-map. A struct
/// return value raises `FunctionClauseError` (`stringify_keys/1`).
fn custom_preview(fun: &FunSpec) -> Result<Option<Map>, Raised> {
    let value = match fun {
        FunSpec::Returns { returns, .. } => returns.clone(),
        // A raise is rescued; a named capture cannot be run by the reference
        // and is treated as one that raised.
        FunSpec::Raises { .. } | FunSpec::Named(_) => return Ok(None),
    };
    // NP-21: a map return value has its top-level atom keys stringified.
    match value {
        Term::Map(m) => Ok(Some(stringify_keys(m))),
        // NP-23 (Quirk): a struct return value raises out of `build`.
        Term::Struct(_) | Term::Temporal(_) => {
            Err(Raised::function_clause(MODULE, "stringify_keys", 1))
        }
        _ => Ok(None),
    }
}

/// Whether `Jason.encode/1` succeeds. Jason turns its own refusals
/// (`Jason.Encoder` not implemented, invalid UTF-8) into `{:error, _}`; a
/// map key that `String.Chars` refuses raises through.
fn encodable(rel: Release, preview: &Map) -> Result<bool, Raised> {
    match jason::encode(rel, &Term::Map(preview.clone())) {
        Ok(_) => Ok(true),
        // NP-22: Jason's own refusals fall back; NP-23: a `String.Chars` refusal escapes.
        Err(e) if e.class == "Jason.EncodeError" || e.message.contains("Jason.Encoder") => {
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// Atom keys become their names (`nil` → `"nil"`); a later key that
/// stringifies alike replaces an earlier one, in map order.
/// (NP-21.)
fn stringify_keys(m: Map) -> Map {
    Map::from_pairs(
        m.into_pairs()
            .into_iter()
            .map(|(k, v)| match k.as_atom() {
                Some(name) => (Term::str(name), v),
                None => (k, v),
            })
            .collect(),
    )
}

/// The metadata preview: a schema, sample keys and a count.
fn metadata_preview(rel: Release, result: &Term) -> Result<Map, Raised> {
    match result {
        // NP-8: `[]`, a list whose first element is a plain map, or any other list.
        Term::List(items) => match items.first() {
            None => Ok(obj(vec![
                ("result_count", Term::int(0)),
                (
                    "schema",
                    obj_t(vec![("type", s("array")), ("items", obj_t(vec![]))]),
                ),
            ])),
            Some(Term::Map(_)) => list_of_maps_preview(rel, items),
            // NP-11: a list of scalars.
            Some(_) => Ok(obj(vec![
                ("result_count", count(items)),
                ("schema", array_of(scalar_type(items))),
            ])),
        },
        // NP-12: a plain map, empty or not.
        Term::Map(m) if m.is_empty() => Ok(obj(vec![
            ("schema", obj_t(vec![("type", s("object"))])),
            ("sample_keys", Term::List(vec![])),
        ])),
        Term::Map(m) => {
            let (schema, properties) = object_schema(rel, m)?;
            Ok(obj(vec![
                ("schema", Term::Map(schema)),
                ("sample_keys", properties),
            ]))
        }
        // NP-16: any other result.
        other => Ok(obj(vec![(
            "schema",
            obj_t(vec![("type", s(json_type_for(other)))]),
        )])),
    }
}

fn list_of_maps_preview(rel: Release, items: &[Term]) -> Result<Map, Raised> {
    // NP-9: the first element's schema when the keys are consistent.
    let first = match items.first() {
        Some(Term::Map(first)) if consistent_keys(rel, items)? => first,
        _ => {
            return Ok(obj(vec![
                ("result_count", count(items)),
                ("schema", array_of_objects()),
            ]))
        }
    };
    let (item_schema, properties) = object_schema(rel, first)?;
    Ok(obj(vec![
        ("result_count", count(items)),
        (
            "schema",
            obj_t(vec![
                ("type", s("array")),
                ("items", Term::Map(item_schema)),
            ]),
        ),
        ("sample_keys", properties),
    ]))
}

/// `{"type": "object", "properties": ...}` over the first 20 sorted
/// stringified keys (plus `"truncated": true` past 20), and those keys.
fn object_schema(rel: Release, m: &Map) -> Result<(Map, Term), Raised> {
    // NP-13: keys stringified and sorted, duplicates kept; the first 20 are properties.
    let keys = sorted_keys(rel, m)?;
    let truncated = keys.len() > MAX_PROPERTIES;
    let properties: Vec<Vec<u8>> = keys.into_iter().take(MAX_PROPERTIES).collect();
    let props = Map::from_pairs(
        properties
            .iter()
            .map(|k| (Term::binary(k.clone()), s(json_type_for(&value_for(m, k)))))
            .collect(),
    );
    let mut schema = obj(vec![
        ("type", s("object")),
        ("properties", Term::Map(props)),
    ]);
    if truncated {
        schema.insert(s("truncated"), Term::Bool(true));
    }
    let keys = properties.into_iter().map(Term::binary).collect();
    Ok((schema, Term::List(keys)))
}

/// The value a property reports: `Map.get(m, k) || fetch_by_atom(m, k)`, so
/// a `nil` or `false` under the string key defers to the atom key.
fn value_for(m: &Map, key: &[u8]) -> Term {
    // NP-14 (Quirk): `a || b`, the binary key's value unless nil/false, else the atom's.
    match m.get(&Term::binary(key.to_vec())) {
        Some(v) if !matches!(v, Term::Nil | Term::Bool(false)) => v.clone(),
        _ => std::str::from_utf8(key)
            .ok()
            .and_then(|name| m.get(&Term::atom(name)))
            .cloned()
            .unwrap_or(Term::Nil),
    }
}

/// The map's keys through `to_string/1`, sorted bytewise (duplicates kept).
/// (NP-13, and NP-10's and NP-18's key sets.)
fn sorted_keys(rel: Release, m: &Map) -> Result<Vec<Vec<u8>>, Raised> {
    let mut keys = m
        .iter()
        .map(|(k, _)| chars::to_string(rel, k))
        .collect::<Result<Vec<_>, _>>()?;
    keys.sort();
    Ok(keys)
}

/// Whether the first item's stringified key set equals that of each of the
/// next four items, all of them plain maps. A one-item list is consistent.
fn consistent_keys(rel: Release, items: &[Term]) -> Result<bool, Raised> {
    // NP-10: one element, or the 2nd to 5th are plain maps with the same key set.
    let (first, rest) = match items {
        [_] => return Ok(true),
        [Term::Map(first), rest @ ..] => (first, rest),
        _ => return Ok(false),
    };
    let mut first_keys = sorted_keys(rel, first)?;
    first_keys.dedup();
    for item in rest.iter().take(4) {
        let Term::Map(m) = item else { return Ok(false) };
        let mut keys = sorted_keys(rel, m)?;
        keys.dedup();
        if keys != first_keys {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The `:rows` preview: the first `limit` rows (temporal values as ISO
/// 8601 text), the full count, a schema and, for consistent map rows, the
/// sorted keys. A result that is not a list gets the metadata preview.
fn rows_preview(rel: Release, result: &Term, limit: &Term) -> Result<Map, Raised> {
    // NP-20: a result that is not a list gets the metadata preview.
    let items = match result {
        Term::List(items) => items,
        other => return metadata_preview(rel, other),
    };
    // NP-17: `Enum.take/2`, then `walk/1` (NP-19).
    let rows: Vec<Term> = take(items, limit)?.iter().map(walk).collect();
    // NP-18: the rows schema, from the kept rows only.
    let schema = match rows.first() {
        None => obj_t(vec![("type", s("array")), ("items", obj_t(vec![]))]),
        Some(Term::Map(first)) => {
            if consistent_keys(rel, &rows)? {
                let (item_schema, _) = object_schema(rel, first)?;
                obj_t(vec![
                    ("type", s("array")),
                    ("items", Term::Map(item_schema)),
                ])
            } else {
                array_of_objects()
            }
        }
        Some(_) => array_of(scalar_type(&rows)),
    };
    // NP-18 (Quirk): all the first row's keys, not cut at 20.
    let sample_keys = match rows.first() {
        Some(Term::Map(first)) if consistent_keys(rel, &rows)? => Some(sorted_keys(rel, first)?),
        _ => None,
    };
    let mut preview = obj(vec![
        ("result_count", count(items)),
        ("schema", schema),
        ("rows", Term::List(rows)),
    ]);
    if let Some(keys) = sample_keys {
        preview.insert(
            s("sample_keys"),
            Term::List(keys.into_iter().map(Term::binary).collect()),
        );
    }
    Ok(preview)
}

/// `Enum.take/2`: the first `n`, or for a negative `n` the last `-n`; a
/// limit that is not an integer raises.
fn take(items: &[Term], limit: &Term) -> Result<Vec<Term>, Raised> {
    // NP-17 (Quirk): a limit that is not an integer raises; a negative one takes from the end.
    let Term::Int(n) = limit else {
        return Err(Raised::function_clause("Enum", "take", 2));
    };
    let n = n.to_bigint();
    let len = num_bigint::BigInt::from(items.len());
    Ok(if n >= num_bigint::BigInt::from(0) {
        let k = usize::try_from(n.min(len)).unwrap_or(items.len());
        items[..k].to_vec()
    } else {
        let k = usize::try_from((-n).min(len)).unwrap_or(items.len());
        items[items.len() - k..].to_vec()
    })
}

/// `PtcRunner.Temporal.walk/1`: calendar structs become their ISO 8601
/// text inside maps (values only) and lists; other structs and tuples are
/// not entered.
pub fn walk(t: &Term) -> Term {
    // NP-19: calendar structs become ISO 8601 text; maps' values and lists entered.
    match t {
        Term::Temporal(tm) => Term::str(tm.iso.clone()),
        Term::Map(m) => Term::Map(Map::from_sorted_unchecked(
            m.iter().map(|(k, v)| (k.clone(), walk(v))).collect(),
        )),
        Term::List(items) => Term::List(items.iter().map(walk).collect()),
        other => other.clone(),
    }
}

/// The item type of a list whose first element is not a plain map: the
/// first element's type when every element has it, else `"any"`.
/// (NP-11, and NP-18 over the rows.)
fn scalar_type(items: &[Term]) -> &'static str {
    let first = items.first().map(json_type_for).unwrap_or("any");
    if items.iter().all(|i| json_type_for(i) == first) {
        first
    } else {
        "any"
    }
}

/// JSON-Schema-ish type name; atoms, tuples, structs and the rest are `"string"`.
fn json_type_for(v: &Term) -> &'static str {
    // NP-15: the JSON type; everything else is `"string"` (Quirk).
    match v {
        Term::Int(_) => "integer",
        Term::Float(_) => "number",
        Term::Str(_) | Term::Bytes(_) => "string",
        Term::Bool(_) => "boolean",
        Term::Nil => "null",
        Term::List(_) => "array",
        Term::Map(_) => "object",
        _ => "string",
    }
}

/// Converts the canonical args to the AST the formatter renders: maps with
/// keys sorted by `to_string/1` (stable), lists and tuples as vectors,
/// binaries as strings, atoms other than `nil`/`true`/`false` as keywords,
/// everything else as it is.
fn to_ast(rel: Release, t: &Term) -> Result<Term, Raised> {
    Ok(match t {
        // NP-2: key texts first (`Enum.sort_by/2`), stable bytewise sort, then values;
        // NP-3 (Quirk): key texts go into keywords unescaped; NP-5: what the formatter refuses raises there.
        Term::Map(m) => {
            let mut keyed = m
                .iter()
                .map(|(k, v)| Ok((chars::to_string(rel, k)?, k, v)))
                .collect::<Result<Vec<_>, Raised>>()?;
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            let pairs = keyed
                .into_iter()
                .map(|(text, _, v)| {
                    let key = tagged("keyword", Term::binary(text));
                    Ok(Term::Tuple(vec![key, to_ast(rel, v)?]))
                })
                .collect::<Result<Vec<_>, Raised>>()?;
            tagged("map", Term::List(pairs))
        }
        Term::List(items) | Term::Tuple(items) => tagged(
            "vector",
            Term::List(
                items
                    .iter()
                    .map(|i| to_ast(rel, i))
                    .collect::<Result<_, _>>()?,
            ),
        ),
        // NP-4: floats arrive canonical (KN-10), integral ones as integers.
        // NP-24: keys are sorted, so hash order past 32 keys does not show.
        Term::Str(_) | Term::Bytes(_) => tagged("string", t.clone()),
        Term::Atom(a) => tagged("keyword", Term::str(a.clone())),
        other => other.clone(),
    })
}

fn tagged(tag: &str, arg: Term) -> Term {
    Term::Tuple(vec![Term::atom(tag), arg])
}

fn s(text: &str) -> Term {
    Term::str(text)
}

/// The string-keyed objects of every preview (NP-8 to NP-18).
fn obj(pairs: Vec<(&str, Term)>) -> Map {
    Map::from_pairs(pairs.into_iter().map(|(k, v)| (s(k), v)).collect())
}

fn obj_t(pairs: Vec<(&str, Term)>) -> Term {
    Term::Map(obj(pairs))
}

fn array_of(item_type: &str) -> Term {
    obj_t(vec![
        ("type", s("array")),
        ("items", obj_t(vec![("type", s(item_type))])),
    ])
}

fn array_of_objects() -> Term {
    array_of("object")
}

fn count(items: &[Term]) -> Term {
    Term::int(i64::try_from(items.len()).unwrap_or(i64::MAX))
}
