//! The classes of input, in one table that the generators draw from and
//! the corpus's coverage report classifies by (`ptc-conformance lint
//! --coverage`, [`crate::corpus::coverage`]), so the two cannot drift.
//!
//! Category-partition testing (Ostrand & Balcer, CACM 1988) splits each
//! input's domain into classes that a function may treat alike, and asks
//! for a case in each; boundary-value analysis adds the values at and just
//! past each limit. Here a class is a set of terms: integers of each sign,
//! zero and past 64 bits; floats `-0.0`, negative, integral, fractional and
//! huge; texts empty, ASCII, multibyte, not UTF-8, and at and past each
//! length the spec names ([`TEXT_LIMITS`]); lists, tuples and maps empty,
//! of one item, of two to five, at and past each size the spec names
//! ([`SIZE_LIMITS`], [`MAP_SIZE_LIMITS`]); keyword lists and charlists;
//! the atoms `nil`, `true`, `false`, a module and any other; each struct
//! `src/model/structs.rs` knows; each calendar struct; functions; and
//! references, pids and ports. A term may be in several classes (a text
//! of 512 `é` is multibyte, at 512 and past 250).
//!
//! Each class has an [`Class::example`], the smallest term of it (what a
//! generated case holds), and a [`Class::strategy`], terms of it as the
//! fuzzer draws them ([`super::places::placed`]); a test holds both to
//! the classifier, [`Class::holds`].

use super::domain;
use num_bigint::BigInt;
use proptest::prelude::*;
use ptc_conformance::structs;
use ptc_conformance::term::{FunSpec, Int, OpaqueKind, Temporal, TemporalKind, Term};

/// A length or size the spec names, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The limit.
    pub n: usize,
    /// What it bounds and the rule that names it.
    pub what: &'static str,
}

/// Text lengths (in characters) the spec names: at and past each is a class.
pub const TEXT_LIMITS: &[Limit] = &[
    Limit {
        n: 250,
        what: "the default preview_max_chars of render_success_from_step (PP-102)",
    },
    Limit {
        n: 255,
        what: "the characters an atom may have (TJ-1, JH-7)",
    },
    Limit {
        n: 512,
        what: "the default feedback_max_chars of render_success_from_step (PP-102)",
    },
    Limit {
        n: 4096,
        what: "inspect's printable_limit (IN-8, IN-10)",
    },
];

/// Sizes of lists and tuples the spec names.
pub const SIZE_LIMITS: &[Limit] = &[
    Limit {
        n: 20,
        what: "the default :limit of a rows preview and the properties of a schema (NP-8, NP-13)",
    },
    Limit {
        n: 50,
        what: "inspect's limit and the printer's (IN-14, PP-131)",
    },
];

/// Sizes of maps the spec names: [`SIZE_LIMITS`] and the 32 keys past
/// which Elixir iterates a map in hash order (TJ-4).
pub const MAP_SIZE_LIMITS: &[Limit] = &[
    SIZE_LIMITS[0],
    Limit {
        n: 32,
        what: "the keys up to which Elixir iterates a map in key order (TJ-4, KN-6, NP-24)",
    },
    SIZE_LIMITS[1],
];

/// The kind of a term: the coarsest class, one per type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An integer.
    Int,
    /// A float.
    Float,
    /// A binary (UTF-8 or not).
    Text,
    /// An atom (`nil`, `true` and `false` included).
    Atom,
    /// A list.
    List,
    /// A tuple.
    Tuple,
    /// A map that is not a struct.
    Map,
    /// A struct other than the calendar ones.
    Struct,
    /// `Date`, `Time`, `DateTime`, `NaiveDateTime`.
    Temporal,
    /// A function.
    Fun,
    /// A reference, pid or port.
    Opaque,
}

/// Every kind, in order.
pub const KINDS: &[Kind] = &[
    Kind::Int,
    Kind::Float,
    Kind::Text,
    Kind::Atom,
    Kind::List,
    Kind::Tuple,
    Kind::Map,
    Kind::Struct,
    Kind::Temporal,
    Kind::Fun,
    Kind::Opaque,
];

