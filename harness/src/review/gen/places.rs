//! The argument places of every op, as the generators of [`super::ops`]
//! fill them: each argument, the fields the generators write into the
//! structs and maps they pass, the elements of the lists they pass, and
//! the values of the options in their option lists. Each place names the
//! kinds its well-formed generator draws; its classes are those kinds'
//! fine classes and one class for every other kind ([`classes::of_domain`]).
//!
//! A test draws every op's well-formed generator and holds it to this
//! table: a value it puts at a place is of one of the place's kinds, and
//! an option name or struct field it writes is a place here.
//! [`placed`] draws a corpus case with a term of one class put at one
//! place, which is how the fuzzer reaches every class at every place and
//! how `lint --coverage --emit` writes the cases the corpus lacks.

use super::classes::{self, Class, Kind, KINDS, TERM_KINDS};
use proptest::prelude::*;
use ptc_conformance::term::Term;

/// One step of a path into an op's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The argument at this position.
    Arg(usize),
    /// A struct's field, or a map's value under this atom key.
    Field(&'static str),
    /// The value of the first `{:name, value}` entry of a list, as
    /// `Keyword.get/3` reads it.
    Opt(&'static str),
    /// Each element of a list, each value of a map, each member of a `MapSet`.
    Elem,
    /// Each key of a map.
    Key,
    /// The tuple element at this position.
    At(usize),
}

/// A place of an op's arguments and the kinds its generator draws there.
#[derive(Debug)]
pub struct Place {
    /// The op.
    pub op: &'static str,
    /// Where, from the argument list.
    pub path: &'static [Step],
    /// The kinds drawn well-formed there.
    pub kinds: &'static [Kind],
}

use Step::{Arg, At, Elem, Field, Key, Opt};

const ATOM: &[Kind] = &[Kind::Atom];
const TEXT: &[Kind] = &[Kind::Text];
const INT: &[Kind] = &[Kind::Int];
const LIST: &[Kind] = &[Kind::List];
const STRUCT: &[Kind] = &[Kind::Struct];
const MAP: &[Kind] = &[Kind::Map];
const OPTIONAL_LIST: &[Kind] = &[Kind::Atom, Kind::List];
const MODE: &[Kind] = &[Kind::Atom, Kind::Struct, Kind::Map];
/// What `domain::hostile_term` draws: every kind.
const ANY: &[Kind] = KINDS;
/// What `super::term` draws.
const TERM: &[Kind] = TERM_KINDS;
/// `super::term` with the calendar structs (`atomize_value`'s values).
const TERM_TEMPORAL: &[Kind] = &[
    Kind::Int,
    Kind::Float,
    Kind::Text,
    Kind::Atom,
    Kind::List,
    Kind::Tuple,
    Kind::Map,
    Kind::Temporal,
];
/// `normalize_key`'s: keys, terms and `domain::hostile_scalar`.
const KEY: &[Kind] = &[
    Kind::Int,
    Kind::Float,
    Kind::Text,
    Kind::Atom,
    Kind::List,
    Kind::Tuple,
    Kind::Map,
    Kind::Temporal,
    Kind::Opaque,
];
/// A map key as `super::key` draws it.
const MAP_KEY: &[Kind] = &[Kind::Text, Kind::Atom, Kind::Int, Kind::Float, Kind::Tuple];
/// A key of `cache_hint`'s args map, as its generator draws it (other
/// kinds are each one class of the place).
const TEXT_KEY: &[Kind] = &[Kind::Text, Kind::Atom];
/// A tool option's value (`shapes::tool_format`'s `opt_value`).
const TOOL_OPTION: &[Kind] = &[Kind::Atom, Kind::List, Kind::Text, Kind::Int];
/// A tool format: a function, `{function, ...}`, a struct, a builtin atom.
const TOOL_FORMAT: &[Kind] = &[Kind::Fun, Kind::Tuple, Kind::Struct, Kind::Atom];

const fn p(op: &'static str, path: &'static [Step], kinds: &'static [Kind]) -> Place {
    Place { op, path, kinds }
}

/// The places of `tool.new` and `tool.validate` (`name` the kinds of their name).
macro_rules! tool_places {
    ($op:literal, $name:expr) => {
        [
            p($op, &[Arg(0)], $name),
            p($op, &[Arg(1)], TOOL_FORMAT),
            p($op, &[Arg(1), At(0)], &[Kind::Fun]),
            p($op, &[Arg(1), At(1)], &[Kind::List, Kind::Text, Kind::Atom]),
            p($op, &[Arg(1), At(1), Opt("expose")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("cache")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("native_result")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("visibility")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("signature")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("description")], TOOL_OPTION),
            p($op, &[Arg(1), At(1), Opt("timeout")], TOOL_OPTION),
        ]
    };
}

/// The places of a `%PtcRunner.Step{}` at argument 0 of `op`.
macro_rules! step_places {
    ($op:literal) => {
        [
            p($op, &[Arg(0)], STRUCT),
            p($op, &[Arg(0), Field("return")], ANY),
            p($op, &[Arg(0), Field("prints")], LIST),
            p($op, &[Arg(0), Field("prints"), Elem], TEXT),
            p($op, &[Arg(0), Field("memory")], &[Kind::Atom, Kind::Map]),
        ]
    };
}

const EFFECTIVE: [Place; 9] = [
    p("exposure.effective_expose", &[Arg(0)], STRUCT),
    p("exposure.effective_expose", &[Arg(0), Field("name")], TEXT),
    p(
        "exposure.effective_expose",
        &[Arg(0), Field("expose")],
        ATOM,
    ),
    p(
        "exposure.effective_expose",
        &[Arg(0), Field("visibility")],
        ATOM,
    ),
    p("exposure.effective_expose", &[Arg(0), Field("cache")], ATOM),
    p(
        "exposure.effective_expose",
        &[Arg(0), Field("native_result")],
        OPTIONAL_LIST,
    ),
    p("exposure.effective_expose", &[Arg(1)], MODE),
    p(
        "exposure.effective_expose",
        &[Arg(1), Field("output")],
        ATOM,
    ),
    p(
        "exposure.effective_expose",
        &[Arg(1), Field("ptc_transport")],
        ATOM,
    ),
];

const FILTER: [Place; 10] = [
    p(
        "exposure.filter_by_expose",
        &[Arg(0)],
        &[Kind::List, Kind::Map],
    ),
    p("exposure.filter_by_expose", &[Arg(0), Elem], STRUCT),
    p(
        "exposure.filter_by_expose",
        &[Arg(0), Elem, Field("name")],
        TEXT,
    ),
    p(
        "exposure.filter_by_expose",
        &[Arg(0), Elem, Field("expose")],
        ATOM,
    ),
    p(
        "exposure.filter_by_expose",
        &[Arg(0), Elem, Field("visibility")],
        ATOM,
    ),
    p("exposure.filter_by_expose", &[Arg(1)], MODE),
    p(
        "exposure.filter_by_expose",
        &[Arg(1), Field("output")],
        ATOM,
    ),
    p(
        "exposure.filter_by_expose",
        &[Arg(1), Field("ptc_transport")],
        ATOM,
    ),
    p(
        "exposure.filter_by_expose",
        &[Arg(2)],
        &[Kind::List, Kind::Struct, Kind::Tuple],
    ),
    p("exposure.filter_by_expose", &[Arg(2), Elem], ATOM),
];

const KEYS: [Place; 8] = [
    p("key_normalizer.canonical_cache_key", &[Arg(0)], TEXT),
    p("key_normalizer.canonical_cache_key", &[Arg(1)], TERM),
    p(
        "key_normalizer.canonical_cache_key",
        &[Arg(1), Key],
        MAP_KEY,
    ),
    p("key_normalizer.canonical_cache_key", &[Arg(1), Elem], TERM),
    p("key_normalizer.normalize_key", &[Arg(0)], KEY),
    p("key_normalizer.normalize_keys", &[Arg(0)], TERM),
    p("key_normalizer.normalize_keys", &[Arg(0), Key], MAP_KEY),
    p("key_normalizer.normalize_keys", &[Arg(0), Elem], TERM),
];

const PREVIEW: [Place; 13] = [
    p(
        "lisp_formatter.format",
        &[Arg(0)],
        &[Kind::Atom, Kind::Int, Kind::Float, Kind::Tuple],
    ),
    p(
        "lisp_formatter.format",
        &[Arg(0), At(1)],
        &[Kind::Text, Kind::List],
    ),
    p("native_preview.build", &[Arg(0)], STRUCT),
    p("native_preview.build", &[Arg(0), Field("name")], TEXT),
    p(
        "native_preview.build",
        &[Arg(0), Field("native_result")],
        OPTIONAL_LIST,
    ),
    p(
        "native_preview.build",
        &[Arg(0), Field("native_result"), Opt("preview")],
        ATOM,
    ),
    p(
        "native_preview.build",
        &[Arg(0), Field("native_result"), Opt("limit")],
        INT,
    ),
    p("native_preview.build", &[Arg(1)], TERM),
    p("native_preview.build", &[Arg(2)], MAP),
    p("native_preview.cache_hint", &[Arg(0)], TEXT),
    p("native_preview.cache_hint", &[Arg(1)], MAP),
    p("native_preview.cache_hint", &[Arg(1), Key], TEXT_KEY),
    p("native_preview.cache_hint", &[Arg(1), Elem], TERM),
];

const JSON: [Place; 5] = [
    p("protocol.atomize_value", &[Arg(0)], TERM_TEMPORAL),
    p(
        "protocol.atomize_value",
        &[Arg(1)],
        &[Kind::Atom, Kind::Tuple],
    ),
    p(
        "protocol.validate_return",
        &[Arg(0)],
        &[Kind::Map, Kind::Struct],
    ),
    p(
        "protocol.validate_return",
        &[Arg(0), Field("parsed_signature")],
        TERM,
    ),
    p("protocol.validate_return", &[Arg(1)], TERM_TEMPORAL),
];

const ERROR: [Place; 5] = [
    p("protocol.render_error", &[Arg(0)], ATOM),
    p("protocol.render_error", &[Arg(1)], TEXT),
    p("protocol.render_error", &[Arg(2)], LIST),
    p("protocol.render_error", &[Arg(2), Opt("feedback")], TEXT),
    p("protocol.render_error", &[Arg(2), Opt("result")], TERM),
];

const SUCCESS: [Place; 10] = [
    p("protocol.render_success", &[Arg(1)], LIST),
    p("protocol.render_success", &[Arg(1), Opt("execution")], ANY),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("execution"), Field("feedback")],
        TEXT,
    ),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("execution"), Field("truncated")],
        ATOM,
    ),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("execution"), Field("result")],
        TERM,
    ),
    p("protocol.render_success", &[Arg(1), Opt("validated")], ANY),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("include_memory")],
        ANY,
    ),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("format_options")],
        ANY,
    ),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("prior_memory")],
        ANY,
    ),
    p(
        "protocol.render_success",
        &[Arg(1), Opt("execution"), Field("prints")],
        LIST,
    ),
];

