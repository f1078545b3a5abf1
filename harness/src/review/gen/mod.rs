//! Generators of realistic terms and op arguments (proptest strategies),
//! shared by the property tests and by `ptc-conformance fuzz`.
//!
//! Terms look like what crosses the tool boundary: nested maps with atom,
//! string and hyphenated keys, unicode strings with characters that need
//! escaping, integral and fractional floats (`-0.0`, `1.0e20`), big
//! integers, tuples, keyword lists.
//!
//! Some shape their maps on purpose: [`distinct_keys_term`] keeps keys
//! distinct after normalization (for properties that rewrite keys), and
//! [`colliding_term`] makes keys that normalize alike common (for KN-6).
//! [`tool_result`] and [`native_tool`] feed `native_preview.build`.
//!
//! The fuzzer's generators build on these: [`domain`] draws terms from the
//! whole domain, corners first (any term in any position); [`mutate`]
//! mutates the corpus's own cases; [`ops`] has one generator per op of the
//! registry, mixing the three with [`places::placed`]: a corpus case with
//! a term of one class of [`classes`] put at one of the op's [`places`],
//! the table `lint --coverage` measures the corpus by.

use num_bigint::BigInt;
use proptest::prelude::*;
use ptc_conformance::key_normalizer::normalize_key;
use ptc_conformance::term::{map_key_cmp, FunSpec, Int, OpaqueKind, Temporal, TemporalKind};
use ptc_conformance::Term;
use std::cmp::Ordering;

pub mod classes;
pub mod domain;
pub mod fill;
pub mod keys;
pub mod mutate;
pub mod ops;
pub mod places;

/// Spells a string from the bits of `n` using `alphabet`: small `n` give
/// short, plain strings, so shrinking `n` shrinks the string. Much cheaper
/// to generate and shrink than a regex strategy.
fn spell(mut n: u64, alphabet: &[char], max_len: u64) -> String {
    let len = 1 + n % max_len;
    n /= max_len;
    let base = alphabet.len() as u64;
    (0..len)
        .map(|_| {
            let c = alphabet[(n % base) as usize];
            n /= base;
            c
        })
        .collect()
}

/// Key-like names: hyphens and underscores mixed in, some unicode, and
/// every class of [`keys`] an atom can have (PTC-Lisp's spellings too).
pub fn key_name() -> BoxedStrategy<String> {
    const PLAIN: &[char] = &['a', 'b', 'c', 'd', 'e', 'x', 'y', 'z'];
    const MIXED: &[char] = &['a', 'b', '-', 'c', '_', 'd', 'é', '-', 'k', '中', '1'];
    prop_oneof![
        3 => prop::sample::select(vec![
            "id", "name", "q", "was-improved", "was_improved", "user-id", "user_id", "first-name",
            "a-b", "a_b", "limit", "nested", "x-y-z", "ids", "clé-ü",
        ])
        .prop_map(str::to_owned),
        2 => any::<u64>().prop_map(|n| spell(n, PLAIN, 6)),
        2 => any::<u64>().prop_map(|n| spell(n, MIXED, 8)),
        3 => keys::atom_names(),
    ]
    .boxed()
}

/// Strings with the characters encoders get wrong: quotes, backslashes,
/// control characters, non-ASCII, U+2028.
pub fn text() -> BoxedStrategy<String> {
    const PLAIN: &[char] = &['a', 'b', 'c', ' ', '-', 'd', 'e'];
    const AWKWARD: &[char] = &[
        'a', '"', '\\', '\n', '\t', '\r', '\u{1}', 'é', '中', '😀', '\u{2028}', ' ', '/', '\u{7f}',
    ];
    prop_oneof![
        1 => Just(String::new()),
        3 => any::<u64>().prop_map(|n| spell(n, PLAIN, 12)),
        2 => any::<u64>().prop_map(|n| spell(n, AWKWARD, 8)),
    ]
    .boxed()
}

/// Floats: integral ones (which canonicalization collapses), signed zero,
/// huge and tiny magnitudes, ordinary fractions.
pub fn float() -> BoxedStrategy<f64> {
    prop_oneof![
        3 => (-1000i64..1000).prop_map(|n| n as f64),
        2 => (-1000i64..1000, 1u32..1000).prop_map(|(n, d)| n as f64 + f64::from(d) / 1000.0),
        1 => Just(-0.0),
        1 => Just(0.0),
        1 => prop_oneof![Just(1.0e20), Just(-2.0e19), Just(9.007_199_254_740_993e15), Just(1.0e300)],
        1 => prop_oneof![Just(0.1 + 0.2), Just(1.0e-7), Just(123.456_789_012_345), Just(5.0e-324)],
        1 => any::<f64>().prop_filter("finite", |x| x.is_finite()),
    ]
    .boxed()
}

