//! Kinds of difference: what a reviewer of a change wants instead of every
//! instance. Two answers that differ are put in a [`Kind`]: the op, where in
//! the answer the first difference is (its path with list indices, and map
//! keys that come from the input, generalized), and how they differ (a raise
//! on one side, another class, another message, something present on one
//! side only, a type or a value changed, declined by one side). `fuzz` and
//! `compare` count each kind, keep its smallest instance and shrink that
//! one, so a change is reported once with its count.

use crate::judging::judge::Reading;
use crate::review::fuzz::refusal::reason_label;
use crate::subject::Answer;
use ptc_conformance::diff::{at, diff, plain_json_to_term, Difference, Segment};
use ptc_conformance::loose::{self, mask_stacktraces_in};
use ptc_conformance::ops::{Op, Output};
use ptc_conformance::structs::with_defaults_at;
use ptc_conformance::term::Term;
use std::collections::BTreeSet;
use std::fmt;

/// Which of the two sides: the expected one (the reference, or base) or the
/// one held against it (the subject, or head).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The reference, or base.
    Expected,
    /// The subject, or head.
    Actual,
}

/// How two answers differ.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum How {
    /// Something (a struct field, map key or element) is on one side only.
    OnlyIn(Side),
    /// One side raised `class` where the other returned a value.
    Raises {
        /// The side that raised.
        side: Side,
        /// What it raised.
        class: String,
    },
    /// Both raised, different exceptions.
    Class {
        /// Raised by the expected side.
        expected: String,
        /// Raised by the other.
        actual: String,
    },
    /// Both raised `class`, with different messages.
    Message {
        /// The exception.
        class: String,
    },
    /// The value there has another type.
    Type {
        /// Its type on the expected side.
        expected: String,
        /// Its type on the other.
        actual: String,
    },
    /// The value there changed, its type kept.
    Value {
        /// Its type.
        of: String,
    },
    /// One side's text is the other's with a short text inserted.
    Text {
        /// The side whose text has it.
        side: Side,
        /// The inserted text.
        text: String,
    },
    /// Equal as JSON, rendered differently (strict level).
    Rendering,
    /// One side declined the input.
    Unsupported {
        /// The side that declined.
        side: Side,
        /// Why it declined.
        reason: String,
    },
    /// One side gave no valid answer (a timeout, a crash, a malformed line).
    NoAnswer(Side),
}

/// A kind of difference: the op, where, and how.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Kind {
    /// The op.
    pub op: &'static str,
    /// Where in the answer: a JSON-pointer-like path (`/` the root, `*` any
    /// element or any key taken from the input, `.field` a struct field).
    pub path: String,
    /// The struct whose field the path ends in, if it does.
    pub structure: Option<String>,
    /// How.
    pub how: How,
}

/// Labels for the two sides in text: `("base", "head")` or `("reference", "subject")`.
pub type Labels = (&'static str, &'static str);

impl Kind {
    /// Whether the kind is coverage rather than a wrong answer: something
    /// (a struct field) only one side has. Reports list these first.
    pub fn one_sided(&self) -> bool {
        matches!(self.how, How::OnlyIn(_)) && self.structure.is_some()
    }

    /// The kind a report groups under: a struct field one side has is one
    /// kind whatever the op (the op left empty), any other kind itself.
    pub fn cause(&self) -> Kind {
        if self.one_sided() {
            Kind {
                op: "",
                ..self.clone()
            }
        } else {
            self.clone()
        }
    }

