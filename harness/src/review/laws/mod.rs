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

use crate::judging::judge::Reading;
use crate::review::fuzz;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;

const NORMALIZE_KEY: &str = "key_normalizer.normalize_key";
const NORMALIZE_KEYS: &str = "key_normalizer.normalize_keys";
const CANONICAL: &str = "key_normalizer.canonical_cache_key";
const HINT: &str = "native_preview.cache_hint";
const BUILD: &str = "native_preview.build";
const ATOMIZE: &str = "protocol.atomize_value";
const TO_JSON: &str = "protocol.to_json_value";

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
    /// The answer taken back by `to_json_value/1`, which must give
    /// `{:ok, first argument}` (LAW-8).
    RoundTrip,
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
    Law {
        id: "LAW-8",
        title: "to_json_value takes atomize_value's answer back to the JSON it came from",
        ops: &[ATOMIZE],
        kind: Kind::RoundTrip,
    },
];

impl Law {
    /// The ops a subject must declare for the law to run on `op`.
    pub fn needs(&self, op: &'static str) -> Vec<&'static str> {
        match self.kind {
            Kind::ThroughCanonical => vec![op, CANONICAL],
            Kind::RoundTrip => vec![op, TO_JSON],
            _ => vec![op],
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
    /// The subject declined (`unsupported`), with the reason it gave.
    Unanswered(String),
    /// No valid answer to one of the requests (timeout, crash, malformed).
    Errored(String),
    /// Both answered alike.
    Holds,
    /// They answered differently.
    Broken(Box<Breach>),
}

mod pairs;
mod run;

use pairs::{canonical_request, second};
pub use run::{run, Broken, Generated, LawReport, LawsConfig, LawsReport};

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
    // LAW-8's second request is `to_json_value/1`, whose answer must be
    // `{:ok, the first argument}`.
    let (second_op, round_trip) = match law.kind {
        Kind::RoundTrip => (ptc_conformance::ops::find(TO_JSON).unwrap_or(op), true),
        _ => (op, false),
    };
    let requests: Vec<Request<'_>> = sent
        .iter()
        .filter_map(|&i| seconds[i].as_ref())
        .map(|s| Request {
            op: second_op.name,
            args: &s.args,
            args_json: s.json.as_deref(),
        })
        .collect();
    let second_answers = subject.call_many(&requests);
    for (&i, a2) in sent.iter().zip(second_answers) {
        let back = round_trip.then(|| Answer::Ok(Term::ok(inputs[i].0[0].clone())));
        let a1 = back.as_ref().unwrap_or(&answers[i]);
        let Some(s) = seconds[i].take() else { continue };
        outcomes[i] = Some(match unanswered(std::iter::once(&a2)) {
            Some(o) => o,
            None => match fuzz::disagreement(second_op, &s.args, a1, &a2, Reading::AsAnswered) {
                None => Outcome::Holds,
                Some(diff) => Outcome::Broken(Box::new(Breach {
                    first: Input {
                        args: inputs[i].0.clone(),
                        json: None,
                    },
                    second: s,
                    first_answer: answers[i].clone(),
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
    let mut declined = None;
    for a in answers {
        match a {
            Answer::Error(e) => return Some(Outcome::Errored(e.clone())),
            Answer::Unsupported(why) => {
                declined.get_or_insert_with(|| why.clone());
            }
            _ => {}
        }
    }
    declined.map(Outcome::Unanswered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::tagged;

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
