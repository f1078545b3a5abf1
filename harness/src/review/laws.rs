//! `ptc-conformance laws`: the laws of canonicalization (`spec/laws.md`)
//! checked against any subject, with no reference involved.
//!
//! A law says that two inputs answer alike: an input and a rewrite of it
//! that v0.13.0's documentation promises not to matter (atom or string
//! keys, hyphens or underscores, `2.0` or `2`, a tuple or a list, the order
//! a map is written in), or an input and one built from the subject's own
//! answer (its normal form fed back, its canonical args in place of the
//! args). Inputs come from the fuzzer's generator of each op
//! ([`crate::review::fuzz::args_for`]: the whole term domain), each with a mask that
//! decides which places the rewrite touches. The subject answers both
//! inputs of many pairs in one batch (pipelined through an adapter), and
//! its two answers are compared as the fuzzer compares a subject with the
//! reference ([`crate::review::fuzz::disagreement`]). A broken law is shrunk with
//! the fuzzer's loop ([`crate::review::fuzz::shrink_with`]) to a small pair.
//!
//! Rewrites touch only the places a law quantifies over; each law's text
//! in `spec/laws.md` says which, and why v0.13.0 is not invariant elsewhere.

use crate::corpus::Case;
use crate::judging::judge::Reading;
use crate::review::fuzz;
use crate::review::gen;
use crate::subject::{Answer, Request, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use ptc_conformance::key_normalizer::normalize_key;
use ptc_conformance::num;
use ptc_conformance::ops::{self, Op};
use ptc_conformance::tagged;
use ptc_conformance::term::{map_key_cmp, Int, Term};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const NORMALIZE_KEY: &str = "key_normalizer.normalize_key";
const NORMALIZE_KEYS: &str = "key_normalizer.normalize_keys";
const CANONICAL: &str = "key_normalizer.canonical_cache_key";
const HINT: &str = "native_preview.cache_hint";
const BUILD: &str = "native_preview.build";

/// A law of `spec/laws.md`: a promise that pairs of inputs answer alike.
#[derive(Debug)]
pub struct Law {
    /// Its id in `spec/laws.md` (`LAW-n`).
    pub id: &'static str,
    /// The promise, in one line.
    pub title: &'static str,
    /// The ops it holds for.
    pub ops: &'static [&'static str],
    /// How the second input of a pair is made.
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The subject's answer, fed back as the input (its arguments' normal form).
    Idempotent,
    /// The input rewritten.
    Rewrite(Rewrite),
    /// The args replaced by the subject's own canonical args.
    ThroughCanonical,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rewrite {
    AtomStringKeys,
    HyphenKeys,
    IntegralFloats,
    TuplesAsLists,
    MapOrder,
}

/// Every law, in id order.
pub const LAWS: &[Law] = &[
    Law {
        id: "LAW-1",
        title: "normalizing or canonicalizing twice is doing it once",
        ops: &[NORMALIZE_KEY, NORMALIZE_KEYS, CANONICAL],
        kind: Kind::Idempotent,
    },
    Law {
        id: "LAW-2",
        title: "atom keys and string keys converge",
        ops: &[NORMALIZE_KEY, NORMALIZE_KEYS, CANONICAL, HINT, BUILD],
        kind: Kind::Rewrite(Rewrite::AtomStringKeys),
    },
    Law {
        id: "LAW-3",
        title: "hyphenated and underscored keys converge",
        ops: &[NORMALIZE_KEY, NORMALIZE_KEYS, CANONICAL, HINT, BUILD],
        kind: Kind::Rewrite(Rewrite::HyphenKeys),
    },
    Law {
        id: "LAW-4",
        title: "integer-equal floats collapse",
        ops: &[CANONICAL, HINT, BUILD],
        kind: Kind::Rewrite(Rewrite::IntegralFloats),
    },
    Law {
        id: "LAW-5",
        title: "tuples and lists converge",
        ops: &[CANONICAL, HINT, BUILD],
        kind: Kind::Rewrite(Rewrite::TuplesAsLists),
    },
    Law {
        id: "LAW-6",
        title: "the order a map is written in does not matter",
        ops: &[NORMALIZE_KEY, NORMALIZE_KEYS, CANONICAL, HINT, BUILD],
        kind: Kind::Rewrite(Rewrite::MapOrder),
    },
    Law {
        id: "LAW-7",
        title: "hints and previews see the args only through their canonical form",
        ops: &[HINT, BUILD],
        kind: Kind::ThroughCanonical,
    },
];

