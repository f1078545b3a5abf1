//! The well-formed arguments of `protocol.atomize_value` and
//! `protocol.validate_return` (`spec/json_handler.md`): signature types as
//! `parse_signature/1` builds them, with field names as PTC-Lisp writes
//! them (`user-id`, `user_id`), and values shaped by a type (JSON as a
//! program returns it, or the same after `atomize_value/2`), well-typed or
//! not, with keys from every part of the atom table (JH-4 to JH-7).

use super::shapes::written;
use crate::review::gen::{self, domain};
use proptest::prelude::*;
use ptc_conformance::term::{Temporal, TemporalKind, Term};

/// A type term: the primitives (and a few names no clause knows), and
/// `{:optional, t}`, `{:list, t}`, `{:map, fields}`, `{:closed_map, fields}`.
pub(super) fn sig_type() -> BoxedStrategy<Term> {
    let prim = prop_oneof![
        8 => prop::sample::select(vec!["string", "int", "float", "bool", "keyword", "map", "any", "datetime"])
            .prop_map(Term::atom),
        1 => prop::sample::select(vec!["integer", "nope", "nil"]).prop_map(Term::atom),
    ];
    prim.prop_recursive(3, 16, 4, |inner| {
        let tag = |t: &'static str| move |x: Term| Term::tuple(vec![Term::atom(t), x]);
        let fields = prop::collection::vec((field_name(), inner.clone()), 0..4).prop_map(|fs| {
            Term::List(
                fs.into_iter()
                    .map(|(n, t)| Term::tuple(vec![n, t]))
                    .collect(),
            )
        });
        prop_oneof![
            2 => inner.clone().prop_map(tag("optional")),
            2 => inner.prop_map(tag("list")),
            3 => fields.clone().prop_map(tag("map")),
            2 => fields.prop_map(tag("closed_map")),
        ]
    })
    .boxed()
}

/// A field name: a binary as the parser gives it, now and then an atom.
fn field_name() -> BoxedStrategy<Term> {
    prop_oneof![8 => gen::key_name().prop_map(Term::Str), 1 => key(), 1 => gen::key_name().prop_map(|k| Term::atom(&k))].boxed()
}

/// A map key: names the reference platform always has as atoms
/// (`data/atoms.json`), names whose atom is the VM's business, names that
/// can never be atoms, and a few non-binaries.
fn key() -> BoxedStrategy<Term> {
    prop_oneof![
        4 => gen::key_name().prop_map(Term::Str),
        2 => prop::sample::select(vec!["name", "id", "count", "items", "message", "path", "nil", "true", "when", "status"])
            .prop_map(Term::str),
        2 => prop::sample::select(vec!["zq_vm_decides", "year", "n", "user_id", "x"]).prop_map(Term::str),
        1 => Just(Term::Str("k".repeat(256))),
        1 => domain::bad_utf8(),
        1 => gen::key_name().prop_map(|k| Term::atom(&k)),
        1 => Just(Term::Struct(Box::new(written("PtcRunner.Lisp.Keyword", vec![("name", Term::str("id"))])))),
    ]
    .boxed()
}

/// An ISO 8601 text as a model might write it, valid or nearly so.
fn datetime_text() -> BoxedStrategy<Term> {
    let date = prop::sample::select(vec![
        "2024-02-29",
        "2023-02-29",
        "2024-12-31",
        "0001-01-01",
        "2024-13-01",
        "1999-01-01",
    ]);
    let sep = prop::sample::select(vec!["T", " ", "t"]);
    let time = prop::sample::select(vec![
        "00:00:00", "23:59:59", "12:30:05", "24:00:00", "23:59:60",
    ]);
    let frac = prop::sample::select(vec!["", ".5", ",123", ".1234567", ".", ".000"]);
    let zone = prop::sample::select(vec![
        "Z", "+02:00", "-05:30", "+0100", "-01", "-00:00", "+00:00", "", "+-1", "+24:00", "z",
    ]);
    let sign = prop::sample::select(vec!["", "", "", "+", "-"]);
    (sign, date, sep, time, frac, zone)
        .prop_map(|(g, d, s, t, f, z)| Term::Str(format!("{g}{d}{s}{t}{f}{z}")))
        .boxed()
}

