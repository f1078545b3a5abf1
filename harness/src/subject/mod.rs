//! The thing under test: one small trait, [`Subject`], with its [`Request`]
//! and [`Answer`]. The in-process reference ([`reference::Reference`]) and
//! an external adapter ([`adapter::Adapter`]) are two implementations of
//! it, and every runner, report and fuzzer works against the trait.
//! [`wire`] is the adapter protocol's lines; [`serve`] serves the reference
//! as an adapter.

pub mod adapter;
pub mod reference;
pub mod serve;
pub mod wire;

use ptc_conformance::ops;
use ptc_conformance::{Raised, Term};
use std::collections::BTreeSet;

/// One call to make: an op and its arguments.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The op name.
    pub op: &'a str,
    /// Positional arguments.
    pub args: &'a [Term],
    /// The arguments as tagged JSON, when already encoded (a case's are,
    /// once, at load), so an adapter need not encode them again.
    pub args_json: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request for `op` with `args`.
    pub fn new(op: &'a str, args: &'a [Term]) -> Request<'a> {
        Request {
            op,
            args,
            args_json: None,
        }
    }
}

/// What a subject answered to one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// It returned a term.
    Ok(Term),
    /// It raised an exception.
    Raised(Raised),
    /// It declined the request, saying why.
    Unsupported(String),
    /// No valid answer: timeout, crash, malformed or missing answer.
    Error(String),
}

/// Whether to go on sending requests after an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop: requests not yet sent are not sent.
    Stop,
}