/// The kinds `super::term` draws: scalars nested in lists, tuples and maps.
pub const TERM_KINDS: &[Kind] = &[
    Kind::Int,
    Kind::Float,
    Kind::Text,
    Kind::Atom,
    Kind::List,
    Kind::Tuple,
    Kind::Map,
];

impl Kind {
    /// The kind of `t`.
    pub fn of(t: &Term) -> Kind {
        match t {
            Term::Int(_) => Kind::Int,
            Term::Float(_) => Kind::Float,
            Term::Str(_) | Term::Bytes(_) => Kind::Text,
            Term::Nil | Term::Bool(_) | Term::Atom(_) => Kind::Atom,
            Term::List(_) => Kind::List,
            Term::Tuple(_) => Kind::Tuple,
            Term::Map(_) => Kind::Map,
            Term::Struct(_) => Kind::Struct,
            Term::Temporal(_) => Kind::Temporal,
            Term::Fun(_) => Kind::Fun,
            Term::Opaque(..) => Kind::Opaque,
        }
    }

    /// Its name in class names (`int`, `text`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Text => "text",
            Kind::Atom => "atom",
            Kind::List => "list",
            Kind::Tuple => "tuple",
            Kind::Map => "map",
            Kind::Struct => "struct",
            Kind::Temporal => "temporal",
            Kind::Fun => "function",
            Kind::Opaque => "opaque",
        }
    }

    /// The classes that split this kind finely.
    pub fn classes(self) -> Vec<Class> {
        use Class as C;
        match self {
            Kind::Int => vec![C::IntNegative, C::IntZero, C::IntPositive, C::IntPast64],
            Kind::Float => vec![
                C::FloatNegZero,
                C::FloatNegative,
                C::FloatIntegral,
                C::FloatFractional,
                C::FloatHuge,
            ],
            Kind::Text => {
                let mut v = vec![C::TextEmpty, C::TextAscii, C::TextMultibyte, C::TextNotUtf8];
                for l in TEXT_LIMITS {
                    v.extend([C::TextAt(l.n), C::TextPast(l.n)]);
                }
                v
            }
            Kind::Atom => vec![
                C::AtomNil,
                C::AtomTrue,
                C::AtomFalse,
                C::AtomModule,
                C::AtomOther,
            ],
            Kind::List => {
                let mut v = sizes(Coll::List);
                v.push(C::Keyword);
                v
            }
            Kind::Tuple => sizes(Coll::Tuple),
            Kind::Map => sizes(Coll::Map),
            Kind::Struct => structs::KNOWN.iter().map(|(m, _)| C::Struct(m)).collect(),
            Kind::Temporal => [
                TemporalKind::Date,
                TemporalKind::Time,
                TemporalKind::DateTime,
                TemporalKind::NaiveDateTime,
            ]
            .into_iter()
            .map(C::Temporal)
            .collect(),
            Kind::Fun => vec![
                C::FunArity(0),
                C::FunArity(1),
                C::FunArity(2),
                C::FunRaises,
                C::FunCapture,
            ],
            Kind::Opaque => [OpaqueKind::Ref, OpaqueKind::Pid, OpaqueKind::Port]
                .into_iter()
                .map(C::Opaque)
                .collect(),
        }
    }
}

fn sizes(c: Coll) -> Vec<Class> {
    let mut v = vec![
        Class::Size(c, Size::Empty),
        Class::Size(c, Size::One),
        Class::Size(c, Size::Few),
    ];
    v.extend(c.limits().iter().map(|l| Class::Size(c, Size::Past(l.n))));
    v
}

/// A collection whose size classes are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Coll {
    /// A list.
    List,
    /// A tuple.
    Tuple,
    /// A map.
    Map,
}

impl Coll {
    fn limits(self) -> &'static [Limit] {
        match self {
            Coll::Map => MAP_SIZE_LIMITS,
            Coll::List | Coll::Tuple => SIZE_LIMITS,
        }
    }

    fn kind(self) -> Kind {
        match self {
            Coll::List => Kind::List,
            Coll::Tuple => Kind::Tuple,
            Coll::Map => Kind::Map,
        }
    }
}

