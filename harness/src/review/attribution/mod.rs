//! Attribution of differences to a struct's change of shape. When two
//! builds' structs differ by a field (one build's `PtcRunner.Tool` has
//! `visibility`, the other's does not), that one change shows up far from
//! the struct itself: inside a function value's result, in `inspect` text
//! and exception messages that render the struct, and as a refusal by the
//! build that lacks the field of an input that names it. `compare` reports
//! the change once, as the struct's kind, and counts those echoes under it.
//!
//! The rule (docs/reviewer.md § Attribution to a struct's change of shape): a difference is
//! *explained* by the shape changes found when the two answers become equal
//! after removing those fields from those structs everywhere in both
//! answers (inside function specs, map keys and values, lists, tuples), and
//! their rendered text `field: value` (with its separating comma, for the
//! literal forms a default takes: `nil`, `:atom`, booleans, numbers, `%{}`,
//! `[]`, `""`) from the struct's text in every string and exception
//! message, a string that renders such a struct being compared without
//! white space (the extra field moves `inspect`'s line breaks); on the side
//! that has the field, `...` closing the struct's text (inspect's item
//! limit reached one field earlier) is the field's text too. A refusal is
//! explained when its reason names the struct and a field only the other
//! side's struct has. Anything else in the same answer that differs keeps
//! the difference its own kind: nothing is hidden.

use crate::judging::judge::Reading;
use crate::review::kinds::{comparable, How, Kind, Side};
use crate::subject::Answer;
use ptc_conformance::diff::diff;
use ptc_conformance::ops::Op;
use ptc_conformance::term::{FunSpec, Struct, Term};
use std::collections::BTreeSet;

/// A struct's change of shape: a field only one side's struct has.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShapeChange {
    /// The struct's module.
    pub module: String,
    /// The field.
    pub field: String,
    /// The side whose struct has it.
    pub side: Side,
}

/// The shape changes found so far.
pub type Shapes = BTreeSet<ShapeChange>;

impl ShapeChange {
    /// The shape change a kind reports, if it reports one (a struct field
    /// only one side has).
    pub fn of(kind: &Kind) -> Option<ShapeChange> {
        let (How::OnlyIn(side), Some(module)) = (&kind.how, &kind.structure) else {
            return None;
        };
        Some(ShapeChange {
            module: module.clone(),
            field: kind.path.strip_prefix("/.")?.to_owned(),
            side: *side,
        })
    }

    /// The kind a report lists this change under (op left empty, as
    /// [`Kind::cause`] has it).
    pub fn kind(&self) -> Kind {
        Kind {
            op: "",
            path: format!("/.{}", self.field),
            structure: Some(self.module.clone()),
            how: How::OnlyIn(self.side),
        }
    }
}

/// Why a difference is explained: the shape changes it echoes, and whether
/// it is a refusal of an input that names a field (rather than an answer
/// that holds or renders one).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Explanation {
    /// The shape changes whose fields were removed (or named by a refusal).
    pub changes: BTreeSet<ShapeChange>,
    /// The side lacking the field refused an input naming it.
    pub refused: bool,
}

/// Whether the difference between `expected` and `actual` (answers of `op`
/// already found to differ, read as `reading` says) is explained by
/// `shapes`, and by which of them.
pub fn explain(
    op: &'static Op,
    expected: &Answer,
    actual: &Answer,
    shapes: &Shapes,
    reading: Reading,
) -> Option<Explanation> {
    if shapes.is_empty() {
        return None;
    }
    let refusal = |reason: &str, refusing: Side| {
        let changes: BTreeSet<ShapeChange> = shapes
            .iter()
            .filter(|c| {
                c.side != refusing
                    && reason.contains(&format!("{} has no field \"{}\"", c.module, c.field))
            })
            .cloned()
            .collect();
        (!changes.is_empty()).then_some(Explanation {
            changes,
            refused: true,
        })
    };
    let (expected, actual) = (
        &crate::review::kinds::mask_vm_text(expected),
        &crate::review::kinds::mask_vm_text(actual),
    );
    let mut used = BTreeSet::new();
    let explained = match (expected, actual) {
        (Answer::Unsupported(r), a) if !matches!(a, Answer::Unsupported(_)) => {
            return refusal(r, Side::Expected)
        }
        (e, Answer::Unsupported(r)) if !matches!(e, Answer::Unsupported(_)) => {
            return refusal(r, Side::Actual)
        }
        (Answer::Ok(e), Answer::Ok(a)) => {
            let (e, a) = comparable(op, e, a, reading);
            let e = strip(&e, shapes, &mut used);
            let a = strip(&a, shapes, &mut used);
            agree(&e, &a, shapes, &mut used)
        }
        (Answer::Raised(e), Answer::Raised(a)) if e.class == a.class => {
            texts_agree(&e.message, &a.message, shapes, &mut used) != Agreement::Differs
        }
        _ => false,
    };
    (explained && !used.is_empty()).then_some(Explanation {
        changes: used,
        refused: false,
    })
}

