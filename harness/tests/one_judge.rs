//! One judge: `run`, `bless --check`, `fuzz`, `compare` and `laws` decide
//! "same answer" through one comparison, so a port that misprints only the
//! values inside `Protocol.UndefinedError` messages (`{11, 2}` for
//! `{1, 2}`), which LOOSE-1 does not loosen, fails every one of them.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance::loose::messages_match;
use ptc_conformance::raised::Raised;
use ptc_conformance::term::{Struct, Term};
use ptc_conformance_harness::corpus::{self, Case, Expect, Sources};
use ptc_conformance_harness::judging::judge::Reading;
use ptc_conformance_harness::judging::outcome::{Outcome, Strictness};
use ptc_conformance_harness::judging::runner::{self, RunOptions};
use ptc_conformance_harness::review::bless::{recompute, Change};
use ptc_conformance_harness::review::compare::{compare, CompareConfig};
use ptc_conformance_harness::review::fuzz::{self, FuzzConfig};
use ptc_conformance_harness::subject::reference::{Alteration, Altered, Reference};
use ptc_conformance_harness::subject::{Answer, Request};

const PUE: &str = "Protocol.UndefinedError";
const GOT: &str = "\n\nGot value:\n\n";

/// The reference, except that every digit of the value a
/// `Protocol.UndefinedError` message shows is written twice.
struct MisprintsUndefined;

fn misprint(message: &str) -> String {
    match message.find(GOT) {
        Some(at) => {
            let (head, value) = message.split_at(at + GOT.len());
            let value: String = value
                .chars()
                .flat_map(|c| {
                    let twice = c.is_ascii_digit();
                    std::iter::once(c).chain(twice.then_some(c))
                })
                .collect();
            format!("{head}{value}")
        }
        None => message.to_owned(),
    }
}

impl Alteration for MisprintsUndefined {
    fn name(&self) -> String {
        "reference misprinting Protocol.UndefinedError values".into()
    }
    fn alter(&mut self, _: Request<'_>, answer: Answer) -> Answer {
        match answer {
            Answer::Raised(r) if r.class == PUE => Answer::Raised(Raised {
                message: misprint(&r.message),
                ..r
            }),
            other => other,
        }
    }
}

/// The ops whose corpus cases raise `Protocol.UndefinedError` most.
const OPS: [&str; 3] = [
    "protocol.render_error",
    "protocol.render_success_from_step",
    "lisp_formatter.format",
];

/// The corpus at v0.13.0, as `run` and `bless --check` take it by default
/// (a case whose `releases` leave 0.13.0 out is not judged there).
fn corpus() -> Vec<Case> {
    corpus::load_clean(&Sources::embedded())
        .unwrap()
        .cases
        .into_iter()
        .filter(|c| c.holds_at(ptc_conformance::Release::default()))
        .collect()
}

/// The corpus cases the misprint reaches: a raise whose value holds a
/// digit outside a function's text (which LOOSE-2 masks).
fn reached(cases: &[Case]) -> Vec<&Case> {
    cases
        .iter()
        .filter(|c| {
            matches!(Reference::default().answer(Request::new(c.op.name, &c.args)),
                Answer::Raised(r) if r.class == PUE && !messages_match(&r.message, &misprint(&r.message)))
        })
        .collect()
}

#[test]
fn run_and_bless_check_catch_the_misprint() {
    let cases = corpus();
    let reached = reached(&cases);
    assert!(reached.len() >= 10, "only {} cases reached", reached.len());
    let all: Vec<&Case> = cases.iter().collect();
    let results = runner::run(
        &mut Altered(MisprintsUndefined),
        &all,
        RunOptions::new(Strictness::Default),
    );
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
        .map(|r| r.case.id.as_str())
        .collect();
    let expected: Vec<&str> = reached.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(failed, expected, "run fails exactly the cases reached");

    // `bless --check` against the misprinting source: every reached case
    // would change, no other.
    let changes = recompute(
        &mut Altered(MisprintsUndefined),
        &all,
        ptc_conformance::Release::default(),
    );
    let changed: Vec<&str> = all
        .iter()
        .zip(&changes)
        .filter(|(_, ch)| !matches!(ch, Change::Same))
        .map(|(c, _)| c.id.as_str())
        .collect();
    assert_eq!(changed, expected);
}

#[test]
fn compare_counts_what_run_fails() {
    let cases = corpus();
    let all: Vec<&Case> = cases.iter().collect();
    let reached = reached(&cases);
    let cfg = CompareConfig {
        strictness: Strictness::Default,
        emit: None,
        fuzz: None,
        alone: false,
    };
    let c = compare(
        &mut Reference::default(),
        &mut Altered(MisprintsUndefined),
        &all,
        &cases,
        &cfg,
        &mut |_| {},
    )
    .unwrap();
    let differing: Vec<&str> = c.differences.iter().map(|d| d.case.id.as_str()).collect();
    let expected: Vec<&str> = reached.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(differing, expected);
    assert!(!c.passed());
}