/// A size class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// No item.
    Empty,
    /// One item.
    One,
    /// Two to five items.
    Few,
    /// Exactly this many.
    At(usize),
    /// More than this many.
    Past(usize),
}

/// One class of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// An integer below zero.
    IntNegative,
    /// `0`.
    IntZero,
    /// An integer above zero.
    IntPositive,
    /// An integer outside the signed 64 bits.
    IntPast64,
    /// `-0.0`.
    FloatNegZero,
    /// A float below zero.
    FloatNegative,
    /// A float with no fraction, below 1.0e16 in magnitude (`0.0`, `2.0`).
    FloatIntegral,
    /// A float with a fraction.
    FloatFractional,
    /// A float of 1.0e16 or more in magnitude (printed with an exponent).
    FloatHuge,
    /// `""`.
    TextEmpty,
    /// A non-empty ASCII text.
    TextAscii,
    /// A UTF-8 text with a character beyond ASCII.
    TextMultibyte,
    /// A binary that is not UTF-8.
    TextNotUtf8,
    /// A UTF-8 text of exactly this many characters.
    TextAt(usize),
    /// A UTF-8 text of more than this many characters.
    TextPast(usize),
    /// `nil`.
    AtomNil,
    /// `true`.
    AtomTrue,
    /// `false`.
    AtomFalse,
    /// An atom naming an Elixir module (`Elixir.Foo`).
    AtomModule,
    /// Any other atom.
    AtomOther,
    /// A list, tuple or map of a size class.
    Size(Coll, Size),
    /// A non-empty keyword list: `{atom, value}` pairs only.
    Keyword,
    /// A non-empty list of printable code points (IN-11).
    Charlist,
    /// A struct of this module.
    Struct(&'static str),
    /// A calendar struct of this kind.
    Temporal(TemporalKind),
    /// A function that returns, of this arity (2: two or more).
    FunArity(u32),
    /// A function that raises.
    FunRaises,
    /// A named capture (`&Mod.fun/1`).
    FunCapture,
    /// A reference, pid or port.
    Opaque(OpaqueKind),
    /// Any term of this kind: the one class of a kind a place's generator
    /// does not draw well-formed (an error category).
    Any(Kind),
}

impl Class {
    /// Its kind.
    pub fn kind(self) -> Kind {
        match self {
            Class::IntNegative | Class::IntZero | Class::IntPositive | Class::IntPast64 => {
                Kind::Int
            }
            Class::FloatNegZero
            | Class::FloatNegative
            | Class::FloatIntegral
            | Class::FloatFractional
            | Class::FloatHuge => Kind::Float,
            Class::TextEmpty
            | Class::TextAscii
            | Class::TextMultibyte
            | Class::TextNotUtf8
            | Class::TextAt(_)
            | Class::TextPast(_) => Kind::Text,
            Class::AtomNil
            | Class::AtomTrue
            | Class::AtomFalse
            | Class::AtomModule
            | Class::AtomOther => Kind::Atom,
            Class::Size(c, _) => c.kind(),
            Class::Keyword | Class::Charlist => Kind::List,
            Class::Struct(_) => Kind::Struct,
            Class::Temporal(_) => Kind::Temporal,
            Class::FunArity(_) | Class::FunRaises | Class::FunCapture => Kind::Fun,
            Class::Opaque(_) => Kind::Opaque,
            Class::Any(k) => k,
        }
    }

