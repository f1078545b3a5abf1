//! Answers and arguments as a person reads them in a report: one line
//! each, long strings and binaries cut with their length, deep and long
//! terms elided (the full input is in the written case). [`answer_text`]
//! is the same text uncut: what `PTC_FUZZ_KNOWN` patterns are matched
//! against.

use crate::subject::Answer;
use ptc_conformance::tagged;
use ptc_conformance::term::Term;

/// Characters of a string shown before it is cut.
const STRING_CHARS: usize = 48;
/// Characters of a top-level string or message shown before it is cut.
const TEXT_CHARS: usize = 160;
/// Elements of a list, tuple or map shown before the rest is elided.
const ITEMS: usize = 8;
/// Nesting shown before deeper terms are elided.
const DEPTH: usize = 6;

/// An answer, uncut: `ok <tagged JSON>` (a string answer verbatim between
/// quotes), `raised <Class>: <message verbatim>`, `unsupported: <why>`,
/// `error: <what>`.
pub fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Ok(Term::Str(s)) => format!("ok \"{s}\""),
        Answer::Ok(t) => format!("ok {}", tagged::encode(t)),
        Answer::Raised(r) => format!("raised {}: {}", r.class, r.message),
        Answer::Unsupported(w) => format!("unsupported: {w}"),
        Answer::Error(e) => format!("error: {e}"),
    }
}

/// An answer on one line as [`answer_text`] writes it, abbreviated, with
/// line breaks and tabs shown as `\n` and `\t`.
pub fn answer_line(a: &Answer) -> String {
    match a {
        Answer::Ok(Term::Str(s)) => format!("ok \"{}\"", cut(&one_line(s), TEXT_CHARS)),
        Answer::Ok(t) => format!("ok {}", term_line(t)),
        Answer::Raised(r) => format!(
            "raised {}: {}",
            r.class,
            cut(&one_line(&r.message), TEXT_CHARS)
        ),
        other => cut(&one_line(&answer_text(other)), TEXT_CHARS),
    }
}

/// Arguments on one line, abbreviated: `[a, b]`.
pub fn args_line(args: &[Term]) -> String {
    let shown: Vec<String> = args.iter().map(term_line).collect();
    format!("[{}]", shown.join(", "))
}

/// A term's tagged JSON, abbreviated ([`abbreviate_json`]).
pub fn term_line(t: &Term) -> String {
    abbreviate_json(&tagged::encode(t))
}

/// A line of a diff, its JSON values abbreviated: every run of text
/// longer than a screen is cut with its length.
pub fn abbreviate_line(line: &str) -> String {
    cut(line, 2 * TEXT_CHARS)
}

fn one_line(s: &str) -> String {
    s.replace('\n', "\\n")
        .replace('\t', "\\t")
        .replace('\r', "\\r")
}

/// `s` cut after `max` characters, with how many were cut: `abc…(+5,450 chars)`.
fn cut(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_owned();
    }
    let head: String = s.chars().take(max).collect();
    format!("{head}…(+{} chars)", n - max)
}

/// JSON text (as tagged JSON writes it) abbreviated for reading: a string
/// literal longer than 48 characters keeps its first 48 and says how many
/// it had (`"abc…"(5512 chars)`), a container past the 8th element says how
/// many more it holds (`…(+12)`), and a container nested deeper than 6 is
/// `…`. Text that is not JSON is returned as it is.
pub fn abbreviate_json(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    if value(&chars, &mut i, 0, &mut out).is_none() || i != chars.len() {
        return text.to_owned();
    }
    out
}

fn skip_ws(c: &[char], i: &mut usize) {
    while c.get(*i).is_some_and(|ch| ch.is_whitespace()) {
        *i += 1;
    }
}

/// Copies (abbreviated) the JSON value at `i`; `None` when it is not JSON.
fn value(c: &[char], i: &mut usize, depth: usize, out: &mut String) -> Option<()> {
    skip_ws(c, i);
    match *c.get(*i)? {
        '"' => string(c, i, out),
        open @ ('[' | '{') => {
            let close = if open == '[' { ']' } else { '}' };
            if depth >= DEPTH {
                let mut sink = String::new();
                container(c, i, open, close, usize::MAX, &mut sink)?;
                out.push('…');
                return Some(());
            }
            container(c, i, open, close, depth + 1, out)
        }
        _ => {
            let start = *i;
            while c
                .get(*i)
                .is_some_and(|ch| !matches!(ch, ',' | ']' | '}' | ':') && !ch.is_whitespace())
            {
                *i += 1;
            }
            (*i > start).then(|| out.extend(&c[start..*i]))
        }
    }
}