impl Law {
    /// The ops a subject must declare for the law to run on `op`.
    pub fn needs(&self, op: &'static str) -> Vec<&'static str> {
        if self.kind == Kind::ThroughCanonical {
            vec![op, CANONICAL]
        } else {
            vec![op]
        }
    }
}

/// The laws named by `ids` (all when empty), in id order; an unknown id is
/// an error naming the known ones.
pub fn select(ids: &[String]) -> Result<Vec<&'static Law>, String> {
    for id in ids {
        if !LAWS.iter().any(|l| l.id.eq_ignore_ascii_case(id)) {
            let known: Vec<&str> = LAWS.iter().map(|l| l.id).collect();
            return Err(format!(
                "--law {id:?}: no such law (laws: {}; spec/laws.md)",
                known.join(", ")
            ));
        }
    }
    Ok(LAWS
        .iter()
        .filter(|l| ids.is_empty() || ids.iter().any(|id| l.id.eq_ignore_ascii_case(id)))
        .collect())
}

/// One input of a pair: arguments, and the JSON they are sent as when it
/// is not their canonical encoding (LAW-6 writes map pairs in another order).
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The arguments.
    pub args: Vec<Term>,
    /// Their tagged JSON as sent, if not [`crate::subject::wire::encode_args`]'s.
    pub json: Option<String>,
}

impl Input {
    /// The arguments' tagged JSON as sent.
    pub fn wire(&self) -> String {
        self.json
            .clone()
            .unwrap_or_else(|| crate::subject::wire::encode_args(&self.args))
    }
}

/// A pair the subject answered differently.
#[derive(Clone, Debug)]
pub struct Breach {
    /// The first input (generated).
    pub first: Input,
    /// The second input (the rewrite, or built from the first answer).
    pub second: Input,
    /// The subject's answer to the first.
    pub first_answer: Answer,
    /// The subject's answer to the second.
    pub second_answer: Answer,
    /// How the two answers differ.
    pub diff: String,
}