#[test]
fn fuzz_finds_the_misprint() {
    let cases = corpus();
    let cfg = FuzzConfig {
        ops: OPS.iter().map(|o| (*o).to_owned()).collect(),
        cases_per_op: 400,
        keep_going: true,
        ..FuzzConfig::new(5)
    };
    let report = fuzz::run(&mut Altered(MisprintsUndefined), &cfg, &cases, &mut |_| {})
        .expect("fuzzing runs");
    let finding = report
        .findings
        .first()
        .unwrap_or_else(|| panic!("no disagreement in {} inputs", report.checked));
    let Answer::Raised(r) = &finding.actual else {
        panic!("the finding is a raise: {finding:?}")
    };
    assert_eq!(r.class, PUE);
    // And the input it shrank to fails `run` as a case.
    let expected = fuzz::expectation(&finding.expected).expect("the reference answered");
    let outcome = ptc_conformance_harness::judging::judge::same_answer(
        finding.op,
        &finding.args,
        &expected,
        &finding.actual,
        Strictness::Default,
        Reading::WithDefaults(ptc_conformance::Release::default()),
    );
    assert!(matches!(outcome, Outcome::Fail(_)), "{outcome:?}");
}

/// `laws` compares a subject's two answers with [`fuzz::disagreement`]; a
/// law whose two answers raise with values printed differently is broken.
#[test]
fn laws_compare_whole_messages() {
    let op = ptc_conformance::ops::find("lisp_formatter.format").expect("an op");
    let raised = |m: &str| {
        Answer::Raised(Raised {
            class: PUE.into(),
            message: m.into(),
        })
    };
    let message = "protocol Enumerable not implemented for type Tuple. This protocol is \
                   implemented for the following type(s): List, Map\n\nGot value:\n\n    {1, 2}\n";
    let other_impls = message.replace("List, Map", "Date.Range, List, Map");
    let read = Reading::AsAnswered;
    assert_eq!(
        fuzz::disagreement(op, &[], &raised(message), &raised(&other_impls), read),
        None,
        "LOOSE-1 masks the list of implementations"
    );
    let d = fuzz::disagreement(op, &[], &raised(message), &raised(&misprint(message)), read)
        .expect("a misprinted value is a disagreement");
    assert!(d.contains("{11, 22}"), "{d}");
}

/// The reference as a build whose `PtcRunner.Tool` has one more field,
/// `owner` (nil): in values, in inspected text and in messages.
struct ToolWithOwner;

fn with_owner(t: &Term) -> Term {
    match t {
        Term::Str(s) => Term::Str(s.replace("%PtcRunner.Tool{", "%PtcRunner.Tool{owner: nil, ")),
        Term::List(xs) => Term::List(xs.iter().map(with_owner).collect()),
        Term::Tuple(xs) => Term::Tuple(xs.iter().map(with_owner).collect()),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (with_owner(k), with_owner(v)))
                .collect(),
        ),
        Term::Struct(s) => {
            let mut fields: Vec<(String, Term)> = s
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), with_owner(v)))
                .collect();
            if s.module == "PtcRunner.Tool" {
                fields.push(("owner".into(), Term::Nil));
                fields.sort_by(|a, b| a.0.cmp(&b.0));
            }
            Term::Struct(Box::new(Struct {
                module: s.module.clone(),
                fields,
            }))
        }
        other => other.clone(),
    }
}

impl Alteration for ToolWithOwner {
    fn name(&self) -> String {
        "reference whose Tool has an owner".into()
    }
    fn alter(&mut self, _: Request<'_>, answer: Answer) -> Answer {
        match answer {
            Answer::Ok(t) => Answer::Ok(with_owner(&t)),
            Answer::Raised(r) => match with_owner(&Term::Str(r.message)) {
                Term::Str(message) => Answer::Raised(Raised { message, ..r }),
                _ => unreachable!("a string stays a string"),
            },
            other => other,
        }
    }
}

/// A changed struct: `compare` counts as differing every case `run` fails
/// (it counted fewer when it dropped `Protocol.UndefinedError` messages,
/// which show the struct inspected).
#[test]
fn compare_counts_every_case_a_struct_change_fails() {
    let cases = corpus();
    let all: Vec<&Case> = cases.iter().collect();
    let results = runner::run(
        &mut Altered(ToolWithOwner),
        &all,
        RunOptions::new(Strictness::Default),
    );
    let failed: Vec<&str> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
        .map(|r| r.case.id.as_str())
        .collect();
    assert!(
        failed
            .iter()
            .any(|id| cases.iter().any(|c| &c.id == id
                && matches!(&c.expect, Expect::Raised { class, .. } if class == PUE))),
        "a Protocol.UndefinedError showing the struct is among the failures: {failed:?}"
    );
    let cfg = CompareConfig {
        strictness: Strictness::Default,
        emit: None,
        fuzz: None,
        alone: false,
    };
    let c = compare(
        &mut Reference::default(),
        &mut Altered(ToolWithOwner),
        &all,
        &cases,
        &cfg,
        &mut |_| {},
    )
    .unwrap();
    let differing: Vec<&str> = c.differences.iter().map(|d| d.case.id.as_str()).collect();
    assert_eq!(differing, failed);
}