    /// One line naming the kind, e.g. `tool.new: struct PtcRunner.Tool:
    /// field visibility only in head` (without the op for a [`Kind::cause`]).
    pub fn title(&self, labels: Labels) -> String {
        let side = |s: Side| match s {
            Side::Expected => labels.0,
            Side::Actual => labels.1,
        };
        if let (How::OnlyIn(s), Some(module)) = (&self.how, &self.structure) {
            let field = self.path.rsplit("/.").next().unwrap_or("");
            let op = if self.op.is_empty() {
                String::new()
            } else {
                format!("{}: ", self.op)
            };
            return format!("{op}struct {module}: field {field} only in {}", side(*s));
        }
        let how = match &self.how {
            How::OnlyIn(s) => format!("a key or element only in {}", side(*s)),
            How::Raises { side: s, class } => {
                format!("{} raises {class}, {} returns", side(*s), side(other(*s)))
            }
            How::Class { expected, actual } => format!(
                "raised {expected} in {}, {actual} in {}",
                labels.0, labels.1
            ),
            How::Message { class } => format!("{class} with a different message"),
            How::Type { expected, actual } => {
                format!("{expected} in {}, {actual} in {}", labels.0, labels.1)
            }
            How::Value { of } => format!("{of} value changed"),
            How::Text { side: s, text } => format!("text {text:?} only in {}", side(*s)),
            How::Rendering => "equal as JSON, rendered differently".to_owned(),
            How::Unsupported { side: s, reason } => {
                format!("unsupported by {}: {reason}", side(*s))
            }
            How::NoAnswer(s) => format!("no valid answer from {}", side(*s)),
        };
        format!("{} at {}: {how}", self.op, self.path)
    }
}

fn other(s: Side) -> Side {
    match s {
        Side::Expected => Side::Actual,
        Side::Actual => Side::Expected,
    }
}

/// The kind of the difference between `expected` and `actual`, answers of
/// `op` on `args` already found to differ (and masked as compared).
/// Structs are read as `reading` says (with v0.13.0's defaults against the
/// reference, as answered between two builds).
pub fn classify(
    op: &'static Op,
    args: &[Term],
    expected: &Answer,
    actual: &Answer,
    reading: Reading,
) -> Kind {
    let kind = |path: String, structure: Option<String>, how: How| Kind {
        op: op.name,
        path,
        structure,
        how,
    };
    let root = || "/".to_owned();
    match (expected, actual) {
        (Answer::Unsupported(reason), _) => kind(
            root(),
            None,
            How::Unsupported {
                side: Side::Expected,
                reason: reason_label(reason),
            },
        ),
        (_, Answer::Unsupported(reason)) => kind(
            root(),
            None,
            How::Unsupported {
                side: Side::Actual,
                reason: reason_label(reason),
            },
        ),
        (Answer::Error(_), _) => kind(root(), None, How::NoAnswer(Side::Expected)),
        (_, Answer::Error(_)) => kind(root(), None, How::NoAnswer(Side::Actual)),
        (Answer::Raised(r), Answer::Ok(_)) => kind(
            root(),
            None,
            How::Raises {
                side: Side::Expected,
                class: r.class.clone(),
            },
        ),
        (Answer::Ok(_), Answer::Raised(r)) => kind(
            root(),
            None,
            How::Raises {
                side: Side::Actual,
                class: r.class.clone(),
            },
        ),
        (Answer::Raised(e), Answer::Raised(a)) if e.class != a.class => kind(
            root(),
            None,
            How::Class {
                expected: e.class.clone(),
                actual: a.class.clone(),
            },
        ),
        (Answer::Raised(e), Answer::Raised(_)) => kind(
            root(),
            None,
            How::Message {
                class: e.class.clone(),
            },
        ),
        (Answer::Ok(e), Answer::Ok(a)) => {
            let (e, a) = comparable(op, e, a, reading);
            let diffs = diff(&e, &a);
            let Some(first) = diffs.first() else {
                let how = if op.output == Output::JsonString {
                    How::Rendering
                } else {
                    How::Value { of: type_name(&e) }
                };
                return kind(root(), None, how);
            };
            if let Some(inner) = differing_keys(&e, &diffs)
                .map(|(ke, ka)| classify(op, args, &Answer::Ok(ke), &Answer::Ok(ka), reading))
            {
                if inner.one_sided() {
                    return inner;
                }
            }
            let (path, structure) = generalize(&first.segments, &input_words(args));
            let how = match (at(&e, &first.segments), at(&a, &first.segments)) {
                (Some(_), None) => How::OnlyIn(Side::Expected),
                (None, Some(_)) => How::OnlyIn(Side::Actual),
                (Some(x), Some(y)) if type_name(x) != type_name(y) => How::Type {
                    expected: type_name(x),
                    actual: type_name(y),
                },
                (Some(Term::Str(x)), Some(Term::Str(y))) => {
                    text_only_in(x, y).unwrap_or(How::Value {
                        of: "binary".into(),
                    })
                }
                (Some(x), _) => How::Value { of: type_name(x) },
                (None, None) => How::Value { of: "term".into() },
            };
            match structure.filter(|_| matches!(how, How::OnlyIn(_))) {
                // A struct field one side has is one kind wherever the struct is.
                Some(module) => {
                    let field = first.segments.last().map(Segment::text).unwrap_or_default();
                    kind(format!("/{field}"), Some(module), how)
                }
                None => kind(path, None, how),
            }
        }
    }
}