/// Integers: small ones, both sides of 2^53 and 2^63, and big ones.
pub fn int() -> BoxedStrategy<Term> {
    prop_oneof![
        4 => (-100i64..100).prop_map(Term::int),
        1 => any::<i64>().prop_map(Term::int),
        1 => prop_oneof![Just((1i64 << 53) - 1), Just(1i64 << 53), Just(i64::MAX), Just(i64::MIN)].prop_map(Term::int),
        1 => (any::<i64>(), any::<u64>()).prop_map(|(hi, lo)| {
            let big = (BigInt::from(hi) << 64) + BigInt::from(lo);
            Term::Int(Int::from(big))
        }),
    ]
    .boxed()
}

/// Scalar terms.
pub fn scalar() -> BoxedStrategy<Term> {
    prop_oneof![
        1 => Just(Term::Nil),
        1 => any::<bool>().prop_map(Term::Bool),
        3 => int(),
        3 => float().prop_map(Term::Float),
        3 => text().prop_map(Term::Str),
        2 => key_name().prop_map(|n| Term::atom(&n)),
    ]
    .boxed()
}

/// Map keys: strings and atoms mostly (hyphenated or not), sometimes
/// integers, floats and tuples.
pub fn key() -> BoxedStrategy<Term> {
    prop_oneof![
        5 => key_name().prop_map(Term::Str),
        4 => key_name().prop_map(|n| Term::atom(&n)),
        1 => (-5i64..50).prop_map(Term::int),
        1 => float().prop_map(Term::Float),
        1 => (key_name(), -3i64..3).prop_map(|(a, n)| Term::tuple(vec![Term::atom(&a), Term::int(n)])),
        1 => keys::text_key(),
    ]
    .boxed()
}

/// Terms of the boundary: scalars nested in lists, tuples, maps and
/// keyword lists, up to a few levels deep.
pub fn term() -> BoxedStrategy<Term> {
    term_sized(4, 32, 4)
}

/// [`term`] with the nesting `depth`, about `size` nodes in all and
/// `branch` items per collection.
pub fn term_sized(depth: u32, size: u32, branch: u32) -> BoxedStrategy<Term> {
    nested(key(), false, (depth, size, branch))
}

/// Map keys that have a text form (`String.Chars`), so cache hints and
/// previews can render them (NP-5, NP-13): strings and atoms mostly,
/// sometimes integers and floats, never tuples.
pub fn text_key() -> impl Strategy<Value = Term> {
    prop_oneof![
        5 => key_name().prop_map(Term::Str),
        4 => key_name().prop_map(|n| Term::atom(&n)),
        1 => (-5i64..50).prop_map(Term::int),
        1 => float().prop_map(Term::Float),
        1 => keys::utf8_text_key(),
    ]
}

/// Like [`term`], but every map's keys have a text form ([`text_key`]) and
/// stay distinct after key normalization ([`distinct_keys`]): no map holds
/// both `:a` and `"a"`, or `"a-b"` and `"a_b"`. Such terms canonicalize
/// without KN-6's collisions and render as cache hints without raising.
pub fn distinct_keys_term() -> impl Strategy<Value = Term> {
    nested(text_key().boxed(), true, (4, 32, 4))
}

/// Args maps ([`args_map`]) whose maps, at every depth, have keys that
/// stay distinct after normalization, with [`distinct_keys_term`] values.
pub fn distinct_keys_args_map() -> impl Strategy<Value = Term> {
    prop::collection::vec(
        (
            prop_oneof![
                2 => key_name().prop_map(Term::Str),
                2 => key_name().prop_map(|n| Term::atom(&n)),
                1 => keys::utf8_text_key(),
            ],
            distinct_keys_term(),
        ),
        0..5,
    )
    .prop_map(|pairs| Term::map(distinct_keys(pairs)))
}

/// Keeps the first pair of each key, where atom and binary keys that
/// normalize alike (`normalize_key/1`, KN-1, KN-2) count as one key and
/// other keys are compared as map keys (so `0.0` and `-0.0` are one).
pub fn distinct_keys(pairs: Vec<(Term, Term)>) -> Vec<(Term, Term)> {
    let mut seen: Vec<Term> = Vec::with_capacity(pairs.len());
    let mut kept = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        let identity = if k.is_atom() || k.is_binary() {
            normalize_key(&k)
        } else {
            k.clone()
        };
        if !seen
            .iter()
            .any(|s| map_key_cmp(s, &identity) == Ordering::Equal)
        {
            seen.push(identity);
            kept.push((k, v));
        }
    }
    kept
}

