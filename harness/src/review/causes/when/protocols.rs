//! What a `Protocol.UndefinedError` says of the build that raised it: the
//! struct a protocol is not implemented for, and the types it is
//! implemented for. A release that implements a protocol for more structs
//! shows in both: the older build raises naming a struct of the input,
//! and any such message either build writes (an `#Inspect.Error<...>`
//! text, a rendered error) lists more types on one side. Both name the
//! change outright, the way a struct's fields name a field one build lacks.

use crate::subject::Answer;
use ptc_conformance::loose::{map_bytes, map_strings};
use ptc_conformance::term::Term;
use std::collections::{BTreeMap, BTreeSet};

const LIST: &str = "implemented for the following type(s): ";

/// The protocol and the struct module a raised `Protocol.UndefinedError`
/// names (`protocol String.Chars not implemented for type M (a struct)`,
/// or Elixir before 1.18: `... for %M{...} of type M (a struct)`).
pub fn missing(a: &Answer) -> Option<(String, String)> {
    let Answer::Raised(r) = a else { return None };
    if r.class != "Protocol.UndefinedError" {
        return None;
    }
    let rest = r.message.strip_prefix("protocol ")?;
    let (protocol, rest) = rest.split_once(" not implemented for ")?;
    let before = &rest[..rest.find(" (a struct)")?];
    let module = &before[before.rfind("type ")? + "type ".len()..];
    let plain = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    (plain(protocol) && plain(module)).then(|| (protocol.to_owned(), module.to_owned()))
}

/// Every protocol and struct module an answer says a protocol is missing
/// for, in any of its texts: a raised `Protocol.UndefinedError` (as
/// [`missing`] reads it), and the same words quoted by another message or
/// held in a string (an `#Inspect.Error<...>` that a message or a result
/// quotes, when inspecting a struct called a protocol it lacks). Each pair
/// once, in the order met.
pub fn missing_in(a: &Answer) -> Vec<(String, String)> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"protocol (\S+) not implemented for (?:type |[^\n]*? of type )(\S+) \(a struct\)",
        )
        .unwrap_or_else(|e| panic!("{e}"))
    });
    let mut out: Vec<(String, String)> = missing(a).into_iter().collect();
    for text in &texts(a, " not implemented for ") {
        for c in re.captures_iter(text) {
            let pair = (c[1].to_owned(), c[2].to_owned());
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
    }
    out
}

/// Every protocol whose implementations an answer's texts list (its
/// message, its strings and other binaries, at any depth), with the types
/// listed (the union when several texts list one protocol).
pub fn lists(a: &Answer) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"protocol (\S+) not implemented for ").unwrap_or_else(|e| panic!("{e}"))
    });
    for text in texts(a, LIST) {
        let starts: Vec<(usize, &str)> = re
            .captures_iter(&text)
            .filter_map(|c| Some((c.get(0)?.end(), c.get(1)?.as_str())))
            .collect();
        for (n, &(at, protocol)) in starts.iter().enumerate() {
            let end = starts.get(n + 1).map_or(text.len(), |s| s.0);
            let rest = &text[at..end];
            let Some(list) = rest.find(LIST).map(|i| &rest[i + LIST.len()..]) else {
                continue;
            };
            let list = &list[..list.find(['\n', '\\', '"']).unwrap_or(list.len())];
            let types = list
                .split(", ")
                .map(str::to_owned)
                .filter(|t| !t.is_empty());
            out.entry(protocol.to_owned()).or_default().extend(types);
        }
    }
    out
}

/// The answer with every list of implementations in it masked, so that
/// two answers which differ only there compare alike.
pub fn masked(a: &Answer) -> Answer {
    fn mask(s: &str) -> Option<String> {
        s.contains(LIST).then(|| {
            let mut out = String::with_capacity(s.len());
            let mut rest = s;
            while let Some(i) = rest.find(LIST) {
                out.push_str(&rest[..i + LIST.len()]);
                out.push('_');
                let tail = &rest[i + LIST.len()..];
                rest = &tail[tail.find(['\n', '\\', '"']).unwrap_or(tail.len())..];
            }
            out.push_str(rest);
            out
        })
    }
    match a {
        Answer::Ok(t) => {
            let t = map_strings(t, &mask);
            Answer::Ok(map_bytes(&t, &|b| {
                let s = String::from_utf8_lossy(b);
                // Masked as text where the list is; the bytes around it
                // are kept as they were only when they were text.
                s.contains(LIST)
                    .then(|| mask(&s).map(String::into_bytes))
                    .flatten()
            }))
        }
        Answer::Raised(r) => {
            let mut r = r.clone();
            if let Some(m) = mask(&r.message) {
                r.message = m;
            }
            Answer::Raised(r)
        }
        other => other.clone(),
    }
}

