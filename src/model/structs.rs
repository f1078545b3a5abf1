//! Struct definitions the model knows: their fields and defaults
//! (PtcRunner v0.13.0's, `spec/data/structs.json`), and the fields an
//! older release's struct lacks ([`FIELDS_SINCE`], REL-1): every function
//! here that reads a definition has an `_at` form taking the
//! [`Release`]; the plain form is v0.13.0's.
//!
//! A `$struct` travels as written (`spec/terms.md` TJ-7): the tagged
//! decoder keeps the fields it names. Whoever computes on it fills the rest
//! from its own struct definition: the reference from the rows here, with
//! [`complete_term`], which also refuses a field v0.13.0's struct lacks, as
//! `struct!/2` would raise. The judge reads an expectation and an answer
//! with [`with_defaults`] when it judges against the corpus, so an omitted
//! field means v0.13.0's default. A struct of any other module is no term
//! of the boundary: decoding it is an error, as the Elixir adapter declines
//! it. Adding a struct the boundary handles is one row in [`KNOWN`] (and one
//! in the adapter's list).

use crate::term::{FunSpec, Int, Map, Struct, Temporal, TemporalKind, Term};
use crate::Release;
use std::borrow::Cow;
use std::fmt::Write as _;

/// A field's default: `nil` unless listed.
#[derive(Clone, Copy)]
pub enum FieldDefault {
    /// `nil`
    Nil,
    /// An atom.
    Atom(&'static str),
    /// A boolean.
    Bool(bool),
    /// `%{}`
    EmptyMap,
    /// `[]`
    EmptyList,
    /// An integer.
    Int(i64),
    /// A keyword list of integers.
    IntKeywords(&'static [(&'static str, i64)]),
}

impl FieldDefault {
    fn term(self) -> Term {
        match self {
            FieldDefault::Nil => Term::Nil,
            FieldDefault::Atom(a) => Term::atom(a),
            FieldDefault::Bool(b) => Term::Bool(b),
            FieldDefault::EmptyMap => Term::map(vec![]),
            FieldDefault::EmptyList => Term::List(vec![]),
            FieldDefault::Int(n) => Term::int(n),
            FieldDefault::IntKeywords(pairs) => Term::List(
                pairs
                    .iter()
                    .map(|(k, v)| Term::Tuple(vec![Term::atom(k), Term::int(*v)]))
                    .collect(),
            ),
        }
    }
}

use FieldDefault::*;

