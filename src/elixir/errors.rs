//! The messages of the Elixir exceptions the boundary raises, as Elixir
//! 1.18.4 writes them (`Exception.message/1`): `KeyError`, `BadMapError`,
//! `CaseClauseError` and `Protocol.UndefinedError`. Each embeds `inspect/2`
//! of the offending term, so a port must reproduce that text too.

use crate::inspect::{atom_literal, inspect, inspect_with};
use crate::term::{OpaqueKind, Term};
use crate::Raised;

/// `KeyError` for a missing atom `key` in `term`:
/// `key :k not found in: <inspect(term, pretty: true, limit: :infinity)>`.
/// The boundary raises it only for a keyword list (`Keyword.fetch!/2`) or a
/// map (`map.field`), never for `nil` or a module atom, whose messages
/// Elixir words differently.
pub fn key_error(key: &str, term: &Term) -> Raised {
    Raised::new(
        "KeyError",
        format!(
            "key {} not found in: {}",
            inspect(&Term::atom(key)),
            inspect_with(term, true, None)
        ),
    )
}

/// `UndefinedFunctionError` for a call into the module named by the atom
/// `module` (`Elixir.Foo`, `foo`), which the VM cannot load; `function` as
/// Elixir prints it. `hint_for_missing_alias/1` adds its hint when the
/// module is an Elixir alias of one segment.
pub fn module_not_available(module: &str, function: &str, arity: u32) -> Raised {
    let shown = atom_literal(module);
    let mut message = format!(
        "function {shown}.{function}/{arity} is undefined (module {shown} is not available)"
    );
    if module
        .strip_prefix("Elixir.")
        .is_some_and(|rest| !rest.contains('.'))
    {
        message.push_str(
            ". Make sure the module name is correct and has been specified in full \
             (or that an alias has been defined)",
        );
    }
    Raised::new("UndefinedFunctionError", message)
}

/// `BadMapError`: `expected a map, got: <inspect(term)>`.
pub fn bad_map(term: &Term) -> Raised {
    Raised::new(
        "BadMapError",
        format!("expected a map, got: {}", inspect(term)),
    )
}

/// `CaseClauseError`: `no case clause matching: <inspect(term)>`.
pub fn case_clause(term: &Term) -> Raised {
    Raised::new(
        "CaseClauseError",
        format!("no case clause matching: {}", inspect(term)),
    )
}

/// A protocol whose `Protocol.UndefinedError` the boundary can raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `String.Chars` (interpolation, `to_string/1`).
    StringChars,
    /// `Jason.Encoder`.
    JasonEncoder,
    /// `Enumerable`.
    Enumerable,
}

impl Protocol {
    fn name(self) -> &'static str {
        match self {
            Protocol::StringChars => "String.Chars",
            Protocol::JasonEncoder => "Jason.Encoder",
            Protocol::Enumerable => "Enumerable",
        }
    }

    /// The consolidated implementations as PtcRunner v0.13.0's build lists
    /// them: which modules are loaded depends on the VM and the build, so
    /// this part of the message is compared loosely (`spec/README.md`,
    /// LOOSE-1).
    fn implementations(self) -> &'static str {
        match self {
            Protocol::StringChars => {
                "Atom, BitString, Date, DateTime, Float, Integer, List, NaiveDateTime, \
                 PtcRunner.Lisp.Format.Builtin, PtcRunner.Lisp.Format.Fn, \
                 PtcRunner.Lisp.Format.RegexLiteral, PtcRunner.Lisp.Format.SymbolRef, \
                 PtcRunner.Lisp.Format.Var, Time, URI, Version, Version.Requirement"
            }
            Protocol::JasonEncoder => {
                "Any, Atom, BitString, Date, DateTime, Float, Integer, Jason.Fragment, \
                 Jason.OrderedObject, List, Map, NaiveDateTime, PtcRunner.Lisp.Format.Builtin, \
                 PtcRunner.Lisp.Format.Fn, PtcRunner.Lisp.Format.RegexLiteral, \
                 PtcRunner.Lisp.Format.SymbolRef, PtcRunner.Lisp.Format.Var, Time"
            }
            Protocol::Enumerable => {
                "Date.Range, File.Stream, Function, GenEvent.Stream, HashDict, HashSet, \
                 IO.Stream, Jason.OrderedObject, List, Map, MapSet, Range, Stream"
            }
        }
    }
}