/// Keys that collide after normalization: a few names, each as an atom or
/// a string, with hyphens or underscores (`:min_price`, `"min-price"`,
/// ...), and `nil` / `"nil"`. KN-6 decides which of them wins.
pub fn colliding_key() -> impl Strategy<Value = Term> {
    (
        prop::sample::select(vec!["min-price", "user-id", "a-b-c", "id", "nil"]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(name, atom, underscores)| {
            let name = if underscores {
                name.replace('-', "_")
            } else {
                name.to_owned()
            };
            if atom {
                Term::atom(&name)
            } else {
                Term::Str(name)
            }
        })
}

/// Like [`term`], with [`colliding_key`]s among the map keys, so that maps
/// often hold keys that normalize alike.
pub fn colliding_term() -> impl Strategy<Value = Term> {
    nested(
        prop_oneof![colliding_key(), key()].boxed(),
        false,
        (4, 32, 4),
    )
}

/// Args maps whose keys often normalize alike, at the top and deeper.
pub fn colliding_args_map() -> impl Strategy<Value = Term> {
    prop::collection::vec(
        (
            prop_oneof![2 => colliding_key(), 1 => key()],
            colliding_term(),
        ),
        0..6,
    )
    .prop_map(Term::map)
}

/// Scalars nested in lists, tuples, maps (keys from `keys`, made distinct
/// after normalization when `distinct`) and keyword lists.
fn nested(
    keys: BoxedStrategy<Term>,
    distinct: bool,
    (depth, size, branch): (u32, u32, u32),
) -> BoxedStrategy<Term> {
    let map = move |pairs: Vec<(Term, Term)>| {
        Term::map(if distinct {
            distinct_keys(pairs)
        } else {
            pairs
        })
    };
    scalar()
        .prop_recursive(depth, size, branch, move |inner| {
            prop_oneof![
                3 => prop::collection::vec(inner.clone(), 0..5).prop_map(Term::List),
                2 => prop::collection::vec(inner.clone(), 0..4).prop_map(Term::Tuple),
                4 => prop::collection::vec((keys.clone(), inner.clone()), 0..6).prop_map(map),
                1 => prop::collection::vec((key_name(), inner), 1..4).prop_map(|kv| {
                    Term::List(kv.into_iter().map(|(k, v)| Term::tuple(vec![Term::atom(&k), v])).collect())
                }),
            ]
        })
        .boxed()
}

/// Every kind the tagged codec carries, for round-trip properties: [`term`]
/// plus non-UTF-8 binaries, temporal values, structs, functions and opaque terms.
pub fn any_term() -> BoxedStrategy<Term> {
    let exotic = prop_oneof![
        prop::collection::vec(any::<u8>(), 1..8).prop_map(|mut b| {
            b.push(0xff);
            Term::binary(b)
        }),
        (2000u32..2100, 1u32..13, 1u32..29).prop_map(|(y, m, d)| Term::Temporal(Temporal {
            kind: TemporalKind::Date,
            iso: format!("{y:04}-{m:02}-{d:02}"),
        })),
        (0u32..24, 0u32..60, 0u32..60, 0u32..1000).prop_map(|(h, m, s, ms)| Term::Temporal(
            Temporal {
                kind: TemporalKind::DateTime,
                iso: format!("2026-05-07T{h:02}:{m:02}:{s:02}.{ms:03}Z"),
            }
        )),
        (
            key_name(),
            prop::sample::select(vec![OpaqueKind::Ref, OpaqueKind::Pid, OpaqueKind::Port])
        )
            .prop_map(|(l, k)| Term::Opaque(k, l)),
        (0u32..3, scalar())
            .prop_map(|(arity, r)| Term::Fun(Box::new(FunSpec::Returns { arity, returns: r }))),
        text().prop_map(|m| Term::Fun(Box::new(FunSpec::Raises {
            arity: 1,
            message: m
        }))),
        // A URI's host is a binary or nil (TJ-7).
        text().prop_map(|v| {
            Term::Struct(Box::new(
                ptc_conformance::structs::written("URI", [("host", Term::Str(v))])
                    .unwrap_or_else(|e| panic!("{e}")),
            ))
        }),
    ];
    prop_oneof![4 => term(), 1 => exotic]
        .prop_recursive(2, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Term::List),
                prop::collection::vec((inner.clone(), inner), 0..4).prop_map(Term::map),
            ]
        })
        .boxed()
}

