//! `ptc-conformance bless`: recompute case expectations from the reference
//! (or from an adapter) at one release, show what would change, and with
//! `--write` change only the expectation of that release in each file
//! (`expect` at the newest release the case holds for, its
//! `expect_by_release` entry at an older one), leaving every other byte as
//! it was.

use crate::corpus::{Case, Expect};
use crate::judging::judge::{judge_at, judge_expect, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::{tagged, Release};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which expectation of a case a change rewrites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `expect`: the answer at the newest release the case holds for.
    Expect,
    /// `expect_by_release[R]`: set, since R answers otherwise than `expect`.
    Release(Release),
    /// `expect_by_release[R]` removed: R now answers as `expect` says.
    DropRelease(Release),
}

/// What blessing one case found.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// The expectation stands.
    Same,
    /// The expectation at `place` would become `new_text` (an `expect`
    /// value as JSON).
    Update {
        /// Which expectation.
        place: Place,
        /// The expectation the case has now at the release blessed.
        old_text: String,
        /// What it would become.
        new_text: String,
    },
    /// No expectation could be taken: the source did not answer properly.
    Problem(String),
}

/// Recomputes the expectation at `release` of each case from `source`
/// (which answers as `release` does). Every case must hold at `release`.
pub fn recompute(source: &mut dyn Subject, cases: &[&Case], release: Release) -> Vec<Change> {
    let requests: Vec<Request<'_>> = cases
        .iter()
        .map(|c| Request::new(c.op.name, &c.args))
        .collect();
    let answers = source.call_many(&requests);
    cases
        .iter()
        .zip(answers)
        .map(|(case, answer)| change(case, release, &answer))
        .collect()
}

/// What `answer`, the source's at `release`, changes in `case`.
fn change(case: &Case, release: Release, answer: &Answer) -> Change {
    let Some(current) = case.expect_at(release) else {
        return Change::Problem(format!("the case does not hold at {release}"));
    };
    let as_expect = || {
        judge_expect(
            case,
            &case.expect,
            answer,
            Strictness::Strict,
            Reading::WithDefaults(release),
        ) == Outcome::Pass
            && !lacks_message(&case.expect, answer)
    };
    // An entry is kept only where the release answers otherwise than `expect`.
    if release != case.newest() && case.releases.expect.contains_key(&release) && as_expect() {
        return Change::Update {
            place: Place::DropRelease(release),
            old_text: expect_text(current),
            new_text: expect_text(&case.expect),
        };
    }
    // An expected exception without its message is filled in: messages
    // are compared, never the class alone.
    if judge_at(case, release, answer, Strictness::Strict) == Outcome::Pass
        && !lacks_message(current, answer)
    {
        return Change::Same;
    }
    let new_text = match new_expect(answer) {
        Ok(t) => t,
        Err(why) => return Change::Problem(why),
    };
    let place = if release == case.newest() {
        Place::Expect
    } else if as_expect() {
        Place::DropRelease(release)
    } else {
        Place::Release(release)
    };
    Change::Update {
        place,
        old_text: expect_text(current),
        new_text,
    }
}

/// `case`'s file text with `change` (one of [`recompute`]'s) applied.
pub fn apply(case: &Case, place: Place, new_text: &str) -> Result<String, String> {
    let mut by: BTreeMap<Release, String> = case
        .releases
        .expect
        .iter()
        .map(|(r, e)| (*r, expect_text(e)))
        .collect();
    match place {
        Place::Expect => return replace_expect(&case.source, new_text),
        Place::Release(r) => {
            by.insert(r, new_text.to_owned());
        }
        Place::DropRelease(r) => {
            by.remove(&r);
        }
    }
    replace_by_release(&case.source, &by)
}

/// Whether `expect` is an exception without its message that `answer` can fill.
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

/// An expectation as compact JSON, as a case file's `expect` holds it.
pub fn expect_text(e: &Expect) -> String {
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
    #[serde(borrow, default)]
    expect_by_release: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ReleasesSpan<'a> {
    #[serde(borrow)]
    expect: &'a RawValue,
    #[serde(borrow, default)]
    releases: Option<&'a RawValue>,
}

/// `case`'s file as it reads at `release` alone: `expect` is its answer
/// there, `releases` names only it, no `expect_by_release`; `None` when the
/// case does not hold there. What `export --release` writes, for a reader
/// of `expect` alone.
pub fn at_release(case: &Case, release: Release) -> Result<Option<String>, String> {
    let Some(expect) = case.expect_at(release) else {
        return Ok(None);
    };
    let text = replace_expect(&case.source, &expect_text(expect))?;
    let text = replace_by_release(&text, &BTreeMap::new())?;
    let spans: ReleasesSpan =
        serde_json::from_str(&text).map_err(|e| format!("cannot find expect: {e}"))?;
    let list = format!("[\"{release}\"]");
    Ok(Some(match spans.releases {
        Some(raw) => {
            let (start, end) = span(&text, raw);
            format!("{}{list}{}", &text[..start], &text[end..])
        }
        None => {
            let (_, end) = span(&text, spans.expect);
            format!("{},\n  \"releases\": {list}{}", &text[..end], &text[end..])
        }
    }))
}

