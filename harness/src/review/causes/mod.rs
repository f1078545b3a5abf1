//! Causes: what in the input makes two builds answer differently. A kind
//! of difference says where it shows; its cause says what triggers it.
//! For each kind's smallest example, the search takes out one part of the
//! input at a time, the smallest first ([`parts`]: a struct field, a
//! struct, an option, a map pair, a value), and the first part without
//! which the two builds answer alike, and not by both raising an exception
//! neither raised before (the op cut short, which says nothing of the
//! part), is the trigger
//! (delta debugging, one step: C-Reduce and `ddmin` look for the same
//! smallest part). Kinds whose triggers are the same are one cause; a
//! struct field only one side's struct has is its own trigger; a refusal
//! is named by its reason; a kind no single part explains is a cause of
//! its own, and says so.
//!
//! The search is bounded: at most [`MAX_CANDIDATES`] inputs per kind,
//! sent to each side in one pipelined batch.

pub mod parts;

use crate::judging::judge::Reading;
use crate::review::attribution::{explain, ShapeChange, Shapes};
use crate::review::fuzz::disagreement::{difference_of_kind, disagreement};
use crate::review::fuzz::known_kinds::Known;
use crate::review::kinds::{How, Kind, Labels, Side};
use crate::review::show::answer_text;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;

/// Inputs tried per kind at most (each sent to both sides).
pub const MAX_CANDIDATES: usize = 96;

/// What triggers a difference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Trigger {
    /// A struct field: only one side's struct has it, or the input naming
    /// it is what differs.
    Field {
        /// The struct's module.
        module: String,
        /// The field.
        field: String,
    },
    /// A struct in the input (no one field of it).
    Struct {
        /// Its module.
        module: String,
    },
    /// An option: a keyword-like list element with this atom key.
    Option {
        /// The key.
        key: String,
    },
    /// Any one of two or more pairs of the map at a place of one op
    /// (their order or their number, not one key).
    Pairs {
        /// The op.
        op: &'static str,
        /// Where the map is.
        path: String,
    },
    /// A map pair whose key is of this class (`gen::keys`).
    MapKey {
        /// The key's class.
        class: &'static str,
    },
    /// A value at a place in the input of one op.
    Value {
        /// The op.
        op: &'static str,
        /// Where (`/1/*/0`: argument 2, any list element, its first element).
        path: String,
        /// Its type.
        of: String,
        /// The value, as tagged JSON.
        value: String,
    },
    /// Inputs one side declines, for this reason.
    Refusal {
        /// The side that declines.
        side: Side,
        /// Why (without where in the args).
        reason: String,
    },
    /// Ops only one side declares.
    Ops {
        /// The ops.
        names: Vec<String>,
        /// The side that declares them.
        side: Side,
    },
    /// No valid answer from one side (a timeout, a crash): a fault of
    /// that side's adapter, not a difference of behaviour.
    Fault {
        /// The side.
        side: Side,
    },
    /// No single part of the input: the kind is a cause of its own.
    Alone(Kind),
}

impl Trigger {
    /// Preference among parts of one size: named parts first.
    pub fn rank(&self) -> u8 {
        match self {
            Trigger::Field { .. } => 0,
            Trigger::Option { .. } => 1,
            Trigger::MapKey { .. } => 2,
            Trigger::Value { .. } => 3,
            Trigger::Struct { .. } => 4,
            _ => 5,
        }
    }

    /// Whether two triggers are one cause: the same, or two values at the
    /// same place of one op (the tag of a tuple, whichever tag), or the
    /// same value anywhere (`-0.0` in any op), unless that value is too
    /// common to name anything (`nil`, a boolean, `0`, `1`, `""`, `[]`).
    pub fn same_cause(&self, other: &Trigger) -> bool {
        match (self, other) {
            (
                Trigger::Value {
                    op,
                    path,
                    of,
                    value,
                },
                Trigger::Value {
                    op: op2,
                    path: path2,
                    of: of2,
                    value: value2,
                },
            ) => {
                let common = ["null", "true", "false", "0", "1", "\"\"", "[]", "{}"];
                (op == op2 && path == path2)
                    || (value == value2 && of == of2 && !common.contains(&value.as_str()))
            }
            _ => self == other,
        }
    }

    /// One line naming the trigger.
    pub fn title(&self, labels: Labels) -> String {
        let side = |s: &Side| match s {
            Side::Expected => labels.0,
            Side::Actual => labels.1,
        };
        match self {
            Trigger::Field { module, field } => format!("struct field {module}.{field}"),
            Trigger::Struct { module } => format!("a {module} struct in the input"),
            Trigger::Option { key } => format!("option :{key}"),
            Trigger::MapKey { class } => format!("a map key of class \"{class}\""),
            Trigger::Pairs { op, path } => {
                format!("the pairs of the map at {op} args{path} (any one of them)")
            }
            Trigger::Value {
                op,
                path,
                of,
                value,
            } => {
                format!("the {of} {value} at {op} args{path}")
            }
            Trigger::Refusal { side: s, reason } => {
                format!("inputs {} declines: {reason}", side(s))
            }
            Trigger::Ops { names, side: s } => {
                format!("op(s) declared by {} only: {}", side(s), names.join(", "))
            }
            Trigger::Alone(kind) => format!("no single trigger: {}", kind.title(labels)),
            Trigger::Fault { side: s } => format!(
                "no valid answer from {} (its adapter's fault, not a difference of behaviour)",
                side(s)
            ),
        }
    }
}

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