const FROM_STEP: [Place; 10] = [
    p("protocol.render_success_from_step", &[Arg(1)], LIST),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("include_memory")],
        TERM,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options")],
        TERM,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options"), Opt("feedback_max_chars")],
        ANY,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options"), Opt("preview_max_chars")],
        ANY,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options"), Opt("feedback_limit")],
        ANY,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options"), Opt("result_max_chars")],
        ANY,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("format_options"), Opt("max_print_length")],
        ANY,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("prior_memory")],
        TERM,
    ),
    p(
        "protocol.render_success_from_step",
        &[Arg(1), Opt("validated")],
        TERM,
    ),
];

const MISC: [Place; 8] = [
    p("protocol.to_json_value", &[Arg(0)], TERM),
    p("protocol.to_json_value", &[Arg(0), Key], MAP_KEY),
    p("protocol.tool_description", &[Arg(0)], ATOM),
    p("protocol.validate_program", &[Arg(0)], TERM),
    p("protocol.parse_signature", &[Arg(0)], TEXT),
    p("term.inspect", &[Arg(0)], ANY),
    p(
        "tool.private?",
        &[Arg(0)],
        &[Kind::Struct, Kind::Fun, Kind::Tuple, Kind::Atom],
    ),
    p("tool.private?", &[Arg(0), Field("visibility")], ATOM),
];