    /// Its name in reports and in `coverage.unreachable.txt`: `int:negative`,
    /// `text:past-512`, `map:at-32`, `struct:PtcRunner.Tool`, `list:any`.
    pub fn name(self) -> String {
        let k = self.kind().name();
        let what: String = match self {
            Class::IntNegative => "negative".into(),
            Class::IntZero => "zero".into(),
            Class::IntPositive => "positive".into(),
            Class::IntPast64 => "past-64-bits".into(),
            Class::FloatNegZero => "-0.0".into(),
            Class::FloatNegative => "negative".into(),
            Class::FloatIntegral => "integral".into(),
            Class::FloatFractional => "fractional".into(),
            Class::FloatHuge => "huge".into(),
            Class::TextEmpty => "empty".into(),
            Class::TextAscii => "ascii".into(),
            Class::TextMultibyte => "multibyte".into(),
            Class::TextNotUtf8 => "not-utf8".into(),
            Class::TextAt(n) => format!("at-{n}"),
            Class::TextPast(n) => format!("past-{n}"),
            Class::AtomNil => "nil".into(),
            Class::AtomTrue => "true".into(),
            Class::AtomFalse => "false".into(),
            Class::AtomModule => "module".into(),
            Class::AtomOther => "other".into(),
            Class::Size(_, Size::Empty) => "empty".into(),
            Class::Size(_, Size::One) => "1".into(),
            Class::Size(_, Size::Few) => "2-5".into(),
            Class::Size(_, Size::At(n)) => format!("at-{n}"),
            Class::Size(_, Size::Past(n)) => format!("past-{n}"),
            Class::Keyword => "keyword".into(),
            Class::Charlist => "charlist".into(),
            Class::Struct(m) => m.into(),
            Class::Temporal(t) => t.module().into(),
            Class::FunArity(2) => "arity-2+".into(),
            Class::FunArity(n) => format!("arity-{n}"),
            Class::FunRaises => "failing".into(),
            Class::FunCapture => "capture".into(),
            Class::Opaque(OpaqueKind::Ref) => "reference".into(),
            Class::Opaque(OpaqueKind::Pid) => "pid".into(),
            Class::Opaque(OpaqueKind::Port) => "port".into(),
            Class::Any(_) => "any".into(),
        };
        format!("{k}:{what}")
    }

    /// Whether `t` is in this class.
    pub fn holds(self, t: &Term) -> bool {
        let chars = |t: &Term| match t {
            Term::Str(s) => Some(s.chars().count()),
            _ => None,
        };
        let size = |t: &Term| match t {
            Term::List(v) | Term::Tuple(v) => Some(v.len()),
            Term::Map(m) => Some(m.pairs().len()),
            _ => None,
        };
        match self {
            Class::Any(k) => Kind::of(t) == k,
            _ if Kind::of(t) != self.kind() => false,
            Class::IntNegative => matches!(t, Term::Int(i) if is_negative(i)),
            Class::IntZero => matches!(t, Term::Int(Int::Small(0))),
            Class::IntPositive => {
                matches!(t, Term::Int(i) if !is_negative(i) && *i != Int::Small(0))
            }
            Class::IntPast64 => matches!(t, Term::Int(Int::Big(_))),
            Class::FloatNegZero => matches!(t, Term::Float(x) if *x == 0.0 && x.is_sign_negative()),
            Class::FloatNegative => matches!(t, Term::Float(x) if *x < 0.0),
            Class::FloatIntegral => {
                matches!(t, Term::Float(x) if x.trunc() == *x && x.abs() < 1.0e16 && !(*x == 0.0 && x.is_sign_negative()))
            }
            Class::FloatFractional => matches!(t, Term::Float(x) if x.trunc() != *x),
            Class::FloatHuge => matches!(t, Term::Float(x) if x.abs() >= 1.0e16),
            Class::TextEmpty => matches!(t, Term::Str(s) if s.is_empty()),
            Class::TextAscii => matches!(t, Term::Str(s) if !s.is_empty() && s.is_ascii()),
            Class::TextMultibyte => matches!(t, Term::Str(s) if !s.is_ascii()),
            Class::TextNotUtf8 => matches!(t, Term::Bytes(_)),
            Class::TextAt(n) => chars(t) == Some(n),
            Class::TextPast(n) => chars(t).is_some_and(|c| c > n),
            Class::AtomNil => matches!(t, Term::Nil),
            Class::AtomTrue => matches!(t, Term::Bool(true)),
            Class::AtomFalse => matches!(t, Term::Bool(false)),
            Class::AtomModule => matches!(t, Term::Atom(a) if a.starts_with("Elixir.")),
            Class::AtomOther => matches!(t, Term::Atom(a) if !a.starts_with("Elixir.")),
            Class::Size(_, s) => size(t).is_some_and(|n| match s {
                Size::Empty => n == 0,
                Size::One => n == 1,
                Size::Few => (2..=5).contains(&n),
                Size::At(l) => n == l,
                Size::Past(l) => n > l,
            }),
            Class::Keyword => {
                matches!(t, Term::List(v) if !v.is_empty() && v.iter().all(|p| p.as_kw_pair().is_some()))
            }
            Class::Charlist => {
                matches!(t, Term::List(v) if !v.is_empty() && v.iter().all(printable_code_point))
            }
            Class::Struct(m) => matches!(t, Term::Struct(s) if s.module == m),
            Class::Temporal(k) => matches!(t, Term::Temporal(x) if x.kind == k),
            Class::FunArity(n) => {
                matches!(t, Term::Fun(f) if matches!(&**f, FunSpec::Returns { arity, .. } if (*arity).min(2) == n))
            }
            Class::FunRaises => matches!(t, Term::Fun(f) if matches!(&**f, FunSpec::Raises { .. })),
            Class::FunCapture => matches!(t, Term::Fun(f) if matches!(&**f, FunSpec::Named(_))),
            Class::Opaque(k) => matches!(t, Term::Opaque(o, _) if *o == k),
        }
    }

