//! Adapter protocol v1 messages (`spec/adapter_protocol.md`): writing requests and
//! reading answers, shared by the harness's client and the reference's own
//! adapter.

use crate::quote;
use crate::subject::Answer;
use ptc_conformance::tagged::{self, push_json_str};
use ptc_conformance::{Raised, Release, Term};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::fmt::{self, Write as _};

/// The protocol version this harness speaks.
pub const PROTOCOL: i64 = 1;

/// Appends a request line (with its newline) for `op` and pre-encoded `args_json`.
pub fn push_request(out: &mut String, id: u64, op: &str, args_json: &str) {
    let _ = write!(out, "{{\"id\":{id},\"op\":");
    push_json_str(op, out);
    out.push_str(",\"args\":");
    out.push_str(args_json);
    out.push_str("}\n");
}

/// The tagged JSON array of `args`.
pub fn encode_args(args: &[Term]) -> String {
    let mut out = String::from("[");
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        tagged::encode_into(a, &mut out);
    }
    out.push(']');
    out
}

/// The `hello` request line.
pub fn hello_line(id: u64) -> String {
    format!("{{\"id\":{id},\"op\":\"hello\",\"args\":[{{\"protocol\":{PROTOCOL}}}]}}\n")
}

/// The `bye` request line.
pub fn bye_line(id: u64) -> String {
    format!("{{\"id\":{id},\"op\":\"bye\"}}\n")
}

/// Appends an answer line (with its newline).
pub fn push_answer(out: &mut String, id: &str, answer: &Answer) {
    let _ = write!(out, "{{\"id\":{id},");
    match answer {
        Answer::Ok(t) => {
            out.push_str("\"ok\":");
            tagged::encode_into(t, out);
        }
        Answer::Raised(r) => {
            out.push_str("\"raised\":{\"class\":");
            push_json_str(&r.class, out);
            out.push_str(",\"message\":");
            push_json_str(&r.message, out);
            out.push('}');
        }
        Answer::Unsupported(why) | Answer::Error(why) => {
            out.push_str("\"unsupported\":");
            push_json_str(why, out);
        }
    }
    out.push_str("}\n");
}

/// An answer line that could not be read, and the id if one was readable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// The id the line carried, when it could be read.
    pub id: Option<u64>,
    /// What is wrong.
    pub message: String,
}

enum Body {
    Ok(Term),
    Raised(RaisedBody),
    Unsupported(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RaisedBody {
    class: String,
    message: String,
}

struct AnswerLine {
    id: Option<u64>,
    body: Option<Body>,
}

impl<'de> Deserialize<'de> for AnswerLine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AnswerLine;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an answer object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnswerLine, A::Error> {
                let mut line = AnswerLine {
                    id: None,
                    body: None,
                };
                while let Some(k) = map.next_key::<&str>()? {
                    let body = match k {
                        "id" if line.id.is_none() => {
                            line.id = Some(map.next_value()?);
                            continue;
                        }
                        // Decoded in place: no second pass over the term's text.
                        "ok" => Body::Ok(map.next_value_seed(tagged::Seed("/ok"))?),
                        "raised" => Body::Raised(map.next_value()?),
                        "unsupported" => Body::Unsupported(map.next_value()?),
                        "id" => return Err(de::Error::custom("duplicated key \"id\"")),
                        other => return Err(de::Error::custom(format!("unknown key {other:?}"))),
                    };
                    if line.body.is_some() {
                        return Err(de::Error::custom(
                            "more than one of ok, raised, unsupported",
                        ));
                    }
                    line.body = Some(body);
                }
                Ok(line)
            }
        }
        d.deserialize_map(V)
    }
}

/// Reads the id at the start of a line that is otherwise unreadable
/// (`{"id": 12, ...`), so its case can be told what went wrong.
pub fn sniff_id(line: &[u8]) -> Option<u64> {
    let s = std::str::from_utf8(&line[..line.len().min(64)])
        .ok()
        .or_else(|| {
            let end = (0..line.len().min(64))
                .rev()
                .find(|&i| std::str::from_utf8(&line[..i]).is_ok())?;
            std::str::from_utf8(&line[..end]).ok()
        })?;
    let rest = s
        .trim_start()
        .strip_prefix('{')?
        .trim_start()
        .strip_prefix("\"id\"")?
        .trim_start()
        .strip_prefix(':')?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Parses one answer line into its id and answer.
pub fn parse_answer(line: &str) -> Result<(u64, Answer), BadLine> {
    let parsed: AnswerLine = serde_json::from_str(line).map_err(|e| BadLine {
        id: sniff_id(line.as_bytes()),
        message: format!("not a valid answer line: {}", quote::line(&e.to_string())),
    })?;
    let id = parsed.id.ok_or_else(|| BadLine {
        id: None,
        message: "answer has no \"id\"".into(),
    })?;
    let bad = |message: String| BadLine {
        id: Some(id),
        message,
    };
    let answer = match parsed.body {
        None => return Err(bad("answer has none of ok, raised, unsupported".into())),
        Some(Body::Ok(t)) => Answer::Ok(t),
        Some(Body::Raised(r)) => Answer::Raised(Raised {
            class: r.class,
            message: r.message,
        }),
        Some(Body::Unsupported(why)) => Answer::Unsupported(why),
    };
    Ok((id, answer))
}

/// What an adapter says of itself in its `hello` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// Implementation name.
    pub name: String,
    /// Implementation version.
    pub version: String,
    /// Implementation language.
    pub language: String,
    /// Ops it supports.
    pub ops: BTreeSet<String>,
    /// Features it supports.
    pub features: BTreeSet<String>,
    /// The PtcRunner release it implements, when its hello names one
    /// (AP-18); `None`: it says nothing, and is judged at the release
    /// asked for (0.13.0 by default).
    pub release: Option<Release>,
    /// The protocol extensions it lists (AP-19); empty when it lists none.
    pub extensions: BTreeSet<String>,
}

