//! A changed default: the two builds differ on an input that leaves an
//! option out, and agree once the option is given at the value one of
//! them uses when it is absent. Such a difference is named by the option
//! and each side's default, not by the part of the input that reaches the
//! code reading it (the preview mode under which a row limit applies).
//!
//! Which lists hold options, and which keys and values they take, is read
//! from the corpus: every keyword-like list of an op's cases, by where it
//! sits in the arguments. A key the corpus gives at that place and the
//! example leaves out is tried with each value the corpus gives it (and,
//! for a key given an integer, every integer from 0 to 32 and
//! the round numbers past it; for one given a boolean, both booleans).

use crate::corpus::Case;
use crate::review::gen::mutate::{children, mutate};
use ptc_conformance::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// Values tried per key at most.
const MAX_VALUES: usize = 48;

/// The options the corpus gives, by op and by the path of their list
/// (written as the cause search writes places: `/0/.native_result`).
#[derive(Clone, Debug, Default)]
pub struct OptionsSeen(BTreeMap<(String, String), BTreeMap<String, Values>>);

/// Values, each once (by its tagged JSON).
type Values = BTreeMap<String, Term>;

impl OptionsSeen {
    /// Every option of every case's arguments.
    pub fn from_corpus<'c>(cases: impl IntoIterator<Item = &'c Case>) -> OptionsSeen {
        let mut out = OptionsSeen::default();
        for case in cases {
            for (i, a) in case.args.iter().enumerate() {
                lists(a, &format!("/{i}"), &mut |path, items| {
                    for (k, v) in items.iter().filter_map(entry) {
                        out.0
                            .entry((case.op.name.to_owned(), path.to_owned()))
                            .or_default()
                            .entry(k.to_owned())
                            .or_default()
                            .insert(ptc_conformance::tagged::encode(v), v.clone());
                    }
                });
            }
        }
        out
    }

    /// The inputs that give one option `args` of `op` leaves out: for each
    /// list of `args` at a place where the corpus gives options, each key
    /// given there and absent here, at each value tried. With the key and
    /// the value.
    pub fn variants(&self, op: &str, args: &[Term]) -> Vec<(String, Term, Vec<Term>)> {
        let mut out = Vec::new();
        let mut node = 0usize;
        for (i, a) in args.iter().enumerate() {
            numbered(a, &format!("/{i}"), &mut node, &mut |at, path, items| {
                let Some(keys) = self.0.get(&(op.to_owned(), path.to_owned())) else {
                    return;
                };
                let given: BTreeSet<&str> =
                    items.iter().filter_map(|x| entry(x).map(|e| e.0)).collect();
                for (key, seen) in keys.iter().filter(|(k, _)| !given.contains(k.as_str())) {
                    for v in tried(seen) {
                        let mut with = items.to_vec();
                        with.push(Term::tuple(vec![Term::atom(key), v.clone()]));
                        out.push((key.clone(), v, mutate(args, at, &Term::List(with))));
                    }
                }
            });
        }
        out
    }
}

/// The values tried for a key the corpus gives `seen`.
fn tried(seen: &Values) -> Vec<Term> {
    let mut out: Vec<Term> = seen.values().cloned().collect();
    if seen.values().any(|v| matches!(v, Term::Int(_))) {
        for n in (0..=32).chain([40, 50, 64, 100, 128, 200, 256, 500, 1000]) {
            let t = Term::int(n);
            if !seen.contains_key(&ptc_conformance::tagged::encode(&t)) {
                out.push(t);
            }
        }
    }
    if seen.values().any(|v| matches!(v, Term::Bool(_))) {
        for b in [false, true] {
            if !seen.contains_key(&b.to_string()) {
                out.push(Term::Bool(b));
            }
        }
    }
    out.truncate(MAX_VALUES);
    out
}

/// A well-formed option entry: `{:key, value}`.
fn entry(t: &Term) -> Option<(&str, &Term)> {
    match t {
        Term::Tuple(kv) if kv.len() == 2 => Some((kv[0].as_atom()?, &kv[1])),
        _ => None,
    }
}

/// A place's segment below `t` for its child `j`, as the cause search
/// writes it ([`super::parts`]).
fn segment(t: &Term, j: usize, child: &Term) -> String {
    match t {
        Term::List(_) => match child {
            Term::Tuple(xs) if !xs.is_empty() => match xs[0].as_atom() {
                Some(k) => format!("/[{k}]"),
                None => "/*".into(),
            },
            _ => "/*".into(),
        },
        Term::Tuple(_) => format!("/{j}"),
        Term::Map(m) if j % 2 == 1 => match m.iter().nth(j / 2).and_then(|(k, _)| k.as_atom()) {
            Some(a) => format!("/:{a}"),
            None => "/*".into(),
        },
        Term::Struct(s) if s.module != "MapSet" => match s.fields.get(j) {
            Some((f, _)) => format!("/.{f}"),
            None => "/*".into(),
        },
        _ => "/*".into(),
    }
}

/// Calls `f(path, items)` for every list in `t` at `path`.
fn lists(t: &Term, path: &str, f: &mut dyn FnMut(&str, &[Term])) {
    if let Term::List(items) = t {
        f(path, items);
    }
    for (j, c) in children(t).into_iter().enumerate() {
        lists(c, &format!("{path}{}", segment(t, j, c)), f);
    }
}

/// As [`lists`], with each list's node number as [`mutate`] counts them.
fn numbered(t: &Term, path: &str, n: &mut usize, f: &mut dyn FnMut(usize, &str, &[Term])) {
    let me = *n;
    *n += 1;
    if let Term::List(items) = t {
        f(me, path, items);
    }
    for (j, c) in children(t).into_iter().enumerate() {
        numbered(c, &format!("{path}{}", segment(t, j, c)), n, f);
    }
}