/// Where `raw`, a slice of `text`, starts and ends in it.
fn span(text: &str, raw: &RawValue) -> (usize, usize) {
    let start = raw.get().as_ptr() as usize - text.as_ptr() as usize;
    (start, start + raw.get().len())
}

/// `text` with its `expect_by_release` made `by` (compact `expect` values
/// by release, oldest first): replaced where it is, added after `expect`
/// when absent, removed (with its key) when `by` is empty. Every other byte
/// stays.
pub fn replace_by_release(text: &str, by: &BTreeMap<Release, String>) -> Result<String, String> {
    let spans: ExpectSpan =
        serde_json::from_str(text).map_err(|e| format!("cannot find expect: {e}"))?;
    let mut compact = String::from("{");
    for (i, (r, e)) in by.iter().enumerate() {
        if i > 0 {
            compact.push(',');
        }
        let _ = write!(compact, "\"{r}\":{e}");
    }
    compact.push('}');
    let (e_start, e_end) = span(text, spans.expect);
    let line_start = text[..e_start].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[line_start..].len() - text[line_start..].trim_start().len();
    match spans.expect_by_release {
        Some(raw) => {
            let (start, end) = span(text, raw);
            if by.is_empty() {
                // The key, and the comma before it (or after it, when first).
                let key = text[..start]
                    .rfind("\"expect_by_release\"")
                    .ok_or("cannot find the key expect_by_release")?;
                let before = text[..key].trim_end();
                if let Some(comma) = before.strip_suffix(',') {
                    Ok(format!("{}{}", comma, &text[end..]))
                } else {
                    let after = text[end..].trim_start();
                    let after = after.strip_prefix(',').unwrap_or(after).trim_start();
                    Ok(format!("{}{}", &text[..key], after))
                }
            } else {
                let pretty =
                    pretty(&compact, indent).map_err(|e| format!("expect_by_release: {e}"))?;
                Ok(format!("{}{}{}", &text[..start], pretty, &text[end..]))
            }
        }
        None if by.is_empty() => Ok(text.to_owned()),
        None => {
            let pretty = pretty(&compact, indent).map_err(|e| format!("expect_by_release: {e}"))?;
            Ok(format!(
                "{},\n{}\"expect_by_release\": {}{}",
                &text[..e_end],
                " ".repeat(indent),
                pretty,
                &text[e_end..]
            ))
        }
    }
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

#[cfg(test)]
mod release_tests {
    use super::*;

    const CASE: &str =
        "{\n  \"id\": \"a/b\",\n  \"expect\": {\n    \"ok\": 1\n  },\n  \"notes\": \"n\"\n}\n";

    /// `expect_by_release` is added after `expect`, replaced in place, and
    /// removed with its key; nothing else moves.
    #[test]
    fn per_release_expectations_are_added_replaced_and_removed() {
        let one = BTreeMap::from([(Release::V0_12_0, r#"{"ok":2}"#.to_owned())]);
        let added = replace_by_release(CASE, &one).unwrap();
        assert_eq!(
            added,
            "{\n  \"id\": \"a/b\",\n  \"expect\": {\n    \"ok\": 1\n  },\n  \"expect_by_release\": {\n    \"0.12.0\": {\n      \"ok\": 2\n    }\n  },\n  \"notes\": \"n\"\n}\n"
        );
        let two = BTreeMap::from([
            (Release::V0_12_0, r#"{"ok":2}"#.to_owned()),
            (Release::V0_11_0, r#"{"ok":3}"#.to_owned()),
        ]);
        let replaced = replace_by_release(&added, &two).unwrap();
        let v: serde_json::Value = serde_json::from_str(&replaced).unwrap();
        assert_eq!(v["expect_by_release"]["0.11.0"]["ok"], 3);
        assert!(
            replaced.find("0.11.0") < replaced.find("0.12.0"),
            "oldest first"
        );
        assert_eq!(
            replace_by_release(&replaced, &BTreeMap::new()).unwrap(),
            CASE
        );
        // Last key: the comma before it goes.
        let last = "{\n  \"expect\": {\n    \"ok\": 1\n  },\n  \"expect_by_release\": {\n    \"0.12.0\": {\n      \"ok\": 2\n    }\n  }\n}\n";
        assert_eq!(
            replace_by_release(last, &BTreeMap::new()).unwrap(),
            "{\n  \"expect\": {\n    \"ok\": 1\n  }\n}\n"
        );
    }
}
