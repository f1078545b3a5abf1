//! Comparing a subject's answer with a case's expectation.
//!
//! Against the corpus, an omitted struct field means the default of the
//! release judged (`spec/terms.md` TJ-7): expectation and answer are both
//! read with that release's defaults filled in ([`Reading::WithDefaults`]). `compare`
//! reads two builds' answers as answered ([`Reading::AsAnswered`]), so a
//! field one build's struct has and the other's lacks is a difference.

use crate::corpus::{Case, Expect};
use crate::judging::outcome::{Outcome, Skip, Strictness};
use crate::quote;
use crate::subject::Answer;
use ptc_conformance::diff::{diff, first_difference, plain_json_to_term, render, shown};
pub use ptc_conformance::loose::{
    cut_by_vm_text, mask_stacktraces, mask_stacktraces_in, mask_term, messages_match,
    vm_atom_keys_at,
};
use ptc_conformance::ops::{Op, Output};
use ptc_conformance::structs::with_defaults_at;
use ptc_conformance::{Release, Term};

/// How structs are read before an answer is compared with an expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every struct completed with the defaults of the release judged
    /// ([`ptc_conformance::structs::with_defaults_at`]): judging against the
    /// corpus. At v0.12.0 a `Tool` has no `visibility`, so an answer
    /// carrying one differs from an expectation without it.
    WithDefaults(Release),
    /// As written and as answered: comparing two builds.
    AsAnswered,
}

/// Judges `answer` against what `case` expects at v0.13.0, the default
/// release (an omitted struct field is v0.13.0's default).
pub fn judge(case: &Case, answer: &Answer, strictness: Strictness) -> Outcome {
    judge_at(case, Release::default(), answer, strictness)
}

/// Judges `answer` against what `case` expects at `release`: its
/// `expect_by_release` entry for it, else `expect`. A case that does not
/// hold at `release` is skipped, saying for which releases it holds.
pub fn judge_at(case: &Case, release: Release, answer: &Answer, strictness: Strictness) -> Outcome {
    match case.expect_at(release) {
        Some(expect) => judge_expect(
            case,
            expect,
            answer,
            strictness,
            Reading::WithDefaults(release),
        ),
        None => Outcome::Skip(Skip::Release(release, case.holds_for())),
    }
}

/// Judges `answer` against `case.expect`, reading structs as `reading` says.
pub fn judge_read(
    case: &Case,
    answer: &Answer,
    strictness: Strictness,
    reading: Reading,
) -> Outcome {
    same_answer(
        case.op,
        &case.args,
        &case.expect,
        answer,
        strictness,
        reading,
    )
}

/// `answer` against `expect`, one of `case`'s expectations (its `expect`
/// or an `expect_by_release` entry): [`same_answer`] on the case's op and
/// arguments.
pub fn judge_expect(
    case: &Case,
    expect: &Expect,
    answer: &Answer,
    strictness: Strictness,
    reading: Reading,
) -> Outcome {
    same_answer(case.op, &case.args, expect, answer, strictness, reading)
}

/// The one comparison of the kit: whether `answer` to `op` on `args` is
/// the answer `expect` describes. `run`, `bless`, `fuzz`, `compare` and
/// `laws` all decide "same answer" here, so none lets through a
/// difference another reports. What is loosened is the strictness level
/// (rendered JSON as JSON or byte for byte) and the masks of
/// `spec/README.md` § Loosely compared message parts
/// ([`ptc_conformance::loose`]), nothing else.
pub fn same_answer(
    op: &Op,
    args: &[Term],
    expect: &Expect,
    answer: &Answer,
    strictness: Strictness,
    reading: Reading,
) -> Outcome {
    match (answer, expect) {
        (Answer::Error(e), _) => Outcome::Error(e.clone()),
        (Answer::Unsupported(why), _) => Outcome::Skip(Skip::Unsupported(quote::line(why))),
        (Answer::Ok(actual), Expect::Ok(expected)) => match reading {
            Reading::WithDefaults(rel) => compare_ok(
                op,
                args,
                &with_defaults_at(rel, expected),
                &with_defaults_at(rel, actual),
                strictness,
                rel,
            ),
            Reading::AsAnswered => {
                compare_ok(op, args, expected, actual, strictness, Release::default())
            }
        },
        (Answer::Ok(actual), Expect::Raised { class, message }) => Outcome::Fail(format!(
            "expected it to raise {class}{}, but it returned {}",
            message
                .as_ref()
                .map(|m| format!(": {m:?}"))
                .unwrap_or_default(),
            quote::line(&shown(actual))
        )),
        (Answer::Raised(r), Expect::Ok(expected)) => Outcome::Fail(format!(
            "expected {}, but it raised {}",
            shown(expected),
            quote::line(&format!("{}: {:?}", r.class, r.message))
        )),
        (Answer::Raised(r), Expect::Raised { class, message }) => {
            if &r.class != class {
                Outcome::Fail(format!(
                    "expected it to raise {class}, but it raised {}",
                    quote::line(&format!("{}: {:?}", r.class, r.message))
                ))
            } else if let Some(m) = message.as_ref().filter(|m| !messages_match(m, &r.message)) {
                Outcome::Fail(format!(
                    "raised {class} as expected, but the message differs:\n  expected {m:?}\n  got      {}\n{}",
                    quote::line(&format!("{:?}", r.message)),
                    first_difference(m, &r.message)
                ))
            } else {
                Outcome::Pass
            }
        }
    }
}

