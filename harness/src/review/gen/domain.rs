//! Terms from the whole domain, corners first: the values a port's encoder,
//! printer or guard is most likely to get wrong, in any position.
//!
//! Where [`super::term`] draws what usually crosses the tool boundary,
//! [`hostile_term`] draws anything the tagged term JSON can carry (the
//! adapter protocol's domain, `spec/terms.md`): strings with every ASCII
//! punctuation and symbol character and several scripts, invalid and
//! truncated UTF-8, charlists, atoms that need quoting, floats at the
//! shortest-text thresholds, integers around 2^53 and 2^64, the four
//! calendar structs (with UTC offsets), the structs `src/model/structs.rs`
//! knows, functions (anonymous and named captures), references, pids and
//! ports, lists and strings just past `inspect`'s limits (50 items, 4096
//! printable bytes), nested tuples, keyword lists and maps with any keys.
//!
//! Every strategy puts its plainest value first and builds from small
//! integers, so a disagreement shrinks to a short, readable input.
//!
//! Left out on purpose: maps of more than 32 keys (their iteration order is
//! the VM's hash order, which `spec/terms.md` TJ-4 puts out of scope; see
//! [`large_map`] for where they are safe), atoms longer than 255 characters
//! (the VM refuses them), NaN and infinities (not terms), and the atom
//! `:__struct__` as a map key (a map whose `__struct__` holds an atom is a
//! struct to the VM, which `$map` cannot say; `spec/terms.md`).

use super::{float, int, key_name, spell, text};
use num_bigint::BigInt;
use proptest::prelude::*;
use ptc_conformance::structs;
use ptc_conformance::term::{FunSpec, Int, OpaqueKind, Temporal, TemporalKind, Term};

/// The 32 ASCII punctuation and symbol characters.
pub const ASCII_PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Characters from several scripts and the Unicode corners: Latin-1 and
/// Latin Extended, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Thai, CJK,
/// Hangul, an emoji (4 UTF-8 bytes), a combining accent, a zero-width
/// joiner, no-break and ideographic spaces, U+2028/U+2029 (JSON-legal,
/// JavaScript-illegal), the BOM, U+FFFD and the last code point.
pub const SCRIPTS: &[char] = &[
    'é',
    'ß',
    'Ł',
    'Ω',
    'я',
    'ש',
    'ع',
    'क',
    'ไ',
    '中',
    '日',
    '한',
    '😀',
    '\u{301}',
    '\u{200d}',
    '\u{a0}',
    '\u{3000}',
    '\u{2028}',
    '\u{2029}',
    '\u{feff}',
    '\u{fffd}',
    '\u{10ffff}',
];

/// ASCII control characters an encoder must escape (and DEL, which it must not).
pub const CONTROLS: &[char] = &[
    '\0', '\u{1}', '\u{7}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{1f}',
    '\u{7f}',
];

fn alphabet() -> Vec<char> {
    let mut a: Vec<char> = "ab".chars().collect();
    a.extend(ASCII_PUNCTUATION.chars());
    a.extend(SCRIPTS);
    a.extend(CONTROLS);
    a.extend(['A', 'Z', '0', '9', ' ']);
    a
}

/// Strings with any ASCII punctuation or symbol, control character or
/// script character in any position, up to 10 characters; the plainest
/// shrink to `"a"`.
pub fn hostile_string() -> BoxedStrategy<String> {
    let all = alphabet();
    prop_oneof![
        3 => any::<u64>().prop_map(move |n| spell(n, &all, 10)),
        1 => prop::sample::select(ASCII_PUNCTUATION.chars().collect::<Vec<_>>()).prop_map(String::from),
        1 => (any::<u64>(), prop::sample::select(ASCII_PUNCTUATION.chars().collect::<Vec<_>>()))
            .prop_map(|(n, p)| format!("{p}{}{p}", spell(n, &['a', '-', '_', 'b'], 4))),
        1 => prop::collection::vec(any::<char>(), 0..6).prop_map(|cs| cs.into_iter().collect()),
    ]
    .boxed()
}

