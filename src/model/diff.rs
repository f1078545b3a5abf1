//! Path-level differences between an expected and an actual term, the way
//! a failing case explains itself: `/1/"n": expected 1, got {"$float":1.0}`.

use crate::tagged::encode;
use crate::term::{map_key_cmp, Map, Term};
use std::fmt;

/// One step of a path into a term.
#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    /// An element of a list or tuple.
    Index(usize),
    /// The value under a map key.
    Key(Term),
    /// A field of a struct of `module`.
    Field {
        /// The struct's module.
        module: String,
        /// The field's name.
        name: String,
    },
}

impl Segment {
    /// The segment as a path shows it: `1`, `"k"`, `{"$atom":"k"}`, `.field`.
    pub fn text(&self) -> String {
        match self {
            Segment::Index(i) => i.to_string(),
            Segment::Key(k) => key_segment(k),
            Segment::Field { name, .. } => format!(".{name}"),
        }
    }
}

/// One place where two terms differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Where: `/` for the root, `/1` for an index, `/"k"` for a string key,
    /// `/{"$atom":"k"}` for another key, `/.field` for a struct field.
    pub path: String,
    /// The same place, step by step (for grouping differences by place).
    pub segments: Vec<Segment>,
    /// What the expectation has there (tagged JSON), `None` when missing.
    pub expected: Option<String>,
    /// What the implementation gave there (tagged JSON), `None` when missing.
    pub actual: Option<String>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => write!(f, "{path}: expected {e}, got {a}"),
            (Some(e), None) => write!(f, "{path}: missing, expected {e}"),
            (None, Some(a)) => write!(f, "{path}: unexpected, got {a}"),
            (None, None) => write!(f, "{path}: differs"),
        }
    }
}

/// At most this many differences are listed; the rest are counted.
pub const MAX_DIFFERENCES: usize = 20;

/// The differences between `expected` and `actual` (empty when equal).
pub fn diff(expected: &Term, actual: &Term) -> Vec<Difference> {
    let mut out = Vec::new();
    walk(expected, actual, &mut Vec::new(), &mut out);
    out
}

/// The term at `path` in `t`, if there is one.
pub fn at<'t>(t: &'t Term, path: &[Segment]) -> Option<&'t Term> {
    let Some((first, rest)) = path.split_first() else {
        return Some(t);
    };
    let inner = match (first, t) {
        (Segment::Index(i), Term::List(xs) | Term::Tuple(xs)) => xs.get(*i),
        (Segment::Key(k), Term::Map(m)) => value_under(m, k),
        (Segment::Field { name, .. }, Term::Struct(s)) => s.field(name),
        _ => None,
    }?;
    at(inner, rest)
}

fn difference(path: &[Segment], expected: Option<&Term>, actual: Option<&Term>) -> Difference {
    Difference {
        path: path.iter().map(|s| format!("/{}", s.text())).collect(),
        segments: path.to_vec(),
        expected: expected.map(encode),
        actual: actual.map(encode),
    }
}

/// Strings longer than this (in characters, on either side) that differ
/// get [`first_difference`]'s window under their line; shorter ones read
/// whole at a glance.
pub const SHORT_STRING: usize = 16;

/// The differences, one per line, at most [`MAX_DIFFERENCES`]; under a
/// difference between two strings, one of them longer than
/// [`SHORT_STRING`], where they first differ ([`first_difference`],
/// indented).
pub fn render(diffs: &[Difference]) -> String {
    let mut lines: Vec<String> = diffs
        .iter()
        .take(MAX_DIFFERENCES)
        .map(|d| match string_window(d) {
            Some(window) => format!("{d}\n{window}"),
            None => d.to_string(),
        })
        .collect();
    if diffs.len() > MAX_DIFFERENCES {
        lines.push(format!(
            "... and {} more differences",
            diffs.len() - MAX_DIFFERENCES
        ));
    }
    lines.join("\n")
}