/// `t` with the fields of `shapes` removed from their structs, at any
/// depth (function specs, map keys and values included); the changes that
/// removed something are added to `used`. Text is left to [`agree`].
fn strip(t: &Term, shapes: &Shapes, used: &mut Shapes) -> Term {
    match t {
        Term::Struct(s) => {
            let mut fields = Vec::with_capacity(s.fields.len());
            for (name, value) in &s.fields {
                match shapes
                    .iter()
                    .find(|c| c.module == s.module && &c.field == name)
                {
                    Some(c) => {
                        used.insert(c.clone());
                    }
                    None => fields.push((name.clone(), strip(value, shapes, used))),
                }
            }
            Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields,
            }))
        }
        Term::Fun(f) => Term::Fun(Box::new(match &**f {
            FunSpec::Returns { arity, returns } => FunSpec::Returns {
                arity: *arity,
                returns: strip(returns, shapes, used),
            },
            other => other.clone(),
        })),
        Term::List(xs) => Term::List(xs.iter().map(|x| strip(x, shapes, used)).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| strip(x, shapes, used)).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (strip(k, shapes, used), strip(v, shapes, used)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// How two texts agree once the struct changes' text is taken out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agreement {
    /// Equal.
    Equal,
    /// Equal up to where one of them is cut short.
    UpToCut,
    /// Not explained.
    Differs,
}

/// Whether `e` and `a` (stripped answers) agree: equal, but for texts,
/// which agree as [`texts_agree`] says, and a JSON payload's `"truncated"`
/// flag, which follows its text when that was cut on one side only.
fn agree(e: &Term, a: &Term, shapes: &Shapes, used: &mut Shapes) -> bool {
    match (e, a) {
        (Term::Str(x), Term::Str(y)) => texts_agree(x, y, shapes, used) != Agreement::Differs,
        (Term::Bytes(x), Term::Bytes(y)) => {
            texts_agree(&readable(x), &readable(y), shapes, used) != Agreement::Differs
        }
        (Term::List(xs), Term::List(ys)) | (Term::Tuple(xs), Term::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| agree(x, y, shapes, used))
        }
        (Term::Struct(x), Term::Struct(y)) => {
            x.module == y.module
                && x.fields.len() == y.fields.len()
                && x.fields
                    .iter()
                    .zip(&y.fields)
                    .all(|((n, v), (m, w))| n == m && agree(v, w, shapes, used))
        }
        (Term::Fun(x), Term::Fun(y)) => match (&**x, &**y) {
            (
                FunSpec::Returns { arity, returns },
                FunSpec::Returns {
                    arity: arity2,
                    returns: returns2,
                },
            ) => arity == arity2 && agree(returns, returns2, shapes, used),
            _ => x == y,
        },
        (Term::Map(x), Term::Map(y)) => {
            if x.iter().len() != y.iter().len() {
                return false;
            }
            let mut cut = false;
            let mut flag_differs = false;
            for ((k, v), (k2, w)) in x.iter().zip(y.iter()) {
                if !diff(k, k2).is_empty() {
                    return false;
                }
                match (v, w) {
                    (Term::Str(s1), Term::Str(s2)) => match texts_agree(s1, s2, shapes, used) {
                        Agreement::Differs => return false,
                        Agreement::UpToCut => cut = true,
                        Agreement::Equal => {}
                    },
                    (Term::Bool(b1), Term::Bool(b2))
                        if b1 != b2 && matches!(k, Term::Str(n) if n == "truncated") =>
                    {
                        flag_differs = true
                    }
                    _ => {
                        if !agree(v, w, shapes, used) {
                            return false;
                        }
                    }
                }
            }
            !flag_differs || cut
        }
        _ => diff(e, a).is_empty(),
    }
}

mod text;
use text::{readable, texts_agree};

#[cfg(test)]
pub(crate) mod tests;