/// Known structs: module and `(field, default)` rows (PtcRunner v0.13.0's `defstruct`s).
pub const KNOWN: &[(&str, &[(&str, FieldDefault)])] = &[
    (
        "PtcRunner.Tool",
        &[
            ("name", Nil),
            ("function", Nil),
            ("signature", Nil),
            ("description", Nil),
            ("type", Nil),
            ("expose", Nil),
            ("native_result", Nil),
            ("visibility", Atom("public")),
            ("cache", Bool(false)),
        ],
    ),
    ("MapSet", &[("map", EmptyMap)]),
    // `URI` derives `Inspect` with `optional: [:authority]` (see [`OPTIONAL`]).
    (
        "URI",
        &[
            ("scheme", Nil),
            ("authority", Nil),
            ("userinfo", Nil),
            ("host", Nil),
            ("port", Nil),
            ("path", Nil),
            ("query", Nil),
            ("fragment", Nil),
        ],
    ),
    ("PtcRunner.Lisp.Keyword", &[("name", Nil)]),
    (
        "PtcRunner.Lisp.Env.Builtin",
        &[("name", Nil), ("binding", Nil), ("args", Atom("unchecked"))],
    ),
    (
        "PtcRunner.Lisp.Runtime.Interop.Duration",
        &[("milliseconds", Nil)],
    ),
    // `PtcRunner.Lisp.Format`'s display structs (their own `Inspect`).
    ("PtcRunner.Lisp.Format.Fn", &[("params", Nil)]),
    ("PtcRunner.Lisp.Format.Builtin", &[]),
    ("PtcRunner.Lisp.Format.Var", &[("name", Nil)]),
    ("PtcRunner.Lisp.Format.SymbolRef", &[("name", Nil)]),
    ("PtcRunner.Lisp.Format.RegexLiteral", &[("source", Nil)]),
    (
        "PtcRunner.Step",
        &[
            ("return", Nil),
            ("fail", Nil),
            ("memory", Nil),
            ("journal", Nil),
            ("signature", Nil),
            ("usage", Nil),
            ("turns", Nil),
            ("trace_id", Nil),
            ("parent_trace_id", Nil),
            ("name", Nil),
            ("field_descriptions", Nil),
            ("prints", Nil),
            ("tool_calls", Nil),
            ("pmap_calls", Nil),
            ("catalog_ops", Nil),
            ("child_traces", Nil),
            ("child_steps", Nil),
            ("messages", Nil),
            ("prompt", Nil),
            ("original_prompt", Nil),
            ("tools", Nil),
            ("prelude_trace", Nil),
            ("summaries", EmptyMap),
            ("tool_cache", EmptyMap),
        ],
    ),
    (
        "PtcRunner.SubAgent.LLMTool",
        &[
            ("prompt", Nil),
            ("signature", Nil),
            ("llm", Nil),
            ("description", Nil),
            ("tools", Nil),
            ("response_template", Nil),
            ("json_signature", Nil),
            ("validator", Nil),
        ],
    ),
    (
        "PtcRunner.SubAgent.SubAgentTool",
        &[
            ("agent", Nil),
            ("bound_llm", Nil),
            ("signature", Nil),
            ("description", Nil),
            ("cache", Bool(false)),
        ],
    ),
    // `pmap_max_concurrency` defaults to `System.schedulers_online() * 2`
    // on the machine that compiled PtcRunner: 4 on the reference platform.
    (
        "PtcRunner.SubAgent.Definition",
        &[
            ("prompt", Nil),
            ("signature", Nil),
            ("parsed_signature", Nil),
            ("schema", Nil),
            ("prompt_limit", Nil),
            ("max_heap", Nil),
            ("mission_timeout", Nil),
            ("llm_retry", Nil),
            ("llm", Nil),
            ("system_prompt", Nil),
            ("name", Nil),
            ("description", Nil),
            ("field_descriptions", Nil),
            ("context_descriptions", Nil),
            ("compaction", Bool(false)),
            ("thinking", Bool(false)),
            ("tools", EmptyMap),
            ("llm_query", Bool(false)),
            ("builtin_tools", EmptyList),
            ("max_turns", Int(5)),
            ("retry_turns", Int(0)),
            ("timeout", Int(5000)),
            ("pmap_timeout", Int(5000)),
            ("pmap_max_concurrency", Int(4)),
            ("memory_limit", Int(1_048_576)),
            ("max_depth", Int(3)),
            ("turn_budget", Int(20)),
            (
                "format_options",
                IntKeywords(&[
                    ("feedback_limit", 10),
                    ("feedback_max_chars", 512),
                    ("history_max_bytes", 512),
                    ("result_limit", 50),
                    ("result_max_chars", 500),
                    ("max_print_length", 2000),
                ]),
            ),
            ("float_precision", Int(2)),
            ("max_tool_calls", Nil),
            ("output", Atom("ptc_lisp")),
            ("ptc_transport", Atom("content")),
            ("ptc_reference", Atom("compact")),
            ("memory_strategy", Atom("strict")),
            ("plan", EmptyList),
            ("progress_fn", Nil),
            ("journaling", Bool(false)),
            ("completion_mode", Atom("implicit")),
            ("runtime_prelude", Nil),
        ],
    ),
];

/// Fields of [`KNOWN`] that came in a later release than v0.11.0 (REL-1):
/// module, field and the first release whose `defstruct` has it. Every
/// release has every module of [`KNOWN`], and every other field with the
/// same default (measured on each build with `Module.__struct__/0`).
pub const FIELDS_SINCE: &[(&str, &str, Release)] = &[
    ("PtcRunner.Tool", "visibility", Release::V0_13_0),
    ("PtcRunner.Step", "prelude_trace", Release::V0_13_0),
    (
        "PtcRunner.SubAgent.Definition",
        "runtime_prelude",
        Release::V0_13_0,
    ),
];