/// Checks a `hello` answer.
pub fn read_hello(answer: &Answer) -> Result<Hello, String> {
    let m = match answer {
        Answer::Ok(Term::Map(m)) => m,
        Answer::Ok(other) => {
            return Err(format!(
                "hello answer must be an object, got {}",
                quote::line(&tagged::encode(other))
            ))
        }
        Answer::Raised(r) => {
            return Err(format!(
                "hello raised {}",
                quote::line(&format!("{}: {}", r.class, r.message))
            ))
        }
        Answer::Unsupported(why) | Answer::Error(why) => {
            return Err(format!("hello failed: {}", quote::line(why)))
        }
    };
    let text = |k: &str| match m.get_str(k) {
        Some(Term::Str(s)) => Ok(s.clone()),
        _ => Err(format!("hello answer needs a string {k:?}")),
    };
    let list = |k: &str| -> Result<BTreeSet<String>, String> {
        match m.get_str(k) {
            Some(Term::List(items)) => items
                .iter()
                .map(|i| match i {
                    Term::Str(s) => Ok(s.clone()),
                    _ => Err(format!("hello {k:?} must list strings")),
                })
                .collect(),
            _ => Err(format!("hello answer needs a list {k:?}")),
        }
    };
    match m.get_str("protocol") {
        Some(Term::Int(ptc_conformance::Int::Small(PROTOCOL))) => {}
        other => {
            return Err(format!(
                "adapter speaks protocol {}, this harness speaks {PROTOCOL}",
                other
                    .map(|t| quote::line(&tagged::encode(t)))
                    .unwrap_or_else(|| "(none)".into())
            ))
        }
    }
    let release = match m.get_str("release") {
        None => None,
        Some(Term::Str(s)) => Some(
            s.parse::<Release>()
                .map_err(|e| format!("hello names a release the kit does not know: {e}"))?,
        ),
        Some(other) => {
            return Err(format!(
                "hello \"release\" must be a string such as \"0.12.0\", got {}",
                quote::line(&tagged::encode(other))
            ))
        }
    };
    let extensions = match m.get_str("extensions") {
        None => BTreeSet::new(),
        Some(_) => list("extensions")?,
    };
    Ok(Hello {
        name: text("name")?,
        version: text("version")?,
        language: text("language")?,
        ops: list("ops")?,
        features: list("features")?,
        release,
        extensions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AP-3, AP-4: requests and answers, read strictly.
    #[test]
    fn answers_parse_strictly() {
        assert_eq!(
            parse_answer(r#"{"id": 3, "ok": {"$atom": "x"}}"#),
            Ok((3, Answer::Ok(Term::atom("x"))))
        );
        assert_eq!(
            parse_answer(r#"{"id":3,"ok":null}"#),
            Ok((3, Answer::Ok(Term::Nil)))
        );
        assert_eq!(
            parse_answer(r#"{"id": 4, "raised": {"class": "ArgumentError", "message": "m"}}"#),
            Ok((4, Answer::Raised(Raised::argument("m"))))
        );
        assert_eq!(
            parse_answer(r#"{"id": 5, "unsupported": "no"}"#),
            Ok((5, Answer::Unsupported("no".into())))
        );
        assert_eq!(parse_answer(r#"{"id": 6}"#).unwrap_err().id, Some(6));
        assert_eq!(
            parse_answer(r#"{"id": 7, "ok": 1, "unsupported": "x"}"#)
                .unwrap_err()
                .id,
            Some(7)
        );
        assert_eq!(
            parse_answer(r#"{"id": 8, "ok": {"$atm": "x"}}"#)
                .unwrap_err()
                .message,
            "not a valid answer line: /ok: unknown tag \"$atm\" at line 1 column 23"
        );
        assert_eq!(parse_answer("garbage").unwrap_err().id, None);
        assert_eq!(parse_answer(r#"{"ok": 1}"#).unwrap_err().id, None);
    }

    #[test]
    fn ids_are_sniffed_from_broken_lines() {
        assert_eq!(sniff_id(br#"{"id": 12, "ok": [1, 2"#), Some(12));
        assert_eq!(sniff_id(b"xx"), None);
    }

    #[test]
    fn answer_lines_round_trip() {
        let mut s = String::new();
        push_answer(&mut s, "9", &Answer::Ok(Term::tuple(vec![Term::int(1)])));
        assert_eq!(s, "{\"id\":9,\"ok\":{\"$tuple\":[1]}}\n");
        assert_eq!(
            parse_answer(s.trim_end()),
            Ok((9, Answer::Ok(Term::tuple(vec![Term::int(1)]))))
        );
    }
}
