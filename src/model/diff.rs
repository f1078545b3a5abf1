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
        let (e, a) = (
            self.expected.as_deref().map(short_bytes),
            self.actual.as_deref().map(short_bytes),
        );
        match (e, a) {
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
        .map(|d| match string_window(d).or_else(|| bytes_window(d)) {
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
    Some(indent(&first_difference(&e, &a)))
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where two binaries of a difference first differ, one of them not UTF-8
/// (a `$bytes`), indented under it: byte by byte, escaped.
fn bytes_window(d: &Difference) -> Option<String> {
    let binary = |s: &Option<String>| -> Option<(Vec<u8>, bool)> {
        match crate::tagged::decode_str(s.as_deref()?, "").ok()? {
            Term::Bytes(b) => Some((b, true)),
            Term::Str(s) => Some((s.into_bytes(), false)),
            _ => None,
        }
    };
    let ((e, e_raw), (a, a_raw)) = (binary(&d.expected)?, binary(&d.actual)?);
    (e_raw || a_raw).then(|| indent(&first_byte_difference(&e, &a)))
}

/// Bytes of a binary shown before the rest is cut.
pub const SHORT_BYTES: usize = 32;

/// A binary that is not UTF-8, as a failure shows it: its length and its
/// first [`SHORT_BYTES`] bytes, escaped (`\xFF`), instead of its base64.
///
/// ```text
/// $bytes of 40960 bytes: "GIF89a\x01\x00\xFF…"
/// ```
pub fn bytes_view(b: &[u8]) -> String {
    let mut out = String::new();
    for &byte in b.iter().take(SHORT_BYTES) {
        out.push_str(&escape_byte(byte));
    }
    let more = if b.len() > SHORT_BYTES { "…" } else { "" };
    format!("$bytes of {} bytes: \"{out}{more}\"", b.len())
}

/// `text` (tagged JSON) with every `{"$bytes":"..."}` in it shown as
/// [`bytes_view`]: a failure never prints a binary's base64.
pub fn short_bytes(text: &str) -> std::borrow::Cow<'_, str> {
    use base64::Engine as _;
    if !text.contains("{\"$bytes\":") {
        return std::borrow::Cow::Borrowed(text);
    }
    let tag = regex::Regex::new(r#"\{"\$bytes":"([A-Za-z0-9+/=]*)"\}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    tag.replace_all(text, |c: &regex::Captures<'_>| {
        match base64::engine::general_purpose::STANDARD.decode(&c[1]) {
            Ok(b) => bytes_view(&b),
            Err(_) => c[0].to_owned(),
        }
    })
}

/// A term's tagged JSON as a failure shows it ([`short_bytes`]).
pub fn shown(t: &Term) -> String {
    short_bytes(&encode(t)).into_owned()
}

/// One byte as the byte views show it: printable ASCII as itself (`\` and
/// `"` escaped), `\n`, `\r`, `\t`, anything else `\xHH`.
fn escape_byte(b: u8) -> String {
    match b {
        b'\n' => "\\n".to_owned(),
        b'\r' => "\\r".to_owned(),
        b'\t' => "\\t".to_owned(),
        b'\\' => "\\\\".to_owned(),
        b'"' => "\\\"".to_owned(),
        0x20..=0x7e => char::from(b).to_string(),
        _ => format!("\\x{b:02X}"),
    }
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
    let at = first_differing_byte(expected.as_bytes(), actual.as_bytes());
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
    let units = |text: &str| -> Vec<(usize, String)> {
        text[start..]
            .char_indices()
            .take(WINDOW_BEFORE + WINDOW_AFTER + 1)
            .map(|(i, c)| (start + i, escape_char(c)))
            .collect()
    };
    window(
        (&units(expected), expected.len()),
        (&units(actual), actual.len()),
        at,
        mark,
        start,
    )
}

/// [`first_difference`] for two binaries, byte by byte: the offset of the
/// first differing byte, a window of both with every byte that is not
/// printable ASCII escaped (`\xFF`), and the marker under it.
///
/// ```text
/// first difference at byte 4 (expected is 6 bytes, got 6):
///   expected GIF8\xFF\x00
///   got      GIF8\xFE\x00
///                ^
/// ```
pub fn first_byte_difference(expected: &[u8], actual: &[u8]) -> String {
    let at = first_differing_byte(expected, actual);
    let start = at.saturating_sub(WINDOW_BEFORE);
    let units = |b: &[u8]| -> Vec<(usize, String)> {
        b.iter()
            .enumerate()
            .skip(start)
            .take(WINDOW_BEFORE + WINDOW_AFTER + 1)
            .map(|(i, &byte)| (i, escape_byte(byte)))
            .collect()
    };
    window(
        (&units(expected), expected.len()),
        (&units(actual), actual.len()),
        at,
        at,
        start,
    )
}

fn first_differing_byte(expected: &[u8], actual: &[u8]) -> usize {
    expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()))
}