/// Where two long strings of a difference first differ, indented under it.
fn string_window(d: &Difference) -> Option<String> {
    let string = |s: &Option<String>| -> Option<String> {
        let s = s.as_deref().filter(|s| s.starts_with('"'))?;
        serde_json::from_str(s).ok()
    };
    let (e, a) = (string(&d.expected)?, string(&d.actual)?);
    if e.chars().count().max(a.chars().count()) <= SHORT_STRING {
        return None;
    }
    let text = first_difference(&e, &a);
    Some(
        text.lines()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

fn key_segment(k: &Term) -> String {
    match k {
        Term::Str(s) => {
            let mut q = String::new();
            crate::tagged::push_json_str(s, &mut q);
            q
        }
        other => encode(other),
    }
}

/// Whether two terms are written alike: equal (`=:=`), and with the same
/// tagged JSON, which tells `-0.0` from `0.0`.
fn same(e: &Term, a: &Term) -> bool {
    e == a && encode(e) == encode(a)
}

fn walk(e: &Term, a: &Term, path: &mut Vec<Segment>, out: &mut Vec<Difference>) {
    if same(e, a) {
        return;
    }
    match (e, a) {
        (Term::List(xs), Term::List(ys)) | (Term::Tuple(xs), Term::Tuple(ys)) => {
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                path.push(Segment::Index(i));
                walk(x, y, path, out);
                path.pop();
            }
            for (i, x) in xs.iter().enumerate().skip(ys.len()) {
                path.push(Segment::Index(i));
                out.push(difference(path, Some(x), None));
                path.pop();
            }
            for (i, y) in ys.iter().enumerate().skip(xs.len()) {
                path.push(Segment::Index(i));
                out.push(difference(path, None, Some(y)));
                path.pop();
            }
        }
        (Term::Map(xm), Term::Map(ym)) => walk_maps(xm, ym, path, out),
        (Term::Struct(xs), Term::Struct(ys)) if xs.module == ys.module => {
            let field = |name: &str| Segment::Field {
                module: xs.module.clone(),
                name: name.to_owned(),
            };
            for (name, x) in &xs.fields {
                path.push(field(name));
                match ys.field(name) {
                    Some(y) => walk(x, y, path, out),
                    None => out.push(difference(path, Some(x), None)),
                }
                path.pop();
            }
            for (name, y) in &ys.fields {
                if xs.field(name).is_none() {
                    path.push(field(name));
                    out.push(difference(path, None, Some(y)));
                    path.pop();
                }
            }
        }
        _ => out.push(difference(path, Some(e), Some(a))),
    }
}

/// The value under a key written exactly as `k`: map lookup alone would
/// take `0.0` for `-0.0` (one key to the VM, two texts to the judge).
fn value_under<'a>(m: &'a Map, k: &Term) -> Option<&'a Term> {
    let i = m
        .pairs()
        .binary_search_by(|(q, _)| map_key_cmp(q, k))
        .ok()?;
    let (q, v) = &m.pairs()[i];
    same(q, k).then_some(v)
}

fn walk_maps(xm: &Map, ym: &Map, path: &mut Vec<Segment>, out: &mut Vec<Difference>) {
    for (k, x) in xm.iter() {
        path.push(Segment::Key(k.clone()));
        match value_under(ym, k) {
            Some(y) => walk(x, y, path, out),
            _ => out.push(difference(path, Some(x), None)),
        }
        path.pop();
    }
    for (k, y) in ym.iter() {
        if value_under(xm, k).is_none() {
            path.push(Segment::Key(k.clone()));
            out.push(difference(path, None, Some(y)));
            path.pop();
        }
    }
}

/// Characters of context shown before and after the first difference.
const WINDOW_BEFORE: usize = 24;
const WINDOW_AFTER: usize = 40;

/// The byte offset of the first difference between two texts and a short
/// window of each around it, with a marker under the first differing byte
/// (control characters escaped so the marker lines up). The one home of
/// this window: the strict level's byte comparison of rendered JSON and
/// [`render`]'s long strings both use it.
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