/// Binaries that are not UTF-8: truncated multi-byte sequences (the
/// "incomplete" kind), invalid bytes, overlong forms and surrogates (the
/// "invalid" kind), after a valid prefix and before a valid suffix.
pub fn bad_utf8() -> BoxedStrategy<Term> {
    let broken: Vec<&'static [u8]> = vec![
        &[0xc3],             // é cut after its first byte
        &[0xe4, 0xb8],       // 中 cut
        &[0xf0, 0x9f, 0x98], // 😀 cut
        &[0xff],
        &[0x80],                   // lone continuation byte
        &[0xc0, 0x80],             // overlong NUL
        &[0xed, 0xa0, 0x80],       // surrogate U+D800
        &[0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
        &[0xfe, 0xfe, 0xff],
    ];
    (
        prop::sample::select(vec!["", "a", "é", "ab\"c", "中文"]),
        prop::sample::select(broken),
        prop::sample::select(vec!["", "x", "é", "\\n"]),
    )
        .prop_map(|(pre, bad, post)| {
            let mut b = pre.as_bytes().to_vec();
            b.extend_from_slice(bad);
            b.extend_from_slice(post.as_bytes());
            Term::binary(b)
        })
        .boxed()
}

/// Charlists: lists of code points, printable or not (Elixir prints
/// `~c"abc"` only when every element is printable), with some integers
/// that are not code points (surrogates, past U+10FFFF, negative).
pub fn charlist() -> BoxedStrategy<Term> {
    let cp = prop_oneof![
        6 => prop::sample::select(vec![97i64, 98, 32, 10, 34, 92, 233, 20013, 128_512, 35, 123]),
        1 => prop::sample::select(vec![0i64, 7, 27, 127, 160, 0xd800, 0x11_0000, -1, 0x10_ffff]),
    ];
    prop::collection::vec(cp, 1..6)
        .prop_map(|cps| Term::List(cps.into_iter().map(Term::int).collect()))
        .boxed()
}

/// Atom names that print bare and ones that need quoting (`:"a b"`,
/// `:"Elixir.Foo"` prints `Foo`), operators, `?`/`!` endings, unicode.
pub fn atom_name() -> BoxedStrategy<String> {
    prop_oneof![
        3 => key_name(),
        2 => prop::sample::select(vec![
            "ok", "error", "a b", "Foo", "Elixir.Foo", "Elixir", "foo?", "foo!", "foo?bar", "@",
            "1a", "", "é", "中", "a-b", "\"", "'", "+", "++", "<>", "..", "...", "%", "%{}",
            "{}", "&", "\\", "::", "when", "nil ", "Nil", "a.b", "A.b", "_", "__exception__",
            "\u{0}", "a\nb", "😀",
        ])
        .prop_map(str::to_owned),
        1 => hostile_string().prop_map(|s| s.chars().take(20).collect()),
    ]
    .boxed()
}

/// Floats at the thresholds of shortest-round-trip text (`1.0e15` vs
/// `1.0e16`, `1.0e-4` vs `1.0e-5`, Jason's and JavaScript's `1e21`), the
/// integral ones canonicalization collapses, signed zero, the extremes.
pub fn threshold_float() -> BoxedStrategy<f64> {
    prop_oneof![
        2 => float(),
        3 => prop::sample::select(vec![
            1.0e15, 9.999_999_999_999_999e14, 1.0e16, 1.234_567_890_123_456_7e16, 1.0e-4,
            1.0e-5, 0.000_123_4, 1.0e21, 1.0e20, 9.999_999_999_999_999e20, 1.0e22,
            9_007_199_254_740_992.0, 9_007_199_254_740_994.0, -0.0, 0.1, 0.5, 1.5,
            f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5.0e-324, -1.0e-300, 1.0e100, 123_456.789,
        ]),
        1 => (1i32..23, prop::bool::ANY).prop_map(|(e, neg)| {
            let x = 10f64.powi(e);
            if neg { -x } else { x }
        }),
        1 => (1i32..9).prop_map(|e| 10f64.powi(-e)),
    ]
    .boxed()
}

/// Integers at 2^53 and beyond: both sides of JavaScript's safe range,
/// of `i64` and `u64`, and big ones.
pub fn big_int() -> BoxedStrategy<Term> {
    let two = BigInt::from(2);
    let edges: Vec<BigInt> = vec![
        two.pow(53) - 1,
        two.pow(53),
        two.pow(53) + 1,
        -(two.pow(53)) - 1,
        two.pow(63) - 1,
        two.pow(63),
        -(two.pow(63)) - 1,
        two.pow(64),
        BigInt::from(10).pow(20),
        -(BigInt::from(10).pow(40)),
    ];
    prop_oneof![
        2 => int(),
        2 => prop::sample::select(edges).prop_map(|n| Term::Int(Int::from(n))),
    ]
    .boxed()
}

