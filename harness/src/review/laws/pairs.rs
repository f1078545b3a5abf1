//! How the second input of a pair is made: the subject's answer fed back,
//! the args through the subject's canonical key, or the input rewritten at
//! the places a mask picks (`spec/laws.md` says which places each law
//! rewrites).

use super::{Input, Kind, Law, Rewrite, BUILD, CANONICAL, HINT, NORMALIZE_KEY, NORMALIZE_KEYS};
use crate::subject::Answer;
use ptc_conformance::key_normalizer::normalize_key;
use ptc_conformance::num;
use ptc_conformance::tagged;
use ptc_conformance::term::{map_key_cmp, Int, Term};
use std::cmp::Ordering;

/// Decides place by place whether a rewrite applies: the `n`-th decision
/// is bit `n mod 64` of the mask, so one input mixes rewritten and
/// untouched places, and shrinking the mask shrinks the rewrite.
struct Picks {
    mask: u64,
    n: u32,
}

impl Picks {
    fn pick(&mut self) -> bool {
        let bit = self.mask.rotate_right(self.n % 64) & 1 == 1;
        self.n += 1;
        bit
    }
}

/// The second input of `law` for `op` on `args`, given the first answer
/// and, for LAW-7, the subject's canonical cache key of the args; `None`
/// when the law says nothing of this input.
pub(super) fn second(
    law: &Law,
    op: &str,
    args: &[Term],
    mask: u64,
    first: &Answer,
    canonical: Option<&Answer>,
) -> Option<Input> {
    let plain = |args: Vec<Term>| Input { args, json: None };
    match law.kind {
        Kind::Idempotent => {
            let Answer::Ok(answer) = first else {
                return None;
            };
            match op {
                CANONICAL => match (answer, args.get(1)) {
                    (Term::Tuple(pair), Some(a)) if a.is_map() && pair.len() == 2 => {
                        Some(plain(vec![args[0].clone(), pair[1].clone()]))
                    }
                    _ => None,
                },
                _ => Some(plain(vec![answer.clone()])),
            }
        }
        Kind::ThroughCanonical => {
            let at = args_position(op)?;
            let Some(Answer::Ok(Term::Tuple(pair))) = canonical else {
                return None;
            };
            let (Some(a), Some(c)) = (args.get(at), pair.get(1)) else {
                return None;
            };
            if !a.is_map() || a == c {
                return None;
            }
            let mut out = args.to_vec();
            out[at] = c.clone();
            Some(plain(out))
        }
        Kind::RoundTrip => match (first, args) {
            (Answer::Ok(answer), [value, _]) if json_value(value) => {
                Some(plain(vec![answer.clone()]))
            }
            _ => None,
        },
        // A mask that picks none of the input's places picks them all
        // when inverted: so every input with a place makes a pair.
        Kind::Rewrite(r) => rewritten(r, op, args, mask).or_else(|| rewritten(r, op, args, !mask)),
    }
}

/// Whether `t` is in LAW-8's domain: a JSON value (`nil`, booleans,
/// numbers, UTF-8 strings, lists, maps with UTF-8 string keys) in which no
/// string parses as a datetime (JH-9) to a text other than itself.
fn json_value(t: &Term) -> bool {
    match t {
        Term::Nil | Term::Bool(_) | Term::Int(_) | Term::Float(_) => true,
        Term::Str(s) => {
            ptc_conformance::datetime::from_iso8601_utc(s.as_bytes()).is_none_or(|d| d.iso == *s)
        }
        Term::List(items) => items.iter().all(json_value),
        Term::Map(m) => m
            .iter()
            .all(|(k, v)| matches!(k, Term::Str(_)) && json_value(v)),
        _ => false,
    }
}

