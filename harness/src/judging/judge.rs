//! Comparing a subject's answer with a case's expectation.
//!
//! Against the corpus, an omitted struct field means v0.13.0's default
//! (`spec/terms.md` TJ-7): expectation and answer are both read with
//! v0.13.0's defaults filled in ([`Reading::WithDefaults`]). `compare`
//! reads two builds' answers as answered ([`Reading::AsAnswered`]), so a
//! field one build's struct has and the other's lacks is a difference.

use crate::corpus::{Case, Expect};
use crate::judging::outcome::{Outcome, Skip, Strictness};
use crate::subject::Answer;
use ptc_conformance::diff::{diff, plain_json_to_term, render};
pub use ptc_conformance::loose::{mask_stacktraces, mask_stacktraces_in, messages_match};
use ptc_conformance::ops::Output;
use ptc_conformance::structs::with_defaults;
use ptc_conformance::tagged::encode;
use ptc_conformance::Term;

/// How structs are read before an answer is compared with an expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every struct completed with v0.13.0's defaults
    /// ([`ptc_conformance::structs::with_defaults`]): judging against the corpus.
    WithDefaults,
    /// As written and as answered: comparing two builds.
    AsAnswered,
}

/// Judges `answer` against `case` (an omitted struct field is v0.13.0's default).
pub fn judge(case: &Case, answer: &Answer, strictness: Strictness) -> Outcome {
    judge_read(case, answer, strictness, Reading::WithDefaults)
}

/// Judges `answer` against `case`, reading structs as `reading` says.
pub fn judge_read(
    case: &Case,
    answer: &Answer,
    strictness: Strictness,
    reading: Reading,
) -> Outcome {
    match (answer, &case.expect) {
        (Answer::Error(e), _) => Outcome::Error(e.clone()),
        (Answer::Unsupported(why), _) => Outcome::Skip(Skip::Unsupported(why.clone())),
        (Answer::Ok(actual), Expect::Ok(expected)) => match reading {
            Reading::WithDefaults => compare_ok(
                case,
                &with_defaults(expected),
                &with_defaults(actual),
                strictness,
            ),
            Reading::AsAnswered => compare_ok(case, expected, actual, strictness),
        },
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

fn compare_ok(case: &Case, expected: &Term, actual: &Term, strictness: Strictness) -> Outcome {
    if case.op.output == Output::JsonString {
        if let (Term::Str(e), Term::Str(a)) = (expected, actual) {
            return compare_json_text(&mask_stacktraces(e), &mask_stacktraces(a), strictness);
        }
    }
    let (expected, actual) = (mask_stacktraces_in(expected), mask_stacktraces_in(actual));
    let d = diff(&expected, &actual);
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

/// Characters of context shown before and after the first difference.
const WINDOW_BEFORE: usize = 24;
const WINDOW_AFTER: usize = 40;

/// The byte offset of the first difference between two texts and a short
/// window of each around it, with a marker under the first differing byte
/// (control characters escaped so the marker lines up):
///
/// ```text
/// first difference at byte 9 of 14 (expected) and 17 (got):
///   expected {"a":1,"b":2.0}
///   got      {"a":1,"b":2.00001}
///                     ^
/// ```
pub fn first_difference(expected: &str, actual: &str) -> String {
    let at = expected
        .bytes()
        .zip(actual.bytes())
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()));
    // The window starts and the marker sits on character boundaries; a
    // difference inside a multi-byte character marks that character.
    let mut mark = at;
    while !expected.is_char_boundary(mark) || !actual.is_char_boundary(mark) {
        mark -= 1;
    }
    let start = expected[..mark]
        .char_indices()
        .rev()
        .nth(WINDOW_BEFORE - 1)
        .map_or(0, |(i, _)| i);
    let side = |text: &str| {
        let mut out = String::new();
        if start > 0 {
            out.push('…');
        }
        let mut col = usize::from(start > 0);
        let mut mark_col = None;
        let mut shown = 0usize;
        for (i, c) in text[start..].char_indices() {
            if start + i >= mark && mark_col.is_none() {
                mark_col = Some(col);
            }
            if mark_col.is_some() {
                shown += 1;
                if shown > WINDOW_AFTER {
                    out.push('…');
                    break;
                }
            }
            let piece = match c {
                '\n' => "\\n".to_owned(),
                '\r' => "\\r".to_owned(),
                '\t' => "\\t".to_owned(),
                c if c.is_control() => c.escape_unicode().to_string(),
                c => c.to_string(),
            };
            col += piece.chars().count();
            out.push_str(&piece);
        }
        (out, mark_col.unwrap_or(col))
    };
    let (e, col) = side(expected);
    let (a, _) = side(actual);
    let end = |t: &str| if t.len() == at { " (ends here)" } else { "" };
    format!(
        "first difference at byte {at} (expected is {} bytes, got {}):\n  expected {e}{}\n  got      {a}{}\n           {}^",
        expected.len(),
        actual.len(),
        end(expected),
        end(actual),
        " ".repeat(col)
    )
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
            op: ptc_conformance::ops::find("tool.new").expect("tool.new is an op"),
            args: Vec::new(),
            args_json: "[]".into(),
            expect: Expect::Ok(expect),
            description: String::new(),
            spec: Vec::new(),
            features: Vec::new(),
            level: Level::Required,
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

    #[test]
    fn the_first_difference_is_marked_in_a_window() {
        let e = format!(
            "{{\"pad\":\"{}\",\"v\":1.0e4,\"tail\":\"{}\"}}",
            "x".repeat(100),
            "y".repeat(100)
        );
        let a = e.replace("1.0e4", "10000.0");
        let text = first_difference(&e, &a);
        let at = e.find("1.0e4").unwrap() + 1;
        assert!(
            text.starts_with(&format!("first difference at byte {at} ")),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let (exp, got, marker) = (lines[1], lines[2], lines[3]);
        assert!(
            exp.starts_with("  expected …") && exp.ends_with('…'),
            "{text}"
        );
        assert!(exp.chars().count() < 90, "the window is short: {text}");
        let col = marker.chars().count() - 1;
        assert_eq!(marker.trim(), "^");
        assert_eq!(exp.chars().nth(col), Some('.'), "{text}");
        assert_eq!(got.chars().nth(col), Some('0'), "{text}");
        let before = |l: &str| l.chars().skip(11).take(col - 11).collect::<String>();
        assert_eq!(before(exp), before(got), "the same text up to the marker");
    }

    #[test]
    fn escapes_and_multibyte_characters_keep_the_marker_aligned() {
        let text = first_difference("a\nbé1", "a\nbé2");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  expected a\\nbé1");
        assert_eq!(lines[3].chars().count() - 1, lines[1].chars().count() - 1);
        // A difference inside a multi-byte character marks the character.
        let text = first_difference("é", "è");
        assert!(text.starts_with("first difference at byte 1 "), "{text}");
        assert_eq!(text.lines().nth(3), Some("           ^"));
        // One text is a prefix of the other.
        let text = first_difference("abc", "abcd");
        assert!(text.contains("expected abc (ends here)"), "{text}");
        assert_eq!(text.lines().nth(3), Some("              ^"));
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
