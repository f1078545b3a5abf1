//! Whether two answers disagree: the expectation an answer sets, judged
//! by the one comparison of the kit ([`same_answer`]), the kind of a
//! disagreement, and one line per answer for reports.

use super::known_kinds::Known;
use crate::corpus::Expect;
use crate::judging::judge::{same_answer, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::review::kinds::{classify, mask_vm_text, Kind};
use crate::review::show::{answer_line, answer_text};
use crate::subject::Answer;
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;

/// The expectation an answer sets, if it sets one: a value, or an exception
/// with its whole message. What of it depends on the VM (a
/// `Protocol.UndefinedError`'s list of implementations, LOOSE-1) is masked
/// by the judge, as for a corpus case, not dropped here.
pub fn expectation(answer: &Answer) -> Option<Expect> {
    match answer {
        Answer::Ok(t) => Some(Expect::Ok(t.clone())),
        Answer::Raised(r) => Some(Expect::Raised {
            class: r.class.clone(),
            message: Some(r.message.clone()),
        }),
        Answer::Unsupported(_) | Answer::Error(_) => None,
    }
}

/// Whether `actual` disagrees with the reference's `expected`, how (the
/// judge's diff) and in which [`Kind`]; a disagreement `known` matches is
/// stepped over (and counted there). Structs are read as `reading` says.
pub fn disagreement_of_kind(
    op: &'static Op,
    args: &[Term],
    expected_answer: &Answer,
    actual_answer: &Answer,
    known: &Known,
    reading: Reading,
) -> Option<(String, Kind)> {
    let expect = expectation(expected_answer)?;
    let diff = match same_answer(
        op,
        args,
        &expect,
        actual_answer,
        Strictness::Default,
        reading,
    ) {
        Outcome::Pass | Outcome::Skip(_) => return None,
        Outcome::Fail(d) => d,
        Outcome::Error(e) => format!("error: {e}"),
        other => format!("{other:?}"),
    };
    if !known.is_empty() {
        let text = format!(
            "{}\n{}\n{}",
            op.name,
            answer_text(expected_answer),
            answer_text(actual_answer)
        );
        if known.matches(&text) {
            return None;
        }
    }
    let (expected, actual) = (&mask_vm_text(expected_answer), &mask_vm_text(actual_answer));
    Some((diff, classify(op, args, expected, actual, reading)))
}

/// [`disagreement_of_kind`], and when `refusals` (two builds compared)
/// also an input one side declines and the other answers: a difference of
/// its own kind, named by the refusal's reason without its location
/// ([`super::refusal::reason_label`]).
pub fn difference_of_kind(
    op: &'static Op,
    args: &[Term],
    expected: &Answer,
    actual: &Answer,
    known: &Known,
    reading: Reading,
    refusals: bool,
) -> Option<(String, Kind)> {
    use crate::review::kinds::{How, Side};
    let side = match (expected, actual) {
        (Answer::Unsupported(r), Answer::Ok(_) | Answer::Raised(_)) => (Side::Expected, r),
        (Answer::Ok(_) | Answer::Raised(_), Answer::Unsupported(r)) => (Side::Actual, r),
        _ => return disagreement_of_kind(op, args, expected, actual, known, reading),
    };
    if !refusals {
        return None;
    }
    let reason = super::refusal::reason_label(side.1);
    let diff = format!("declined by one side only: {reason}");
    Some((
        diff,
        Kind {
            op: op.name,
            path: "/".into(),
            structure: None,
            how: How::Unsupported {
                side: side.0,
                reason,
            },
        },
    ))
}

/// Whether `actual` disagrees with `expected`, and how (no known kinds
/// stepped over; `laws` compares a subject's two answers with it).
pub fn disagreement(
    op: &'static Op,
    args: &[Term],
    expected: &Answer,
    actual: &Answer,
    reading: Reading,
) -> Option<String> {
    disagreement_of_kind(op, args, expected, actual, &Known::default(), reading).map(|(d, _)| d)
}

/// One line saying what an answer was, abbreviated ([`answer_line`]).
pub fn describe(a: &Answer) -> String {
    answer_line(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `PTC_FUZZ_KNOWN` pattern is written as the report shows the
    /// answer: quotes in a message as they are, not escaped.
    #[test]
    fn known_patterns_match_what_a_person_sees() {
        let file = std::env::temp_dir().join(format!("ptc-known-seen-{}.txt", std::process::id()));
        std::fs::write(&file, "raised ArgumentError: invalid \"x\"$\n").unwrap_or_default();
        let known = Known::from_file(&file).unwrap_or_else(|e| panic!("{e}"));
        let op = ptc_conformance::ops::find("tool.validate").unwrap_or_else(|| panic!("op"));
        let raised = |m: &str| {
            Answer::Raised(ptc_conformance::raised::Raised {
                class: "ArgumentError".into(),
                message: m.into(),
            })
        };
        let expected = raised("invalid \"y\"");
        let actual = raised("invalid \"x\"");
        assert!(describe(&actual).contains("invalid \"x\""));
        let read = Reading::WithDefaults(ptc_conformance::Release::default());
        assert!(disagreement_of_kind(op, &[], &expected, &actual, &known, read).is_none());
        assert_eq!(known.counts()[0].1, 1);
        let other = raised("invalid \"z\"");
        assert!(disagreement_of_kind(op, &[], &expected, &other, &known, read).is_some());
    }
}