/// Whether release `rel`'s struct `module` has `field` (REL-1); `false`
/// for a field no release has.
pub fn has_field_at(rel: Release, module: &str, field: &str) -> bool {
    let known = fields_of(module).is_some_and(|rows| rows.iter().any(|(f, _)| *f == field));
    known
        && !FIELDS_SINCE
            .iter()
            .any(|(m, f, since)| *m == module && *f == field && !rel.since(*since))
}

/// The field rows of a known struct module as release `rel` defines it.
pub fn fields_at(
    rel: Release,
    module: &str,
) -> Option<impl Iterator<Item = &'static (&'static str, FieldDefault)> + '_> {
    let rows = fields_of(module)?;
    Some(
        rows.iter()
            .filter(move |(f, _)| rel == Release::V0_13_0 || has_field_at(rel, module, f)),
    )
}

/// Fields a derived `Inspect` shows only when they differ from their
/// default (`@derive {Inspect, optional: [...]}`).
pub const OPTIONAL: &[(&str, &[&str])] = &[("URI", &["authority"])];

/// Whether `inspect/1` leaves out `field` of `module` when it holds its default.
pub fn is_optional(module: &str, field: &str) -> bool {
    OPTIONAL
        .iter()
        .any(|(m, fs)| *m == module && fs.contains(&field))
}

/// The default of a known struct's field.
pub fn default_of(module: &str, field: &str) -> Option<Term> {
    fields_of(module)?
        .iter()
        .find(|(f, _)| *f == field)
        .map(|(_, d)| d.term())
}