const TOOL_NEW: [Place; 11] = tool_places!("tool.new", TEXT);
const TOOL_VALIDATE: [Place; 11] = tool_places!("tool.validate", &[Kind::Text, Kind::Atom]);
const SUCCESS_STEP: [Place; 5] = step_places!("protocol.render_success");
const FROM_STEP_STEP: [Place; 5] = step_places!("protocol.render_success_from_step");

/// Every place of every op, in op order.
pub fn all() -> Vec<&'static Place> {
    let groups: [&'static [Place]; 14] = [
        &EFFECTIVE,
        &FILTER,
        &KEYS,
        &PREVIEW,
        &JSON,
        &ERROR,
        &SUCCESS_STEP,
        &SUCCESS,
        &FROM_STEP_STEP,
        &FROM_STEP,
        &MISC,
        &TOOL_NEW,
        &TOOL_VALIDATE,
        &[],
    ];
    let mut v: Vec<&'static Place> = groups.iter().flat_map(|g| g.iter()).collect();
    v.sort_by_key(|p| p.op);
    v
}

/// The places of `op`.
pub fn of_op(op: &str) -> Vec<&'static Place> {
    all().into_iter().filter(|p| p.op == op).collect()
}

impl Place {
    /// The place as reports name it: `args[1][:format_options][:limit]`,
    /// `args[0].expose`, `args[0][*]`, `args[1]{1}`.
    pub fn name(&self) -> String {
        let mut out = String::from("args");
        for s in self.path {
            match s {
                Arg(i) => out.push_str(&format!("[{i}]")),
                Field(f) => out.push_str(&format!(".{f}")),
                Opt(o) => out.push_str(&format!("[:{o}]")),
                Elem => out.push_str("[*]"),
                Key => out.push_str("{key}"),
                At(i) => out.push_str(&format!("{{{i}}}")),
            }
        }
        out
    }