/// The four calendar structs with leap days, midnight, microsecond
/// precision from none to six digits, and `DateTime`s at UTC or at an
/// offset (`+05:30`, `-08:00`, `+14:00`, `+00:00`).
pub fn temporal() -> BoxedStrategy<Term> {
    let date = prop::sample::select(vec![
        "2024-01-01",
        "2024-02-29",
        "1999-12-31",
        "0001-01-01",
        "9999-12-31",
        "1970-01-01",
        "2026-05-07",
    ]);
    let time = (
        prop::sample::select(vec!["00:00:00", "12:00:00", "23:59:59", "09:05:03"]),
        prop::sample::select(vec!["", ".0", ".5", ".123", ".000001", ".123456"]),
    )
        .prop_map(|(t, f)| format!("{t}{f}"));
    let offset = prop::sample::select(vec![
        "Z", "Z", "+02:00", "-08:00", "+05:30", "+14:00", "+00:00",
    ]);
    let iso = |kind: TemporalKind| move |iso: String| Term::Temporal(Temporal { kind, iso });
    prop_oneof![
        date.clone()
            .prop_map(str::to_owned)
            .prop_map(iso(TemporalKind::Date)),
        time.clone().prop_map(iso(TemporalKind::Time)),
        (date.clone(), time.clone())
            .prop_map(|(d, t)| format!("{d}T{t}"))
            .prop_map(iso(TemporalKind::NaiveDateTime)),
        (date, time, offset)
            .prop_map(|(d, t, o)| format!("{d}T{t}{o}"))
            .prop_map(iso(TemporalKind::DateTime)),
    ]
    .boxed()
}

/// A struct of a module `src/model/structs.rs` knows, with up to two
/// fields set to `values` (only those written, TJ-7): `PtcRunner.Tool`, `MapSet`
/// (a set of its values), `PtcRunner.Step`, the two tool structs, a
/// `SubAgent.Definition`, `URI`, the Lisp structs and display structs.
pub fn known_struct(values: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    let modules: Vec<&'static str> = structs::KNOWN.iter().map(|(m, _)| *m).collect();
    (
        prop::sample::select(modules),
        prop::collection::vec((any::<prop::sample::Index>(), values), 0..3),
    )
        .prop_map(|(module, set)| {
            let rows = structs::fields_of(module).unwrap_or(&[]);
            let given: Vec<(String, Term)> = if module == "MapSet" {
                let members = set
                    .into_iter()
                    .map(|(_, v)| (v, Term::List(vec![])))
                    .collect();
                vec![("map".to_owned(), Term::map(members))]
            } else {
                let mut given: Vec<(String, Term)> = Vec::new();
                for (i, v) in set {
                    // A display struct's field that `String.Chars` cannot
                    // convert makes Elixir print `#Inspect.Error<...>` with
                    // a stack trace (IN-15): those keep their `nil` fields.
                    if rows.is_empty() || module.starts_with("PtcRunner.Lisp.Format.") {
                        break;
                    }
                    let name = rows[i.index(rows.len())].0.to_owned();
                    if !given.iter().any(|(n, _)| *n == name) {
                        given.push((name, v));
                    }
                }
                given
            };
            structs::written(module, given)
                .map(|s| Term::Struct(Box::new(s)))
                .unwrap_or(Term::Nil)
        })
        .boxed()
}

/// Functions: anonymous ones of arity 0 to 3 that return `values` or
/// raise, and named captures (`&:lists.reverse/1`, `&Nope.Missing.run/1`).
pub fn function(values: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    let fun = |f: FunSpec| Term::Fun(Box::new(f));
    prop_oneof![
        2 => (0u32..4, values).prop_map(move |(arity, returns)| fun(FunSpec::Returns { arity, returns })),
        1 => (0u32..3, hostile_string()).prop_map(move |(arity, message)| fun(FunSpec::Raises { arity, message })),
        // Captures of undocumented or unloaded modules: `Tool.new/2` reads
        // `@doc` and `@spec` of documented ones, which depends on how they
        // were compiled (spec/tool.md TL-2).
        1 => prop::sample::select(vec!["&:lists.reverse/1", "&Nope.Missing.run/1", "&Nope.Missing.run/0", "&Nope.Missing.run/2", "&Missing.run/2", "&:ptc_nope.run/2"])
        .prop_map(move |n| fun(FunSpec::Named(n.to_owned()))),
    ]
    .boxed()
}

