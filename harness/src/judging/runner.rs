//! Running cases against a subject: skipping what it does not declare,
//! calling it for the rest, judging the answers, applying the
//! known-failures file (expected failures and expected skips), and
//! stopping early when asked. [`session`] gathers everything a report
//! needs, and the report's [`Summary::verdict`] decides the run.

use crate::corpus::{Case, Corpus};
use crate::judging::judge::judge_at;
use crate::judging::known::KnownFailures;
use crate::judging::outcome::{is_required, CaseResult, Outcome, Skip, Strictness};
use crate::judging::report::Summary;
use crate::subject::{self, Flow, Request, Subject};
use ptc_conformance::Release;
use std::collections::BTreeSet;

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions<'k> {
    /// How strictly to compare.
    pub strictness: Strictness,
    /// Stop sending requests after this many failures and errors.
    pub max_fail: Option<usize>,
    /// Cases expected to fail or to be skipped. When given, every skip must
    /// be listed: the file pins the port's coverage.
    pub known: Option<&'k KnownFailures>,
    /// The release judged: each case's expectation at it, and a case that
    /// does not hold there is skipped.
    pub release: Release,
}

impl RunOptions<'_> {
    /// Default level, no early stop, no known failures, v0.13.0.
    pub fn new(strictness: Strictness) -> RunOptions<'static> {
        RunOptions {
            strictness,
            max_fail: None,
            known: None,
            release: Release::default(),
        }
    }
}

/// Why `subject` cannot run `case`, if it cannot.
pub fn skip_reason(
    case: &Case,
    ops: &BTreeSet<String>,
    features: &BTreeSet<String>,
) -> Option<Skip> {
    if !ops.contains(case.op.name) {
        return Some(Skip::Op(case.op.name.to_owned()));
    }
    let missing: Vec<String> = case
        .features
        .iter()
        .filter(|f| !features.contains(*f))
        .cloned()
        .collect();
    if !missing.is_empty() {
        return Some(Skip::Features(missing));
    }
    None
}

/// A skip, made unexpected when a known-failures file pins coverage and
/// does not list it.
fn skipped(case: &Case, why: Skip, known: Option<&KnownFailures>) -> Outcome {
    match known {
        Some(k) if !k.expects_skip(&case.id, &why) => Outcome::UnexpectedSkip(why),
        _ => Outcome::Skip(why),
    }
}

/// Runs `cases` against `subject`; one result per case, in order.
pub fn run<'c>(
    subject: &mut dyn Subject,
    cases: &[&'c Case],
    opts: RunOptions<'_>,
) -> Vec<CaseResult<'c>> {
    let ops = subject.ops();
    let features = subject.features();
    let mut outcomes: Vec<Option<Outcome>> = vec![None; cases.len()];
    let mut to_call: Vec<usize> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let why = if case.holds_at(opts.release) {
            skip_reason(case, &ops, &features)
        } else {
            Some(Skip::Release(opts.release, case.holds_for()))
        };
        match why {
            Some(why) => outcomes[i] = Some(skipped(case, why, opts.known)),
            None => to_call.push(i),
        }
    }
    let requests: Vec<Request<'_>> = to_call
        .iter()
        .map(|&i| Request {
            op: cases[i].op.name,
            args: &cases[i].args,
            args_json: Some(&cases[i].args_json),
        })
        .collect();
    let mut failures = 0usize;
    subject.run_batch(&requests, &mut |n, answer| {
        let i = to_call[n];
        let case = cases[i];
        let mut outcome = match judge_at(case, opts.release, &answer, opts.strictness) {
            Outcome::Skip(why) => skipped(case, why, opts.known),
            other => other,
        };
        if let Some(reason) = opts.known.and_then(|k| k.reason_for(&case.id)) {
            outcome = match outcome {
                Outcome::Fail(_) | Outcome::Error(_) => Outcome::ExpectedFailure(reason.to_owned()),
                Outcome::Pass => Outcome::UnexpectedPass,
                other => other,
            };
        }
        let counts = match &outcome {
            Outcome::Fail(_) => is_required(case, opts.strictness),
            Outcome::Error(_) | Outcome::UnexpectedPass => true,
            _ => false,
        };
        outcomes[i] = Some(outcome);
        if counts {
            failures += 1;
        }
        match opts.max_fail {
            Some(max) if failures >= max => Flow::Stop,
            _ => Flow::Continue,
        }
    });
    let stopped = opts.max_fail.is_some_and(|m| failures >= m);
    cases
        .iter()
        .zip(outcomes)
        .map(|(case, o)| {
            let outcome = o.unwrap_or_else(|| {
                if stopped {
                    Outcome::Skip(Skip::Stopped)
                } else {
                    Outcome::Error("the subject gave no answer".into())
                }
            });
            let required = outcome.executed() && is_required(case, opts.strictness);
            CaseResult {
                case,
                outcome,
                required,
            }
        })
        .collect()
}

/// Runs `cases` against `subject` and gathers what the report shows: the
/// results, the subject's faults (including ops and features its handshake
/// declares that the kit does not know), and the known-failures entries
/// that no longer hold. `cases` are taken from `corpus`, whose every id
/// counts (a filtered run does not call entries for unselected cases
/// stale) and whose name every report shows.
pub fn session<'c>(
    subject: &mut dyn Subject,
    corpus: &Corpus,
    cases: &[&'c Case],
    opts: RunOptions<'_>,
) -> Summary<'c> {
    let corpus_ids: Vec<&str> = corpus.cases.iter().map(|c| c.id.as_str()).collect();
    let results = run(subject, cases, opts);
    let faults = subject::faults_of(subject);
    let stale = match opts.known {
        Some(k) => k.stale(&corpus_ids, &subject.ops(), &subject.features(), &results),
        None => Vec::new(),
    };
    Summary {
        subject: subject.name(),
        strictness: opts.strictness,
        results,
        faults,
        stale_known: stale,
        allow_unexpected_pass: false,
        selection: String::new(),
        corpus: corpus.info(),
        spec: Some(corpus.spec.clone()),
        release: crate::judging::report::Judged {
            release: opts.release,
            from: Default::default(),
        },
    }
}