    /// The place's classes ([`classes::of_domain`] of its kinds).
    pub fn classes(&self) -> Vec<Class> {
        classes::of_domain(self.kinds)
    }

    /// The terms at the place in `args` (an [`Step::Elem`] gives each
    /// element); none where the arguments do not reach it.
    pub fn values<'a>(&self, args: &'a [Term]) -> Vec<&'a Term> {
        let Some((Arg(i), rest)) = self.path.split_first() else {
            return Vec::new();
        };
        let mut at: Vec<&Term> = args.get(*i).into_iter().collect();
        for s in rest {
            at = at.into_iter().flat_map(|t| step(t, *s)).collect();
        }
        at
    }

    /// `args` with `value` put at the place: the first element of an
    /// [`Step::Elem`], an option added at the front of its list when the
    /// list lacks it, a field written into its struct or map. `None` where
    /// the arguments do not reach the place's parent (or a struct's field
    /// cannot hold the value, TJ-7).
    pub fn put(&self, args: &[Term], value: &Term) -> Option<Vec<Term>> {
        let (Arg(i), rest) = self.path.split_first()? else {
            return None;
        };
        let mut out = args.to_vec();
        put_in(out.get_mut(*i)?, rest, value)?;
        Some(out)
    }
}

fn step(t: &Term, s: Step) -> Vec<&Term> {
    match (s, t) {
        (Field(f), Term::Struct(st)) => st.field(f).into_iter().collect(),
        (Field(f), Term::Map(m)) => m.get_atom(f).into_iter().collect(),
        (Opt(o), Term::List(items)) => items
            .iter()
            .find_map(|e| e.as_kw_pair().filter(|(k, _)| *k == o).map(|(_, v)| v))
            .into_iter()
            .collect(),
        (Elem, Term::List(items)) => items.iter().collect(),
        (Elem, Term::Map(m)) => m.iter().map(|(_, v)| v).collect(),
        (Key, Term::Map(m)) => m.iter().map(|(k, _)| k).collect(),
        (Elem, Term::Struct(st)) if st.module == "MapSet" => match st.field("map") {
            Some(Term::Map(m)) => m.iter().map(|(k, _)| k).collect(),
            _ => Vec::new(),
        },
        (At(i), Term::Tuple(items)) => items.get(i).into_iter().collect(),
        _ => Vec::new(),
    }
}

