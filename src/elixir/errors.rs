//! The messages of the Elixir exceptions the boundary raises, as Elixir
//! 1.18.4 writes them (`Exception.message/1`): `KeyError`, `BadMapError`,
//! `CaseClauseError` and `Protocol.UndefinedError`. Each embeds `inspect/2`
//! of the offending term, so a port must reproduce that text too. The
//! texts themselves are [`crate::elixir::messages`]' templates.

use crate::elixir::messages as m;
use crate::inspect::{atom_literal, inspect, remote_call};
use crate::term::{OpaqueKind, Term};
use crate::{Raised, Release};

/// `KeyError` for a missing atom `key` in `term`:
/// `key :k not found in: <inspect(term, pretty: true, limit: :infinity)>`.
/// The boundary raises it only for a keyword list (`Keyword.fetch!/2`) or a
/// map (`map.field`), never for `nil` or a module atom, whose messages
/// Elixir words differently.
pub fn key_error(key: &str, term: &Term) -> Raised {
    key_error_at(Release::default(), key, term)
}

/// [`key_error`] with `term` inspected as release `rel`'s build prints it
/// (REL-7).
pub fn key_error_at(rel: Release, key: &str, term: &Term) -> Raised {
    raise(
        &m::KEY_ERROR,
        &[
            ("key", &inspect(&Term::atom(key))),
            (
                "term",
                &crate::inspect::inspect_with_at(rel, term, true, None),
            ),
        ],
    )
}

/// The exception of a class-bearing template rendered with `values`.
pub fn raise(template: &m::Template, values: &[(&str, &str)]) -> Raised {
    Raised::new(class_of(template), template.render(values))
}

/// The class of the exception a template's text is the message of.
fn class_of(template: &m::Template) -> &'static str {
    template.class.unwrap_or("RuntimeError")
}

/// `UndefinedFunctionError` for a call into the module named by the atom
/// `module` (`Elixir.Foo`, `foo`), which the VM cannot load; `function` as
/// Elixir prints it. `hint_for_missing_alias/1` adds its hint when the
/// module is an Elixir alias of one segment.
pub fn module_not_available(module: &str, function: &str, arity: u32) -> Raised {
    let hint = if module
        .strip_prefix("Elixir.")
        .is_some_and(|rest| !rest.contains('.'))
    {
        m::UNDEFINED_FUNCTION_ALIAS_HINT.text
    } else {
        ""
    };
    raise(
        &m::UNDEFINED_FUNCTION_MODULE_NOT_AVAILABLE,
        &[
            ("module", &atom_literal(module)),
            ("function", &remote_call(function)),
            ("arity", &arity.to_string()),
            ("hint", hint),
        ],
    )
}

/// `BadMapError`: `expected a map, got: <inspect(term)>`.
pub fn bad_map(term: &Term) -> Raised {
    bad_map_at(Release::default(), term)
}

/// [`bad_map`] with `term` inspected as release `rel`'s build prints it
/// (REL-7).
pub fn bad_map_at(rel: Release, term: &Term) -> Raised {
    raise(
        &m::BAD_MAP,
        &[("term", &crate::inspect::inspect_at(rel, term))],
    )
}

/// `CaseClauseError`: `no case clause matching: <inspect(term)>`, `term`
/// inspected as release `rel`'s build prints it (a display struct in
/// another's field is an `Inspect.Error` at v0.11.0, REL-7).
pub fn case_clause(rel: Release, term: &Term) -> Raised {
    raise(
        &m::CASE_CLAUSE,
        &[("term", &crate::inspect::inspect_at(rel, term))],
    )
}

/// A protocol whose `Protocol.UndefinedError` the boundary can raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `String.Chars` (interpolation, `to_string/1`) of a release's build.
    StringChars(Release),
    /// `Jason.Encoder` of a release's build.
    JasonEncoder(Release),
    /// `Enumerable`.
    Enumerable,
}

impl Protocol {
    /// The release whose implementations are loaded (v0.13.0 for
    /// `Enumerable`, whose implementations no release changed).
    fn release(self) -> Release {
        match self {
            Protocol::StringChars(rel) | Protocol::JasonEncoder(rel) => rel,
            Protocol::Enumerable => Release::default(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Protocol::StringChars(_) => "String.Chars",
            Protocol::JasonEncoder(_) => "Jason.Encoder",
            Protocol::Enumerable => "Enumerable",
        }
    }

    /// The consolidated implementations as the release's build lists them
    /// (v0.11.0's lack `PtcRunner.Lisp.Format`'s display structs, REL-7):
    /// which modules are loaded depends on the VM and the build, so this
    /// part of the message is compared loosely (`spec/README.md`, LOOSE-1).
    fn implementations(self) -> &'static str {
        match self {
            Protocol::StringChars(rel) if !rel.since(Release::V0_12_0) => {
                m::PROTOCOL_IMPLEMENTATIONS_STRING_CHARS_V0_11.text
            }
            Protocol::StringChars(_) => m::PROTOCOL_IMPLEMENTATIONS_STRING_CHARS.text,
            Protocol::JasonEncoder(rel) if !rel.since(Release::V0_12_0) => {
                m::PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER_V0_11.text
            }
            Protocol::JasonEncoder(_) => m::PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER.text,
            Protocol::Enumerable => m::PROTOCOL_IMPLEMENTATIONS_ENUMERABLE.text,
        }
    }
}