/// `args` rewritten by `r` at the places `mask` picks; `None` when that
/// changes nothing or the op's args are not what the law rewrites.
fn rewritten(r: Rewrite, op: &str, args: &[Term], mask: u64) -> Option<Input> {
    let plain = |args: Vec<Term>| Input { args, json: None };
    match r {
        Rewrite::MapOrder => {
            let mut picks = Picks { mask, n: 0 };
            let mut json = String::from("[");
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    json.push(',');
                }
                encode_reordered(a, &mut picks, &mut json);
            }
            json.push(']');
            (json != crate::subject::wire::encode_args(args)).then(|| Input {
                args: args.to_vec(),
                json: Some(json),
            })
        }
        r => {
            let mut picks = Picks { mask, n: 0 };
            let mut out = args.to_vec();
            match op {
                NORMALIZE_KEY => out[0] = rewrite_key(r, &args[0], &mut picks),
                NORMALIZE_KEYS => out[0] = rewrite(r, &args[0], false, &mut picks),
                _ => {
                    let at = args_position(op)?;
                    if !matches!(args.get(at), Some(Term::Map(_))) {
                        return None;
                    }
                    out[at] = rewrite(r, &args[at], true, &mut picks);
                }
            }
            (out != args).then(|| plain(out))
        }
    }
}

/// Where an op takes the tool args that are canonicalized.
fn args_position(op: &str) -> Option<usize> {
    match op {
        CANONICAL | HINT => Some(1),
        BUILD => Some(2),
        _ => None,
    }
}

/// The canonical cache key request LAW-7 needs beside the first: the tool
/// name and the args, as `cache_hint` and `build` pass them on.
pub(super) fn canonical_request(law: &Law, op: &str, args: &[Term]) -> Option<Vec<Term>> {
    if law.kind != Kind::ThroughCanonical {
        return None;
    }
    let name = match op {
        HINT => args.first()?.clone(),
        BUILD => match args.first()? {
            Term::Struct(s) if s.module == "PtcRunner.Tool" => s.field("name")?.clone(),
            _ => return None,
        },
        _ => return None,
    };
    Some(vec![name, args.get(args_position(op)?)?.clone()])
}

/// `t` rebuilt through the places canonicalization enters (map values,
/// list elements, and tuple elements when `tuples`; never keys' insides,
/// structs or anything else), with `r` applied to map keys (atom and
/// binary keys whose normalized form no other key of their map shares:
/// KN-6 decides between those by key order) or to values.
fn rewrite(r: Rewrite, t: &Term, tuples: bool, picks: &mut Picks) -> Term {
    let rebuilt = match t {
        Term::Map(m) => {
            let identity = |k: &Term| (k.is_atom() || k.is_binary()).then(|| normalize_key(k));
            let ids: Vec<Option<Term>> = m.iter().map(|(k, _)| identity(k)).collect();
            let shared = |i: usize| {
                ids[i].as_ref().is_none_or(|id| {
                    ids.iter().enumerate().any(|(j, o)| {
                        j != i
                            && o.as_ref()
                                .is_some_and(|o| map_key_cmp(o, id) == Ordering::Equal)
                    })
                })
            };
            Term::map(
                m.iter()
                    .enumerate()
                    .map(|(i, (k, v))| {
                        let k = if shared(i) {
                            k.clone()
                        } else {
                            rewrite_key(r, k, picks)
                        };
                        (k, rewrite(r, v, tuples, picks))
                    })
                    .collect(),
            )
        }
        Term::List(items) => {
            Term::List(items.iter().map(|i| rewrite(r, i, tuples, picks)).collect())
        }
        Term::Tuple(items) if tuples => {
            Term::Tuple(items.iter().map(|i| rewrite(r, i, tuples, picks)).collect())
        }
        other => other.clone(),
    };
    rewrite_value(r, rebuilt, picks)
}