fn container(
    c: &[char],
    i: &mut usize,
    open: char,
    close: char,
    depth: usize,
    out: &mut String,
) -> Option<()> {
    let elide = depth == usize::MAX;
    *i += 1;
    out.push(open);
    let mut n = 0usize;
    let mut hidden = 0usize;
    loop {
        skip_ws(c, i);
        if *c.get(*i)? == close {
            *i += 1;
            if hidden > 0 {
                out.push_str(&format!(",…(+{hidden})"));
            }
            out.push(close);
            return Some(());
        }
        if n > 0 {
            (*c.get(*i)? == ',').then_some(())?;
            *i += 1;
        }
        n += 1;
        let shown = elide || n <= ITEMS;
        let mut sink = String::new();
        let target = if shown { &mut *out } else { &mut sink };
        if n > 1 && shown {
            target.push(',');
        }
        let inner = if elide { usize::MAX } else { depth };
        if open == '{' {
            skip_ws(c, i);
            string(c, i, target)?;
            skip_ws(c, i);
            (*c.get(*i)? == ':').then_some(())?;
            *i += 1;
            target.push(':');
        }
        if elide {
            value_elided(c, i, target)?;
        } else {
            value(c, i, inner, target)?;
        }
        if !shown {
            hidden += 1;
        }
    }
}

/// Skips the value at `i` (inside an elided container).
fn value_elided(c: &[char], i: &mut usize, out: &mut String) -> Option<()> {
    skip_ws(c, i);
    match *c.get(*i)? {
        '"' => string(c, i, out),
        open @ ('[' | '{') => container(
            c,
            i,
            open,
            if open == '[' { ']' } else { '}' },
            usize::MAX,
            out,
        ),
        _ => value(c, i, 0, out),
    }
}

fn string(c: &[char], i: &mut usize, out: &mut String) -> Option<()> {
    (*c.get(*i)? == '"').then_some(())?;
    *i += 1;
    let start = *i;
    let mut shown_end = None;
    let mut count = 0usize;
    while *c.get(*i)? != '"' {
        if count == STRING_CHARS {
            shown_end = Some(*i);
        }
        *i += if c[*i] == '\\' { 2 } else { 1 };
        count += 1;
    }
    let end = *i;
    *i += 1;
    out.push('"');
    match shown_end {
        Some(cut_at) if count > STRING_CHARS + 8 => {
            out.extend(&c[start..cut_at]);
            out.push_str(&format!("…\"({count} chars)"));
        }
        _ => {
            out.extend(&c[start..end]);
            out.push('"');
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::tagged::decode_str;

    #[test]
    fn long_strings_and_binaries_are_cut_with_their_length() {
        let long = "x".repeat(5500);
        let t = Term::List(vec![Term::Str(long.clone()), Term::Bytes(vec![0xff; 4000])]);
        let line = term_line(&t);
        assert!(line.len() < 200, "{line}");
        assert!(line.contains("…\"(5500 chars)"), "{line}");
        assert!(line.contains("{\"$bytes\":\"////"), "{line}");
        assert!(line.contains("…\"(5336 chars)"), "{line}");
        // A short term is shown whole, exactly as tagged JSON writes it.
        let short = decode_str(r#"{"$map": [[{"$atom": "k"}, [1, "a\"b"]]]}"#, "").unwrap();
        assert_eq!(term_line(&short), tagged::encode(&short));
    }

    #[test]
    fn deep_and_long_terms_are_elided() {
        let mut deep = Term::int(1);
        for _ in 0..20 {
            deep = Term::List(vec![deep]);
        }
        assert_eq!(term_line(&deep), "[[[[[[…]]]]]]");
        let long = Term::List((0..20).map(Term::int).collect());
        assert_eq!(term_line(&long), "[0,1,2,3,4,5,6,7,…(+12)]");
        let args = args_line(&[Term::Str("a".into()), long]);
        assert_eq!(args, "[\"a\", [0,1,2,3,4,5,6,7,…(+12)]]");
    }

    #[test]
    fn messages_are_shown_verbatim_on_one_line() {
        let a = Answer::Raised(ptc_conformance::raised::Raised {
            class: "ArgumentError".into(),
            message: "invalid \"x\"\nnext".into(),
        });
        assert_eq!(answer_text(&a), "raised ArgumentError: invalid \"x\"\nnext");
        assert_eq!(
            answer_line(&a),
            "raised ArgumentError: invalid \"x\"\\nnext"
        );
        let long = Answer::Ok(Term::Str("y".repeat(500)));
        assert!(
            answer_line(&long).ends_with("…(+340 chars)\""),
            "{}",
            answer_line(&long)
        );
    }
}
