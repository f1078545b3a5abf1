//! Struct definitions the model knows: their fields and defaults.
//!
//! A `$struct` of a known module gets every field it omits from the
//! defaults here, and naming a field the struct lacks is an error, as
//! `struct!/2` would raise. Structs of other modules keep the fields given.
//! Adding a struct the boundary handles is one row in [`KNOWN`].

use crate::term::{Struct, Term};

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
}

impl FieldDefault {
    fn term(self) -> Term {
        match self {
            FieldDefault::Nil => Term::Nil,
            FieldDefault::Atom(a) => Term::atom(a),
            FieldDefault::Bool(b) => Term::Bool(b),
            FieldDefault::EmptyMap => Term::map(vec![]),
            FieldDefault::EmptyList => Term::List(vec![]),
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
];

/// The field rows of a known struct module.
pub fn fields_of(module: &str) -> Option<&'static [(&'static str, FieldDefault)]> {
    KNOWN.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

/// Builds a struct from the fields a `$struct` gives: defaults fill the rest
/// for a known module; an unknown field of a known module is an error.
pub fn complete(module: &str, given: Vec<(String, Term)>) -> Result<Struct, String> {
    let mut fields = given;
    if let Some(rows) = fields_of(module) {
        if let Some((bad, _)) = fields
            .iter()
            .find(|(k, _)| !rows.iter().any(|(f, _)| f == k))
        {
            return Err(format!("{module} has no field {bad:?}"));
        }
        for (name, default) in rows {
            if !fields.iter().any(|(k, _)| k == name) {
                fields.push(((*name).to_owned(), default.term()));
            }
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