    /// The smallest term of the class, the one a generated case holds.
    pub fn example(self) -> Term {
        let text = |n: usize| Term::Str("a".repeat(n));
        let items = |n: usize| (1..=n as i64).map(Term::int).collect::<Vec<_>>();
        match self {
            Class::IntNegative => Term::int(-1),
            Class::IntZero => Term::int(0),
            Class::IntPositive => Term::int(1),
            Class::IntPast64 => Term::Int(Int::from(BigInt::from(2).pow(64))),
            Class::FloatNegZero => Term::Float(-0.0),
            Class::FloatNegative => Term::Float(-1.5),
            Class::FloatIntegral => Term::Float(2.0),
            Class::FloatFractional => Term::Float(1.5),
            Class::FloatHuge => Term::Float(1.0e20),
            Class::TextEmpty => Term::str(""),
            Class::TextAscii => Term::str("a"),
            Class::TextMultibyte => Term::str("é"),
            Class::TextNotUtf8 => Term::binary(vec![b'a', 0xff]),
            Class::TextAt(n) => text(n),
            Class::TextPast(n) => text(n + 1),
            Class::AtomNil => Term::Nil,
            Class::AtomTrue => Term::Bool(true),
            Class::AtomFalse => Term::Bool(false),
            Class::AtomModule => Term::atom("Elixir.Foo"),
            Class::AtomOther => Term::atom("a"),
            Class::Size(c, s) => {
                let n = match s {
                    Size::Empty => 0,
                    Size::One => 1,
                    Size::Few => 2,
                    Size::At(l) => l,
                    Size::Past(l) => l + 1,
                };
                sized(c, items(n))
            }
            Class::Keyword => Term::List(vec![Term::tuple(vec![Term::atom("a"), Term::int(1)])]),
            Class::Charlist => Term::List(vec![Term::int(97)]),
            Class::Struct(m) => written(m),
            Class::Temporal(k) => Term::Temporal(Temporal {
                kind: k,
                iso: match k {
                    TemporalKind::Date => "2024-01-01",
                    TemporalKind::Time => "12:00:00",
                    TemporalKind::DateTime => "2024-01-01T00:00:00Z",
                    TemporalKind::NaiveDateTime => "2024-01-01T00:00:00",
                }
                .to_owned(),
            }),
            Class::FunArity(arity) => Term::Fun(Box::new(FunSpec::Returns {
                arity,
                returns: Term::Nil,
            })),
            Class::FunRaises => Term::Fun(Box::new(FunSpec::Raises {
                arity: 1,
                message: "boom".to_owned(),
            })),
            Class::FunCapture => {
                Term::Fun(Box::new(FunSpec::Named("&Nope.Missing.run/1".to_owned())))
            }
            Class::Opaque(k) => Term::Opaque(k, "a".to_owned()),
            Class::Any(k) => k.classes()[0].example(),
        }
    }

