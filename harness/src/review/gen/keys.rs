//! Map keys by class: the spellings a key takes at the tool boundary,
//! as Elixir and JSON write them (`user_id`, `"user-id"`) and as PTC-Lisp
//! writes them (`:valid?`, `:ns/key`, a quoted symbol's display key
//! `'foo-bar`), and the corners (an empty key, a key past the 255
//! characters an atom may have, a key that is not UTF-8). Every generator
//! that writes map keys draws from all classes ([`super::key_name`],
//! [`text_key`]), so `fuzz` and `laws` search the same keys, and a change
//! of canonicalization that touches one class is met by both (the laws'
//! planted-bug tests, `harness/tests/laws.rs`, hold one per class).

use super::spell;
use proptest::prelude::*;
use ptc_conformance::term::Term;

/// A class of map key, by how it is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyClass {
    /// Lower-case letters and digits: `id`, `q1`.
    Plain,
    /// Words joined by `-` or `_`: `user-id`, `was_improved`.
    Hyphenated,
    /// Letters beyond ASCII: `clé-ü`, `中`.
    Unicode,
    /// PTC-Lisp keyword spellings: `?`, `!`, `*`, `+`, `<`, `>`, `=`, `/`,
    /// `.` among the word characters (`valid?`, `a->b`, `ns/key`).
    PtcLisp,
    /// A quoted symbol's display key: `'foo-bar`.
    QuotedSymbol,
    /// Other ASCII punctuation, white space or control characters.
    Punctuation,
    /// The empty key.
    Empty,
    /// More than 255 characters (never an atom).
    Long,
    /// A binary that is not UTF-8.
    NotUtf8,
}

/// Every class, in order.
pub const CLASSES: &[KeyClass] = &[
    KeyClass::Plain,
    KeyClass::Hyphenated,
    KeyClass::Unicode,
    KeyClass::PtcLisp,
    KeyClass::QuotedSymbol,
    KeyClass::Punctuation,
    KeyClass::Empty,
    KeyClass::Long,
    KeyClass::NotUtf8,
];

/// The characters PTC-Lisp keywords and symbols have beside word characters.
pub const PTC_LISP_CHARS: &str = "?!*+<>=/.";

impl KeyClass {
    /// The class's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            KeyClass::Plain => "plain",
            KeyClass::Hyphenated => "hyphenated",
            KeyClass::Unicode => "unicode",
            KeyClass::PtcLisp => "PTC-Lisp",
            KeyClass::QuotedSymbol => "quoted symbol",
            KeyClass::Punctuation => "punctuation",
            KeyClass::Empty => "empty",
            KeyClass::Long => "long",
            KeyClass::NotUtf8 => "not UTF-8",
        }
    }

    /// The class of a text key (an atom's name or a string).
    pub fn of_text(s: &str) -> KeyClass {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if s.is_empty() {
            KeyClass::Empty
        } else if s.chars().count() > 255 {
            KeyClass::Long
        } else if s.starts_with('\'') {
            KeyClass::QuotedSymbol
        } else if s
            .chars()
            .any(|c| c.is_ascii() && !word(c) && !PTC_LISP_CHARS.contains(c))
        {
            KeyClass::Punctuation
        } else if s.chars().any(|c| PTC_LISP_CHARS.contains(c)) {
            KeyClass::PtcLisp
        } else if !s.is_ascii() {
            KeyClass::Unicode
        } else if s.contains(['-', '_']) {
            KeyClass::Hyphenated
        } else {
            KeyClass::Plain
        }
    }

    /// The class of a map key, if it is a text key (atom, string or other binary).
    pub fn of(k: &Term) -> Option<KeyClass> {
        match k {
            Term::Str(s) => Some(KeyClass::of_text(s)),
            Term::Bytes(_) => Some(KeyClass::NotUtf8),
            _ => k.as_atom().map(KeyClass::of_text),
        }
    }
}

