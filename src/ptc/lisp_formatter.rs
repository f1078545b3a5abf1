//! `PtcRunner.Lisp.Formatter`: renders a PTC-Lisp AST as source text
//! (`spec/lisp_formatter.md`, `LF-`). The native preview's `cache_hint`
//! uses it for the argument fragment of its `(tool/...)` example.

use crate::elixir::enumerable;
use crate::term::Term;
use crate::{chars, Raised, Release};

const MODULE: &str = "PtcRunner.Lisp.Formatter";

/// `format/1`: the source text of an AST node, as a binary.
///
/// Raises `FunctionClauseError` for a term that is no AST node, and passes
/// on what the pieces raise (`String.Chars` for names, `Enumerable` for
/// element lists, `ArgumentError` for a float too long to print), as
/// release `rel` does: its clauses are those of `rel` (REL-6).
pub fn format(rel: Release, ast: &Term) -> Result<Term, Raised> {
    let mut out = Vec::new();
    node(rel, ast, &mut out)?;
    Ok(Term::binary(out))
}

/// Appends the text of one AST node (the clauses of `format/1`).
fn node(rel: Release, ast: &Term, out: &mut Vec<u8>) -> Result<(), Raised> {
    match ast {
        // LF-1: nil, booleans, and integers of any size.
        Term::Nil => out.extend_from_slice(b"nil"),
        Term::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Term::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
        // LF-2, LF-3, LF-4: the float form of `float_to_binary(x, [:compact, decimals: 10])`.
        Term::Float(x) => {
            out.extend_from_slice(crate::num::float_to_binary_compact_10(*x)?.as_bytes())
        }
        // LF-5: the three special atoms; any other atom is no node (LF-12).
        Term::Atom(a) => match a.as_str() {
            "infinity" => out.extend_from_slice(b"##Inf"),
            "negative_infinity" => out.extend_from_slice(b"##-Inf"),
            "nan" => out.extend_from_slice(b"##NaN"),
            _ => return Err(no_clause()),
        },
        Term::Tuple(items) => tagged_node(rel, items, out)?,
        // LF-12: any other term is no AST node.
        _ => return Err(no_clause()),
    }
    Ok(())
}

/// The tuple nodes: `{:string, s}`, `{:keyword, k}`, `{:vector, elems}`, ...
fn tagged_node(rel: Release, items: &[Term], out: &mut Vec<u8>) -> Result<(), Raised> {
    let (tag, arg) = match items {
        [Term::Atom(tag), arg] => (tag.as_str(), arg),
        // LF-8: `{:ns_symbol, ns, n}` → `ns/n`.
        [Term::Atom(tag), ns, key] if tag == "ns_symbol" => {
            out.extend(chars::to_string(rel, ns)?);
            out.push(b'/');
            out.extend(chars::to_string(rel, key)?);
            return Ok(());
        }
        _ => return Err(no_clause()),
    };
    // REL-6: the reader-macro clauses came in v0.13.0; before, these nodes
    // match no clause.
    if READER_MACROS.contains(&tag) && !rel.since(Release::V0_13_0) {
        return Err(no_clause());
    }
    let (open, close): (&[u8], &[u8]) = match tag {
        "string" => (b"\"", b"\""),
        "regex_literal" => (b"#\"", b"\""),
        "keyword" => (b":", b""),
        "symbol" => (b"", b""),
        "quoted_symbol" => (b"'", b""),
        "var" => (b"#'", b""),
        "turn_history" => (b"*", b""),
        "vector" => (b"[", b"]"),
        "map" => (b"{", b"}"),
        "set" => (b"#{", b"}"),
        "list" => (b"(", b")"),
        "short_fn" => (b"#(", b")"),
        _ => return Err(no_clause()),
    };
    // Each piece is computed before anything is written, as interpolation does.
    let body = match tag {
        "string" | "regex_literal" => escape_string(arg)?,
        // LF-6, LF-7: strings and regex literals escaped; LF-8: names through `to_string/1`
        // (LF-9) unescaped; LF-11: map pairs; LF-10: element lists (LF-14: a reducer).
        "keyword" | "symbol" | "quoted_symbol" | "var" | "turn_history" => {
            chars::to_string(rel, arg)?
        }
        "map" => format_pairs(rel, arg)?,
        _ => format_list(rel, arg)?,
    };
    out.extend_from_slice(open);
    out.extend(body);
    out.extend_from_slice(close);
    Ok(())
}

/// Elements joined by one space (`Enum.map_join(elems, " ", &format/1)`).
fn format_list(rel: Release, elems: &Term) -> Result<Vec<u8>, Raised> {
    enumerable::map_join(elems, b" ", |e| {
        let mut out = Vec::new();
        node(rel, e, &mut out)?;
        Ok(out)
    })
}

