//! `Jason.encode/1` with default options (Jason 1.4, the JSON library
//! PtcRunner v0.13.0 renders payloads with): the bytes it writes and the
//! terms it refuses.
//!
//! Maps are written in map iteration order, keys that stringify alike are
//! *both* written (Jason's default `maps: :naive` does not check), atom
//! keys and values become strings, integer and float keys their
//! `to_string/1` text, the four calendar structs their ISO 8601 text. Only
//! `"`, `\` and control characters are escaped (`\b \t \n \f \r`, the rest
//! `\u00XX` with upper-case hex).

use crate::errors::{protocol_undefined, Protocol};
use crate::term::Term;
use crate::{Raised, Release};
use std::fmt::Write as _;

/// Encodes `term` as Jason does in release `rel`'s build, or says what
/// Jason would raise.
pub fn encode(rel: Release, term: &Term) -> Result<String, Raised> {
    let mut out = String::new();
    value(rel, term, &mut out)?;
    Ok(out)
}

fn value(rel: Release, term: &Term, out: &mut String) -> Result<(), Raised> {
    match term {
        // PP-40: nil, booleans, atoms, integers, floats (`Float.to_string/1`).
        Term::Nil => out.push_str("null"),
        Term::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Term::Atom(a) => string(a.as_bytes(), out)?,
        Term::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Term::Float(x) => out.push_str(&crate::num::short_float(*x)),
        Term::Str(s) => string(s.as_bytes(), out)?,
        Term::Bytes(b) => string(b, out)?,
        Term::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value(rel, item, out)?;
            }
            out.push(']');
        }
        // PP-42: members in map iteration order; PP-47: encoding in output order.
        Term::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                key(rel, k, out)?;
                out.push(':');
                value(rel, v, out)?;
            }
            out.push('}');
        }
        // PP-43: calendar values as ISO 8601 text.
        Term::Temporal(t) => {
            out.push('"');
            out.push_str(&t.iso);
            out.push('"');
        }
        // `PtcRunner.Lisp.Format`'s display structs have their own encoder
        // from v0.12.0 on (REL-7): the JSON string of their `String.Chars`
        // text. v0.11.0 falls back to `Any`, which refuses every struct.
        Term::Struct(st)
            if rel.since(Release::V0_12_0) && crate::chars::display_struct(rel, st).is_some() =>
        {
            let text = crate::chars::to_string(rel, term)?;
            string(&text, out)?;
        }
        // PP-45: anything else raises `Protocol.UndefinedError` (`Jason.Encoder`).
        other => return Err(protocol_undefined(Protocol::JasonEncoder(rel), other)),
    }
    Ok(())
}

fn key(rel: Release, k: &Term, out: &mut String) -> Result<(), Raised> {
    // PP-42: keys as strings; PP-43: calendar keys by `to_string/1`; PP-46: what
    // `String.Chars` refuses raises.
    match k {
        Term::Str(s) => string(s.as_bytes(), out),
        Term::Bytes(b) => string(b, out),
        _ => match k.as_atom() {
            Some(a) => string(a.as_bytes(), out),
            // Jason's key rule: String.Chars.to_string/1, whose errors raise through.
            None => string(&crate::chars::to_string(rel, k)?, out),
        },
    }
}

fn string(bytes: &[u8], out: &mut String) -> Result<(), Raised> {
    // PP-44: a binary that is not UTF-8 raises `Jason.EncodeError`.
    let s = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let bad = bytes[e.valid_up_to()];
            return Err(crate::errors::raise(
                &crate::elixir::messages::JASON_INVALID_BYTE,
                &[
                    ("byte", &format!("{bad:X}")),
                    ("binary", &crate::inspect::inspect_binary(bytes)),
                ],
            ));
        }
    };
    push_escaped(s, out, true);
    Ok(())
}

/// Appends `s` as a JSON string literal (its one home: Jason's answers
/// and the tagged codec's text both write strings with it): `"`, `\` and control characters
/// escaped (`\b \t \n \f \r`, the rest `\u00xx`, upper-case hex when
/// `upper_hex`, as Jason writes it), everything else as it is.
/// PP-41: the escapes.
pub fn push_escaped(s: &str, out: &mut String, upper_hex: bool) {
    out.push('"');
    // Every byte that needs escaping is ASCII, and no byte of a multi-byte
    // UTF-8 sequence is, so scanning bytes is enough (and fast).
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if !esc.is_empty() {
            out.push_str(esc);
        } else if upper_hex {
            let _ = write!(out, "\\u{b:04X}");
        } else {
            let _ = write!(out, "\\u{b:04x}");
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::decode_str;

    fn enc(json: &str) -> Result<String, Raised> {
        encode(
            Release::default(),
            &decode_str(json, "").expect("test terms decode"),
        )
    }

    #[test]
    fn maps_iterate_in_key_order_and_keep_keys_that_stringify_alike() {
        assert_eq!(
            enc(r#"{"$map": [["a", 1], [{"$atom": "a"}, 2], [1, 3]]}"#).expect("encodable"),
            r#"{"1":3,"a":2,"a":1}"#
        );
    }

    #[test]
    fn escapes_only_quotes_backslashes_and_controls() {
        assert_eq!(
            enc(r#""a\"\\\n\u0001/é\u2028""#).expect("encodable"),
            "\"a\\\"\\\\\\n\\u0001/é\u{2028}\""
        );
    }

    #[test]
    fn refuses_tuples_and_invalid_utf8() {
        let class = |json: &str| enc(json).err().map(|e| e.class);
        assert_eq!(
            class(r#"{"$tuple": [1]}"#).as_deref(),
            Some("Protocol.UndefinedError")
        );
        assert_eq!(
            class(r#"{"$bytes": "/w=="}"#).as_deref(),
            Some("Jason.EncodeError")
        );
    }
}

#[cfg(test)]
mod release_tests {
    use super::*;
    use crate::tagged::decode_str;

    /// REL-7, as each build answers: a display struct encodes as its text
    /// from v0.12.0 on; v0.11.0's `Jason.Encoder` falls back to `Any`.
    #[test]
    fn display_structs_encode_from_0_12_0() {
        let fun = decode_str(
            r#"{"$struct": {"module": "PtcRunner.Lisp.Format.Fn", "fields": {"params": "x"}}}"#,
            "",
        )
        .expect("decodes");
        assert_eq!(encode(Release::V0_12_0, &fun), Ok("\"#fn[x]\"".to_owned()));
        assert_eq!(encode(Release::V0_13_0, &fun), Ok("\"#fn[x]\"".to_owned()));
        let err = encode(Release::V0_11_0, &fun).expect_err("no encoder in v0.11.0");
        assert_eq!(err.class, "Protocol.UndefinedError");
        assert!(
            err.message.starts_with(
                "protocol Jason.Encoder not implemented for type PtcRunner.Lisp.Format.Fn (a struct), \
                 Jason.Encoder protocol must always be explicitly implemented."
            ),
            "{}",
            err.message
        );
        assert!(
            err.message.contains(
                "implemented for the following type(s): Any, Atom, BitString, Date, DateTime, Float, \
                 Integer, Jason.Fragment, Jason.OrderedObject, List, Map, NaiveDateTime, Time\n"
            ),
            "{}",
            err.message
        );
    }
}
