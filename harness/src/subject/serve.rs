//! `ptc-conformance adapter`: the reference served over adapter protocol v1
//! on stdin/stdout, so any harness can use it as the oracle, answering as
//! one release (`--release`, v0.13.0 by default) and saying which in its
//! `hello` (`"release"`, AP-2).

use crate::subject::reference::Reference;
use crate::subject::wire;
use crate::subject::{Answer, Request};
use ptc_conformance::tagged;
use ptc_conformance::{Release, Term};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// A request, its arguments decoded in place (no second pass over them).
struct RequestLine<'a> {
    id: u64,
    op: Cow<'a, str>,
    args: Option<Term>,
}

impl<'de: 'a, 'a> Deserialize<'de> for RequestLine<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = RequestLine<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a request object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RequestLine<'a>, A::Error> {
                let (mut id, mut op, mut args) = (None, None, None);
                while let Some(k) = map.next_key::<Cow<'de, str>>()? {
                    match &*k {
                        "id" if id.is_none() => id = Some(map.next_value()?),
                        "op" if op.is_none() => op = Some(map.next_value::<Cow<'de, str>>()?),
                        "args" if args.is_none() => {
                            args = Some(map.next_value_seed(tagged::Seed("/args"))?)
                        }
                        other => {
                            return Err(de::Error::custom(format!("unexpected key {other:?}")))
                        }
                    }
                }
                Ok(RequestLine {
                    id: id.ok_or_else(|| de::Error::custom("no \"id\""))?,
                    op: op.ok_or_else(|| de::Error::custom("no \"op\""))?,
                    args,
                })
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The `hello` answer of the reference at `rel`: the ops `rel` has, and
/// `"release"` (an extra field, which protocol v1 readers ignore).
pub fn hello_answer(rel: Release) -> Answer {
    let list = |items: Vec<String>| {
        ptc_conformance::Term::List(items.into_iter().map(ptc_conformance::Term::Str).collect())
    };
    Answer::Ok(ptc_conformance::Term::map(vec![
        (
            ptc_conformance::Term::str("name"),
            ptc_conformance::Term::str("ptc-conformance-reference"),
        ),
        (
            ptc_conformance::Term::str("version"),
            ptc_conformance::Term::str(env!("CARGO_PKG_VERSION")),
        ),
        (
            ptc_conformance::Term::str("language"),
            ptc_conformance::Term::str("rust"),
        ),
        (
            ptc_conformance::Term::str("protocol"),
            ptc_conformance::Term::int(wire::PROTOCOL),
        ),
        (
            ptc_conformance::Term::str("ops"),
            list(
                ptc_conformance::ops::at(rel)
                    .map(|o| o.name.to_owned())
                    .collect(),
            ),
        ),
        (
            ptc_conformance::Term::str("release"),
            ptc_conformance::Term::str(rel.version()),
        ),
        (
            ptc_conformance::Term::str("extensions"),
            list(vec!["atoms".to_owned()]),
        ),
        (
            ptc_conformance::Term::str("features"),
            list(
                ptc_conformance::features::ALL
                    .iter()
                    .map(|f| (*f).to_owned())
                    .collect(),
            ),
        ),
    ]))
}

/// Answers one request line as `reference` does; `None` after `bye`.
/// Lines it cannot read get an `unsupported` answer when their id is
/// readable, else a note on stderr.
pub fn answer_line(reference: &Reference, line: &[u8], out: &mut String) -> Option<()> {
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(_) => {
            reject(line, "request line is not UTF-8", out);
            return Some(());
        }
    };
    let req: RequestLine = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            reject(
                line,
                &format!("cannot decode request: {}", tagged::clean(e)),
                out,
            );
            return Some(());
        }
    };
    let id = req.id.to_string();
    let answer = match (&*req.op, req.args) {
        ("bye", _) => return None,
        ("hello", _) => hello_answer(reference.release),
        ("atoms", Some(Term::List(args))) if args.is_empty() => {
            let table = crate::subject::Subject::atoms(&mut { *reference });
            match table {
                Some(Ok(names)) => Answer::Ok(ptc_conformance::Term::List(
                    names.into_iter().map(ptc_conformance::Term::Str).collect(),
                )),
                _ => Answer::Unsupported("no atom table".into()),
            }
        }
        (op, Some(Term::List(args))) => reference.answer(Request::new(op, &args)),
        (_, Some(_)) => {
            Answer::Unsupported("cannot decode request: \"args\" is not an array".into())
        }
        (_, None) => Answer::Unsupported("cannot decode request: no \"args\"".into()),
    };
    wire::push_answer(out, &id, &answer);
    Some(())
}

fn reject(line: &[u8], why: &str, out: &mut String) {
    match wire::sniff_id(line) {
        Some(id) => wire::push_answer(out, &id.to_string(), &Answer::Unsupported(why.to_owned())),
        None => eprintln!("ptc-conformance adapter: ignoring a line without a readable id: {why}"),
    }
}

