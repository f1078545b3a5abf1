//! Path-level differences between an expected and an actual term, the way
//! a failing case explains itself: `/1/"n": expected 1, got {"$float":1.0}`;
//! under a difference of long strings or binaries, where they first differ
//! (`window`, whose functions are re-exported here).

use crate::tagged::encode;
use crate::term::{map_key_cmp, Map, Term};
use std::fmt;

mod window;
pub use window::{
    bytes_view, first_byte_difference, first_difference, short_bytes, shown, SHORT_BYTES,
};

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