/// The field rows of a known struct module.
pub fn fields_of(module: &str) -> Option<&'static [(&'static str, FieldDefault)]> {
    KNOWN.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

/// Whether `module` is a struct of the boundary (a row of [`KNOWN`]).
pub fn is_boundary(module: &str) -> bool {
    fields_of(module).is_some()
}

/// Checks what a boundary struct's fields hold, as written (TJ-7): a `URI`
/// holds binaries (or `nil`) and an integer `port` (or `nil`), as
/// `URI.parse/1` and `URI.new/1` make it; a `MapSet`'s `map` is a map whose
/// every value is `[]`, as `MapSet.new/1` makes it. Any other `URI` or
/// `MapSet` would fail inside Elixir's own helpers (`:sets` raises
/// `FunctionClauseError`), in ways no PtcRunner code decides, so it is no
/// term of the boundary. The tagged decoder and [`complete_term`] both ask.
pub fn check_values(module: &str, fields: &[(String, Term)]) -> Result<(), String> {
    match module {
        "URI" => {
            for (k, v) in fields {
                let ok = match (k.as_str(), v) {
                    (_, Term::Nil) => true,
                    ("port", Term::Int(_)) => true,
                    ("port", _) => false,
                    (_, Term::Str(_) | Term::Bytes(_)) => true,
                    _ => false,
                };
                if !ok {
                    return Err(format!(
                        "URI field {k:?} must be {}",
                        if k == "port" {
                            "an integer or nil"
                        } else {
                            "a binary or nil"
                        }
                    ));
                }
            }
        }
        "MapSet" => {
            for (k, v) in fields.iter().filter(|(k, _)| k == "map") {
                let ok = match v {
                    Term::Map(m) => m
                        .iter()
                        .all(|(_, v)| matches!(v, Term::List(l) if l.is_empty())),
                    _ => false,
                };
                if !ok {
                    return Err(format!(
                        "MapSet field {k:?} must be a map of members to [] (as MapSet.new/1 makes it)"
                    ));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Builds a struct from the fields a `$struct` gives, as v0.13.0 defines
/// it: defaults fill the rest; a field v0.13.0's struct lacks, a module that
/// is no struct of the boundary, or a value [`check_values`] refuses is an
/// error (`struct!/2` would raise on the unknown field).
pub fn complete(module: &str, given: Vec<(String, Term)>) -> Result<Struct, String> {
    complete_at(Release::default(), module, given)
}

/// [`complete`] as release `rel` defines the struct (REL-1).
pub fn complete_at(
    rel: Release,
    module: &str,
    given: Vec<(String, Term)>,
) -> Result<Struct, String> {
    check(rel, module, &given)?;
    let mut fields = given;
    for (name, default) in fields_at(rel, module).into_iter().flatten() {
        if !fields.iter().any(|(k, _)| k == name) {
            fields.push(((*name).to_owned(), default.term()));
        }
    }
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Struct {
        module: module.to_owned(),
        fields,
    })
}

/// Whether v0.13.0 takes a `$struct` of `module` with these fields: the
/// module is a struct of the boundary, each field one its struct has, and
/// the values pass [`check_values`].
fn check(rel: Release, module: &str, fields: &[(String, Term)]) -> Result<(), String> {
    if fields_of(module).is_none() {
        return Err(format!(
            "$struct module {module} is not a struct of the boundary"
        ));
    };
    if let Some((bad, _)) = fields.iter().find(|(k, _)| !has_field_at(rel, module, k)) {
        return Err(if rel == Release::default() {
            format!("{module} has no field {bad:?}")
        } else {
            format!("{module} has no field {bad:?} at release {rel}")
        });
    }
    check_values(module, fields)
}

/// A struct of a known module with the given fields set and defaults elsewhere
/// (a struct the reference makes itself, as PtcRunner's `struct/2` would).
pub fn build(module: &str, given: Vec<(&str, Term)>) -> Struct {
    build_at(Release::default(), module, given)
}

/// [`build`] as release `rel` defines the struct: a field `rel` lacks must
/// not be given (REL-1).
pub fn build_at(rel: Release, module: &str, given: Vec<(&str, Term)>) -> Struct {
    let given = given.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    complete_at(rel, module, given)
        .unwrap_or_else(|e| panic!("bad struct literal in the reference: {e}"))
}

/// A struct as a sender writes it: only the given fields (TJ-7), each one
/// v0.13.0's struct has, with values [`check_values`] takes. Generators
/// build their inputs with it, so that a build whose struct lacks a field
/// the generator does not name can still decode them; the reference
/// completes them itself ([`complete_term`]).
pub fn written<K: Into<String>>(
    module: &str,
    given: impl IntoIterator<Item = (K, Term)>,
) -> Result<Struct, String> {
    written_at(Release::default(), module, given)
}

/// [`written`] as release `rel` defines the struct: a generator at `rel`
/// names only fields `rel`'s struct has (REL-1).
pub fn written_at<K: Into<String>>(
    rel: Release,
    module: &str,
    given: impl IntoIterator<Item = (K, Term)>,
) -> Result<Struct, String> {
    let mut fields: Vec<(String, Term)> = given.into_iter().map(|(k, v)| (k.into(), v)).collect();
    check(rel, module, &fields)?;
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Struct {
        module: module.to_owned(),
        fields,
    })
}

/// `t` with every struct in it completed with v0.13.0's defaults
/// ([`complete`]), deeply (a struct inside a map key, a list, a function's
/// return value): what the reference computes on, and what the judge
/// compares when it judges against the corpus. A field v0.13.0's struct
/// lacks, or a value [`check_values`] refuses, is an error naming where it
/// is: `root` then the JSON-pointer path in `t`'s canonical tagged JSON
/// (pairs of a `$map` counted in term order), e.g.
/// `/args/0/$struct/fields: PtcRunner.Tool has no field "nam"`. A map
/// whose keys become equal once completed is an error too, as a
/// duplicated key is. Borrows `t` when it has nothing to complete.
pub fn complete_term<'t>(t: &'t Term, root: &str) -> Result<Cow<'t, Term>, String> {
    complete_term_at(Release::default(), t, root)
}

/// [`complete_term`] with the structs as release `rel` defines them: a
/// field `rel`'s struct lacks is an error, as `struct!/2` on that
/// release's build raises (REL-1).
pub fn complete_term_at<'t>(
    rel: Release,
    t: &'t Term,
    root: &str,
) -> Result<Cow<'t, Term>, String> {
    let mut path = root.to_owned();
    Ok(fill(rel, t, Fill::Strict, &mut path)?.map_or(Cow::Borrowed(t), Cow::Owned))
}