fn compare_ok(
    op: &Op,
    args: &[Term],
    expected: &Term,
    actual: &Term,
    strictness: Strictness,
    rel: Release,
) -> Outcome {
    let (expected, actual) = (mask_term(expected), mask_term(actual));
    if op.output == Output::JsonString {
        if let (Term::Str(e), Term::Str(a)) = (&expected, &actual) {
            return match compare_json_text(e, a, strictness) {
                Outcome::Fail(_) if cut_by_vm_text(&expected) || cut_by_vm_text(&actual) => {
                    Outcome::Pass
                }
                other => other,
            };
        }
    }
    let (expected, actual) = if op.name == "protocol.atomize_value" {
        vm_atom_keys_at(rel, args, &expected, &actual)
    } else {
        (expected, actual)
    };
    let d = diff(&expected, &actual);
    if d.is_empty() || cut_by_vm_text(&expected) || cut_by_vm_text(&actual) {
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
                "the expected text is not JSON ({err}); expected {expected:?}, got {}",
                quote::line(&format!("{actual:?}"))
            ))
        }
        (_, Err(err)) => {
            return Outcome::Fail(format!(
                "the answer is not JSON ({err}): {}",
                quote::line(&format!("{actual:?}"))
            ))
        }
    };
    let d = diff(&e, &a);
    match (d.is_empty(), strictness) {
        (true, Strictness::Default) => Outcome::Pass,
        (true, Strictness::Strict) => Outcome::Fail(format!(
            "equal as JSON, but not byte for byte (strict level):\n{}",
            first_difference(expected, actual)
        )),
        (false, Strictness::Default) => Outcome::Fail(format!(
            "rendered JSON differs (paths into the payload):\n{}",
            render(&d)
        )),
        (false, Strictness::Strict) => Outcome::Fail(format!(
            "rendered JSON differs (paths into the payload):\n{}\nbytes (strict level):\n{}",
            render(&d),
            first_difference(expected, actual)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Level;
    use ptc_conformance::tagged::decode_str;

    /// A probe case of `tool.new` expecting `{:ok, <tool>}` (tagged JSON).
    fn tool_case(tool: &str) -> Case {
        let expect = decode_str(&format!(r#"{{"$tuple": [{{"$atom": "ok"}}, {tool}]}}"#), "")
            .expect("test term decodes");
        Case {
            id: "t/tool".into(),
            file: "t/tool.json".into(),
            source: "".into(),
            op: ptc_conformance::ops::find("tool.new").expect("tool.new is an op"),
            args: Vec::new(),
            args_json: "[]".into(),
            expect: Expect::Ok(expect),
            description: String::new(),
            spec: Vec::new(),
            features: Vec::new(),
            level: Level::Required,
            releases: Default::default(),
        }
    }

    fn tool(fields: &str) -> String {
        format!(r#"{{"$struct": {{"module": "PtcRunner.Tool", "fields": {{{fields}}}}}}}"#)
    }

    fn ok(json: &str) -> Answer {
        Answer::Ok(decode_str(json, "").expect("test term decodes"))
    }

    /// TJ-7, AP-17: against the corpus, a field the expectation or the
    /// answer omits is v0.13.0's default; as answered, it is a difference.
    #[test]
    fn an_omitted_struct_field_is_the_default_against_the_corpus() {
        let case = tool_case(&tool(r#""name": "a""#));
        let full = ok(&format!(
            r#"{{"$tuple": [{{"$atom": "ok"}}, {}]}}"#,
            tool(
                r#""name": "a", "function": null, "signature": null, "description": null, "type": null, "expose": null, "native_result": null, "visibility": {"$atom": "public"}, "cache": false"#
            )
        ));
        assert_eq!(judge(&case, &full, Strictness::Strict), Outcome::Pass);
        let private = ok(&format!(
            r#"{{"$tuple": [{{"$atom": "ok"}}, {}]}}"#,
            tool(r#""name": "a", "visibility": {"$atom": "private"}"#)
        ));
        match judge(&case, &private, Strictness::Strict) {
            Outcome::Fail(d) => assert!(d.contains("/1/.visibility"), "{d}"),
            other => panic!("a non-default field must fail: {other:?}"),
        }
        // An answer lacking a field v0.13.0 has is read with its default too.
        let case = tool_case(&tool(r#""name": "a", "visibility": {"$atom": "public"}"#));
        let partial = ok(&format!(
            r#"{{"$tuple": [{{"$atom": "ok"}}, {}]}}"#,
            tool(r#""name": "a""#)
        ));
        assert_eq!(judge(&case, &partial, Strictness::Default), Outcome::Pass);
        // As answered (compare), the missing field is a difference.
        match judge_read(&case, &partial, Strictness::Default, Reading::AsAnswered) {
            Outcome::Fail(d) => assert!(d.contains("/1/.visibility"), "{d}"),
            other => panic!("a field one side lacks must differ: {other:?}"),
        }
        // A field v0.13.0 lacks stays in the answer and shows in the diff.
        let extra = ok(&format!(
            r#"{{"$tuple": [{{"$atom": "ok"}}, {}]}}"#,
            tool(r#""name": "a", "owner": "x""#)
        ));
        match judge(&case, &extra, Strictness::Default) {
            Outcome::Fail(d) => assert!(d.contains("/1/.owner"), "{d}"),
            other => panic!("a field v0.13.0 lacks must fail: {other:?}"),
        }
    }

    /// AP-17: `compare` tells a struct answered without a field from one
    /// answered with it (a change of the struct's shape between builds).
    #[test]
    fn compare_shows_a_struct_whose_shape_changed() {
        let case = tool_case(&tool(r#""name": "a""#));
        let old = ok(&tool(r#""name": "a", "cache": false"#));
        let new = ok(&tool(
            r#""name": "a", "cache": false, "visibility": {"$atom": "public"}"#,
        ));
        let d = crate::review::compare::difference(&case, &old, &new, Strictness::Default)
            .expect("a field only head's struct has is a difference");
        assert!(d.contains("/.visibility"), "{d}");
        assert_eq!(
            crate::review::compare::difference(&case, &new, &new, Strictness::Default),
            None
        );
    }

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

    /// LOOSE-4: an `#Inspect.Error<...>`'s frames are masked, nested ones
    /// and JSON-escaped ones too; the message before them is not.
    #[test]
    fn inspect_error_frames_are_masked() {
        let error = |msg: &str, frames: &str| {
            format!("#Inspect.Error<\n  got ArgumentError with message:\n\n      {msg}\n\n  Stacktrace:\n\n{frames}\n>")
        };
        let a = error("x", "    a.ex:1: A.f/1\n    b.ex:2: B.g/2\n");
        let b = error("x", "    c.ex:3: C.h/0\n");
        assert!(messages_match(&a, &b));
        assert!(!messages_match(&a, &error("y", "    c.ex:3: C.h/0\n")));
        assert_eq!(mask_stacktraces(&a), mask_stacktraces(&b));
        // Nested, as `Inspect.Error.pad/2` indents it: empty lines stay empty.
        let indent = |t: String| t.replace('\n', "\n  ").replace("\n  \n", "\n\n");
        let nested = |f: &str| format!("[{}]{}", indent(error("x", f)), error("z", f));
        assert_eq!(
            mask_stacktraces(&nested("    a\n")),
            mask_stacktraces(&nested("    b\n    c\n"))
        );
        let json = |f: &str| serde_json::to_string(&error("x", f)).unwrap_or_default();
        assert_eq!(
            mask_stacktraces(&json("    a\n")),
            mask_stacktraces(&json("    b\n"))
        );
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
