//! A message change named by where the two texts part. When both builds
//! raise the same exception with different messages and no part of the
//! input is what one message quotes (taken out, one side answers as
//! before), the change is the message's own wording: named by the words
//! each side has where the two texts part, with what each message quotes
//! (values, atoms, module names, numbers) masked so that one rewording met
//! with many inputs is one cause.

use super::unquoted;

/// Characters of a fragment shown; a longer one is elided in its middle.
const FRAGMENT_CHARS: usize = 60;
/// Words of the shared text before the parting shown as its place.
const CONTEXT_WORDS: usize = 4;

/// Where two messages part: the shared words before it (masked), and the
/// words each side has from there to where they meet again (masked, whole
/// words).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Parting {
    /// The last words both messages have before they part.
    pub after: String,
    /// Base's words there.
    pub base: String,
    /// Head's words there.
    pub head: String,
}

/// A message with what it quotes masked: quoted texts and module names
/// ([`unquoted`]), atoms (`:foo`) and numbers, so that a rewording met
/// with many inputs reads alike.
pub fn masked(message: &str) -> String {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(r#":[A-Za-z_][A-Za-z0-9_?!@]*|:"…"|-?\b\d+(\.\d+)?\b"#)
            .unwrap_or_else(|e| panic!("{e}"))
    });
    re.replace_all(&unquoted(message), "…").into_owned()
}

/// Where `base` and `head` part, masked and cut to whole words; `None`
/// when they are alike once masked (the messages differ only in what they
/// quote).
pub fn parting(base: &str, head: &str) -> Option<Parting> {
    let (b, h) = (masked(base), masked(head));
    if b == h {
        return None;
    }
    let (bc, hc): (Vec<char>, Vec<char>) = (b.chars().collect(), h.chars().collect());
    let mut p = bc.iter().zip(&hc).take_while(|(x, y)| x == y).count();
    let mut s = bc[p..]
        .iter()
        .rev()
        .zip(hc[p..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    // A separator changed inside a word (`a.b` written `a/b`): the word
    // holds what the message quotes (a path, a key), so the parting is
    // the separator itself, after the words before that word.
    let punct = |c: &[char]| c.len() <= 3 && c.iter().all(|x| x.is_ascii_punctuation());
    let (bf, hf) = (&bc[p..bc.len() - s], &hc[p..hc.len() - s]);
    let separator = punct(bf) && punct(hf);
    // Whole words: back to the start of the word the parting is in, on to
    // the end of the word where they meet again.
    while p > 0 && !bc[p - 1].is_whitespace() {
        p -= 1;
    }
    if separator {
        let before: String = bc[..p].iter().collect();
        let words: Vec<&str> = before.split_whitespace().collect();
        return Some(Parting {
            after: words[words.len().saturating_sub(CONTEXT_WORDS)..].join(" "),
            base: bf.iter().collect(),
            head: hf.iter().collect(),
        });
    }
    let word_before = |c: &[char], s: usize| {
        c.len() > s && c.len() - s > p && !c[c.len() - s - 1].is_whitespace()
    };
    while s > 0 && !bc[bc.len() - s].is_whitespace() && (word_before(&bc, s) || word_before(&hc, s))
    {
        s -= 1;
    }
    let words = |c: &[char]| elided(c.iter().collect::<String>().trim());
    let before: String = bc[..p].iter().collect();
    let after: Vec<&str> = before.split_whitespace().collect();
    let after = after[after.len().saturating_sub(CONTEXT_WORDS)..].join(" ");
    Some(Parting {
        after,
        base: words(&bc[p..bc.len() - s]),
        head: words(&hc[p..hc.len() - s]),
    })
}

/// Whether both sides' words where the messages part name code (a
/// function, `Keyword.take/…` against `Keyword.get/…`), not prose: then
/// the code path that raises changed, which the input part leading to it
/// names better than the wording does.
pub fn names_code(p: &Parting) -> bool {
    let code = |s: &str| {
        !s.is_empty()
            && !s.contains(char::is_whitespace)
            && (s.contains('.') || s.contains('/'))
            && s.chars().any(char::is_alphabetic)
    };
    code(&p.base) && code(&p.head)
}

/// `s` with its middle elided past [`FRAGMENT_CHARS`] characters, so both
/// ends (where a rewording starts and where it meets the shared text
/// again) stay.
pub fn elided(s: &str) -> String {
    let n = s.chars().count();
    if n <= FRAGMENT_CHARS {
        return s.to_owned();
    }
    let keep = FRAGMENT_CHARS / 2;
    let head: String = s.chars().take(keep).collect();
    let tail: String = s.chars().skip(n - keep).collect();
    format!("{head}…(+{} chars)…{tail}", n - 2 * keep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewording_is_named_by_its_words_whatever_the_messages_quote() {
        let one = parting(
            "unknown option :foo for tool \"a\"",
            "unsupported option :foo for tool \"a\"",
        )
        .unwrap();
        let two = parting(
            "unknown option :bar for tool \"xyz\"",
            "unsupported option :bar for tool \"xyz\"",
        )
        .unwrap();
        assert_eq!(one, two);
        assert_eq!(
            (one.base.as_str(), one.head.as_str()),
            ("unknown", "unsupported")
        );
        // Only what they quote differs: no parting.
        assert_eq!(parting("bad :a", "bad :b"), None);
        let p = parting("expected a list, got: 5", "expected a keyword list, got: 7").unwrap();
        assert_eq!(p.after, "expected a");
        assert_eq!((p.base.as_str(), p.head.as_str()), ("", "keyword"));
        assert!(!names_code(&p));
        // Another function raising is a code path, not a rewording.
        let f = parting(
            "no function clause matching in Keyword.take/2",
            "no function clause matching in Keyword.get/3",
        )
        .unwrap();
        assert!(names_code(&f), "{f:?}");
    }

    #[test]
    fn a_separator_changed_inside_a_word_is_the_parting() {
        // The path a message quotes differs from input to input; the
        // separator written between its parts is what changed.
        let one = parting(
            "non-JSON-encodable value at [0].<PtcRunner.Tool>",
            "non-JSON-encodable value at [0]/<PtcRunner.Tool>",
        )
        .unwrap();
        let two = parting(
            "non-JSON-encodable value at \u{fffd}.<NaiveDateTime>",
            "non-JSON-encodable value at \u{fffd}/<NaiveDateTime>",
        )
        .unwrap();
        assert_eq!(one, two);
        assert_eq!(
            (one.after.as_str(), one.base.as_str(), one.head.as_str()),
            ("non-JSON-encodable value at", ".", "/")
        );
        // Letters changed inside a word stay a change of the whole word.
        let f = parting("in Keyword.take/2", "in Keyword.get/3").unwrap();
        assert!(names_code(&f), "{f:?}");
    }

    #[test]
    fn a_long_fragment_keeps_both_ends() {
        let s = format!("start {} end", "x".repeat(200));
        let e = elided(&s);
        assert!(e.starts_with("start ") && e.ends_with(" end"), "{e}");
        assert!(e.chars().count() < 90, "{e}");
    }
}
