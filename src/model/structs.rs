//! Struct definitions the model knows: their fields and defaults.
//!
//! A `$struct` of a known module gets every field it omits from the
//! defaults here, and naming a field the struct lacks is an error, as
//! `struct!/2` would raise. A struct of any other module is no term of the
//! boundary (`spec/terms.md` TJ-7): decoding it is an error, as the Elixir
//! adapter declines it. Adding a struct the boundary handles is one row in
//! [`KNOWN`] (and one in the adapter's list).

use crate::term::{Int, Struct, Temporal, TemporalKind, Term};

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

/// Builds a struct from the fields a `$struct` gives: defaults fill the rest
/// for a known module; an unknown field of a known module is an error.
pub fn complete(module: &str, given: Vec<(String, Term)>) -> Result<Struct, String> {
    let mut fields = given;
    let Some(rows) = fields_of(module) else {
        return Err(format!(
            "$struct module {module} is not a struct of the boundary"
        ));
    };
    if let Some((bad, _)) = fields
        .iter()
        .find(|(k, _)| !rows.iter().any(|(f, _)| f == k))
    {
        return Err(format!("{module} has no field {bad:?}"));
    }
    // A boundary URI holds binaries (or nil) and an integer port (or nil),
    // as `URI.parse/1` and `URI.new/1` make them (TJ-7).
    if module == "URI" {
        for (k, v) in &fields {
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
    for (name, default) in rows {
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

/// A struct of a known module with the given fields set and defaults elsewhere.
pub fn build(module: &str, given: Vec<(&str, Term)>) -> Struct {
    let given = given.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    complete(module, given).unwrap_or_else(|e| panic!("bad struct literal in the reference: {e}"))
}

/// The fields of a calendar struct (all but `__struct__`), from its ISO
/// 8601 text as `from_iso8601/1` parses it: `calendar: Calendar.ISO`, the
/// date and time parts, `microsecond: {value, digits}` (at most 6 digits),
/// and for a `DateTime` its zone: `Etc/UTC`/`UTC` for `Z`, else the offset
/// text as zone and abbreviation (the tagged codec's convention, TJ-6).
pub fn temporal_fields(t: &Temporal) -> Vec<(String, Term)> {
    let iso = t.iso.as_str();
    let num = |s: &str| Term::int(s.parse::<i64>().unwrap_or(0));
    let mut fields: Vec<(String, Term)> =
        vec![("calendar".to_owned(), Term::atom("Elixir.Calendar.ISO"))];
    let mut put = |k: &str, v: Term| fields.push((k.to_owned(), v));
    let (date, time) = match t.kind {
        TemporalKind::Date => (Some(iso), None),
        TemporalKind::Time => (None, Some(iso)),
        _ => (iso.get(..10), iso.get(11..)),
    };
    if let Some(d) = date {
        put("year", num(d.get(..4).unwrap_or("0")));
        put("month", num(d.get(5..7).unwrap_or("0")));
        put("day", num(d.get(8..10).unwrap_or("0")));
    }
    if let Some(tm) = time {
        put("hour", num(tm.get(..2).unwrap_or("0")));
        put("minute", num(tm.get(3..5).unwrap_or("0")));
        put("second", num(tm.get(6..8).unwrap_or("0")));
        let rest = tm.get(8..).unwrap_or("");
        let digits: String = rest
            .strip_prefix('.')
            .unwrap_or("")
            .chars()
            .take_while(char::is_ascii_digit)
            .take(6)
            .collect();
        let value = format!("{digits:0<6}").parse::<i64>().unwrap_or(0);
        put(
            "microsecond",
            Term::Tuple(vec![Term::int(value), Term::int(digits.len() as i64)]),
        );
        if t.kind == TemporalKind::DateTime {
            let (zone, abbr, offset) = if iso.ends_with('Z') {
                ("Etc/UTC".to_owned(), "UTC".to_owned(), 0)
            } else {
                let text = &iso[iso.len().saturating_sub(6)..];
                let sign = if text.starts_with('-') { -1 } else { 1 };
                let h: i64 = text.get(1..3).and_then(|x| x.parse().ok()).unwrap_or(0);
                let m: i64 = text.get(4..6).and_then(|x| x.parse().ok()).unwrap_or(0);
                (text.to_owned(), text.to_owned(), sign * (h * 3600 + m * 60))
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