/// Reads plain JSON (not tagged) as a term: objects become string-keyed
/// maps, integers integers and other numbers floats. Used to compare
/// rendered JSON payloads structurally.
pub fn plain_json_to_term(v: &serde_json::Value) -> Term {
    use serde_json::Value;
    match v {
        Value::Null => Term::Nil,
        Value::Bool(b) => Term::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => Term::int(i),
            (None, Some(u), _) => Term::Int(crate::Int::from(num_bigint::BigInt::from(u))),
            (_, _, Some(f)) => Term::Float(f),
            _ => Term::Nil,
        },
        Value::String(s) => Term::Str(s.clone()),
        Value::Array(items) => Term::List(items.iter().map(plain_json_to_term).collect()),
        Value::Object(obj) => Term::map(
            obj.iter()
                .map(|(k, v)| (Term::Str(k.clone()), plain_json_to_term(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::decode_str;

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

    fn d(e: &str, a: &str) -> Vec<String> {
        let e = decode_str(e, "").unwrap();
        let a = decode_str(a, "").unwrap();
        diff(&e, &a).iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn equal_terms_have_no_difference() {
        assert!(d(r#"{"a": [1, 2]}"#, r#"{"a": [1, 2]}"#).is_empty());
    }

    #[test]
    fn differences_name_their_path() {
        assert_eq!(
            d(
                r#"{"$tuple": ["t", {"n": 1}]}"#,
                r#"{"$tuple": ["t", {"n": {"$float": 1.0}}]}"#
            ),
            vec![r#"/1/"n": expected 1, got {"$float":1.0}"#]
        );
        assert_eq!(
            d(r#"{"a": 1, "b": 2}"#, r#"{"a": 1, "c": 2}"#),
            vec![r#"/"b": missing, expected 2"#, r#"/"c": unexpected, got 2"#]
        );
        assert_eq!(
            d("[1, 2, 3]", "[1]"),
            vec!["/1: missing, expected 2", "/2: missing, expected 3"]
        );
        assert_eq!(
            d(r#"{"$atom": "a"}"#, r#""a""#),
            vec![r#"/: expected {"$atom":"a"}, got "a""#]
        );
        assert_eq!(
            d(
                r#"{"$map": [[{"$atom": "k"}, 1]]}"#,
                r#"{"$map": [[{"$atom": "k"}, 2]]}"#
            ),
            vec![r#"/{"$atom":"k"}: expected 1, got 2"#]
        );
    }

    /// A long string that differs shows where, at any level: the offset, a
    /// window of both and a marker under the first differing character.
    #[test]
    fn long_strings_show_their_first_difference() {
        let long = |tail: &str| format!("{}{tail}{}", "a".repeat(60), "z".repeat(60));
        let (e, a) = (Term::Str(long("X")), Term::Str(long("Y")));
        let text = render(&diff(&Term::List(vec![e]), &Term::List(vec![a])));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("/0: expected \"aaa"), "{text}");
        assert_eq!(
            lines[1],
            "  first difference at byte 60 (expected is 121 bytes, got 121):"
        );
        let col = lines[4].chars().count() - 1;
        assert_eq!(lines[4].trim(), "^", "{text}");
        assert_eq!(lines[2].chars().nth(col), Some('X'), "{text}");
        assert_eq!(lines[3].chars().nth(col), Some('Y'), "{text}");
        // Short strings read whole; no window.
        let short = render(&diff(&Term::Str("ab".into()), &Term::Str("ac".into())));
        assert_eq!(short, r#"/: expected "ab", got "ac""#);
    }

    #[test]
    fn signed_zero_is_a_difference() {
        assert_eq!(d(r#"{"$float": -0.0}"#, r#"{"$float": 0.0}"#).len(), 1);
        assert_eq!(
            d(
                r#"{"$map": [[{"$tuple": [{"$float": -0.0}]}, 1]]}"#,
                r#"{"$map": [[{"$tuple": [{"$float": 0.0}]}, 1]]}"#
            ),
            vec![
                r#"/{"$tuple":[{"$float":-0.0}]}: missing, expected 1"#,
                r#"/{"$tuple":[{"$float":0.0}]}: unexpected, got 1"#
            ]
        );
    }
}