/// `k v` pairs joined by one space; every element must be a 2-tuple
/// (`Enum.map_join(pairs, " ", fn {k, v} -> ... end)`).
fn format_pairs(rel: Release, pairs: &Term) -> Result<Vec<u8>, Raised> {
    // LF-11: every element must be a 2-tuple.
    enumerable::map_join(pairs, b" ", |p| {
        let [k, v] = match p {
            Term::Tuple(kv) if kv.len() == 2 => [&kv[0], &kv[1]],
            _ => {
                return Err(Raised::function_clause_in(&format!(
                    "anonymous fn/1 in {MODULE}.format_pairs/1"
                )))
            }
        };
        let mut out = Vec::new();
        node(rel, k, &mut out)?;
        out.push(b' ');
        node(rel, v, &mut out)?;
        Ok(out)
    })
}

/// A non-binary raises `FunctionClauseError` from `String.replace/4`.
fn escape_string(s: &Term) -> Result<Vec<u8>, Raised> {
    let bytes = s
        .as_binary()
        .ok_or_else(|| Raised::function_clause("String", "replace", 4))?;
    let mut out = Vec::with_capacity(bytes.len());
    // LF-6: exactly five escapes; everything else raw (Quirk).
    for &b in bytes {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
    Ok(out)
}

/// The reader-macro nodes v0.13.0's formatter added clauses for (REL-6):
/// `#(...)`, `#"re"`, `'sym`, `#'sym` and `*n`.
const READER_MACROS: [&str; 5] = [
    "short_fn",
    "regex_literal",
    "quoted_symbol",
    "var",
    "turn_history",
];

fn no_clause() -> Raised {
    Raised::function_clause(MODULE, "format", 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::decode_str;

    fn fmt(rel: Release, json: &str) -> Result<String, (String, String)> {
        let ast = decode_str(json, "").expect("test terms decode");
        match format(rel, &ast) {
            Ok(t) => Ok(String::from_utf8_lossy(t.as_binary().expect("a binary")).into_owned()),
            Err(r) => Err((r.class, r.message)),
        }
    }

    /// REL-6, as each release's build answers: the reader-macro nodes
    /// render from v0.13.0 on and match no clause before.
    #[test]
    fn reader_macro_clauses_came_in_0_13_0() {
        let nodes = [
            (r#"{"$tuple": [{"$atom": "var"}, "x"]}"#, "#'x"),
            (r#"{"$tuple": [{"$atom": "quoted_symbol"}, "x"]}"#, "'x"),
            (
                r#"{"$tuple": [{"$atom": "short_fn"}, [{"$tuple": [{"$atom": "symbol"}, "inc"]}, 1]]}"#,
                "#(inc 1)",
            ),
            (
                r#"{"$tuple": [{"$atom": "regex_literal"}, "a\"b"]}"#,
                "#\"a\\\"b\"",
            ),
            (r#"{"$tuple": [{"$atom": "turn_history"}, 1]}"#, "*1"),
        ];
        for (node, text) in nodes {
            assert_eq!(fmt(Release::V0_13_0, node), Ok(text.to_owned()), "{node}");
            for rel in [Release::V0_11_0, Release::V0_12_0] {
                assert_eq!(
                    fmt(rel, node),
                    Err((
                        "FunctionClauseError".to_owned(),
                        "no function clause matching in PtcRunner.Lisp.Formatter.format/1"
                            .to_owned()
                    )),
                    "{rel} {node}"
                );
            }
        }
        // The nodes every release has are unchanged.
        for rel in Release::ALL {
            assert_eq!(
                fmt(rel, r#"{"$tuple": [{"$atom": "keyword"}, "k"]}"#),
                Ok(":k".into())
            );
        }
    }

    /// REL-7: a display struct as a name interpolates through
    /// `String.Chars`, which v0.11.0 lacks for it.
    #[test]
    fn display_structs_interpolate_from_0_12_0() {
        let node = r#"{"$tuple": [{"$atom": "symbol"}, {"$struct": {"module": "PtcRunner.Lisp.Format.Var", "fields": {"name": "v"}}}]}"#;
        assert_eq!(fmt(Release::V0_12_0, node), Ok("#'v".into()));
        assert_eq!(fmt(Release::V0_13_0, node), Ok("#'v".into()));
        let (class, message) = fmt(Release::V0_11_0, node).expect_err("no String.Chars in v0.11.0");
        assert_eq!(class, "Protocol.UndefinedError");
        assert!(
            message.starts_with(
                "protocol String.Chars not implemented for type PtcRunner.Lisp.Format.Var (a struct). \
                 This protocol is implemented for the following type(s): Atom, BitString, Date, \
                 DateTime, Float, Integer, List, NaiveDateTime, Time, URI, Version, Version.Requirement"
            ),
            "{message}"
        );
    }
}