/// Serves the reference at `rel` on requests from `input` to `output`
/// until `bye` or end of input.
pub fn serve(rel: Release, input: impl Read, output: impl Write) -> io::Result<()> {
    let reference = Reference::at(rel);
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut writer = BufWriter::with_capacity(1 << 16, output);
    let mut line = Vec::new();
    let mut out = String::new();
    loop {
        if reader.buffer().is_empty() {
            // Nothing more is waiting: let the answers so far go out.
            writer.flush()?;
        }
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return writer.flush();
        }
        let trimmed = line.strip_suffix(b"\n").unwrap_or(&line);
        let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
        if trimmed.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        out.clear();
        let go_on = answer_line(&reference, trimmed, &mut out);
        writer.write_all(out.as_bytes())?;
        if go_on.is_none() {
            return writer.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> String {
        session_at(Release::default(), input)
    }

    fn session_at(rel: Release, input: &str) -> String {
        let mut out = Vec::new();
        serve(rel, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// AP-5, AP-7: bad requests get `unsupported`; `bye` ends the session.
    #[test]
    fn answers_in_order_and_stops_at_bye() {
        let out = session(concat!(
            "{\"id\":1,\"op\":\"key_normalizer.normalize_key\",\"args\":[\"a-b\"]}\n",
            "{\"id\":2,\"op\":\"no.such\",\"args\":[]}\n",
            "{\"id\":3,\"op\":\"key_normalizer.normalize_key\",\"args\":[{\"$atm\":1}]}\n",
            "{\"id\":4,\"op\":\"bye\"}\n",
            "{\"id\":5,\"op\":\"key_normalizer.normalize_key\",\"args\":[\"x\"]}\n",
        ));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], r#"{"id":1,"ok":"a_b"}"#);
        assert_eq!(
            lines[1],
            r#"{"id":2,"unsupported":"unknown op \"no.such\""}"#
        );
        assert!(lines[2]
            .starts_with(r#"{"id":3,"unsupported":"cannot decode request: /args/0: unknown tag"#));
        assert_eq!(lines.len(), 3);
    }

    /// AP-17: a struct served in part is completed by the reference, which
    /// answers v0.13.0's full struct.
    #[test]
    fn partial_structs_are_completed_and_answered_whole() {
        let out = session(concat!(
            "{\"id\":1,\"op\":\"tool.new\",\"args\":[\"t\",",
            "{\"$struct\":{\"module\":\"PtcRunner.Tool\",\"fields\":{\"name\":\"x\"}}}]}\n",
        ));
        assert_eq!(
            out.trim_end(),
            r#"{"id":1,"ok":{"$tuple":[{"$atom":"ok"},{"$struct":{"module":"PtcRunner.Tool","fields":{"cache":false,"description":null,"expose":null,"function":null,"name":"x","native_result":null,"signature":null,"type":null,"visibility":{"$atom":"public"}}}}]}}"#
        );
    }

    /// AP-2: the reference's handshake.
    #[test]
    fn hello_declares_every_op() {
        let out = session("{\"id\":0,\"op\":\"hello\",\"args\":[{\"protocol\":1}]}\n");
        let (_, answer) = wire::parse_answer(out.trim_end()).unwrap();
        let hello = wire::read_hello(&answer).unwrap();
        assert_eq!(hello.ops.len(), ptc_conformance::ops::OPS.len());
        assert!(out.contains(r#""release":"0.13.0""#), "{out}");
        assert_eq!(hello.extensions, std::collections::BTreeSet::from(["atoms".to_owned()]));
    }

    /// AP-19: `atoms` answers the release's atom table, which differs
    /// between releases by the names the boundary's modules brought.
    #[test]
    fn atoms_answers_the_release_table() {
        let table = |rel| {
            let out = session_at(rel, "{\"id\":1,\"op\":\"atoms\",\"args\":[]}\n");
            let (_, answer) = wire::parse_answer(out.trim_end()).unwrap();
            crate::subject::read_atoms(answer).unwrap()
        };
        let (old, new) = (table(Release::V0_12_0), table(Release::V0_13_0));
        assert!(new.contains(&"prelude_trace".to_owned()), "{}", new.len());
        assert!(!old.contains(&"prelude_trace".to_owned()));
        assert!(old.len() > 8000, "{}", old.len());
        let out = session("{\"id\":2,\"op\":\"atoms\",\"args\":[1]}\n");
        assert!(out.contains("unsupported"), "{out}");
    }

    /// AP-18, REL-3, REL-1: `adapter --release 0.12.0`: its `hello` says the release and leaves
    /// out the op v0.12.0 lacks (TL-14); a v1 reader still reads it; a
    /// struct field v0.12.0 lacks is declined, and `tool.new` answers
    /// v0.12.0's struct (REL-1).
    #[test]
    fn serves_an_older_release() {
        let out = session_at(
            Release::V0_12_0,
            concat!(
                "{\"id\":0,\"op\":\"hello\",\"args\":[{\"protocol\":1}]}\n",
                "{\"id\":1,\"op\":\"tool.private?\",\"args\":[",
                "{\"$struct\":{\"module\":\"PtcRunner.Tool\",\"fields\":{}}}]}\n",
                "{\"id\":2,\"op\":\"tool.new\",\"args\":[\"t\",",
                "{\"$struct\":{\"module\":\"PtcRunner.Tool\",\"fields\":{\"visibility\":{\"$atom\":\"public\"}}}}]}\n",
                "{\"id\":3,\"op\":\"tool.new\",\"args\":[\"t\",{\"$atom\":\"self\"}]}\n",
            ),
        );
        let lines: Vec<&str> = out.lines().collect();
        let (_, answer) = wire::parse_answer(lines[0]).unwrap();
        let hello = wire::read_hello(&answer).unwrap();
        assert_eq!(hello.ops.len(), ptc_conformance::ops::OPS.len() - 1);
        assert!(!hello.ops.contains("tool.private?"));
        assert!(lines[0].contains(r#""release":"0.12.0""#), "{}", lines[0]);
        assert!(
            lines[1].starts_with(r#"{"id":1,"unsupported":"#),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with(r#"{"id":2,"unsupported":"cannot decode args: "#)
                && lines[2].contains("visibility"),
            "{}",
            lines[2]
        );
        assert!(!lines[3].contains("visibility"), "{}", lines[3]);
        assert!(
            lines[3].contains(r#""type":{"$atom":"subagent"}"#),
            "{}",
            lines[3]
        );
    }
}