/// [`complete_term`] over a request's arguments, `root` naming them (`/args`).
pub fn complete_args<'a>(args: &'a [Term], root: &str) -> Result<Cow<'a, [Term]>, String> {
    complete_args_at(Release::default(), args, root)
}

/// [`complete_args`] with the structs as release `rel` defines them
/// (what the reference at `rel` computes on).
pub fn complete_args_at<'a>(
    rel: Release,
    args: &'a [Term],
    root: &str,
) -> Result<Cow<'a, [Term]>, String> {
    let mut path = root.to_owned();
    let mut out: Option<Vec<Term>> = None;
    for (i, a) in args.iter().enumerate() {
        let len = path.len();
        let _ = write!(path, "/{i}");
        let done = fill(rel, a, Fill::Strict, &mut path)?;
        path.truncate(len);
        if let Some(new) = done {
            out.get_or_insert_with(|| args.to_vec())[i] = new;
        }
    }
    Ok(out.map_or(Cow::Borrowed(args), Cow::Owned))
}

/// `t` with every struct given v0.13.0's defaults for the fields it omits,
/// deeply, keeping fields v0.13.0 lacks and values it would refuse (so a
/// difference shows where they are): how the judge reads an answer and an
/// expectation when it judges against the corpus (an omitted field means
/// v0.13.0's default).
pub fn with_defaults(t: &Term) -> Cow<'_, Term> {
    with_defaults_at(Release::default(), t)
}

/// [`with_defaults`] with the structs as release `rel` defines them: an
/// omitted field means `rel`'s default, and a field `rel` lacks is not
/// added (how the judge reads answers when it judges at `rel`).
pub fn with_defaults_at(rel: Release, t: &Term) -> Cow<'_, Term> {
    let mut path = String::new();
    match fill(rel, t, Fill::Lenient, &mut path) {
        Ok(Some(new)) => Cow::Owned(new),
        _ => Cow::Borrowed(t),
    }
}

/// How [`fill`] treats what v0.13.0 would not take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill {
    /// An error.
    Strict,
    /// Kept as it is.
    Lenient,
}

