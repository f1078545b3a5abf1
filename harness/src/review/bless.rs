//! `ptc-conformance bless`: recompute case expectations from the reference
//! (or from an adapter), show what would change, and with `--write` change
//! only the `expect` value of each file, leaving every other byte as it was.

use crate::corpus::{Case, Expect};
use crate::judging::judge::judge;
use crate::judging::outcome::{Outcome, Strictness};
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::tagged;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt::Write as _;

/// What blessing one case found.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The expectation stands.
    Same,
    /// The expectation would become `new_text` (the `expect` value as JSON).
    Update {
        /// The `expect` value written now.
        old_text: String,
        /// The `expect` value it would become.
        new_text: String,
    },
    /// No expectation could be taken: the source did not answer properly.
    Problem(String),
}

/// Recomputes the expectation of each case from `source`.
pub fn recompute(source: &mut dyn Subject, cases: &[&Case]) -> Vec<Change> {
    let requests: Vec<Request<'_>> = cases
        .iter()
        .map(|c| Request::new(c.op.name, &c.args))
        .collect();
    let answers = source.call_many(&requests);
    cases
        .iter()
        .zip(answers)
        .map(
            |(case, answer)| match judge(case, &answer, Strictness::Strict) {
                // An expected exception without its message is filled in:
                // messages are compared, never the class alone.
                Outcome::Pass if !lacks_message(&case.expect, &answer) => Change::Same,
                _ => match new_expect(&answer) {
                    Ok(new_text) => Change::Update {
                        old_text: expect_text(&case.expect),
                        new_text,
                    },
                    Err(why) => Change::Problem(why),
                },
            },
        )
        .collect()
}

fn lacks_message(expect: &Expect, answer: &Answer) -> bool {
    matches!(
        (expect, answer),
        (Expect::Raised { message: None, .. }, Answer::Raised(_))
    )
}

/// The `expect` value (compact JSON) that `answer` implies; an exception
/// always carries its message.
pub fn new_expect(answer: &Answer) -> Result<String, String> {
    Ok(match answer {
        Answer::Ok(t) => format!("{{\"ok\":{}}}", tagged::encode(t)),
        Answer::Raised(r) => {
            let mut s = String::from("{\"raised\":{\"class\":");
            tagged::push_json_str(&r.class, &mut s);
            s.push_str(",\"message\":");
            tagged::push_json_str(&r.message, &mut s);
            s.push_str("}}");
            s
        }
        Answer::Unsupported(why) => return Err(format!("the source declined the case: {why}")),
        Answer::Error(why) => return Err(format!("the source gave no valid answer: {why}")),
    })
}

fn expect_text(e: &Expect) -> String {
    match e {
        Expect::Ok(t) => format!("{{\"ok\":{}}}", tagged::encode(t)),
        Expect::Raised { class, message } => {
            let mut s = String::from("{\"raised\":{\"class\":");
            tagged::push_json_str(class, &mut s);
            if let Some(m) = message {
                s.push_str(",\"message\":");
                tagged::push_json_str(m, &mut s);
            }
            s.push_str("}}");
            s
        }
    }
}

#[derive(Deserialize)]
struct ExpectSpan<'a> {
    #[serde(borrow)]
    expect: &'a RawValue,
}

/// `text` with its top-level `expect` value replaced by `new_compact`,
/// indented like the rest of the file (2 spaces a level, as the corpus is
/// written). Every other byte stays.
pub fn replace_expect(text: &str, new_compact: &str) -> Result<String, String> {
    let span: ExpectSpan =
        serde_json::from_str(text).map_err(|e| format!("cannot find expect: {e}"))?;
    let raw = span.expect.get();
    let start = raw.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + raw.len();
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[line_start..].len() - text[line_start..].trim_start().len();
    let pretty = pretty(new_compact, indent).map_err(|e| format!("new expectation: {e}"))?;
    Ok(format!("{}{}{}", &text[..start], pretty, &text[end..]))
}

/// Re-indents compact JSON `json` as `json.dump(indent=2)` writes it, starting
/// at `base` spaces, keeping every scalar's text as it is.
pub fn pretty(json: &str, base: usize) -> Result<String, String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let _ = v; // validated; the text below is rewritten token by token
    let mut out = String::new();
    let mut depth = base / 2;
    let mut chars = json.chars().peekable();
    let nl = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == '"' {
                        break;
                    }
                }
            }
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    chars.next();
                    out.push(c);
                    out.push(close);
                } else {
                    out.push(c);
                    depth += 1;
                    nl(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                nl(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(',');
                nl(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A readable line diff of two `expect` values.
pub fn show(old_text: &str, new_text: &str) -> String {
    let old = pretty(old_text, 0).unwrap_or_else(|_| old_text.to_owned());
    let new = pretty(new_text, 0).unwrap_or_else(|_| new_text.to_owned());
    let mut s = String::new();
    for change in similar::TextDiff::from_lines(&old, &new).iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
            similar::ChangeTag::Equal => ' ',
        };
        let _ = write!(s, "  {sign} {}", change.value());
        if !change.value().ends_with('\n') {
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_expect_value_changes() {
        let text = "{\n  \"id\": \"a/b\",\n  \"args\": [1],\n  \"expect\": {\n    \"ok\": 1\n  },\n  \"notes\": \"keep   me\"\n}\n";
        let out = replace_expect(text, r#"{"ok":{"$tuple":[1,{"$float":1.0e4}]}}"#).unwrap();
        assert_eq!(
            out,
            "{\n  \"id\": \"a/b\",\n  \"args\": [1],\n  \"expect\": {\n    \"ok\": {\n      \"$tuple\": [\n        1,\n        {\n          \"$float\": 1.0e4\n        }\n      ]\n    }\n  },\n  \"notes\": \"keep   me\"\n}\n"
        );
    }

    #[test]
    fn strings_with_brackets_and_escapes_are_kept() {
        assert_eq!(
            pretty(r#"{"ok":"a,[\"]}"}"#, 0).unwrap(),
            "{\n  \"ok\": \"a,[\\\"]}\"\n}"
        );
        assert_eq!(pretty(r#"{"ok":[]}"#, 0).unwrap(), "{\n  \"ok\": []\n}");
    }
}