/// Two values `op` answered, as they are compared: a JSON text answer as
/// the JSON it holds, otherwise with stack traces masked (and structs
/// completed with v0.13.0's defaults when `reading` says so).
pub fn comparable(op: &Op, e: &Term, a: &Term, reading: Reading) -> (Term, Term) {
    match (op.output, e, a) {
        (Output::JsonString, Term::Str(es), Term::Str(as_)) => {
            match (
                serde_json::from_str::<serde_json::Value>(es),
                serde_json::from_str::<serde_json::Value>(as_),
            ) {
                (Ok(ej), Ok(aj)) => (plain_json_to_term(&ej), plain_json_to_term(&aj)),
                _ => (e.clone(), a.clone()),
            }
        }
        _ => match reading {
            Reading::WithDefaults(rel) => (
                mask_stacktraces_in(&with_defaults_at(rel, e)),
                mask_stacktraces_in(&with_defaults_at(rel, a)),
            ),
            Reading::AsAnswered => (mask_stacktraces_in(e), mask_stacktraces_in(a)),
        },
    }
}

/// Longest text one side inserts where the other has nothing, that still
/// names a kind (longer insertions vary with the input).
const INSERTED_CHARS: usize = 40;

/// How two texts differ when one is the other with a short text inserted
/// (`visibility: :public, ` in an inspected struct): that text, on its side.
fn text_only_in(expected: &str, actual: &str) -> Option<How> {
    let (e, a): (Vec<char>, Vec<char>) = (expected.chars().collect(), actual.chars().collect());
    let prefix = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let suffix = e[prefix..]
        .iter()
        .rev()
        .zip(a[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (em, am) = (&e[prefix..e.len() - suffix], &a[prefix..a.len() - suffix]);
    let (side, text) = match (em.is_empty(), am.is_empty()) {
        (true, false) => (Side::Actual, am),
        (false, true) => (Side::Expected, em),
        _ => return None,
    };
    // Without white space: a text holding the VM's text for an opaque term
    // is compared without it (LOOSE-2), and the insertion is the same.
    (text.len() <= INSERTED_CHARS).then(|| How::Text {
        side,
        text: text.iter().filter(|c| !c.is_whitespace()).collect(),
    })
}

/// When the first difference is a map key only one side has, and the same
/// map has a key only the other side has, the two keys (expected's,
/// actual's): a struct used as a key that gained a field shows this way.
fn differing_keys(e: &Term, diffs: &[Difference]) -> Option<(Term, Term)> {
    let first = diffs.first()?;
    let (parent, last) = first.segments.split_last().map(|(l, p)| (p, l))?;
    let Segment::Key(k1) = last else {
        return None;
    };
    let first_in_e = at(e, &first.segments).is_some();
    let other = diffs.iter().find(|d| {
        d.segments.len() == first.segments.len()
            && d.segments.starts_with(parent)
            && matches!(d.segments.last(), Some(Segment::Key(_)))
            && at(e, &d.segments).is_some() != first_in_e
    })?;
    let Some(Segment::Key(k2)) = other.segments.last() else {
        return None;
    };
    let (ke, ka) = if first_in_e { (k1, k2) } else { (k2, k1) };
    Some((ke.clone(), ka.clone()))
}

/// A word as keys are compared with the input: its letters and digits,
/// lower-cased (`"user-id"`, `:user_id` and `"UserId"` are one word), so a
/// key an op normalized is still known as the input's.
fn word(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every string and atom name in `args`, as [`word`]s: a map key that is
/// one of them came from the input and varies with it; any other key the
/// op made.
fn input_words(args: &[Term]) -> BTreeSet<String> {
    fn walk(t: &Term, out: &mut BTreeSet<String>) {
        match t {
            Term::Str(s) | Term::Atom(s) => {
                out.insert(word(s));
            }
            Term::List(xs) | Term::Tuple(xs) => xs.iter().for_each(|x| walk(x, out)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                walk(k, out);
                walk(v, out);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    args.iter().for_each(|a| walk(a, &mut out));
    out
}

/// The path of a difference, generalized: an index, or a key taken from
/// the input, is `*` (a run of them one `*`), and trailing `*`s are dropped
/// (a change anywhere inside a value is a change of that value); struct
/// fields and the op's own keys stay. Also the struct of a last field.
fn generalize(segments: &[Segment], words: &BTreeSet<String>) -> (String, Option<String>) {
    let mut parts: Vec<String> = Vec::new();
    let mut structure = None;
    for s in segments {
        let fixed = match s {
            Segment::Index(_) => None,
            Segment::Key(Term::Str(k) | Term::Atom(k)) if words.contains(&word(k)) => None,
            Segment::Key(Term::Str(_) | Term::Atom(_) | Term::Nil | Term::Bool(_)) => {
                Some(s.text())
            }
            Segment::Key(_) => None,
            Segment::Field { .. } => Some(s.text()),
        };
        match fixed {
            Some(text) => {
                structure = match s {
                    Segment::Field { module, .. } => Some(module.clone()),
                    _ => None,
                };
                parts.push(text);
            }
            None => {
                structure = None;
                if parts.last().map(String::as_str) != Some("*") {
                    parts.push("*".to_owned());
                }
            }
        }
    }
    while parts.last().map(String::as_str) == Some("*") {
        parts.pop();
    }
    let path = if parts.is_empty() {
        "/".to_owned()
    } else {
        parts.iter().map(|p| format!("/{p}")).collect()
    };
    (path, structure)
}

/// A term's type as a kind names it: `integer`, `float`, `binary`,
/// `atom`, `nil`, `boolean`, `list`, `tuple`, `map`, `struct M`, ...
pub fn type_name(t: &Term) -> String {
    match t {
        Term::Nil => "nil".into(),
        Term::Bool(_) => "boolean".into(),
        Term::Atom(_) => "atom".into(),
        Term::Int(_) => "integer".into(),
        Term::Float(_) => "float".into(),
        Term::Str(_) => "binary".into(),
        Term::Bytes(_) => "non-UTF-8 binary".into(),
        Term::List(_) => "list".into(),
        Term::Tuple(_) => "tuple".into(),
        Term::Map(_) => "map".into(),
        Term::Struct(s) => format!("struct {}", s.module),
        Term::Temporal(t) => format!("{:?}", t.kind),
        Term::Fun(_) => "function".into(),
        Term::Opaque(k, _) => format!("{k:?}").to_lowercase(),
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title(("expected", "actual")))
    }
}

/// How small an input is, to pick a kind's smallest instance: its nodes,
/// then the length of its tagged JSON.
pub fn weight(args: &[Term]) -> (usize, usize) {
    (
        args.iter().map(size).sum(),
        args.iter()
            .map(|a| ptc_conformance::tagged::encode(a).len())
            .sum(),
    )
}

/// `answer` with the text the VM makes up for references, pids, ports and
/// anonymous functions (`#Reference<0.1.2.3>`, `#Function<0.1/1 in M.f/2>`)
/// masked, in every string, binary and message ([`loose::mask_term`],
/// [`loose::mask_vm_text`]); a text
/// that holds one is compared without white space, as its length may move
/// `inspect`'s line breaks (LOOSE-2).
pub fn mask_vm_text(answer: &Answer) -> Answer {
    match answer {
        Answer::Ok(t) => Answer::Ok(loose::mask_term(t)),
        Answer::Raised(r) if r.message.contains('#') || r.message.contains("Stacktrace:") => {
            let mut r = r.clone();
            r.message = loose::mask_vm_text(&r.message);
            Answer::Raised(r)
        }
        other => other.clone(),
    }
}

/// How many nodes a term has (its size, for reports and tests).
pub fn size(t: &Term) -> usize {
    1 + match t {
        Term::List(items) | Term::Tuple(items) => items.iter().map(size).sum(),
        Term::Map(m) => m.iter().map(|(k, v)| size(k) + size(v)).sum(),
        Term::Struct(s) => s.fields.iter().map(|(_, v)| size(v)).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