/// The texts of an answer that hold `needle`: its message, or its
/// strings and other binaries (read as UTF-8) at any depth, struct
/// fields included.
fn texts(a: &Answer, needle: &str) -> Vec<String> {
    fn walk(t: &Term, needle: &str, out: &mut Vec<String>) {
        match t {
            Term::Str(s) if s.contains(needle) => out.push(s.clone()),
            Term::Bytes(b) => {
                let s = String::from_utf8_lossy(b);
                if s.contains(needle) {
                    out.push(s.into_owned());
                }
            }
            Term::List(xs) | Term::Tuple(xs) => xs.iter().for_each(|x| walk(x, needle, out)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                walk(k, needle, out);
                walk(v, needle, out);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| walk(v, needle, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match a {
        Answer::Ok(t) => walk(t, needle, &mut out),
        Answer::Raised(r) if r.message.contains(needle) => out.push(r.message.clone()),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::raised::Raised;

    fn raised(message: &str) -> Answer {
        Answer::Raised(Raised {
            class: "Protocol.UndefinedError".into(),
            message: message.into(),
        })
    }

    #[test]
    fn the_struct_a_protocol_is_missing_for_is_read_in_both_message_forms() {
        let new = raised("protocol String.Chars not implemented for type A.B (a struct). This protocol is implemented for the following type(s): Atom\n\nGot value:\n\n    %A.B{}\n");
        let old = raised("protocol Jason.Encoder not implemented for %A.B{x: 1} of type A.B (a struct), Jason.Encoder protocol must always be explicitly implemented");
        assert_eq!(missing(&new), Some(("String.Chars".into(), "A.B".into())));
        assert_eq!(missing(&old), Some(("Jason.Encoder".into(), "A.B".into())));
        assert_eq!(missing(&raised("protocol Enumerable not implemented for type Integer. This protocol is implemented for the following type(s): List")), None);
    }

    #[test]
    fn a_missing_protocol_is_read_where_a_message_or_a_text_quotes_it() {
        // A MatchError quoting an inspected struct whose inspect failed.
        let quoted = Answer::Raised(Raised {
            class: "MatchError".into(),
            message: "no match of right hand side value: #Inspect.Error<\n  got Protocol.UndefinedError with message:\n\n      \"\"\"\n      protocol String.Chars not implemented for type P.Fn (a struct). This protocol is implemented for the following type(s): Atom\n".into(),
        });
        assert_eq!(
            missing(&quoted),
            None,
            "not a Protocol.UndefinedError itself"
        );
        assert_eq!(
            missing_in(&quoted),
            vec![("String.Chars".into(), "P.Fn".into())]
        );
        // The older form, inside a result's string, and the raised one.
        let text = Answer::Ok(Term::List(vec![Term::str(
            "protocol Jason.Encoder not implemented for %A.B{x: 1} of type A.B (a struct), must",
        )]));
        assert_eq!(
            missing_in(&text),
            vec![("Jason.Encoder".into(), "A.B".into())]
        );
        let new = raised("protocol String.Chars not implemented for type A.B (a struct). x");
        assert_eq!(
            missing_in(&new),
            vec![("String.Chars".into(), "A.B".into())]
        );
        // A type that is no struct names nothing to take out.
        let tuple = raised("protocol String.Chars not implemented for type Tuple. This");
        assert!(missing_in(&tuple).is_empty());
    }

    #[test]
    fn lists_are_read_from_nested_texts_and_masked_alike() {
        let a = Answer::Ok(Term::Str("#Inspect.Error<\n  got Protocol.UndefinedError with message:\n\n      \"\"\"\n      protocol String.Chars not implemented for type Map. This protocol is implemented for the following type(s): Atom, F\n\n      Got value:".into()));
        let b = Answer::Ok(Term::Str("#Inspect.Error<\n  got Protocol.UndefinedError with message:\n\n      \"\"\"\n      protocol String.Chars not implemented for type Map. This protocol is implemented for the following type(s): Atom\n\n      Got value:".into()));
        let want: BTreeSet<String> = ["Atom".to_owned(), "F".to_owned()].into();
        assert_eq!(lists(&a).get("String.Chars"), Some(&want));
        assert_ne!(a, b);
        assert_eq!(masked(&a), masked(&b));
        // Escaped in JSON text, the list ends at the escape.
        let json = Answer::Ok(Term::Str(r#"{"m":"protocol P not implemented for type X. This protocol is implemented for the following type(s): A, B\n\nGot"}"#.into()));
        let want: BTreeSet<String> = ["A".to_owned(), "B".to_owned()].into();
        assert_eq!(lists(&json).get("P"), Some(&want));
    }
}