/// What became of one generated input.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The law says nothing of it: no place to rewrite, or the first answer
    /// is not one the law builds on (a raise where it needs a value).
    Outside,
    /// The subject declined one of the requests (`unsupported`).
    Unanswered,
    /// No valid answer to one of the requests (timeout, crash, malformed).
    Errored(String),
    /// Both answered alike.
    Holds,
    /// They answered differently.
    Broken(Box<Breach>),
}

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
fn second(
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
        // A mask that picks none of the input's places picks them all
        // when inverted: so every input with a place makes a pair.
        Kind::Rewrite(r) => rewritten(r, op, args, mask).or_else(|| rewritten(r, op, args, !mask)),
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
fn canonical_request(law: &Law, op: &str, args: &[Term]) -> Option<Vec<Term>> {
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

/// Checks `law` on `op` for a batch of generated inputs: the first inputs
/// (and LAW-7's canonical keys) in one batch, the second inputs in
/// another, so an adapter answers each batch pipelined.
pub fn check_batch(
    subject: &mut dyn Subject,
    law: &Law,
    op: &'static Op,
    inputs: &[(Vec<Term>, u64)],
) -> Vec<Outcome> {
    let extra: Vec<Option<Vec<Term>>> = inputs
        .iter()
        .map(|(a, _)| canonical_request(law, op.name, a))
        .collect();
    let mut requests: Vec<Request<'_>> = inputs
        .iter()
        .map(|(a, _)| Request::new(op.name, a))
        .collect();
    let mut extra_at = vec![None; inputs.len()];
    for (i, e) in extra.iter().enumerate() {
        if let Some(args) = e {
            extra_at[i] = Some(requests.len());
            requests.push(Request::new(CANONICAL, args));
        }
    }
    let answers = subject.call_many(&requests);
    let mut outcomes: Vec<Option<Outcome>> = vec![None; inputs.len()];
    let mut seconds: Vec<Option<Input>> = vec![None; inputs.len()];
    for (i, (args, mask)) in inputs.iter().enumerate() {
        let firsts = std::iter::once(&answers[i]).chain(extra_at[i].map(|j| &answers[j]));
        if let Some(o) = unanswered(firsts) {
            outcomes[i] = Some(o);
            continue;
        }
        let canonical = extra_at[i].map(|j| &answers[j]);
        match second(law, op.name, args, *mask, &answers[i], canonical) {
            Some(s) => seconds[i] = Some(s),
            None => outcomes[i] = Some(Outcome::Outside),
        }
    }
    let sent: Vec<usize> = (0..inputs.len())
        .filter(|&i| seconds[i].is_some())
        .collect();
    let requests: Vec<Request<'_>> = sent
        .iter()
        .filter_map(|&i| seconds[i].as_ref())
        .map(|s| Request {
            op: op.name,
            args: &s.args,
            args_json: s.json.as_deref(),
        })
        .collect();
    let second_answers = subject.call_many(&requests);
    for (&i, a2) in sent.iter().zip(second_answers) {
        let a1 = &answers[i];
        let Some(s) = seconds[i].take() else { continue };
        outcomes[i] = Some(match unanswered(std::iter::once(&a2)) {
            Some(o) => o,
            None => match fuzz::disagreement(op, &s.args, a1, &a2, Reading::AsAnswered) {
                None => Outcome::Holds,
                Some(diff) => Outcome::Broken(Box::new(Breach {
                    first: Input {
                        args: inputs[i].0.clone(),
                        json: None,
                    },
                    second: s,
                    first_answer: a1.clone(),
                    second_answer: a2,
                    diff,
                })),
            },
        });
    }
    outcomes
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::Outside))
        .collect()
}

/// `Unanswered` or `Errored` if any of `answers` is no answer to compare.
fn unanswered<'a>(answers: impl Iterator<Item = &'a Answer>) -> Option<Outcome> {
    let mut declined = false;
    for a in answers {
        match a {
            Answer::Error(e) => return Some(Outcome::Errored(e.clone())),
            Answer::Unsupported(_) => declined = true,
            _ => {}
        }
    }
    declined.then_some(Outcome::Unanswered)
}

/// A generated input: the op's arguments and the mask that picks where
/// the rewrite applies.
pub type Generated = (Vec<Term>, u64);

/// How to check laws.
#[derive(Clone, Debug)]
pub struct LawsConfig {
    /// The laws to check (ids; empty: all).
    pub laws: Vec<String>,
    /// Generated inputs per law, shared out among its ops in turn.
    pub cases: usize,
    /// Stop generating for a law after this long.
    pub time_limit: Option<Duration>,
    /// Seed of the generator.
    pub seed: u64,
    /// Inputs generated and sent together.
    pub batch: usize,
    /// Write a broken law's shrunk pair as two case files under this directory.
    pub emit: Option<PathBuf>,
}

/// A broken law, shrunk.
#[derive(Clone, Debug)]
pub struct Broken {
    /// The op it broke on.
    pub op: &'static Op,
    /// The smallest pair found.
    pub breach: Breach,
    /// Shrinking steps that kept the breach.
    pub shrink_steps: usize,
    /// The two case files written, if any.
    pub emitted: Vec<PathBuf>,
}