/// An atom or binary key rewritten by `r` when picked: an atom becomes the
/// string of its name and a string of at most 255 characters the atom
/// (LAW-2); every `-` becomes `_` and every `_` a `-` (LAW-3).
fn rewrite_key(r: Rewrite, k: &Term, picks: &mut Picks) -> Term {
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '-' => '_',
                '_' => '-',
                c => c,
            })
            .collect()
    };
    match (r, k, k.as_atom()) {
        (Rewrite::AtomStringKeys, Term::Str(s), _) if s.chars().count() <= 255 && picks.pick() => {
            Term::atom(s)
        }
        (Rewrite::AtomStringKeys, _, Some(name)) if picks.pick() => Term::str(name),
        (Rewrite::HyphenKeys, Term::Str(s), _) if picks.pick() => Term::Str(swap(s)),
        (Rewrite::HyphenKeys, Term::Bytes(b), _) if picks.pick() => Term::binary(
            b.iter()
                .map(|c| match c {
                    b'-' => b'_',
                    b'_' => b'-',
                    c => *c,
                })
                .collect(),
        ),
        (Rewrite::HyphenKeys, _, Some(name)) if picks.pick() => Term::atom(&swap(name)),
        _ => k.clone(),
    }
}

/// A value rewritten by `r` when picked: an integral float becomes the
/// equal integer and an integer a double holds exactly becomes that float,
/// `0` sometimes `-0.0` (LAW-4); a list becomes a tuple and a tuple a list
/// (LAW-5).
fn rewrite_value(r: Rewrite, t: Term, picks: &mut Picks) -> Term {
    match (r, t) {
        (Rewrite::IntegralFloats, Term::Float(x)) if num::is_integral(x) && picks.pick() => {
            num::trunc(x).map_or(Term::Float(x), Term::Int)
        }
        (Rewrite::IntegralFloats, Term::Int(i)) if picks.pick() => {
            let x = to_f64(&i);
            if num::is_integral(x) && num::trunc(x).as_ref() == Some(&i) {
                Term::Float(if x == 0.0 && picks.pick() { -0.0 } else { x })
            } else {
                Term::Int(i)
            }
        }
        (Rewrite::TuplesAsLists, Term::List(items)) if picks.pick() => Term::Tuple(items),
        (Rewrite::TuplesAsLists, Term::Tuple(items)) if picks.pick() => Term::List(items),
        (_, t) => t,
    }
}

/// An integer as the nearest double, as Erlang converts one for comparison.
fn to_f64(i: &Int) -> f64 {
    i.to_string().parse().unwrap_or(f64::NAN)
}

/// Appends the tagged JSON of `t` with the pairs of its maps (in values,
/// list and tuple elements, keyword values) written in another order where
/// picked: reversed, then rotated. Everything else is written as
/// [`tagged::encode_into`] writes it.
fn encode_reordered(t: &Term, picks: &mut Picks, out: &mut String) {
    match t {
        Term::Map(m) => {
            let mut pairs: Vec<&(Term, Term)> = m.iter().collect();
            if picks.pick() {
                pairs.reverse();
            }
            let turn = usize::from(picks.pick()) + 2 * usize::from(picks.pick());
            let len = pairs.len().max(1);
            pairs.rotate_left(turn % len);
            let plain = m
                .iter()
                .all(|(k, _)| matches!(k, Term::Str(s) if !s.starts_with('$')));
            out.push_str(if plain { "{" } else { "{\"$map\":[" });
            for (i, (k, v)) in pairs.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if plain {
                    tagged::encode_into(k, out);
                    out.push(':');
                } else {
                    out.push('[');
                    tagged::encode_into(k, out);
                    out.push(',');
                }
                encode_reordered(v, picks, out);
                if !plain {
                    out.push(']');
                }
            }
            out.push_str(if plain { "}" } else { "]}" });
        }
        Term::List(items)
            if !items.is_empty() && items.iter().all(|i| i.as_kw_pair().is_some()) =>
        {
            out.push_str("{\"$kw\":[");
            for (i, (k, v)) in items.iter().filter_map(Term::as_kw_pair).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                tagged::push_json_str(k, out);
                out.push(',');
                encode_reordered(v, picks, out);
                out.push(']');
            }
            out.push_str("]}");
        }
        Term::List(items) | Term::Tuple(items) => {
            let tuple = matches!(t, Term::Tuple(_));
            out.push_str(if tuple { "{\"$tuple\":[" } else { "[" });
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                encode_reordered(item, picks, out);
            }
            out.push_str(if tuple { "]}" } else { "]" });
        }
        other => tagged::encode_into(other, out),
    }
}