/// An implementation of the boundary. `Send`, so that the two sides of a
/// comparison answer one batch at the same time ([`call_both`]).
pub trait Subject: Send {
    /// A name for reports.
    fn name(&self) -> String;
    /// The ops it declares.
    fn ops(&self) -> BTreeSet<String>;
    /// The features it declares.
    fn features(&self) -> BTreeSet<String>;
    /// Answers the requests, calling `on_answer(index, answer)` once for
    /// each request it answers, in any order. Implementations may overlap
    /// the calls (pipelining). After `on_answer` returns [`Flow::Stop`] it
    /// sends no new request; requests never answered get no call.
    fn run_batch(
        &mut self,
        requests: &[Request<'_>],
        on_answer: &mut dyn FnMut(usize, Answer) -> Flow,
    );
    /// Answers every request; one answer per request, in order.
    fn call_many(&mut self, requests: &[Request<'_>]) -> Vec<Answer> {
        let mut out: Vec<Option<Answer>> = vec![None; requests.len()];
        self.run_batch(requests, &mut |i, a| {
            out[i] = Some(a);
            Flow::Continue
        });
        out.into_iter()
            .map(|a| a.unwrap_or_else(|| Answer::Error("the subject gave no answer".into())))
            .collect()
    }
    /// Faults not tied to one request (answers to unknown ids, lines that
    /// are not answers, restarts), for the report; each fails the run.
    fn faults(&self) -> Vec<String> {
        Vec::new()
    }
    /// The PtcRunner release it says it implements (an adapter's hello,
    /// AP-18); `None` when it says nothing.
    fn release(&self) -> Option<ptc_conformance::Release> {
        None
    }
    /// The protocol extensions its hello lists (AP-19); none by default.
    fn extensions(&self) -> BTreeSet<String> {
        BTreeSet::new()
    }
    /// The names of the atoms its implementation's code holds, when it
    /// lists the `atoms` extension (AP-19): `None` when it does not, an
    /// error when its answer is not a list of strings.
    fn atoms(&mut self) -> Option<Result<Vec<String>, String>> {
        None
    }
    /// Answers requests that are part of a set-up (the `reach`
    /// extension's, AP-19), which may take as long as a start: an adapter
    /// gives each its start-up timeout.
    fn call_setup(&mut self, requests: &[Request<'_>]) -> Vec<Answer> {
        self.call_many(requests)
    }
    /// Answers one request.
    fn call(&mut self, request: Request<'_>) -> Answer {
        self.call_many(&[request])
            .pop()
            .unwrap_or_else(|| Answer::Error("no answer".into()))
    }
}

/// Both sides' answers to the same requests, the two answering at the same
/// time (each on its own thread): two external builds then work side by
/// side instead of one waiting for the other. With them, how long each
/// side took to answer the batch.
pub fn call_both(
    a: &mut dyn Subject,
    b: &mut dyn Subject,
    requests: &[Request<'_>],
) -> (
    (Vec<Answer>, Vec<Answer>),
    (std::time::Duration, std::time::Duration),
) {
    let timed = |s: &mut dyn Subject| {
        let started = std::time::Instant::now();
        let answers = s.call_many(requests);
        (answers, started.elapsed())
    };
    std::thread::scope(|scope| {
        let other = scope.spawn(|| timed(b));
        let (xa, ta) = timed(a);
        let (xb, tb) = other.join().unwrap_or_else(|_| {
            (
                vec![Answer::Error("the subject's thread panicked".into()); requests.len()],
                std::time::Duration::ZERO,
            )
        });
        ((xa, xb), (ta, tb))
    })
}

/// What a subject declares that the kit does not know: an op missing from
/// the registry or a feature `spec/terms.md` does not define. Each is an
/// adapter fault (a misspelt name would otherwise silently skip every case
/// it was meant to run), named with the closest known name.
pub fn unknown_declarations(ops: &BTreeSet<String>, features: &BTreeSet<String>) -> Vec<String> {
    let known_ops: Vec<&str> = ops::OPS.iter().map(|o| o.name).collect();
    let mut out = Vec::new();
    for op in ops.iter().filter(|o| ops::find(o).is_none()) {
        out.push(format!(
            "the handshake declares op {op:?}, which the kit does not know{} (ops: `ptc-conformance list`)",
            did_you_mean(op, &known_ops)
        ));
    }
    let known_features = ptc_conformance::features::ALL;
    for f in features
        .iter()
        .filter(|f| !ptc_conformance::features::is_feature(f))
    {
        out.push(format!(
            "the handshake declares feature {f:?}, which spec/terms.md does not define{} (features: {})",
            did_you_mean(f, known_features),
            known_features.join(", ")
        ));
    }
    out
}

/// The protocol extensions this harness knows (AP-19).
pub const EXTENSIONS: &[&str] = &["atoms", "compile", "reach"];

/// The extensions a hello lists that this harness does not know, each an
/// adapter fault named with the closest known name (as AP-2 names ops and
/// features).
pub fn unknown_extensions(extensions: &BTreeSet<String>) -> Vec<String> {
    extensions
        .iter()
        .filter(|e| !EXTENSIONS.contains(&e.as_str()))
        .map(|e| {
            format!(
                "the handshake lists extension {e:?}, which the kit does not know{} (extensions: {}; spec/adapter_protocol.md AP-19)",
                did_you_mean(e, EXTENSIONS),
                EXTENSIONS.join(", ")
            )
        })
        .collect()
}

/// Every fault of `subject` for a report: what its handshake declares that
/// the kit does not know, then its own faults ([`Subject::faults`]).
pub fn faults_of(subject: &dyn Subject) -> Vec<String> {
    let mut out = unknown_declarations(&subject.ops(), &subject.features());
    out.extend(unknown_extensions(&subject.extensions()));
    out.extend(subject.faults());
    out
}

/// Reads the answer to an `atoms` request (AP-19): a list of strings.
pub fn read_atoms(answer: Answer) -> Result<Vec<String>, String> {
    match answer {
        Answer::Ok(ptc_conformance::Term::List(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, t)| match t {
                ptc_conformance::Term::Str(s) => Ok(s),
                other => Err(format!(
                    "the answer to `atoms` must list strings; item {i} is {}",
                    crate::quote::line(&ptc_conformance::tagged::encode(&other))
                )),
            })
            .collect(),
        Answer::Ok(other) => Err(format!(
            "the answer to `atoms` must be a list of strings, got {}",
            crate::quote::line(&ptc_conformance::tagged::encode(&other))
        )),
        Answer::Raised(r) => Err(format!(
            "`atoms` raised {}",
            crate::quote::line(&format!("{}: {}", r.class, r.message))
        )),
        Answer::Unsupported(why) | Answer::Error(why) => {
            Err(format!("`atoms` failed: {}", crate::quote::line(&why)))
        }
    }
}

/// `; did you mean "x"?` for the closest of `names` to `name`, if one is close.
fn did_you_mean(name: &str, names: &[&str]) -> String {
    names
        .iter()
        .map(|n| (edit_distance(name, n), *n))
        .filter(|(d, n)| {
            *d <= name.len().max(n.len()) / 3 || n.starts_with(name) || name.starts_with(n)
        })
        .min()
        .map(|(_, n)| format!("; did you mean {n:?}?"))
        .unwrap_or_default()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_ops_and_features_are_named_with_a_suggestion() {
        let set = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect::<BTreeSet<_>>();
        let faults = unknown_declarations(
            &set(&["protocol.to_json", "key_normalizer.normalize_key"]),
            &set(&["atom", "tuples"]),
        );
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert!(
            faults[0].contains("op \"protocol.to_json\"")
                && faults[0].contains("did you mean \"protocol.to_json_value\"?"),
            "{faults:?}"
        );
        assert!(
            faults[1].contains("feature \"atom\"") && faults[1].contains("did you mean \"atoms\"?"),
            "{faults:?}"
        );
        assert!(unknown_declarations(&set(&["term.inspect"]), &set(&["atoms"])).is_empty());
    }

    /// AP-19: an extension the kit does not know is a fault with a hint;
    /// `atoms` answers are read strictly.
    #[test]
    fn unknown_extensions_and_bad_atoms_answers_are_named() {
        let set = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect::<BTreeSet<_>>();
        assert!(unknown_extensions(&set(&["atoms"])).is_empty());
        let faults = unknown_extensions(&set(&["atom", "vocab"]));
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert!(faults[0].contains("\"atom\"") && faults[0].contains("did you mean \"atoms\"?"));
        assert!(!faults[1].contains("did you mean"), "{faults:?}");
        use ptc_conformance::Term;
        assert_eq!(
            read_atoms(Answer::Ok(Term::List(vec![Term::str("a"), Term::str("b")]))),
            Ok(vec!["a".to_owned(), "b".to_owned()])
        );
        let bad = read_atoms(Answer::Ok(Term::List(vec![
            Term::str("a"),
            Term::atom("b"),
        ])));
        assert!(bad.unwrap_err().contains("item 1"));
        assert!(read_atoms(Answer::Ok(Term::Nil)).is_err());
        assert!(read_atoms(Answer::Unsupported("unknown op".into()))
            .unwrap_err()
            .contains("unknown op"));
    }
}