/// Args maps as tools receive them: atom or string keys, hyphenated or not.
pub fn args_map() -> BoxedStrategy<Term> {
    prop::collection::vec(
        (
            prop_oneof![
                2 => key_name().prop_map(Term::Str),
                2 => key_name().prop_map(|n| Term::atom(&n)),
                1 => keys::text_key(),
            ],
            // Tool arguments are shallow: a few keys, small values.
            term_sized(3, 12, 3),
        ),
        0..5,
    )
    .prop_map(Term::map)
    .boxed()
}

/// Results a native tool returns: lists of maps sharing their keys (the
/// common case, which previews summarize), other terms, lists of scalars.
/// Map keys have a text form, as [`distinct_keys_term`]'s do.
pub fn tool_result() -> impl Strategy<Value = Term> {
    let rows = prop::collection::vec(key_name(), 1..6).prop_flat_map(|names| {
        let width = names.len();
        let row = (
            any::<bool>(),
            prop::collection::vec(distinct_keys_term(), width..=width),
        );
        prop::collection::vec(row, 0..8).prop_map(move |rows| {
            let rows = rows.into_iter().map(|(atoms, values)| {
                let keys = names.iter().map(|n| {
                    if atoms {
                        Term::atom(n)
                    } else {
                        Term::str(n.clone())
                    }
                });
                Term::map(distinct_keys(keys.zip(values).collect()))
            });
            Term::List(rows.collect())
        })
    });
    prop_oneof![
        3 => rows,
        2 => distinct_keys_term(),
        1 => prop::collection::vec(scalar(), 0..6).prop_map(Term::List),
    ]
}

/// The name of a cache field (NP-6) as an atom or string key, which a
/// custom preview may set too and the cache fields must override.
fn cache_field_key() -> impl Strategy<Value = Term> {
    (
        prop::sample::select(vec!["status", "full_result_cached", "cache_hint"]),
        any::<bool>(),
    )
        .prop_map(|(name, atom)| {
            if atom {
                Term::atom(name)
            } else {
                Term::str(name)
            }
        })
}

/// A `%PtcRunner.Tool{}` with a name and a `native_result` (NP-7): `nil`,
/// `preview: :metadata`, `:rows` with or without a limit (negative ones
/// included), a custom 1-ary function that returns a map (sometimes with
/// a cache field of its own), returns a non-map or raises, or an unknown
/// preview value.
pub fn native_tool() -> impl Strategy<Value = Term> {
    let kw = |k: &str, v: Term| Term::tuple(vec![Term::atom(k), v]);
    let fun = |f: FunSpec| Term::Fun(Box::new(f));
    let native_result = prop_oneof![
        2 => Just(Term::Nil),
        1 => Just(Term::List(vec![kw("preview", Term::atom("metadata"))])),
        2 => Just(Term::List(vec![kw("preview", Term::atom("rows"))])),
        2 => (-3i64..30).prop_map(move |n| Term::List(vec![
            kw("preview", Term::atom("rows")),
            kw("limit", Term::int(n)),
        ])),
        2 => (distinct_keys_args_map(), prop::option::of((cache_field_key(), scalar())))
            .prop_map(move |(returns, own)| {
                let returns = match (returns, own) {
                    (Term::Map(mut m), Some((k, v))) => {
                        m.insert(k, v);
                        Term::Map(m)
                    }
                    (returns, _) => returns,
                };
                Term::List(vec![kw("preview", fun(FunSpec::Returns { arity: 1, returns }))])
            }),
        1 => scalar().prop_map(move |returns| Term::List(vec![kw(
            "preview",
            fun(FunSpec::Returns { arity: 1, returns }),
        )])),
        1 => text().prop_map(move |message| Term::List(vec![kw(
            "preview",
            fun(FunSpec::Raises { arity: 1, message }),
        )])),
        1 => Just(Term::List(vec![kw("preview", Term::atom("table"))])),
    ];
    (key_name(), native_result).prop_map(|(name, native_result)| {
        let fields = vec![
            ("name".to_owned(), Term::Str(name)),
            ("native_result".to_owned(), native_result),
        ];
        Term::Struct(Box::new(
            ptc_conformance::structs::written("PtcRunner.Tool", fields)
                .unwrap_or_else(|e| panic!("{e}")),
        ))
    })
}