/// What checking one law did.
#[derive(Clone, Debug)]
pub struct LawReport {
    /// The law.
    pub law: &'static Law,
    /// Its ops the subject declares (with what they need), checked in turn.
    pub ops: Vec<&'static str>,
    /// Its ops left out, and why.
    pub skipped_ops: Vec<(&'static str, String)>,
    /// Inputs generated, per op.
    pub inputs: BTreeMap<&'static str, usize>,
    /// Pairs the subject answered, per op.
    pub compared: BTreeMap<&'static str, usize>,
    /// Inputs the law says nothing of.
    pub outside: usize,
    /// Inputs the subject declined.
    pub unanswered: usize,
    /// Requests without a valid answer, with the first such error.
    pub errors: (usize, Option<String>),
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The first breach, shrunk.
    pub broken: Option<Broken>,
}

impl LawReport {
    /// Inputs generated in all.
    pub fn total_inputs(&self) -> usize {
        self.inputs.values().sum()
    }
    /// Pairs compared in all.
    pub fn total_compared(&self) -> usize {
        self.compared.values().sum()
    }
}

/// What a `laws` run did.
#[derive(Clone, Debug, Default)]
pub struct LawsReport {
    /// The laws checked.
    pub laws: Vec<LawReport>,
    /// The laws not checked, and why.
    pub skipped: Vec<(&'static Law, String)>,
}

impl LawsReport {
    /// Whether every checked law held and every request was answered.
    pub fn passed(&self) -> bool {
        self.laws
            .iter()
            .all(|l| l.broken.is_none() && l.errors.0 == 0)
    }
}

/// The seed of batch `b` of `law`: each law draws its own inputs.
fn law_seed(seed: u64, law: &Law) -> u64 {
    seed ^ u64::from(fuzz::hash_of(law.id)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Checks the laws `cfg` asks for against `subject`; `progress(done)` is
/// called after each batch with the inputs generated so far in all.
pub fn run(
    subject: &mut dyn Subject,
    cfg: &LawsConfig,
    corpus: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<LawsReport, String> {
    let laws = select(&cfg.laws)?;
    let declared = subject.ops();
    let mut report = LawsReport::default();
    let mut done = 0usize;
    for law in laws {
        let mut ops_run = Vec::new();
        let mut skipped_ops = Vec::new();
        for &name in law.ops {
            let missing: Vec<&str> = law
                .needs(name)
                .into_iter()
                .filter(|n| !declared.contains(*n))
                .collect();
            if missing.is_empty() {
                ops_run.push(name);
            } else {
                let why = if missing == [name] {
                    format!("{name}: not declared")
                } else {
                    format!("{name}: needs {}, not declared", missing.join(", "))
                };
                skipped_ops.push((name, why));
            }
        }
        if ops_run.is_empty() {
            let needs: Vec<String> = law.ops.iter().map(|o| law.needs(o).join(" + ")).collect();
            report.skipped.push((
                law,
                format!(
                    "the subject declares none of its ops ({})",
                    needs.join(", ")
                ),
            ));
            continue;
        }
        let mut lr = LawReport {
            law,
            ops: ops_run.clone(),
            skipped_ops,
            inputs: BTreeMap::new(),
            compared: BTreeMap::new(),
            outside: 0,
            unanswered: 0,
            errors: (0, None),
            elapsed: Duration::ZERO,
            broken: None,
        };
        let started = Instant::now();
        let strategies: Vec<(&'static Op, BoxedStrategy<Generated>)> = ops_run
            .iter()
            .map(|name| {
                let op = ops::find(name).ok_or_else(|| format!("no op {name}"))?;
                let args = fuzz::args_for(name, corpus)
                    .ok_or_else(|| format!("no generator for {name}"))?;
                Ok((op, (args, any::<u64>()).boxed()))
            })
            .collect::<Result<_, String>>()?;
        // Batches small enough that every op gets its share of a small budget.
        let batch = cfg.batch.min(cfg.cases.div_ceil(strategies.len())).max(1);
        let seed = law_seed(cfg.seed, law);
        for b in 0..cfg.cases.div_ceil(batch) {
            if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            let (op, strategy) = &strategies[b % strategies.len()];
            let n = batch.min(cfg.cases - b * batch);
            let mut trees = fuzz::generate(strategy, seed, b, n)?;
            let inputs: Vec<(Vec<Term>, u64)> = trees.iter().map(|t| t.current()).collect();
            let outcomes = check_batch(subject, law, op, &inputs);
            *lr.inputs.entry(op.name).or_default() += n;
            done += n;
            let mut broken_at = None;
            for (i, o) in outcomes.iter().enumerate() {
                match o {
                    Outcome::Outside => lr.outside += 1,
                    Outcome::Unanswered => lr.unanswered += 1,
                    Outcome::Errored(e) => {
                        lr.errors.0 += 1;
                        lr.errors.1.get_or_insert_with(|| e.clone());
                    }
                    Outcome::Holds => *lr.compared.entry(op.name).or_default() += 1,
                    Outcome::Broken(_) => {
                        *lr.compared.entry(op.name).or_default() += 1;
                        broken_at.get_or_insert(i);
                    }
                }
            }
            progress(done);
            if let Some(i) = broken_at {
                let tree = trees.swap_remove(i);
                let mut broken = shrink(subject, law, op, tree);
                if let Some(dir) = &cfg.emit {
                    broken.emitted = emit(dir, law, &broken, cfg.seed, &subject.name())?;
                }
                lr.broken = Some(broken);
                break;
            }
        }
        lr.elapsed = started.elapsed();
        report.laws.push(lr);
    }
    Ok(report)
}

/// Shrinks a breach with the fuzzer's loop: the arguments and the mask
/// both simplify; then items and map pairs are left out, and nested parts
/// hoisted out, while the law stays broken.
fn shrink(
    subject: &mut dyn Subject,
    law: &Law,
    op: &'static Op,
    tree: Box<dyn ValueTree<Value = Generated>>,
) -> Broken {
    let check =
        |input: &(Vec<Term>, u64)| match check_batch(subject, law, op, std::slice::from_ref(input))
            .pop()
        {
            Some(Outcome::Broken(b)) => Some(*b),
            _ => None,
        };
    let hoists = |(args, mask): &(Vec<Term>, u64)| {
        gen::mutate::removals(args)
            .into_iter()
            .chain(gen::mutate::hoists(args))
            .map(|a| (a, *mask))
            .collect()
    };
    let (input, found, steps) = fuzz::shrink_with(tree, check, hoists);
    let breach = found.unwrap_or_else(|| {
        let why = Answer::Error("the breach did not reproduce when sent alone".into());
        Breach {
            first: Input {
                args: input.0.clone(),
                json: None,
            },
            second: Input {
                args: input.0.clone(),
                json: None,
            },
            first_answer: why.clone(),
            second_answer: why,
            diff: "the breach did not reproduce when sent alone".into(),
        }
    });
    Broken {
        op,
        breach,
        shrink_steps: steps,
        emitted: Vec::new(),
    }
}

/// Writes a broken law's pair under `dir` as two case files that cite the
/// law and each other, each expecting the subject's own answer: at most
/// one of the two expectations is right, and a reviewer checks both
/// against v0.13.0 before either goes into `golden/`.
fn emit(
    dir: &Path,
    law: &Law,
    broken: &Broken,
    seed: u64,
    subject: &str,
) -> Result<Vec<PathBuf>, String> {
    let b = &broken.breach;
    let (first_json, second_json) = (b.first.wire(), b.second.wire());
    let hash = fuzz::hash_of(&format!("{first_json}\n{second_json}"));
    let base = format!(
        "{}/{}-{hash:08x}",
        broken.op.name.replace('.', "/"),
        law.id.to_ascii_lowercase()
    );
    let ids = [format!("{base}-first"), format!("{base}-second")];
    let how = match law.kind {
        Kind::Idempotent => "the second's args are the subject's answer to the first (its normal form)",
        Kind::ThroughCanonical => "the second's args are the subject's canonical args of the first",
        Kind::Rewrite(Rewrite::MapOrder) => "the second's args are the first's with map pairs written in another order; the corpus runner sends args re-encoded canonically, so run as cases the two cannot differ: replay the pair with that command",
        Kind::Rewrite(_) => "the second's args are a rewrite of the first's",
    };
    let spec = [law.id.to_owned()];
    let mut written = Vec::new();
    for (k, (input, answer)) in [(&b.first, &b.first_answer), (&b.second, &b.second_answer)]
        .into_iter()
        .enumerate()
    {
        let (which, other) = if k == 0 {
            ("first", &ids[1])
        } else {
            ("second", &ids[0])
        };
        let description = format!(
            "{} ({}): the {which} of a pair with {other}, which must answer alike",
            law.id, law.title
        );
        let notes = format!(
            "Found by `ptc-conformance laws --law {} --seed {seed}` on {subject}; shrunk in {} steps. {} (spec/laws.md) says this case and {other} answer alike ({how}); the subject answered them differently, and each case expects the subject's own answer, so at most one of the two expectations is right. Check both against PtcRunner v0.13.0 (the Elixir adapter) before adding either to golden/.",
            law.id, broken.shrink_steps, law.id
        );
        written.push(fuzz::write_case(
            dir,
            &fuzz::NewCase {
                id: &ids[k],
                op: broken.op,
                description: &description,
                spec: &spec,
                level: crate::corpus::Level::Required,
                args: &input.args,
                args_json: &input.wire(),
                answer,
                notes: &notes,
            },
        )?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_never_touches_keys_that_collide() {
        // `:a` and `"a"` normalize alike (KN-6): flipping either would
        // flip the winner, so neither is rewritten; `:b` is.
        let m = Term::map(vec![
            (Term::atom("a"), Term::int(1)),
            (Term::str("a"), Term::int(2)),
            (Term::atom("b"), Term::int(3)),
        ]);
        let args = vec![Term::str("t"), m];
        let s = second(
            &LAWS[1],
            CANONICAL,
            &args,
            u64::MAX,
            &Answer::Ok(Term::Nil),
            None,
        )
        .expect("`:b` can be flipped");
        let Term::Map(out) = &s.args[1] else {
            panic!("not a map")
        };
        assert_eq!(out.get(&Term::atom("a")), Some(&Term::int(1)));
        assert_eq!(out.get_str("a"), Some(&Term::int(2)));
        assert_eq!(out.get_str("b"), Some(&Term::int(3)));
    }

    #[test]
    fn normalize_keys_rewrites_do_not_enter_tuples() {
        let inner = Term::map(vec![(Term::atom("a"), Term::int(1))]);
        let args = vec![Term::tuple(vec![inner])];
        assert!(second(
            &LAWS[1],
            NORMALIZE_KEYS,
            &args,
            u64::MAX,
            &Answer::Ok(Term::Nil),
            None
        )
        .is_none());
    }

    #[test]
    fn map_order_writes_the_same_term_in_another_order() {
        let m = Term::map(vec![
            (Term::str("a"), Term::int(1)),
            (Term::str("b"), Term::int(2)),
        ]);
        let args = vec![m];
        let s = second(
            &LAWS[5],
            NORMALIZE_KEYS,
            &args,
            1,
            &Answer::Ok(Term::Nil),
            None,
        )
        .expect("reversed");
        assert_eq!(s.json.as_deref(), Some(r#"[{"b":2,"a":1}]"#));
        let back = tagged::decode_str(&s.wire(), "").expect("valid tagged JSON");
        assert_eq!(back, Term::List(args));
    }

    #[test]
    fn unknown_law_ids_are_named_with_the_known_ones() {
        let e = select(&["LAW-99".to_owned()]).unwrap_err();
        assert!(e.contains("LAW-99") && e.contains("LAW-1, LAW-2"), "{e}");
        assert_eq!(select(&["law-4".to_owned()]).map(|l| l.len()), Ok(1));
    }
}