/// The two sides and what the search compares with.
pub struct Search<'a> {
    /// The first build.
    pub base: &'a mut dyn Subject,
    /// The second build.
    pub head: &'a mut dyn Subject,
    /// The struct shape changes known (a difference they explain is none).
    pub shapes: &'a Shapes,
    /// How structs are read.
    pub reading: Reading,
    /// What reports call the two sides.
    pub labels: Labels,
}

impl Search<'_> {
    /// The trigger of `kind`, whose example is `args` of `op` answered
    /// `base` and `head`: the smallest part without which both sides
    /// answer alike and one of them as before; [`Trigger::Alone`] when no
    /// single part is.
    pub fn trigger(
        &mut self,
        kind: &Kind,
        op: &'static Op,
        args: &[Term],
        (base, head): (&Answer, &Answer),
    ) -> Found {
        if let Some(found) = named(kind) {
            return found;
        }
        let alone = Found {
            trigger: Trigger::Alone(kind.clone()),
            how: "no single part of the input makes the two answer alike".into(),
        };
        if !answered(base) || !answered(head) {
            return alone;
        }
        let echo = self.echo(base, head);
        let candidates = parts::candidates(op.name, args, MAX_CANDIDATES);
        let requests: Vec<Request<'_>> = candidates
            .iter()
            .map(|c| Request::new(op.name, &c.args))
            .collect();
        let (b2, h2) = (
            self.base.call_many(&requests),
            self.head.call_many(&requests),
        );
        let accepted: Vec<Option<String>> = candidates
            .iter()
            .zip(&b2)
            .zip(&h2)
            .map(|((c, b), h)| self.accept(op, &c.args, (base, head), (b, h)))
            .collect();
        for (i, c) in candidates.iter().enumerate() {
            let Some(kept) = &accepted[i] else { continue };
            if let (false, Some(found)) = (matches!(c.trigger, Trigger::Field { .. }), &echo) {
                return found.clone();
            }
            // Another pair of the same map does as well: the pairs, not a key.
            let sibling = |j: usize| {
                j != i
                    && candidates[j].from == c.from
                    && matches!(candidates[j].trigger, Trigger::MapKey { .. })
                    && accepted[j].is_some()
            };
            if matches!(c.trigger, Trigger::MapKey { .. }) && (0..candidates.len()).any(sibling) {
                return Found {
                    trigger: Trigger::Pairs {
                        op: op.name,
                        path: c.from.1.clone(),
                    },
                    how: format!("any one pair left out, both answer {kept}"),
                };
            }
            return Found {
                trigger: c.trigger.clone(),
                how: format!("{}, both answer {kept}", c.how),
            };
        }
        echo.unwrap_or(alone)
    }

    /// Whether answers `(b, h)` to an input with a part taken out make
    /// that part the trigger of a difference whose answers were
    /// `(base, head)`: how both answer then, if they do.
    fn accept(
        &self,
        op: &'static Op,
        args: &[Term],
        (base, head): (&Answer, &Answer),
        (b, h): (&Answer, &Answer),
    ) -> Option<String> {
        {
            if !answered(b) || !answered(h) || !self.alike(op, args, b, h) {
                return None;
            }
            // Not an exception neither side raised before: taking the
            // part out cut the op short on both sides, which says nothing
            // of what the part did.
            if let Answer::Raised(x) = b {
                let before = |a: &Answer| matches!(a, Answer::Raised(r) if r.class == x.class);
                if !before(base) && !before(head) {
                    return None;
                }
            }
            let same = |before: &Answer, now: &Answer| {
                disagreement(op, args, before, now, self.reading).is_none()
            };
            let kept = if same(base, b) {
                format!("as {} did", self.labels.0)
            } else if same(head, h) {
                format!("as {} did", self.labels.1)
            } else {
                "alike".to_owned()
            };
            Some(kept)
        }
    }

    /// The shape change whose field's text one answer renders and the
    /// other lacks (`runtime_prelude: nil` in one side's rendered
    /// `%PtcRunner.SubAgent.Definition{...}`), when attribution could not
    /// strip it (a text cut elsewhere, reordered): the difference is that
    /// struct change's echo, whatever value of the input moves the cut.
    fn echo(&self, base: &Answer, head: &Answer) -> Option<Found> {
        let (b, h) = (answer_text(base), answer_text(head));
        self.shapes.iter().find_map(|c| {
            let (has, lacks) = match c.side {
                Side::Expected => (&b, &h),
                Side::Actual => (&h, &b),
            };
            let field = format!("{}: ", c.field);
            (has.contains(&format!("%{}{{", c.module))
                && has.contains(&field)
                && !lacks.contains(&field))
            .then(|| Found {
                trigger: Trigger::Field {
                    module: c.module.clone(),
                    field: c.field.clone(),
                },
                how: format!(
                    "an echo: one side's text renders {}'s {} and the other's does not",
                    c.module, c.field
                ),
            })
        })
    }

    /// Whether two answers agree, or differ only by the struct shape changes.
    fn alike(&self, op: &'static Op, args: &[Term], b: &Answer, h: &Answer) -> bool {
        let differs =
            difference_of_kind(op, args, b, h, &Known::default(), self.reading, true).is_some();
        !differs || explain(op, b, h, self.shapes, self.reading).is_some()
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
    let mut open: Option<char> = None;
    for c in reason.chars() {
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

fn answered(a: &Answer) -> bool {
    matches!(a, Answer::Ok(_) | Answer::Raised(_))
}

#[cfg(test)]
mod tests;
