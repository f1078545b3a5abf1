//! Comparing a subject's answer with a case's expectation.

use crate::corpus::{Case, Expect, Level};
use crate::subject::Answer;
use ptc_conformance::diff::{diff, plain_json_to_term, render};
use ptc_conformance::ops::Output;
use ptc_conformance::tagged::encode;
use ptc_conformance::Term;

/// How strictly to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strictness {
    /// Required cases must pass; rendered JSON is compared as JSON.
    Default,
    /// Pinned cases are required too; rendered JSON must match byte for byte.
    Strict,
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The answer matches.
    Pass,
    /// The answer differs; the text explains where.
    Fail(String),
    /// Not run: the reason.
    Skip(String),
    /// Failed, and listed in the known-failures file with this reason.
    ExpectedFailure(String),
    /// Passed, but listed in the known-failures file.
    UnexpectedPass,
    /// No valid answer.
    Error(String),
}

impl Outcome {
    /// Its name in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Skip(_) => "skip",
            Outcome::ExpectedFailure(_) => "expected_failure",
            Outcome::UnexpectedPass => "unexpected_pass",
            Outcome::Error(_) => "error",
        }
    }
}

/// Whether a failure of `case` fails the run at `strictness`.
pub fn is_required(case: &Case, strictness: Strictness) -> bool {
    case.level == Level::Required || strictness == Strictness::Strict
}

/// Judges `answer` against `case`.
pub fn judge(case: &Case, answer: &Answer, strictness: Strictness) -> Outcome {
    match (answer, &case.expect) {
        (Answer::Error(e), _) => Outcome::Error(e.clone()),
        (Answer::Unsupported(why), _) => Outcome::Skip(format!("unsupported: {why}")),
        (Answer::Ok(actual), Expect::Ok(expected)) => {
            compare_ok(case, expected, actual, strictness)
        }
        (Answer::Ok(actual), Expect::Raised { class, message }) => Outcome::Fail(format!(
            "expected it to raise {class}{}, but it returned {}",
            message
                .as_ref()
                .map(|m| format!(": {m:?}"))
                .unwrap_or_default(),
            encode(actual)
        )),
        (Answer::Raised(r), Expect::Ok(expected)) => Outcome::Fail(format!(
            "expected {}, but it raised {}: {:?}",
            encode(expected),
            r.class,
            r.message
        )),
        (Answer::Raised(r), Expect::Raised { class, message }) => {
            if &r.class != class {
                Outcome::Fail(format!(
                    "expected it to raise {class}, but it raised {}: {:?}",
                    r.class, r.message
                ))
            } else if let Some(m) = message.as_ref().filter(|m| **m != r.message) {
                Outcome::Fail(format!("raised {class} as expected, but the message differs:\n  expected {m:?}\n  got      {:?}", r.message))
            } else {
                Outcome::Pass
            }
        }
    }
}

fn compare_ok(case: &Case, expected: &Term, actual: &Term, strictness: Strictness) -> Outcome {
    if case.op.output == Output::JsonString {
        if let (Term::Str(e), Term::Str(a)) = (expected, actual) {
            return compare_json_text(e, a, strictness);
        }
    }
    let d = diff(expected, actual);
    if d.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(render(&d))
    }
}

fn compare_json_text(expected: &str, actual: &str, strictness: Strictness) -> Outcome {
    if expected == actual {
        return Outcome::Pass;
    }
    let parsed_a: Result<serde_json::Value, _> = serde_json::from_str(actual);
    let parsed_e: Result<serde_json::Value, _> = serde_json::from_str(expected);
    let (e, a) = match (parsed_e, parsed_a) {
        (Ok(e), Ok(a)) => (plain_json_to_term(&e), plain_json_to_term(&a)),
        (Err(err), _) => {
            return Outcome::Fail(format!(
                "the expected text is not JSON ({err}); expected {expected:?}, got {actual:?}"
            ))
        }
        (_, Err(err)) => {
            return Outcome::Fail(format!("the answer is not JSON ({err}): {actual:?}"))
        }
    };
    let d = diff(&e, &a);
    if d.is_empty() {
        match strictness {
            Strictness::Default => Outcome::Pass,
            Strictness::Strict => Outcome::Fail(format!(
                "equal as JSON, but not byte for byte (strict level):\n  expected {expected}\n  got      {actual}"
            )),
        }
    } else {
        Outcome::Fail(format!(
            "rendered JSON differs (paths into the payload):\n{}",
            render(&d)
        ))
    }
}
