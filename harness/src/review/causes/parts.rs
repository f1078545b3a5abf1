//! The parts of an input a cause search takes out, one at a time: each
//! struct field (left out: the build's default), each struct (replaced by
//! `nil`), each option of a keyword-like list and each map pair (left
//! out), and each value (replaced by `nil`), with the trigger each names.

use super::Trigger;
use crate::review::gen::keys::KeyClass;
use crate::review::gen::mutate::{children, mutate};
use crate::review::kinds::{size, type_name};
use ptc_conformance::term::{Struct, Term};

/// An input with one part taken out, and what that part names.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// What the part names.
    pub trigger: Trigger,
    /// How it was taken out (`left out`, `replaced by nil`).
    pub how: &'static str,
    /// The input without it.
    pub args: Vec<Term>,
    /// The part's size (nodes), to try the smallest first.
    pub size: usize,
    /// The node the part was taken from, and its path (pairs of one map
    /// share them).
    pub from: (usize, String),
}

/// Where a node sits, for the path of a value trigger and for telling
/// an option's key (the first atom of a tuple in a list) apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Arg,
    ListItem,
    TupleItem(usize),
    MapKey,
    MapValue,
    Field,
    Returns,
}

/// Every part of `args` of `op` that a cause search may take out, the
/// smallest first (a named part before a value of the same size), at
/// most `max`.
pub fn candidates(op: &'static str, args: &[Term], max: usize) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut n = 0usize;
    for (i, a) in args.iter().enumerate() {
        walk(
            op,
            args,
            a,
            (&format!("/{i}"), Place::Arg, false),
            &mut n,
            &mut out,
        );
    }
    out.sort_by_key(|c| (c.size, c.trigger.rank()));
    out.truncate(max);
    out
}

fn walk(
    op: &'static str,
    args: &[Term],
    t: &Term,
    (path, place, in_list_tuple): (&str, Place, bool),
    n: &mut usize,
    out: &mut Vec<Candidate>,
) {
    let me = *n;
    *n += 1;
    let mut push = |trigger: Trigger, how: &'static str, new: &Term, size: usize| {
        out.push(Candidate {
            trigger,
            how,
            args: mutate(args, me, new),
            size,
            from: (me, path.to_owned()),
        });
    };
    match t {
        Term::Struct(s) => {
            for (name, v) in &s.fields {
                let without = Term::Struct(Box::new(Struct {
                    module: s.module.clone(),
                    fields: s
                        .fields
                        .iter()
                        .filter(|(f, _)| f != name)
                        .cloned()
                        .collect(),
                }));
                let trigger = Trigger::Field {
                    module: s.module.clone(),
                    field: name.clone(),
                };
                push(trigger, "left out", &without, 1 + size(v));
            }
            let trigger = Trigger::Struct {
                module: s.module.clone(),
            };
            push(trigger, "replaced by nil", &Term::Nil, size(t));
        }
        Term::List(items) => {
            for (j, item) in items.iter().enumerate() {
                if let Some(key) = option_key(item) {
                    let mut rest = items.clone();
                    rest.remove(j);
                    let trigger = Trigger::Option {
                        key: key.to_owned(),
                    };
                    push(trigger, "left out", &Term::List(rest), size(item));
                }
            }
        }
        Term::Map(m) => {
            for (j, (k, v)) in m.iter().enumerate() {
                let rest: Vec<(Term, Term)> = m
                    .iter()
                    .enumerate()
                    .filter(|(x, _)| *x != j)
                    .map(|(_, p)| p.clone())
                    .collect();
                let class = KeyClass::of(k).map_or("non-text", KeyClass::name);
                let trigger = Trigger::MapKey { class };
                push(trigger, "left out", &Term::map(rest), size(k) + size(v));
            }
        }
        _ => {}
    }
    let value = !matches!(t, Term::Nil | Term::Struct(_)) && place != Place::MapKey;
    if value {
        let trigger = match (t, place, in_list_tuple) {
            (Term::Atom(a), Place::TupleItem(0), true) => Trigger::Option { key: a.clone() },
            _ => Trigger::Value {
                op,
                path: path.to_owned(),
                of: type_name(t),
                value: crate::review::show::abbreviate_line(&ptc_conformance::tagged::encode(t)),
            },
        };
        // `[]` too: the neutral value of options and lists, where `nil`
        // is no value at all.
        if !matches!(t, Term::List(xs) if xs.is_empty()) {
            push(
                trigger.clone(),
                "replaced by []",
                &Term::List(Vec::new()),
                size(t),
            );
        }
        push(trigger, "replaced by nil", &Term::Nil, size(t));
    }
    // Children in the order `mutate` counts them.
    let kids = children(t);
    let in_list = matches!(place, Place::ListItem);
    let mut keys_next = true;
    for (j, child) in kids.into_iter().enumerate() {
        let (seg, p) = match t {
            Term::List(_) => ("/*".to_owned(), Place::ListItem),
            Term::Tuple(_) => (format!("/{j}"), Place::TupleItem(j)),
            Term::Map(m) => {
                let is_key = keys_next;
                keys_next = !keys_next;
                if is_key {
                    ("/*".to_owned(), Place::MapKey)
                } else {
                    let key = m.iter().nth(j / 2).map(|(k, _)| k);
                    match key.and_then(Term::as_atom) {
                        Some(a) => (format!("/:{a}"), Place::MapValue),
                        None => ("/*".to_owned(), Place::MapValue),
                    }
                }
            }
            Term::Struct(s) => match s.fields.get(j) {
                Some((f, _)) if s.module != "MapSet" => (format!("/.{f}"), Place::Field),
                _ => ("/*".to_owned(), Place::Field),
            },
            _ => ("/returns".to_owned(), Place::Returns),
        };
        let tuple_in_list = matches!(t, Term::Tuple(_)) && in_list;
        walk(
            op,
            args,
            child,
            (&format!("{path}{seg}"), p, tuple_in_list),
            n,
            out,
        );
    }
}

/// The key of a keyword-like list element: a tuple whose first element is
/// an atom (`{:visibility, :public}`, or a longer tuple a `Keyword`
/// function meets all the same).
fn option_key(item: &Term) -> Option<&str> {
    match item {
        Term::Tuple(xs) if xs.len() >= 2 => xs[0].as_atom(),
        _ => None,
    }
}