/// A reference, pid or port (their text is the VM's, `spec/inspect.md`).
pub fn opaque() -> BoxedStrategy<Term> {
    (
        prop::sample::select(vec![OpaqueKind::Ref, OpaqueKind::Pid, OpaqueKind::Port]),
        // One label per kind: the order of two references (pids, ports) is
        // the order the VM made them in, which a port cannot know.
        Just("a"),
    )
        .prop_map(|(k, l)| Term::Opaque(k, l.to_owned()))
        .boxed()
}

/// A text of `limit - 2` to `limit + 2` characters of one character, ASCII
/// or of two to four bytes: both sides of a limit counted in characters,
/// and where counting bytes instead would cross it.
pub fn text_near(limit: usize) -> BoxedStrategy<Term> {
    (
        limit.saturating_sub(2)..=limit + 2,
        prop::sample::select(vec!["a", "é", "中", "😀"]),
    )
        .prop_map(|(n, c)| Term::Str(c.repeat(n)))
        .boxed()
}

/// Lists and strings around `inspect`'s limits: 49 to 52 items, 4095 to
/// 4098 printable bytes (a multi-byte character may straddle the cut), and
/// a long non-printable binary.
pub fn past_limits(items: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    prop_oneof![
        (49usize..53, items).prop_map(|(n, t)| Term::List(vec![t; n])),
        (49usize..53).prop_map(|n| Term::List((0..n as i64).map(Term::int).collect())),
        (
            4094usize..4099,
            prop::sample::select(vec!["a", "é", "\"", "中"])
        )
            .prop_map(|(n, tail)| Term::Str(format!("{}{tail}", "a".repeat(n)))),
        (4094usize..4099).prop_map(|n| {
            let mut b = vec![b'a'; n];
            b.push(0xff);
            Term::binary(b)
        }),
        (1000usize..1002).prop_map(|n| Term::List(vec![Term::int(97); n])),
    ]
    .boxed()
}

/// Scalars from the whole domain.
pub fn hostile_scalar() -> BoxedStrategy<Term> {
    prop_oneof![
        1 => Just(Term::Nil),
        1 => any::<bool>().prop_map(Term::Bool),
        2 => big_int(),
        2 => threshold_float().prop_map(Term::Float),
        3 => hostile_string().prop_map(Term::Str),
        1 => text().prop_map(Term::Str),
        1 => bad_utf8(),
        2 => atom_name().prop_map(|a| Term::atom(&a)),
        1 => temporal(),
        1 => opaque(),
    ]
    .boxed()
}

/// Terms from the whole domain, nested a few levels: [`hostile_scalar`]s
/// in lists, charlists, tuples (nested), keyword lists with any atoms,
/// maps with any keys (terms, tuples, floats, structs), known structs,
/// functions, and lists and strings past `inspect`'s limits.
pub fn hostile_term() -> BoxedStrategy<Term> {
    hostile_scalar()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                3 => prop::collection::vec(inner.clone(), 0..4).prop_map(Term::List),
                2 => prop::collection::vec(inner.clone(), 0..4).prop_map(Term::Tuple),
                3 => prop::collection::vec((inner.clone(), inner.clone()), 0..4).prop_map(Term::map),
                2 => prop::collection::vec((atom_name(), inner.clone()), 1..4).prop_map(|kv| {
                    Term::List(kv.into_iter().map(|(k, v)| Term::tuple(vec![Term::atom(&k), v])).collect())
                }),
                1 => charlist(),
                1 => known_struct(inner.clone()),
                1 => function(inner.clone()),
                1 => past_limits(inner),
            ]
        })
        .boxed()
}

/// A map of 33 to 40 keys (past the 32 up to which Elixir iterates in key
/// order), string or atom keys distinct after normalization, scalar values.
/// Only for ops whose answer does not show iteration order
/// (`spec/terms.md` TJ-4; KN-6 and NP-24 say where it would).
pub fn large_map() -> BoxedStrategy<Term> {
    (
        33usize..41,
        any::<bool>(),
        prop::collection::vec(super::scalar(), 4),
    )
        .prop_map(|(n, atoms, values)| {
            Term::map(
                (0..n)
                    .map(|i| {
                        let k = format!("k{i:02}");
                        let k = if atoms && i % 2 == 0 {
                            Term::atom(&k)
                        } else {
                            Term::Str(k)
                        };
                        (k, values[i % values.len()].clone())
                    })
                    .collect(),
            )
        })
        .boxed()
}