/// The completed `t`, or `None` when nothing in it changes. `path` is the
/// JSON pointer of `t`, extended while walking and restored after.
fn fill(rel: Release, t: &Term, mode: Fill, path: &mut String) -> Result<Option<Term>, String> {
    let at = |path: &str, why: String| {
        if path.is_empty() {
            format!("/: {why}")
        } else {
            format!("{path}: {why}")
        }
    };
    Ok(match t {
        Term::List(items) => {
            let kw = !items.is_empty() && items.iter().all(|i| i.as_kw_pair().is_some());
            let len = path.len();
            let mut out: Option<Vec<Term>> = None;
            for (i, item) in items.iter().enumerate() {
                let done = if kw {
                    // `{"$kw": [["key", value], ...]}`: only the value can hold a struct.
                    let Term::Tuple(pair) = item else { continue };
                    let _ = write!(path, "/$kw/{i}/1");
                    let v = fill(rel, &pair[1], mode, path)?;
                    v.map(|v| Term::Tuple(vec![pair[0].clone(), v]))
                } else {
                    let _ = write!(path, "/{i}");
                    fill(rel, item, mode, path)?
                };
                path.truncate(len);
                if let Some(new) = done {
                    out.get_or_insert_with(|| items.clone())[i] = new;
                }
            }
            out.map(Term::List)
        }
        Term::Tuple(items) => {
            let len = path.len();
            let mut out: Option<Vec<Term>> = None;
            for (i, item) in items.iter().enumerate() {
                let _ = write!(path, "/$tuple/{i}");
                let done = fill(rel, item, mode, path)?;
                path.truncate(len);
                if let Some(new) = done {
                    out.get_or_insert_with(|| items.clone())[i] = new;
                }
            }
            out.map(Term::Tuple)
        }
        Term::Map(m) => {
            let plain = m
                .iter()
                .all(|(k, _)| matches!(k, Term::Str(s) if !s.starts_with('$')));
            let len = path.len();
            let mut out: Option<Vec<(Term, Term)>> = None;
            for (i, (k, v)) in m.iter().enumerate() {
                let key = if plain {
                    None
                } else {
                    let _ = write!(path, "/$map/{i}/0");
                    let done = fill(rel, k, mode, path)?;
                    path.truncate(len);
                    done
                };
                if plain {
                    if let Term::Str(s) = k {
                        path.push('/');
                        path.push_str(&s.replace('~', "~0").replace('/', "~1"));
                    }
                } else {
                    let _ = write!(path, "/$map/{i}/1");
                }
                let value = fill(rel, v, mode, path)?;
                path.truncate(len);
                if key.is_some() || value.is_some() {
                    let pairs = out.get_or_insert_with(|| m.pairs().to_vec());
                    if let Some(k) = key {
                        pairs[i].0 = k;
                    }
                    if let Some(v) = value {
                        pairs[i].1 = v;
                    }
                }
            }
            match out {
                None => None,
                Some(pairs) => {
                    let n = pairs.len();
                    let map = Map::from_pairs(pairs);
                    if mode == Fill::Strict && map.iter().len() != n {
                        return Err(at(
                            path,
                            "duplicated map key: two keys are the same struct once completed with their defaults".to_owned(),
                        ));
                    }
                    Some(Term::Map(map))
                }
            }
        }
        Term::Struct(s) => {
            let len = path.len();
            let mut fields: Option<Vec<(String, Term)>> = None;
            for (i, (name, v)) in s.fields.iter().enumerate() {
                path.push_str("/$struct/fields/");
                path.push_str(&name.replace('~', "~0").replace('/', "~1"));
                let done = fill(rel, v, mode, path)?;
                path.truncate(len);
                if let Some(new) = done {
                    fields.get_or_insert_with(|| s.fields.clone())[i].1 = new;
                }
            }
            let written = fields.as_deref().unwrap_or(&s.fields);
            if mode == Fill::Strict {
                check(rel, &s.module, written)
                    .map_err(|why| at(&format!("{path}/$struct/fields"), why))?;
            }
            let rows: Vec<&(&str, FieldDefault)> =
                fields_at(rel, &s.module).into_iter().flatten().collect();
            let missing = rows
                .iter()
                .any(|(f, _)| !written.iter().any(|(k, _)| k == f));
            if !missing && fields.is_none() {
                return Ok(None);
            }
            let mut given = fields.unwrap_or_else(|| s.fields.clone());
            for (name, default) in rows {
                if !given.iter().any(|(k, _)| k == name) {
                    given.push(((*name).to_owned(), default.term()));
                }
            }
            given.sort_by(|a, b| a.0.cmp(&b.0));
            Some(Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields: given,
            })))
        }
        Term::Fun(f) => match &**f {
            FunSpec::Returns { arity, returns } => {
                path.push_str("/$fn/returns");
                let done = fill(rel, returns, mode, path)?;
                path.truncate(path.len() - "/$fn/returns".len());
                done.map(|r| {
                    Term::Fun(Box::new(FunSpec::Returns {
                        arity: *arity,
                        returns: r,
                    }))
                })
            }
            _ => None,
        },
        _ => None,
    })
}