/// `Protocol.UndefinedError` for `protocol` and `value`: the value's type,
/// the description (Jason's), the implementations and the value as
/// `inspect(value, pretty: true)`, each line indented by four spaces. The
/// message is [`protocol_undefined_bytes`] as text.
pub fn protocol_undefined(protocol: Protocol, value: &Term) -> Raised {
    Raised::new(
        class_of(&m::PROTOCOL_UNDEFINED),
        String::from_utf8_lossy(&protocol_undefined_bytes(protocol, value)),
    )
}

/// The message of [`protocol_undefined`] as the binary Elixir builds: a
/// display struct inside `value` keeps its bytes, invalid UTF-8 included,
/// as an `Inspect.Error` shows them (IN-15).
pub fn protocol_undefined_bytes(protocol: Protocol, value: &Term) -> Vec<u8> {
    let description = match (protocol, value) {
        (Protocol::JasonEncoder(_), Term::Struct(_) | Term::Temporal(_)) => {
            m::JASON_ENCODER_STRUCT_DESCRIPTION.text
        }
        (Protocol::JasonEncoder(_), _) => m::JASON_ENCODER_DESCRIPTION.text,
        // `Enumerable.Function.reduce/3` refuses a function of another arity.
        (Protocol::Enumerable, Term::Fun(f)) if f.arity() != Some(2) => {
            m::ENUMERABLE_FUNCTION_DESCRIPTION.text
        }
        _ => "",
    };
    let description = if description.is_empty() {
        String::new()
    } else {
        format!(", {description}")
    };
    let mut shown = Vec::new();
    let inspected = crate::inspect::inspect_with_bytes_at(
        protocol.release(),
        value,
        true,
        Some(crate::inspect::LIMIT),
    );
    for (i, line) in inspected.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            shown.push(b'\n');
        }
        if !line.is_empty() {
            shown.extend_from_slice(b"    ");
            shown.extend_from_slice(line);
        }
    }
    m::PROTOCOL_UNDEFINED.render_bytes(&[
        ("protocol", protocol.name().as_bytes()),
        ("type", value_type(value).as_bytes()),
        ("description", description.as_bytes()),
        ("implementations", protocol.implementations().as_bytes()),
        ("value", &shown),
    ])
}

/// `Protocol.UndefinedError`'s name for the type of a value.
fn value_type(value: &Term) -> String {
    match value {
        Term::Struct(s) => m::PROTOCOL_UNDEFINED_STRUCT_TYPE.render(&[(
            "module",
            &inspect(&Term::atom(&format!("Elixir.{}", s.module))),
        )]),
        Term::Temporal(t) => {
            m::PROTOCOL_UNDEFINED_STRUCT_TYPE.render(&[("module", t.kind.module())])
        }
        Term::Nil | Term::Bool(_) | Term::Atom(_) => "Atom".to_owned(),
        Term::Str(_) | Term::Bytes(_) => "BitString".to_owned(),
        Term::Float(_) => "Float".to_owned(),
        Term::Fun(_) => "Function".to_owned(),
        Term::Int(_) => "Integer".to_owned(),
        Term::List(_) => "List".to_owned(),
        Term::Map(_) => "Map".to_owned(),
        Term::Opaque(OpaqueKind::Pid, _) => "PID".to_owned(),
        Term::Opaque(OpaqueKind::Port, _) => "Port".to_owned(),
        Term::Opaque(OpaqueKind::Ref, _) => "Reference".to_owned(),
        Term::Tuple(_) => "Tuple".to_owned(),
    }
}

/// `inspect/2` of an `Inspect.Error` (what `Inspect.Algebra.to_doc/2`
/// prints for a struct whose `Inspect` raised): the exception's `class` and
/// `message`, the struct inspected as a map, and the stack trace, each
/// indented as `Inspect.Error.pad/2` does. A binary, as message and struct
/// may hold a display struct's invalid UTF-8 (IN-15). The stack trace's
/// frames depend on the caller and the build (`spec/README.md`, LOOSE-4).
pub fn inspect_error(
    class: &str,
    message: &[u8],
    inspected_struct: &[u8],
    frames: &[String],
) -> Vec<u8> {
    let body = m::INSPECT_ERROR_BODY.render_bytes(&[
        ("class", class.as_bytes()),
        ("message", &pad(trim_newlines(message), 4)),
        ("struct", &pad(inspected_struct, 4)),
    ]);
    let stacktrace: String = frames.iter().map(|f| format!("    {f}\n")).collect();
    m::INSPECT_ERROR.render_bytes(&[("body", &pad(&body, 2)), ("frames", stacktrace.as_bytes())])
}

/// `Inspect.Error.pad/2`: every line that is not empty indented by
/// `n` spaces, trailing newlines dropped.
fn pad(text: &[u8], n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8 * n);
    for line in text.split(|&b| b == b'\n') {
        if !line.is_empty() {
            out.resize(out.len() + n, b' ');
            out.extend_from_slice(line);
        }
        out.push(b'\n');
    }
    let kept = trim_newlines(&out).len();
    out.truncate(kept);
    out
}

/// `text` without its trailing newlines.
fn trim_newlines(text: &[u8]) -> &[u8] {
    let end = text.iter().rposition(|&b| b != b'\n').map_or(0, |i| i + 1);
    &text[..end]
}