fn put_in(t: &mut Term, path: &[Step], value: &Term) -> Option<()> {
    let Some((s, rest)) = path.split_first() else {
        *t = value.clone();
        return Some(());
    };
    match (s, t) {
        (Field(f), Term::Struct(st)) => {
            if rest.is_empty()
                && ptc_conformance::structs::check_values(
                    &st.module,
                    &[((*f).to_owned(), value.clone())],
                )
                .is_err()
            {
                return None;
            }
            if st.field(f).is_none() {
                if ptc_conformance::structs::fields_of(&st.module)
                    .is_some_and(|fs| !fs.iter().any(|(n, _)| n == f))
                {
                    return None;
                }
                st.fields.push(((*f).to_owned(), Term::Nil));
                st.fields.sort_by(|a, b| a.0.cmp(&b.0));
            }
            let slot = st.fields.iter_mut().find(|(n, _)| n == f).map(|(_, v)| v)?;
            put_in(slot, rest, value)
        }
        (Field(f), Term::Map(m)) => {
            let mut v = m.get_atom(f).cloned().unwrap_or(Term::Nil);
            put_in(&mut v, rest, value)?;
            m.insert(Term::atom(f), v);
            Some(())
        }
        (Opt(o), Term::List(items)) => {
            let at = items
                .iter()
                .position(|e| e.as_kw_pair().is_some_and(|(k, _)| k == *o));
            match at {
                Some(j) => match &mut items[j] {
                    Term::Tuple(kv) => put_in(&mut kv[1], rest, value),
                    _ => None,
                },
                None => {
                    let mut v = Term::List(vec![]);
                    if !rest.is_empty() {
                        put_in(&mut v, rest, value)?;
                    } else {
                        v = value.clone();
                    }
                    items.insert(0, Term::tuple(vec![Term::atom(o), v]));
                    Some(())
                }
            }
        }
        (Elem, Term::List(items)) => match items.first_mut() {
            Some(first) => put_in(first, rest, value),
            None if rest.is_empty() => {
                items.push(value.clone());
                Some(())
            }
            None => None,
        },
        (Elem, Term::Map(m)) => {
            let mut pairs = std::mem::take(m).into_pairs();
            let r = match pairs.first_mut() {
                Some((_, v)) => put_in(v, rest, value),
                None => None,
            };
            *m = ptc_conformance::term::Map::from_pairs(pairs);
            r
        }
        // The first key replaced (its value kept), or the one pair of an
        // empty map; a key the map holds already is not put twice.
        (Key, Term::Map(m)) if rest.is_empty() => {
            let mut pairs = std::mem::take(m).into_pairs();
            match pairs.first_mut() {
                Some((k, _)) => *k = value.clone(),
                None => pairs.push((value.clone(), Term::int(1))),
            }
            *m = ptc_conformance::term::Map::from_pairs(pairs);
            Some(())
        }
        (At(i), Term::Tuple(items)) => put_in(items.get_mut(*i)?, rest, value),
        _ => None,
    }
}