/// The fields of a calendar struct (all but `__struct__`), from its ISO
/// 8601 text ([`crate::temporal::parse`]): `calendar: Calendar.ISO`, the
/// date and time parts, `microsecond: {value, digits}`, and for a
/// `DateTime` its zone: `Etc/UTC`/`UTC` and offsets 0 for `Z`, else the
/// offset text as zone and abbreviation, `utc_offset` the whole offset and
/// `std_offset` 0 (the tagged codec's convention, TJ-6, TJ-11).
pub fn temporal_fields(t: &Temporal) -> Vec<(String, Term)> {
    // A decoded term's text was checked; one the reference built is
    // canonical. Anything else reads as zeros rather than panicking.
    let p = crate::temporal::parse(t.kind, &t.iso).unwrap_or_default();
    let mut fields: Vec<(String, Term)> =
        vec![("calendar".to_owned(), Term::atom("Elixir.Calendar.ISO"))];
    let mut put = |k: &str, v: Term| fields.push((k.to_owned(), v));
    if t.kind != TemporalKind::Time {
        put("year", Term::int(p.year));
        put("month", Term::int(p.month));
        put("day", Term::int(p.day));
    }
    if t.kind != TemporalKind::Date {
        put("hour", Term::int(p.hour));
        put("minute", Term::int(p.minute));
        put("second", Term::int(p.second));
        put(
            "microsecond",
            Term::Tuple(vec![Term::int(p.microsecond), Term::int(p.precision)]),
        );
        if t.kind == TemporalKind::DateTime {
            let (zone, abbr, offset) = match (p.offset, p.offset_text()) {
                (Some((seconds, _)), Some(text)) => (text.to_owned(), text.to_owned(), seconds),
                _ => ("Etc/UTC".to_owned(), "UTC".to_owned(), 0),
            };
            put("std_offset", Term::int(0));
            put("time_zone", Term::str(zone));
            put("utc_offset", Term::Int(Int::Small(offset)));
            put("zone_abbr", Term::str(abbr));
        }
    }
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    fields
}

#[cfg(test)]
mod release_tests {
    use super::*;

    /// REL-1, as `Module.__struct__/0` answers on each build: v0.13.0 added
    /// `Tool.visibility`, `Step.prelude_trace` and
    /// `Definition.runtime_prelude`; every other field and default is the
    /// same in every release.
    #[test]
    fn fields_per_release() {
        let count = |rel, m| fields_at(rel, m).map_or(0, |f| f.count());
        for (m, f, _) in FIELDS_SINCE {
            assert!(has_field_at(Release::V0_13_0, m, f));
            for rel in [Release::V0_11_0, Release::V0_12_0] {
                assert!(!has_field_at(rel, m, f), "{rel} {m}.{f}");
                assert_eq!(count(rel, m) + 1, count(Release::V0_13_0, m), "{rel} {m}");
            }
        }
        assert_eq!(count(Release::V0_12_0, "PtcRunner.Tool"), 8);
        assert_eq!(count(Release::V0_12_0, "PtcRunner.Step"), 23);
        assert_eq!(
            count(Release::V0_11_0, "URI"),
            count(Release::V0_13_0, "URI")
        );
        assert!(!has_field_at(Release::V0_13_0, "PtcRunner.Tool", "nam"));
        let partial = Term::Struct(Box::new(Struct {
            module: "PtcRunner.Tool".into(),
            fields: vec![("name".into(), Term::str("x"))],
        }));
        let old = complete_term_at(Release::V0_12_0, &partial, "/args/0").expect("completes");
        let Term::Struct(s) = &*old else {
            panic!("a struct")
        };
        assert_eq!(s.field("visibility"), None);
        assert_eq!(s.fields.len(), 8);
        let new = complete_term(&partial, "/args/0").expect("completes");
        let Term::Struct(s) = &*new else {
            panic!("a struct")
        };
        assert_eq!(s.field("visibility"), Some(&Term::atom("public")));
        let with = Term::Struct(Box::new(Struct {
            module: "PtcRunner.Tool".into(),
            fields: vec![("visibility".into(), Term::atom("public"))],
        }));
        assert_eq!(
            complete_term_at(Release::V0_12_0, &with, "/args/0").unwrap_err(),
            "/args/0/$struct/fields: PtcRunner.Tool has no field \"visibility\" at release 0.12.0"
        );
        assert_eq!(
            with_defaults_at(Release::V0_11_0, &partial).into_owned(),
            old.into_owned()
        );
    }
}
