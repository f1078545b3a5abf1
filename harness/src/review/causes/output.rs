//! A difference no part of the input triggers (every input of the op shows
//! it: nothing taken out makes the two builds agree), named by what
//! differs in the output: the key or field, the two values, the text one
//! side inserts, the exception. The same output difference met in several
//! ops and kinds is one change (a default both ops read, a function one
//! op's answer is embedded in another's through).

use super::message::{elided, parting};
use crate::judging::judge::Reading;
use crate::review::kinds::{comparable, How, Kind, Labels, Side};
use crate::subject::Answer;
use ptc_conformance::diff::{at, diff, Segment};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;

/// What differs in the output, in words that do not depend on where the
/// op puts it: the last key or field on the way (`"rows"`, `.limit`),
/// then how (`only in head`, `10 in base, 20 in head`). `None` for a kind
/// with nothing of the output to name (a refusal, no valid answer). With
/// it, how deep in the answer the difference is (0: the answer itself).
pub fn named(
    op: &Op,
    kind: &Kind,
    (base, head): (&Answer, &Answer),
    labels: Labels,
) -> Option<(String, usize)> {
    let side = |s: &Side| match s {
        Side::Expected => labels.0,
        Side::Actual => labels.1,
    };
    let raised = match (&kind.how, base, head) {
        (How::Raises { side: s, class }, _, _) => {
            let Answer::Raised(r) = (if *s == Side::Expected { base } else { head }) else {
                return None;
            };
            let message = super::message::masked(&r.message).replace('\n', " ");
            format!("{} raises {class} ({})", side(s), elided(&message))
        }
        (How::Class { expected, actual }, _, _) => {
            format!(
                "{expected} raised in {}, {actual} in {}",
                labels.0, labels.1
            )
        }
        (How::Message { class }, Answer::Raised(b), Answer::Raised(h)) => {
            let p = parting(&b.message, &h.message)?;
            format!(
                "the message of {class}: {:?} in {}, {:?} in {}",
                p.base, labels.0, p.head, labels.1
            )
        }
        (How::Rendering, _, _) => "equal as JSON, rendered differently".to_owned(),
        (_, Answer::Ok(e), Answer::Ok(a)) => return value_named(op, kind, (e, a), labels),
        _ => return None,
    };
    Some((raised, 0))
}

/// What differs between two values answered, and how deep.
fn value_named(
    op: &Op,
    kind: &Kind,
    (e, a): (&Term, &Term),
    labels: Labels,
) -> Option<(String, usize)> {
    let side = |s: &Side| match s {
        Side::Expected => labels.0,
        Side::Actual => labels.1,
    };
    let (e, a) = comparable(op, e, a, Reading::AsAnswered);
    let first = diff(&e, &a).into_iter().next()?;
    let place = place(&first.segments);
    let value = |t: Option<&Term>| {
        t.map_or_else(
            || "nothing".to_owned(),
            |t| elided(&ptc_conformance::tagged::encode(t)),
        )
    };
    let (x, y) = (at(&e, &first.segments), at(&a, &first.segments));
    let what = match &kind.how {
        How::OnlyIn(s) => format!("{place} only in {}", side(s)),
        How::Text { side: s, text } => format!("{place}: text {text:?} only in {}", side(s)),
        _ => format!(
            "{place}: {} in {}, {} in {}",
            value(x),
            labels.0,
            value(y),
            labels.1
        ),
    };
    Some((what, first.segments.len()))
}

/// The place of a difference as the output names it: the last map key or
/// struct field on its path (indices and keys are where the op put it),
/// or the answer itself.
fn place(segments: &[Segment]) -> String {
    segments
        .iter()
        .rev()
        .find_map(|s| match s {
            Segment::Key(Term::Str(_) | Term::Atom(_)) => Some(format!("at {}", s.text())),
            Segment::Field { module, name } => Some(format!("at {module}.{name}")),
            _ => None,
        })
        .unwrap_or_else(|| "the answer".to_owned())
}
