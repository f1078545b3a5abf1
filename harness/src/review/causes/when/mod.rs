//! When a change shows: the smallest part of an input without which the
//! two builds answer alike, or always (the [`Trigger`]).
//!
//! [`Search`] takes the parts of a kind's smallest example out one at a
//! time ([`parts`]: a struct field, an option, a map pair, a value, one
//! character), each input sent to both sides in one pipelined batch: delta
//! debugging, one step (C-Reduce and `ddmin` look for the same smallest
//! part). Where the answers themselves name the part, it is read from
//! them: an option the input leaves out whose default differs
//! ([`default`]), a message reworded with no part of the input quoted
//! ([`message`]), a protocol one side implements for structs the other
//! does not ([`protocols`]). [`trigger`] says which triggers are one
//! change by themselves ([`Trigger::same_cause`]) and titles each.

pub mod default;
pub mod message;
pub mod parts;
pub mod protocols;
pub mod search;
pub mod trigger;

use super::what;

pub use search::Search;
pub use trigger::{bare_option, shown_char, Trigger};

use crate::review::attribution::ShapeChange;
use crate::review::kinds::{How, Kind, Side};
use crate::subject::Answer;
use ptc_conformance::term::{FunSpec, Term};

/// Inputs tried per kind at most (each sent to both sides).
pub const MAX_CANDIDATES: usize = 96;

/// A kind's trigger, and how the search found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The trigger.
    pub trigger: Trigger,
    /// How it was found, in words (`left out, both answer as base did`).
    pub how: String,
}

/// The trigger a kind names without a search: a struct field only one
/// side's struct has, or a refusal's reason, or no valid answer.
pub fn named(kind: &Kind) -> Option<Found> {
    if let Some(change) = ShapeChange::of(kind) {
        return Some(Found {
            trigger: Trigger::Field {
                module: change.module,
                field: change.field,
            },
            how: "a field only one side's struct has".into(),
        });
    }
    match &kind.how {
        How::Unsupported { side, reason } => Some(Found {
            trigger: Trigger::Refusal {
                side: *side,
                reason: unquoted(reason),
            },
            how: "declined by one side, answered by the other".into(),
        }),
        How::NoAnswer(side) => Some(Found {
            trigger: Trigger::Fault { side: *side },
            how: "no valid answer: nothing to search".into(),
        }),
        _ => None,
    }
}

/// A refusal's reason with what it quotes masked (`inspecting the atom
/// '…': its character '…' needs ...`), so one reason met with many
/// values is one trigger; a field a struct lacks keeps its name.
pub fn unquoted(reason: &str) -> String {
    if reason.contains(" has no field ") {
        return reason.to_owned();
    }
    let mut out = String::with_capacity(reason.len());
    let masked = modules_masked(reason);
    let mut open: Option<char> = None;
    for c in masked.chars() {
        match open {
            Some(q) if c == q => {
                out.push('…');
                out.push(c);
                open = None;
            }
            Some(_) => {}
            None => {
                out.push(c);
                if c == '\'' || c == '"' {
                    open = Some(c);
                }
            }
        }
    }
    if open.is_some() {
        out.push('…');
    }
    out
}

/// The input without the structs one side says a protocol is missing for
/// (its `Protocol.UndefinedError`, or an `#Inspect.Error<...>` its
/// message or result quotes: [`protocols::missing_in`]), when the other
/// side does not say the same: the protocol is then the trigger if the
/// two answer alike without them.
pub(crate) fn impl_candidate(
    args: &[Term],
    base: &Answer,
    head: &Answer,
) -> Option<parts::Candidate> {
    let (mb, mh) = (protocols::missing_in(base), protocols::missing_in(head));
    let only = |a: &[(String, String)], b: &[(String, String)]| {
        a.iter()
            .find(|x| !b.contains(x) && holds_any(args, &x.1))
            .cloned()
    };
    let ((protocol, module), lacking) = match (only(&mb, &mh), only(&mh, &mb)) {
        (Some(b), _) => (b, Side::Expected),
        (None, Some(h)) => (h, Side::Actual),
        _ => return None,
    };
    let without = parts::without_structs(args, &module)?;
    Some(parts::Candidate {
        trigger: Trigger::Impl {
            protocol,
            modules: vec![module.clone()],
            lacking,
        },
        how: "every such struct replaced by nil",
        args: without,
        size: 0,
        from: (usize::MAX, String::new()),
        text: None,
    })
}

fn holds_any(args: &[Term], module: &str) -> bool {
    args.iter().any(|a| holds_struct(a, module))
}

/// Whether `t` holds a `module` struct: as a term (inside a function's
/// result too) or as its `%M{...}` text in a string.
pub fn holds_struct(t: &Term, module: &str) -> bool {
    let any = |xs: &[Term]| xs.iter().any(|x| holds_struct(x, module));
    match t {
        Term::Struct(s) => {
            s.module == module || s.fields.iter().any(|(_, v)| holds_struct(v, module))
        }
        Term::Str(s) => s.contains(&format!("%{module}{{")),
        Term::Fun(f) => {
            matches!(&**f, FunSpec::Returns { returns, .. } if holds_struct(returns, module))
        }
        Term::List(xs) | Term::Tuple(xs) => any(xs),
        Term::Map(m) => m
            .iter()
            .any(|(k, v)| holds_struct(k, module) || holds_struct(v, module)),
        _ => false,
    }
}

/// Whether the place `path` is inside the place `outer` (`/1/[a]/1` is
/// inside `/1`).
pub fn under(path: &str, outer: &str) -> bool {
    path.len() > outer.len() && path.starts_with(outer) && path[outer.len()..].starts_with('/')
}

/// Whether the place `path` is in the list at `list`: one of its
/// elements (`/1/*`), an option of it (`/1/[a]`), or inside one of those.
pub fn in_list(path: &str, list: &str) -> bool {
    path.strip_prefix(list)
        .is_some_and(|rest| rest.starts_with("/*") || rest.starts_with("/["))
}

/// `text` with every dotted Elixir module name in it (`PtcRunner.Lisp.Keyword`)
/// masked, so that one refusal met with many structs is one trigger.
fn modules_masked(text: &str) -> std::borrow::Cow<'_, str> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        regex::Regex::new(r"\b[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)+\b")
            .unwrap_or_else(|e| panic!("{e}"))
    })
    .replace_all(text, "…")
}

fn answered(a: &Answer) -> bool {
    matches!(a, Answer::Ok(_) | Answer::Raised(_))
}
