//! Whether two answers disagree: the expectation an answer sets, the VM
//! text that is masked before comparing, and one line per answer for
//! reports.

use super::known_kinds::known_disagreements;
use crate::corpus::{Case, Expect, Level};
use crate::judging::judge::{judge_read, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::subject::Answer;
use ptc_conformance::loose;
use ptc_conformance::ops::Op;
use ptc_conformance::tagged;
use ptc_conformance::term::Term;
use std::path::PathBuf;

/// The expectation an answer sets, if it sets one: a value, or an exception
/// with its message (except `Protocol.UndefinedError`'s, which lists the
/// protocol's implementations loaded in the VM: platform noise).
pub fn expectation(answer: &Answer) -> Option<Expect> {
    match answer {
        Answer::Ok(t) => Some(Expect::Ok(t.clone())),
        Answer::Raised(r) => Some(Expect::Raised {
            class: r.class.clone(),
            message: (r.class != "Protocol.UndefinedError").then(|| r.message.clone()),
        }),
        Answer::Unsupported(_) | Answer::Error(_) => None,
    }
}

/// A case expecting `expected` for `args`, to judge an answer with.
fn probe(op: &'static Op, args: Vec<Term>, expected: &Answer) -> Option<Case> {
    let expect = expectation(expected)?;
    Some(Case {
        args_json: String::new(),
        id: format!("fuzz/{}", op.name),
        file: PathBuf::from("(generated)"),
        op,
        args,
        expect,
        description: String::new(),
        spec: Vec::new(),
        features: Vec::new(),
        level: Level::Required,
    })
}

/// Whether `actual` disagrees with the reference's `expected`, and how.
pub(super) fn disagreement(
    op: &'static Op,
    args: &[Term],
    expected: &Answer,
    actual: &Answer,
    reading: Reading,
) -> Option<String> {
    let (expected, actual) = (&mask_vm_text(expected), &mask_vm_text(actual));
    if truncation_moved_by_vm_text(expected) || truncation_moved_by_vm_text(actual) {
        return None;
    }
    let case = probe(op, args.to_vec(), expected)?;
    let diff = match judge_read(&case, actual, Strictness::Default, reading) {
        Outcome::Pass | Outcome::Skip(_) => return None,
        Outcome::Fail(d) => d,
        Outcome::Error(e) => format!("error: {e}"),
        other => format!("{other:?}"),
    };
    let known = known_disagreements();
    if !known.is_empty() {
        let text = format!("{}\n{}\n{}", op.name, describe(expected), describe(actual));
        if let Some(i) = known.iter().position(|(re, _)| re.is_match(&text)) {
            known[i]
                .1
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
    }
    Some(diff)
}

/// Whether `answer` is a text that holds the VM's text for an opaque term
/// and was cut at a character count: the length of that text decides
/// whether and where the cut falls (`spec/README.md` LOOSE-2), so such an
/// input says nothing about PtcRunner and is not compared.
fn truncation_moved_by_vm_text(answer: &Answer) -> bool {
    let Answer::Ok(Term::Str(s)) = answer else {
        return false;
    };
    s.contains("(truncatedat") && loose::holds_vm_text(s)
}

/// `answer` with the text the VM makes up for references, pids, ports and
/// anonymous functions (`#Reference<0.1.2.3>`, `#Function<0.1/1 in M.f/2>`)
/// masked, in every string and message ([`loose::mask_vm_text`]); a text
/// that holds one is compared without white space, as its length may move
/// `inspect`'s line breaks (LOOSE-2).
fn mask_vm_text(answer: &Answer) -> Answer {
    let needs = |s: &str| s.contains('#') || s.contains("Stacktrace:");
    match answer {
        Answer::Ok(t) => Answer::Ok(loose::map_strings(t, &|s| {
            needs(s).then(|| {
                let masked = loose::mask_vm_text(s);
                if loose::holds_vm_text(&masked) {
                    masked.split_whitespace().collect()
                } else {
                    masked
                }
            })
        })),
        Answer::Raised(r) if needs(&r.message) => {
            let mut r = r.clone();
            r.message = loose::mask_vm_text(&r.message);
            Answer::Raised(r)
        }
        other => other.clone(),
    }
}

/// One line saying what an answer was.
pub fn describe(a: &Answer) -> String {
    match a {
        Answer::Ok(t) => format!("ok {}", tagged::encode(t)),
        Answer::Raised(r) => format!("raised {}: {:?}", r.class, r.message),
        Answer::Unsupported(w) => format!("unsupported: {w}"),
        Answer::Error(e) => format!("error: {e}"),
    }
}
