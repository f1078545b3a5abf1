//! The diff's constants, as AFL's and libFuzzer's dictionaries hold a
//! program's: the literals of the added and removed lines of every hunk
//! (integers, floats, double-quoted strings, atoms), each with its
//! neighbours (an integer's n − 1, n + 1 and −n; the empty and the
//! one-longer string), and an integer up to [`MAX_SIZE`] also as a list
//! of that many items, so that a change behind a constant in a guard or a
//! size in a message is met (docs/reviewer.md § Aimed at the diff).

use super::hunks::Hunk;
use ptc_conformance::term::Term;
use regex::Regex;
use std::sync::OnceLock;

/// The largest integer also tried as a collection's size.
pub const MAX_SIZE: i64 = 64;
/// The most constants taken from one diff (the rest left out, counted).
pub const MOST: usize = 400;

/// The terms the diff's literals give, in first-met order, without repeats.
pub fn constants(hunks: &[Hunk]) -> Vec<Term> {
    static NUMBER: OnceLock<Regex> = OnceLock::new();
    static STRING: OnceLock<Regex> = OnceLock::new();
    static ATOM: OnceLock<Regex> = OnceLock::new();
    let number = NUMBER.get_or_init(|| {
        Regex::new(r"(?:^|[^\w.])(-?\d[\d_]*(?:\.\d+(?:[eE][-+]?\d+)?)?)\b").expect("a regex")
    });
    let string =
        STRING.get_or_init(|| Regex::new(r#""((?:[^"\\\n]|\\.){0,80})""#).expect("a regex"));
    let atom = ATOM
        .get_or_init(|| Regex::new(r"(?:^|[^\w:]):([a-z_][A-Za-z0-9_]*[?!]?)").expect("a regex"));
    let mut out: Vec<Term> = Vec::new();
    let mut add = |t: Term| {
        if out.len() < MOST && !out.contains(&t) {
            out.push(t);
        }
    };
    for h in hunks {
        for line in h.lines.iter().chain(&h.removed) {
            let code = line.trim();
            if code.starts_with('#') || code.starts_with("//") {
                continue;
            }
            for c in string.captures_iter(line) {
                let s = c[1].replace("\\\"", "\"").replace("\\n", "\n");
                if s.contains("#{") {
                    continue; // an interpolation: no constant
                }
                add(Term::str(&s));
                add(Term::str(""));
                add(Term::str(format!("{s}x")));
            }
            let unquoted = string.replace_all(line, "\"\"");
            for c in number.captures_iter(&unquoted) {
                let text = c[1].replace('_', "");
                if text.contains('.') {
                    if let Ok(f) = text.parse::<f64>() {
                        add(Term::Float(f));
                        add(Term::Float(-f));
                    }
                } else if let Ok(n) = text.parse::<i64>() {
                    for m in [n, n - 1, n + 1, -n] {
                        add(Term::int(m));
                    }
                    for m in [n, n + 1] {
                        if (0..=MAX_SIZE).contains(&m) {
                            add(Term::List(vec![Term::int(1); m as usize]));
                            add(Term::str("x".repeat(m as usize)));
                        }
                    }
                }
            }
            for c in atom.captures_iter(&unquoted) {
                add(Term::atom(&c[1]));
                add(Term::str(&c[1]));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(added: &[&str], removed: &[&str]) -> Hunk {
        Hunk {
            path: "lib/x.ex".into(),
            old: 0..removed.len(),
            new_start: 0,
            lines: added.iter().map(|l| format!("{l}\n")).collect(),
            removed: removed.iter().map(|l| format!("{l}\n")).collect(),
            whole: None,
            function: None,
        }
    }

    #[test]
    fn a_guard_constant_and_its_neighbours_and_sizes() {
        let cs = constants(&[hunk(
            &["  defp cap(xs) when length(xs) > 4, do: :too_many"],
            &["  defp cap(xs) when length(xs) > 3, do: :too_many"],
        )]);
        for n in [4, 3, 5, -4, 2] {
            assert!(cs.contains(&Term::int(n)), "{n} in {cs:?}");
        }
        assert!(cs.contains(&Term::List(vec![Term::int(1); 5])));
        assert!(cs.contains(&Term::atom("too_many")));
        assert!(cs.contains(&Term::str("too_many")));
    }

    #[test]
    fn strings_but_not_interpolations_nor_comments() {
        let cs = constants(&[hunk(
            &[
                r#"    raise ArgumentError, "bad limit: #{x}""#,
                r#"  @sep ", ""#,
                "  # 99 bottles",
            ],
            &[],
        )]);
        assert!(cs.contains(&Term::str(", ")));
        assert!(cs.contains(&Term::str(", x")));
        assert!(!cs
            .iter()
            .any(|t| matches!(t, Term::Str(s) if s.contains("bad limit"))));
        assert!(!cs.contains(&Term::int(99)));
    }
}