/// Args of `op` with a term of one class put at one place, the rest
/// taken from one of `seeds` (the op's corpus cases): what the fuzzer
/// draws to reach every class of the table at every place of the op.
/// `None` when the op has no place or no seed.
pub fn placed(op: &str, seeds: Vec<Vec<Term>>) -> Option<BoxedStrategy<Vec<Term>>> {
    let cells: Vec<(&'static Place, Class)> = of_op(op)
        .into_iter()
        .flat_map(|p| p.classes().into_iter().map(move |c| (p, c)))
        .collect();
    if cells.is_empty() || seeds.is_empty() {
        return None;
    }
    Some(
        (prop::sample::select(cells), prop::sample::select(seeds))
            .prop_flat_map(|((place, class), seed)| {
                // A collection of a size class is made of the seed's own items.
                let like = place.values(&seed).first().and_then(|v| class.like(v));
                class.strategy().prop_map(move |v| {
                    place
                        .put(&seed, like.as_ref().unwrap_or(&v))
                        .unwrap_or_else(|| seed.clone())
                })
            })
            .boxed(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(pairs: Vec<(&str, Term)>) -> Term {
        Term::List(
            pairs
                .into_iter()
                .map(|(k, v)| Term::tuple(vec![Term::atom(k), v]))
                .collect(),
        )
    }

    #[test]
    fn every_op_has_places_and_names_are_unique() {
        for op in ptc_conformance::ops::OPS {
            let places = of_op(op.name);
            assert!(!places.is_empty(), "{} has no place", op.name);
            let mut names: Vec<String> = places.iter().map(|p| p.name()).collect();
            names.sort();
            let n = names.len();
            names.dedup();
            assert_eq!(n, names.len(), "{}: a place twice", op.name);
        }
    }

    #[test]
    fn put_reaches_options_fields_and_elements() {
        let place = p(
            "x",
            &[Arg(1), Opt("format_options"), Opt("feedback_max_chars")],
            INT,
        );
        let args = vec![Term::Nil, kw(vec![("include_memory", Term::Bool(true))])];
        let put = place.put(&args, &Term::int(-1)).unwrap();
        assert_eq!(place.values(&put), vec![&Term::int(-1)]);
        assert_eq!(
            place.name(),
            "args[1][:format_options][:feedback_max_chars]"
        );
        // The first entry is the one read (Keyword.get/3), and the one replaced.
        let args = vec![
            Term::Nil,
            kw(vec![
                (
                    "format_options",
                    kw(vec![("feedback_max_chars", Term::int(3))]),
                ),
                ("format_options", Term::Nil),
            ]),
        ];
        let put = place.put(&args, &Term::int(0)).unwrap();
        assert_eq!(place.values(&put), vec![&Term::int(0)]);
        let field = p("x", &[Arg(0), Elem, Field("expose")], ATOM);
        let tool = Term::Struct(Box::new(
            ptc_conformance::structs::written("PtcRunner.Tool", [("name", Term::str("t"))])
                .unwrap(),
        ));
        let put = field
            .put(&[Term::List(vec![tool])], &Term::atom("native"))
            .unwrap();
        assert_eq!(field.values(&put), vec![&Term::atom("native")]);
        assert_eq!(field.put(&[Term::List(vec![])], &Term::Nil), None);
        // A map's key: its first key replaced, its value kept; an empty
        // map gets one pair.
        let key = p("x", &[Arg(0), Key], MAP_KEY);
        assert_eq!(key.name(), "args[0]{key}");
        let m = Term::map(vec![
            (Term::str("a"), Term::int(7)),
            (Term::str("b"), Term::int(8)),
        ]);
        let put = key.put(&[m], &Term::int(-1)).unwrap();
        assert!(key.values(&put).contains(&&Term::int(-1)));
        assert_eq!(
            put[0],
            Term::map(vec![
                (Term::int(-1), Term::int(7)),
                (Term::str("b"), Term::int(8))
            ])
        );
        let put = key.put(&[Term::map(vec![])], &Term::atom("k")).unwrap();
        assert_eq!(key.values(&put), vec![&Term::atom("k")]);
        assert_eq!(key.put(&[Term::List(vec![])], &Term::Nil), None);
    }
}

#[cfg(test)]
mod generator {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;

    /// The kinds each op's well-formed generator puts at each of its
    /// places, over `n` draws, with how often.
    fn drawn(op: &str, n: usize) -> BTreeMap<String, BTreeMap<Kind, usize>> {
        let s = super::super::ops::well_formed(op).unwrap();
        let mut runner = TestRunner::deterministic();
        let mut out: BTreeMap<String, BTreeMap<Kind, usize>> = BTreeMap::new();
        for _ in 0..n {
            let args = s.new_tree(&mut runner).unwrap().current();
            for p in of_op(op) {
                for v in p.values(&args) {
                    *out.entry(p.name())
                        .or_default()
                        .entry(Kind::of(v))
                        .or_default() += 1;
                }
            }
        }
        out
    }

    /// The table says what the well-formed generators draw: every kind
    /// drawn at a place in more than 2% of the draws is one of its kinds,
    /// and every kind of a narrow place (four kinds or fewer) is drawn.
    /// Rarer kinds come from the option names every option list may
    /// repeat with any scalar (`shapes::option_word`), which the place's
    /// error classes hold.
    #[test]
    fn the_table_is_what_the_generators_draw() {
        let mut wrong = Vec::new();
        for op in ptc_conformance::ops::OPS {
            let seen = drawn(op.name, 1200);
            for p in of_op(op.name) {
                let Some(kinds) = seen.get(&p.name()) else {
                    wrong.push(format!("{} {}: never drawn", op.name, p.name()));
                    continue;
                };
                let total: usize = kinds.values().sum();
                for (k, n) in kinds {
                    if !p.kinds.contains(k) && *n * 50 > total {
                        wrong.push(format!(
                            "{} {}: draws {} ({n} of {total})",
                            op.name,
                            p.name(),
                            k.name()
                        ));
                    }
                }
                if p.kinds.len() <= 4 {
                    for k in p.kinds {
                        if !kinds.contains_key(k) {
                            wrong.push(format!(
                                "{} {}: never draws {}",
                                op.name,
                                p.name(),
                                k.name()
                            ));
                        }
                    }
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "the place table and the generators disagree:\n{}",
            wrong.join("\n")
        );
    }
}