    /// A term of the class shaped as `existing`, the value a case already
    /// has at a place: a list, tuple or map of a size class made of
    /// `existing`'s own items, repeated (a map's keys made distinct), so
    /// that a list of tools stays a list of tools and the op gets past the
    /// checks of its elements. `None` when `existing` is not a non-empty
    /// collection of the class's kind, or the class is not a size class.
    pub fn like(self, existing: &Term) -> Option<Term> {
        let Class::Size(c, s) = self else {
            return None;
        };
        let n = match s {
            Size::Empty => 0,
            Size::One => 1,
            Size::Few => 2,
            Size::At(l) => l,
            Size::Past(l) => l + 1,
        };
        let t = match (c, existing) {
            (Coll::List, Term::List(items)) if !items.is_empty() => {
                Term::List(items.iter().cycle().take(n).cloned().collect())
            }
            (Coll::Tuple, Term::Tuple(items)) if !items.is_empty() => {
                Term::Tuple(items.iter().cycle().take(n).cloned().collect())
            }
            (Coll::Map, Term::Map(m)) if !m.is_empty() => {
                let pairs = m.pairs();
                let pairs = (0..n)
                    .map(|i| {
                        let (k, v) = &pairs[i % pairs.len()];
                        let round = i / pairs.len();
                        let k = match (round, k) {
                            (0, k) => k.clone(),
                            (r, Term::Str(k)) => Term::Str(format!("{k}_{r}")),
                            (r, Term::Atom(a)) => Term::atom(&format!("{a}_{r}")),
                            (r, _) => Term::int((r * pairs.len() + i) as i64 + 1_000_000),
                        };
                        (k, v.clone())
                    })
                    .collect();
                Term::map(pairs)
            }
            _ => return None,
        };
        self.holds(&t).then_some(t)
    }