fn escape_char(c: char) -> String {
    match c {
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        '\t' => "\\t".to_owned(),
        c if c.is_control() => c.escape_unicode().to_string(),
        c => c.to_string(),
    }
}

/// The window of [`first_difference`] and [`first_byte_difference`]: each
/// side's units (offset, shown text) from `start`, the marker under the
/// unit at `mark`, `at` the first differing byte.
fn window(
    expected: (&[(usize, String)], usize),
    actual: (&[(usize, String)], usize),
    at: usize,
    mark: usize,
    start: usize,
) -> String {
    let side = |units: &[(usize, String)]| {
        let mut out = String::new();
        if start > 0 {
            out.push('…');
        }
        let mut col = usize::from(start > 0);
        let mut mark_col = None;
        let mut shown = 0usize;
        for (offset, piece) in units {
            if *offset >= mark && mark_col.is_none() {
                mark_col = Some(col);
            }
            if mark_col.is_some() {
                shown += 1;
                if shown > WINDOW_AFTER {
                    out.push('…');
                    break;
                }
            }
            col += piece.chars().count();
            out.push_str(piece);
        }
        (out, mark_col.unwrap_or(col))
    };
    let (e, col) = side(expected.0);
    let (a, _) = side(actual.0);
    let end = |len: usize| if len == at { " (ends here)" } else { "" };
    format!(
        "first difference at byte {at} (expected is {} bytes, got {}):\n  expected {e}{}\n  got      {a}{}\n           {}^",
        expected.1,
        actual.1,
        end(expected.1),
        end(actual.1),
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

    /// A binary that is not UTF-8 shows as a short escaped view, never its
    /// base64, and where it first differs byte by byte.
    #[test]
    fn binaries_show_escaped_with_their_first_differing_byte() {
        let mut e = vec![b'a'; 40_000];
        e.extend([0xFF, 0x00, b'"']);
        e.extend(vec![b'z'; 20_000]);
        let mut a = e.clone();
        a[40_000] = 0xFE;
        let text = render(&diff(
            &Term::List(vec![Term::Bytes(e.clone())]),
            &Term::List(vec![Term::Bytes(a)]),
        ));
        assert!(text.len() < 600, "{} bytes: {text}", text.len());
        assert!(!text.contains("YWFh"), "no base64: {text}");
        let lines: Vec<&str> = text.lines().collect();
        let view = format!("$bytes of 60003 bytes: \"{}…\"", "a".repeat(32));
        assert_eq!(lines[0], format!("/0: expected {view}, got {view}"));
        assert_eq!(
            lines[1],
            "  first difference at byte 40000 (expected is 60003 bytes, got 60003):"
        );
        let col = lines[4].chars().count() - 1;
        assert_eq!(lines[4].trim(), "^", "{text}");
        let at = |l: &str| l.chars().skip(col).take(4).collect::<String>();
        assert_eq!(at(lines[2]), "\\xFF", "{text}");
        assert_eq!(at(lines[3]), "\\xFE", "{text}");
        assert!(lines[2].contains("\\xFF\\x00\\\"zzz"), "{text}");
        assert!(lines[2].starts_with("    expected …aaa") && lines[2].ends_with('…'));
        // A string against a binary: the string's UTF-8 bytes, the same window.
        let text = render(&diff(
            &Term::Str("abc".into()),
            &Term::Bytes(vec![b'a', b'b', 0xC3]),
        ));
        assert_eq!(
            text,
            "/: expected \"abc\", got $bytes of 3 bytes: \"ab\\xC3\"\n  \
             first difference at byte 2 (expected is 3 bytes, got 3):\n    \
             expected abc\n    got      ab\\xC3\n               ^"
        );
        // Nested binaries in a whole term are shown the same way.
        let t = Term::Tuple(vec![Term::Bytes(vec![0xFF; 100]), Term::Str("s".into())]);
        assert_eq!(
            shown(&t),
            format!(
                "{{\"$tuple\":[$bytes of 100 bytes: \"{}…\",\"s\"]}}",
                "\\xFF".repeat(32)
            )
        );
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