/// Names of `class`, mostly with a `-` or `_` in them (the laws rewrite
/// those); plainest first.
fn names_of(class: KeyClass) -> BoxedStrategy<String> {
    const WORD: &[char] = &['a', 'b', '-', 'c', '_'];
    let word = || any::<u64>().prop_map(|n| spell(n, WORD, 5));
    match class {
        KeyClass::Plain => any::<u64>()
            .prop_map(|n| spell(n, &['a', 'b', 'c', 'x', '1'], 5))
            .boxed(),
        KeyClass::Hyphenated => (word(), word())
            .prop_map(|(a, b)| format!("{a}-{b}"))
            .boxed(),
        KeyClass::Unicode => (word(), prop::sample::select(vec!['é', 'ü', '中', 'я', 'ß']))
            .prop_map(|(a, c)| format!("{c}{a}"))
            .boxed(),
        KeyClass::PtcLisp => (
            word(),
            prop::sample::select(PTC_LISP_CHARS.chars().collect::<Vec<_>>()),
            any::<bool>(),
        )
            .prop_map(|(a, c, end)| {
                if end {
                    format!("{a}{c}")
                } else {
                    format!("x{c}{a}")
                }
            })
            .boxed(),
        KeyClass::QuotedSymbol => word().prop_map(|a| format!("'{a}")).boxed(),
        KeyClass::Punctuation => (
            word(),
            prop::sample::select(vec![
                ' ', '"', '#', '$', '%', '&', ':', ';', '@', '\\', '|', '\n',
            ]),
        )
            .prop_map(|(a, c)| format!("{a}{c}x"))
            .boxed(),
        KeyClass::Empty => Just(String::new()).boxed(),
        KeyClass::Long => (word(), 256usize..260)
            .prop_map(|(a, n)| format!("{a}{}", "k-".repeat(n / 2)))
            .boxed(),
        KeyClass::NotUtf8 => word().boxed(),
    }
}

/// Names of every class an atom can have (all but [`KeyClass::Long`]
/// and [`KeyClass::NotUtf8`]), each class as likely.
pub fn atom_names() -> BoxedStrategy<String> {
    prop::sample::select(
        CLASSES
            .iter()
            .copied()
            .filter(|c| !matches!(c, KeyClass::Long | KeyClass::NotUtf8))
            .collect::<Vec<_>>(),
    )
    .prop_flat_map(names_of)
    .boxed()
}

/// A text key of `class`: a string or an atom (when the class can be
/// one), a binary for [`KeyClass::NotUtf8`].
pub fn key_of(class: KeyClass) -> BoxedStrategy<Term> {
    match class {
        KeyClass::NotUtf8 => names_of(class)
            .prop_map(|a| {
                let mut b = a.into_bytes();
                b.push(0xff);
                Term::binary(b)
            })
            .boxed(),
        KeyClass::Long => names_of(class).prop_map(Term::Str).boxed(),
        c => (names_of(c), any::<bool>())
            .prop_map(|(n, atom)| if atom { Term::atom(&n) } else { Term::Str(n) })
            .boxed(),
    }
}

/// A text key of any class, each class as likely.
pub fn text_key() -> BoxedStrategy<Term> {
    prop::sample::select(CLASSES.to_vec())
        .prop_flat_map(key_of)
        .boxed()
}

/// A text key of any class that is UTF-8 (all but [`KeyClass::NotUtf8`]),
/// for terms whose keys must render as JSON text.
pub fn utf8_text_key() -> BoxedStrategy<Term> {
    prop::sample::select(
        CLASSES
            .iter()
            .copied()
            .filter(|c| *c != KeyClass::NotUtf8)
            .collect::<Vec<_>>(),
    )
    .prop_flat_map(key_of)
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn every_class_is_drawn_as_itself() {
        let mut runner = TestRunner::deterministic();
        for &class in CLASSES {
            for _ in 0..50 {
                let k = key_of(class).new_tree(&mut runner).unwrap().current();
                assert_eq!(KeyClass::of(&k), Some(class), "{k:?}");
            }
        }
        assert_eq!(KeyClass::of_text("valid?"), KeyClass::PtcLisp);
        assert_eq!(KeyClass::of_text("'foo-bar"), KeyClass::QuotedSymbol);
        assert_eq!(KeyClass::of_text("user-id"), KeyClass::Hyphenated);
        assert_eq!(KeyClass::of_text("a b"), KeyClass::Punctuation);
    }
}