/// A value for `ty`: built from its shape (keys as binaries, or as atoms
/// when `atomized`), or any JSON-like term.
fn value_for(ty: &Term, atomized: bool, depth: u32) -> BoxedStrategy<Term> {
    let any = prop_oneof![
        3 => gen::scalar(),
        2 => datetime_text(),
        1 => Just(Term::Temporal(Temporal { kind: TemporalKind::DateTime, iso: "2024-01-01T00:00:00Z".into() })),
        1 => prop::collection::vec((key(), gen::scalar()), 0..3).prop_map(Term::map),
    ]
    .boxed();
    let Term::Tuple(t) = ty else {
        return match ty.as_atom() {
            Some("datetime") => prop_oneof![3 => datetime_text(), 1 => any].boxed(),
            _ => any,
        };
    };
    if depth == 0 || t.len() != 2 {
        return any;
    }
    match (t[0].as_atom(), &t[1]) {
        (Some("optional"), inner) => {
            prop_oneof![1 => Just(Term::Nil), 3 => value_for(inner, atomized, depth)].boxed()
        }
        (Some("list"), inner) => prop::collection::vec(value_for(inner, atomized, depth - 1), 0..3)
            .prop_map(Term::List)
            .boxed(),
        (Some("map" | "closed_map"), Term::List(fields)) => {
            let entries: Vec<BoxedStrategy<Option<(Term, Term)>>> = fields
                .iter()
                .filter_map(|f| match f {
                    Term::Tuple(p) if p.len() == 2 => Some((p[0].clone(), p[1].clone())),
                    _ => None,
                })
                .map(|(name, ft)| {
                    // A name past 255 characters stays a binary: no atom
                    // has it (TJ-1), and an input holding one would be
                    // declined by every adapter, never compared.
                    let k = match (name.as_binary().and_then(|b| std::str::from_utf8(b).ok()), atomized) {
                        (Some(s), true) if s.chars().count() <= ptc_conformance::tagged::MAX_ATOM_CHARS => Term::atom(s),
                        _ => name,
                    };
                    prop_oneof![1 => Just(None), 5 => value_for(&ft, atomized, depth - 1).prop_map(move |v| Some((k.clone(), v)))].boxed()
                })
                .collect();
            (entries, prop::collection::vec((key(), gen::scalar()), 0..2))
                .prop_map(|(fs, extra)| Term::map(fs.into_iter().flatten().chain(extra).collect()))
                .boxed()
        }
        _ => any,
    }
}

/// `[value, type]` for `atomize_value/2`: JSON as a program returns it.
pub(super) fn atomize_args() -> BoxedStrategy<Vec<Term>> {
    prop_oneof![
        4 => sig_type().prop_flat_map(|t| value_for(&t, false, 3).prop_map(move |v| vec![v, t.clone()])),
        1 => (gen::term(), prop_oneof![Just(Term::Nil), sig_type()]).prop_map(|(v, t)| vec![v, t]),
    ]
    .boxed()
}

/// `[definition, value]` for `validate_return/2`: a map (or `Definition`)
/// carrying a parsed signature, and a value shaped by its return type.
pub(super) fn validate_args() -> BoxedStrategy<Vec<Term>> {
    let signature = |ret: Term| Term::tuple(vec![Term::atom("signature"), Term::List(vec![]), ret]);
    let definition = |sig: Term, as_struct: bool| {
        if as_struct {
            Term::Struct(Box::new(written(
                "PtcRunner.SubAgent.Definition",
                vec![("parsed_signature", sig)],
            )))
        } else {
            Term::map(vec![(Term::atom("parsed_signature"), sig)])
        }
    };
    prop_oneof![
        8 => (sig_type(), any::<bool>(), any::<bool>()).prop_flat_map(move |(t, atomized, as_struct)| {
            let d = definition(signature(t.clone()), as_struct);
            value_for(&t, atomized, 3).prop_map(move |v| vec![d.clone(), v])
        }),
        1 => gen::term().prop_map(move |v| vec![definition(Term::Nil, false), v]),
        1 => (gen::term(), gen::term()).prop_map(move |(s, v)| vec![definition(s, false), v]),
    ]
    .boxed()
}