/// The text `Jason.Encoder`'s fallback adds for a struct without an
/// implementation (Jason 1.4's `Any` implementation).
const JASON_STRUCT_HINT: &str = concat!(
    "Jason.Encoder protocol must always be explicitly implemented.\n\n",
    "If you own the struct, you can derive the implementation specifying which fields ",
    "should be encoded to JSON:\n\n",
    "    @derive {Jason.Encoder, only: [....]}\n    defstruct ...\n\n",
    "It is also possible to encode all fields, although this should be used carefully ",
    "to avoid accidentally leaking private information when new fields are added:\n\n",
    "    @derive Jason.Encoder\n    defstruct ...\n\n",
    "Finally, if you don't own the struct you want to encode to JSON, you may use ",
    "Protocol.derive/3 placed outside of any module:\n\n",
    "    Protocol.derive(Jason.Encoder, NameOfTheStruct, only: [...])\n",
    "    Protocol.derive(Jason.Encoder, NameOfTheStruct)\n",
);

/// `Protocol.UndefinedError` for `protocol` and `value`: the value's type,
/// the description (Jason's), the implementations and the value as
/// `inspect(value, pretty: true)`, each line indented by four spaces.
pub fn protocol_undefined(protocol: Protocol, value: &Term) -> Raised {
    let description = match (protocol, value) {
        (Protocol::JasonEncoder, Term::Struct(_) | Term::Temporal(_)) => JASON_STRUCT_HINT,
        (Protocol::JasonEncoder, _) => {
            "Jason.Encoder protocol must always be explicitly implemented"
        }
        // `Enumerable.Function.reduce/3` refuses a function of another arity.
        (Protocol::Enumerable, Term::Fun(f)) if f.arity() != Some(2) => {
            "only anonymous functions of arity 2 are enumerable"
        }
        _ => "",
    };
    let mut message = format!(
        "protocol {} not implemented for type {}",
        protocol.name(),
        value_type(value)
    );
    if !description.is_empty() {
        message.push_str(", ");
        message.push_str(description);
    }
    message.push_str(". This protocol is implemented for the following type(s): ");
    message.push_str(protocol.implementations());
    message.push_str("\n\nGot value:\n\n");
    for (i, line) in inspect_with(value, true, Some(crate::inspect::LIMIT))
        .split('\n')
        .enumerate()
    {
        if i > 0 {
            message.push('\n');
        }
        if !line.is_empty() {
            message.push_str("    ");
            message.push_str(line);
        }
    }
    message.push('\n');
    Raised::new("Protocol.UndefinedError", message)
}

/// `Protocol.UndefinedError`'s name for the type of a value.
fn value_type(value: &Term) -> String {
    match value {
        Term::Struct(s) => format!(
            "{} (a struct)",
            inspect(&Term::atom(&format!("Elixir.{}", s.module)))
        ),
        Term::Temporal(t) => format!("{} (a struct)", t.kind.module()),
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
/// prints for a struct whose `Inspect` raised): the exception's class and
/// message, the struct inspected as a map, and the stack trace, each
/// indented as `Inspect.Error.pad/2` does. The stack trace's frames depend
/// on the caller and the build (`spec/README.md`, LOOSE-4).
pub fn inspect_error(raised: &Raised, inspected_struct: &str, frames: &[String]) -> String {
    let message = format!(
        "got {} with message:\n\n    \"\"\"\n{}\n    \"\"\"\n\nwhile inspecting:\n\n{}\n",
        raised.class,
        pad(raised.message.trim_end_matches('\n'), 4),
        pad(inspected_struct, 4)
    );
    let stacktrace: String = frames.iter().map(|f| format!("    {f}\n")).collect();
    format!(
        "#Inspect.Error<\n{}\n\n  Stacktrace:\n\n{stacktrace}\n>",
        pad(&message, 2)
    )
}

/// `Inspect.Error.pad/2`: every line that is not empty indented by
/// `n` spaces, trailing newlines dropped.
fn pad(text: &str, n: usize) -> String {
    let mut out = String::with_capacity(text.len() + 8 * n);
    for line in text.split('\n') {
        if !line.is_empty() {
            out.push_str(&" ".repeat(n));
            out.push_str(line);
        }
        out.push('\n');
    }
    out.trim_end_matches('\n').to_owned()
}