    /// Terms of the class as the fuzzer draws them: the example's
    /// neighbours, built from the domain's own generators.
    pub fn strategy(self) -> BoxedStrategy<Term> {
        let ascii = |n: usize| {
            prop::sample::select(vec!["a", "Z", "0", " ", "-"])
                .prop_map(move |c| Term::Str(c.repeat(n)))
        };
        let multi = |n: usize| {
            prop::sample::select(vec!["é", "中", "😀"]).prop_map(move |c| Term::Str(c.repeat(n)))
        };
        match self {
            Class::IntNegative => prop_oneof![
                (-1000i64..0).prop_map(Term::int),
                (i64::MIN..0).prop_map(Term::int)
            ]
            .boxed(),
            Class::IntZero => Just(Term::int(0)).boxed(),
            Class::IntPositive => prop_oneof![
                (1i64..1000).prop_map(Term::int),
                (1i64..=i64::MAX).prop_map(Term::int)
            ]
            .boxed(),
            Class::IntPast64 => (any::<bool>(), 0u32..64, any::<u64>())
                .prop_map(|(neg, shift, lo)| {
                    let n = (BigInt::from(1) << (64 + shift)) + BigInt::from(lo);
                    Term::Int(Int::from(if neg { -n } else { n }))
                })
                .boxed(),
            Class::FloatNegZero => Just(Term::Float(-0.0)).boxed(),
            Class::FloatNegative => prop_oneof![
                (1u32..100_000).prop_map(|n| Term::Float(-f64::from(n) / 8.0)),
                Just(Term::Float(-1.0e20)),
            ]
            .boxed(),
            Class::FloatIntegral => (-100_000i64..100_000)
                .prop_map(|n| Term::Float(n as f64))
                .boxed(),
            Class::FloatFractional => domain::threshold_float()
                .prop_filter_map("fractional", |x| (x.trunc() != x).then_some(Term::Float(x)))
                .boxed(),
            Class::FloatHuge => {
                prop::sample::select(vec![1.0e16, 1.0e20, -2.0e19, 1.0e21, 1.0e300, f64::MAX])
                    .prop_map(Term::Float)
                    .boxed()
            }
            Class::TextEmpty => Just(Term::str("")).boxed(),
            Class::TextAscii => "[ -~]{1,12}".prop_map(Term::Str).boxed(),
            Class::TextMultibyte => domain::hostile_string()
                .prop_map(|s| Term::Str(format!("{s}é")))
                .boxed(),
            Class::TextNotUtf8 => domain::bad_utf8(),
            Class::TextAt(n) => prop_oneof![ascii(n), multi(n)].boxed(),
            Class::TextPast(n) => (1usize..3)
                .prop_flat_map(move |d| prop_oneof![ascii(n + d), multi(n + d)])
                .boxed(),
            Class::AtomNil => Just(Term::Nil).boxed(),
            Class::AtomTrue => Just(Term::Bool(true)).boxed(),
            Class::AtomFalse => Just(Term::Bool(false)).boxed(),
            Class::AtomModule => {
                prop::sample::select(vec!["Elixir.Foo", "Elixir.PtcRunner.Nope", "Elixir.A.B"])
                    .prop_map(Term::atom)
                    .boxed()
            }
            Class::AtomOther => domain::atom_name()
                .prop_filter_map("other atom", |a| {
                    let t = Term::atom(&a);
                    Class::AtomOther.holds(&t).then_some(t)
                })
                .boxed(),
            Class::Size(c, s) => {
                let n = match s {
                    Size::Empty => (0usize..1).boxed(),
                    Size::One => (1usize..2).boxed(),
                    Size::Few => (2usize..6).boxed(),
                    Size::At(l) => (l..l + 1).boxed(),
                    Size::Past(l) => (l + 1..l + 3).boxed(),
                };
                (n, super::scalar())
                    .prop_map(move |(n, x)| match c {
                        // Distinct keys, so the map has its size.
                        Coll::Map => sized(c, (1..=n as i64).map(Term::int).collect()),
                        _ => sized(c, vec![x; n]),
                    })
                    .boxed()
            }
            Class::Keyword => prop::collection::vec((super::key_name(), super::scalar()), 1..4)
                .prop_map(|kv| {
                    Term::List(
                        kv.into_iter()
                            .map(|(k, v)| Term::tuple(vec![Term::atom(&k), v]))
                            .collect(),
                    )
                })
                .boxed(),
            Class::Charlist => prop::collection::vec(
                prop::sample::select(vec![97i64, 98, 32, 10, 34, 92, 126, 7]),
                1..6,
            )
            .prop_map(|cps| Term::List(cps.into_iter().map(Term::int).collect()))
            .boxed(),
            Class::Struct(m) => Just(written(m)).boxed(),
            Class::Temporal(k) => domain::temporal()
                .prop_filter("of its kind", move |t| Class::Temporal(k).holds(t))
                .boxed(),
            Class::FunArity(n) => (n..if n == 2 { 4 } else { n + 1 }, super::scalar())
                .prop_map(|(arity, returns)| {
                    Term::Fun(Box::new(FunSpec::Returns { arity, returns }))
                })
                .boxed(),
            Class::FunRaises | Class::FunCapture => domain::function(super::scalar())
                .prop_filter("of its class", move |t| self.holds(t))
                .boxed(),
            Class::Opaque(k) => Just(Term::Opaque(k, "a".to_owned())).boxed(),
            Class::Any(k) => prop::sample::select(k.classes())
                .prop_flat_map(Class::strategy)
                .boxed(),
        }
    }
}

fn is_negative(i: &Int) -> bool {
    match i {
        Int::Small(n) => *n < 0,
        Int::Big(b) => b.sign() == num_bigint::Sign::Minus,
    }
}

/// Whether `t` is a code point a charlist prints as text (IN-11).
fn printable_code_point(t: &Term) -> bool {
    matches!(t, Term::Int(Int::Small(7..=13 | 27 | 32..=126)))
}

