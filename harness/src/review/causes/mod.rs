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
pub mod protocols;

use crate::judging::judge::Reading;
use crate::review::attribution::{explain, ShapeChange, Shapes};
use crate::review::fuzz::disagreement::{difference_of_kind, disagreement};
use crate::review::fuzz::known_kinds::Known;
use crate::review::kinds::{How, Kind, Labels, Side};
use crate::review::show::answer_text;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::term::{FunSpec, Term};

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
        /// The op.
        op: &'static str,
        /// Where the list of options is (`/1`: argument 2).
        path: String,
        /// The key.
        key: String,
    },
    /// A protocol one side implements for structs the other side does
    /// not: named by the other side's `Protocol.UndefinedError`, or by the
    /// lists of implementations the two sides' texts give.
    Impl {
        /// The protocol (`String.Chars`).
        protocol: String,
        /// The structs.
        modules: Vec<String>,
        /// The side that does not implement it for them.
        lacking: Side,
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
            Trigger::Struct { .. } => 1,
            Trigger::Option { .. } => 2,
            Trigger::MapKey { .. } => 3,
            Trigger::Value { .. } => 4,
            _ => 5,
        }
    }

    /// Whether two triggers are one cause, that is, one change of the
    /// code behind them:
    /// - two values at the same place of one op (the tag of a tuple,
    ///   whichever tag), or the same value anywhere (`-0.0` in any op),
    ///   unless that value is too common to name anything (`nil`, a
    ///   boolean, `0`, `1`, `""`, `[]`, `{}`);
    /// - one option key, in any op;
    /// - a value standing for a list of one op and what is in that list
    ///   (an option, a value inside an option or an element): a change in
    ///   how a function reads its list of options shows through both, and
    ///   joins the options it newly reads into one cause, where options
    ///   that merely share a list stay causes of their own;
    /// - implementations one side lacks of one protocol, or for one
    ///   struct (a release implementing protocols for its structs), and a
    ///   struct in the input whose implementations one side lacks.
    pub fn same_cause(&self, other: &Trigger) -> bool {
        use Trigger::{Impl, Option as Opt, Struct, Value};
        let common = ["null", "true", "false", "0", "1", "\"\"", "[]", "{}"];
        match (self, other) {
            (
                Value {
                    op,
                    path,
                    of,
                    value,
                },
                Value {
                    op: op2,
                    path: path2,
                    of: of2,
                    value: value2,
                },
            ) => {
                (op == op2 && (path == path2 || in_list(path, path2) || in_list(path2, path)))
                    || (value == value2 && of == of2 && !common.contains(&value.as_str()))
            }
            (Opt { key, .. }, Opt { key: key2, .. }) => key == key2,
            (
                Opt { op, path, key },
                Value {
                    op: vop,
                    path: vpath,
                    ..
                },
            )
            | (
                Value {
                    op: vop,
                    path: vpath,
                    ..
                },
                Opt { op, path, key },
            ) => {
                let at = format!("{path}/[{key}]");
                op == vop && (under(vpath, &at) || in_list(&at, vpath))
            }
            (
                Impl {
                    protocol,
                    modules,
                    lacking,
                },
                Impl {
                    protocol: p2,
                    modules: m2,
                    lacking: l2,
                },
            ) => lacking == l2 && (protocol == p2 || modules.iter().any(|m| m2.contains(m))),
            (Impl { modules, .. }, Struct { module })
            | (Struct { module }, Impl { modules, .. }) => modules.contains(module),
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
            Trigger::Option { key, .. } => format!("option :{key}"),
            Trigger::Impl {
                protocol,
                modules,
                lacking,
            } => {
                let has = match lacking {
                    Side::Expected => labels.1,
                    Side::Actual => labels.0,
                };
                format!(
                    "{protocol} implemented for {} in {has} only",
                    modules.join(", ")
                )
            }
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
        if let Some(found) = self.impl_lists(op, args, base, head) {
            return found;
        }
        let mut candidates = parts::candidates(op.name, args, MAX_CANDIDATES);
        // A struct of the input one side cannot handle for want of a
        // protocol's implementation is tried first: its exception names it.
        if let Some(c) = impl_candidate(args, base, head) {
            candidates.insert(0, c);
            candidates.truncate(MAX_CANDIDATES);
        }
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
        // An option one side ignores (its answer stays as it was) is what
        // the other side newly reads: preferred to a part both sides read
        // (the data a change acts on), whatever their sizes. A struct a
        // protocol is missing for, named by the answer, comes first.
        let ignored_option = |i: usize| {
            matches!(candidates[i].trigger, Trigger::Option { .. })
                && accepted[i].as_deref().is_some_and(|k| k != "alike")
        };
        let order: Vec<usize> = (0..candidates.len())
            .filter(|&i| matches!(candidates[i].trigger, Trigger::Impl { .. }))
            .chain((0..candidates.len()).filter(|&i| ignored_option(i)))
            .chain(0..candidates.len())
            .collect();
        for i in order {
            let c = &candidates[i];
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
            let how = format!("{}, both answer {kept}", c.how);
            if let Some(trigger) = self.changed_struct(&c.trigger, base, head) {
                return Found {
                    trigger,
                    how: format!("{how}; both answers hold that struct, whose definition changed"),
                };
            }
            return Found {
                trigger: c.trigger.clone(),
                how,
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

    /// A protocol whose lists of implementations differ between the two
    /// answers' texts (an `#Inspect.Error<...>` of one build lists more
    /// types), when the answers agree once those lists are masked.
    fn impl_lists(
        &self,
        op: &'static Op,
        args: &[Term],
        base: &Answer,
        head: &Answer,
    ) -> Option<Found> {
        let (lb, lh) = (protocols::lists(base), protocols::lists(head));
        let found = lb.iter().find_map(|(protocol, b)| {
            let h = lh.get(protocol)?;
            let (only_h, only_b): (Vec<&String>, Vec<&String>) =
                (h.difference(b).collect(), b.difference(h).collect());
            let (modules, lacking) = match (only_h.is_empty(), only_b.is_empty()) {
                (false, _) => (only_h, Side::Expected),
                (true, false) => (only_b, Side::Actual),
                (true, true) => return None,
            };
            Some(Trigger::Impl {
                protocol: protocol.clone(),
                modules: modules.into_iter().cloned().collect(),
                lacking,
            })
        })?;
        self.alike(op, args, &protocols::masked(base), &protocols::masked(head))
            .then(|| Found {
                trigger: found,
                how: "the two sides' texts list different implementations of the protocol, \
                      and are alike once those lists are masked"
                    .into(),
            })
    }

    /// For a struct of the input that both answers hold (as a term, or
    /// as `%M{...}` text) and whose definition changed shape: that shape
    /// change, its first field standing for it. The difference is how the
    /// struct is defined (a default value too), not the struct's presence.
    fn changed_struct(&self, trigger: &Trigger, base: &Answer, head: &Answer) -> Option<Trigger> {
        let Trigger::Struct { module } = trigger else {
            return None;
        };
        let change = self.shapes.iter().find(|c| &c.module == module)?;
        let holds = |a: &Answer| match a {
            Answer::Ok(t) => holds_struct(t, module),
            Answer::Raised(r) => r.message.contains(&format!("%{module}{{")),
            _ => false,
        };
        (holds(base) && holds(head)).then(|| Trigger::Field {
            module: change.module.clone(),
            field: change.field.clone(),
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

/// The input without the structs one side's `Protocol.UndefinedError`
/// names, when the other side did not raise the same: the protocol is
/// then the trigger if the two answer alike without them.
fn impl_candidate(args: &[Term], base: &Answer, head: &Answer) -> Option<parts::Candidate> {
    let (mb, mh) = (protocols::missing(base), protocols::missing(head));
    let ((protocol, module), lacking) = match (mb, mh) {
        (Some(b), h) if h.as_ref() != Some(&b) => (b, Side::Expected),
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
    })
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

#[cfg(test)]
mod tests;
