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
            } else if let Some(m) = message.as_ref().filter(|m| !messages_match(m, &r.message)) {
                Outcome::Fail(format!("raised {class} as expected, but the message differs:\n  expected {m:?}\n  got      {:?}", r.message))
            } else {
                Outcome::Pass
            }
        }
    }
}

/// Whether two exception messages agree once the parts that depend on the
/// VM rather than on PtcRunner are masked (`spec/README.md`, LOOSE-1 and
/// LOOSE-2): a `Protocol.UndefinedError`'s list of implementations, and
/// the text inside `#Function<...>`, `#PID<...>`, `#Reference<...>` and
/// `#Port<...>`, whose length may also move `inspect`'s line breaks, so
/// a message holding one is compared without white space.
pub fn messages_match(expected: &str, actual: &str) -> bool {
    if expected == actual {
        return true;
    }
    let (e, e_opaque) = mask(expected);
    let (a, a_opaque) = mask(actual);
    if e_opaque || a_opaque {
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        squeeze(&e) == squeeze(&a)
    } else {
        e == a
    }
}

/// The message with its VM-dependent parts replaced by `_`, and whether it
/// held an opaque term's text.
fn mask(message: &str) -> (String, bool) {
    const IMPLS: [&str; 2] = [
        ". This protocol is implemented for the following type(s): ",
        ". There are no implementations for this protocol.",
    ];
    let mut text = message.to_owned();
    if text.starts_with("protocol ") {
        if let Some(got) = text.find("\n\nGot value:") {
            let head = &text[..got];
            let start = IMPLS.iter().filter_map(|m| head.rfind(m)).max();
            text = format!("{}. _{}", &text[..start.unwrap_or(got)], &text[got..]);
        }
    }
    let mut opaque = false;
    for tag in ["#Function<", "#PID<", "#Reference<", "#Port<"] {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find(tag) {
            let body = &rest[at + tag.len()..];
            let Some(end) = body.find('>') else { break };
            out.push_str(&rest[..at + tag.len()]);
            out.push_str("_>");
            rest = &body[end + 1..];
            opaque = true;
        }
        out.push_str(rest);
        text = out;
    }
    (text, opaque)
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

#[cfg(test)]
mod tests {
    use super::messages_match;

    /// LOOSE-1: the implementation list of a `Protocol.UndefinedError` is masked.
    #[test]
    fn implementation_lists_are_masked() {
        let ours = "protocol Enumerable not implemented for type Integer. This protocol is \
                    implemented for the following type(s): List, Map\n\nGot value:\n\n    5\n";
        let theirs = "protocol Enumerable not implemented for type Integer. This protocol is \
                      implemented for the following type(s): Foo, List, Map\n\nGot value:\n\n    5\n";
        assert!(messages_match(ours, theirs));
        let other_value = theirs.replace("    5", "    6");
        assert!(!messages_match(ours, &other_value));
    }

    /// LOOSE-2: opaque terms' text is masked, and with it the layout.
    #[test]
    fn opaque_texts_are_masked() {
        assert!(messages_match(
            "no case clause matching: {:a, #Function<anonymous/1>}",
            "no case clause matching: {:a, #Function<43.3316493/1 in :erl_eval.expr/6>}"
        ));
        assert!(!messages_match(
            "no case clause matching: {:a, #Function<x/1>}",
            "no case clause matching: {:b, #Function<x/1>}"
        ));
        assert!(!messages_match(
            "key :a not found in: %{}",
            "key :b not found in: %{}"
        ));
    }
}