fn sized(c: Coll, items: Vec<Term>) -> Term {
    match c {
        Coll::List => Term::List(items),
        Coll::Tuple => Term::Tuple(items),
        Coll::Map => Term::map(items.into_iter().map(|k| (k.clone(), k)).collect()),
    }
}

/// A struct of `module` with no field written: every field its default (TJ-7).
fn written(module: &str) -> Term {
    structs::written(module, Vec::<(&str, Term)>::new())
        .map(|s| Term::Struct(Box::new(s)))
        .unwrap_or_else(|e| panic!("{module}: {e}"))
}

/// Every class of the table: each kind's fine classes, then each kind's
/// [`Class::Any`].
pub fn all() -> Vec<Class> {
    let mut v: Vec<Class> = KINDS.iter().flat_map(|k| k.classes()).collect();
    v.extend(KINDS.iter().map(|k| Class::Any(*k)));
    v
}

/// The class named `name` ([`Class::name`]).
pub fn by_name(name: &str) -> Option<Class> {
    all().into_iter().find(|c| c.name() == name)
}

/// The classes of a place whose generator draws `kinds` well-formed: each
/// of their fine classes, and one [`Class::Any`] for every other kind
/// (the error categories, which the fuzzer's `anywhere` and mutations
/// reach).
pub fn of_domain(kinds: &[Kind]) -> Vec<Class> {
    KINDS
        .iter()
        .flat_map(|k| {
            if kinds.contains(k) {
                k.classes()
            } else {
                vec![Class::Any(*k)]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn every_example_and_draw_is_in_its_class() {
        let mut runner = TestRunner::deterministic();
        for class in all() {
            let e = class.example();
            assert!(class.holds(&e), "{}: example {e:?}", class.name());
            let s = class.strategy();
            for _ in 0..30 {
                let t = s.new_tree(&mut runner).unwrap().current();
                assert!(class.holds(&t), "{}: drawn {t:?}", class.name());
            }
        }
    }

    #[test]
    fn names_are_unique_and_read_back() {
        let all = all();
        for c in &all {
            assert_eq!(by_name(&c.name()), Some(*c), "{}", c.name());
        }
        let mut names: Vec<String> = all.iter().map(|c| c.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }

    #[test]
    fn a_size_class_like_a_value_repeats_its_items() {
        let tool = Term::atom("t");
        let past = Class::Size(Coll::List, Size::Past(20));
        assert_eq!(
            past.like(&Term::List(vec![tool.clone()])),
            Some(Term::List(vec![tool; 21]))
        );
        let m = Term::map(vec![
            (Term::str("a"), Term::int(1)),
            (Term::atom("b"), Term::int(2)),
        ]);
        let big = Class::Size(Coll::Map, Size::Past(32)).like(&m).unwrap();
        assert!(Class::Size(Coll::Map, Size::Past(32)).holds(&big));
        assert_eq!(
            Class::Size(Coll::Map, Size::Empty).like(&m),
            Some(Term::map(vec![]))
        );
        assert_eq!(past.like(&Term::List(vec![])), None);
        assert_eq!(Class::IntZero.like(&Term::int(3)), None);
    }

    #[test]
    fn a_term_is_in_the_classes_it_shows() {
        let t = Term::Str("é".repeat(512));
        for c in [
            Class::TextMultibyte,
            Class::TextAt(512),
            Class::TextPast(250),
        ] {
            assert!(c.holds(&t), "{}", c.name());
        }
        assert!(!Class::TextPast(512).holds(&t));
        assert!(Class::FloatNegative.holds(&Term::Float(-1.0e20)));
        assert!(Class::FloatHuge.holds(&Term::Float(-1.0e20)));
        assert!(!Class::FloatIntegral.holds(&Term::Float(-0.0)));
        assert!(Class::FloatIntegral.holds(&Term::Float(0.0)));
        assert!(Class::IntNegative.holds(&Term::Int(Int::from(-BigInt::from(2).pow(70)))));
        assert!(Class::Any(Kind::List).holds(&Term::List(vec![])));
        assert!(!Class::Any(Kind::List).holds(&Term::Nil));
    }
}
