//! Running cases against a subject: skipping what it does not declare,
//! calling it for the rest, judging the answers, applying the
//! known-failures list, and stopping early when asked.

use crate::corpus::Case;
use crate::judge::{is_required, judge, Outcome, Strictness};
use crate::known::KnownFailures;
use crate::subject::{Flow, Request, Subject};
use std::collections::BTreeSet;

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseResult<'c> {
    /// The case.
    pub case: &'c Case,
    /// What happened.
    pub outcome: Outcome,
    /// Whether a failure of it fails the run.
    pub required: bool,
}

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions<'k> {
    /// How strictly to compare.
    pub strictness: Strictness,
    /// Stop sending requests after this many failures and errors.
    pub max_fail: Option<usize>,
    /// Cases expected to fail.
    pub known: Option<&'k KnownFailures>,
}

impl RunOptions<'_> {
    /// Default level, no early stop, no known failures.
    pub fn new(strictness: Strictness) -> RunOptions<'static> {
        RunOptions {
            strictness,
            max_fail: None,
            known: None,
        }
    }
}

/// Why `subject` cannot run `case`, if it cannot.
pub fn skip_reason(
    case: &Case,
    ops: &BTreeSet<String>,
    features: &BTreeSet<String>,
) -> Option<String> {
    if !ops.contains(case.op.name) {
        return Some(format!("op {} not declared by the subject", case.op.name));
    }
    let missing: Vec<&str> = case
        .features
        .iter()
        .filter(|f| !features.contains(*f))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Some(format!(
            "needs features the subject does not declare: {}",
            missing.join(", ")
        ));
    }
    None
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
        match skip_reason(case, &ops, &features) {
            Some(why) => outcomes[i] = Some(Outcome::Skip(why)),
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
        let mut outcome = judge(case, &answer, opts.strictness);
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
                    Outcome::Skip(
                        "not run: the run stopped early (--fail-fast / --max-fail)".into(),
                    )
                } else {
                    Outcome::Error("the subject gave no answer".into())
                }
            });
            let required =
                !matches!(outcome, Outcome::Skip(_)) && is_required(case, opts.strictness);
            CaseResult {
                case,
                outcome,
                required,
            }
        })
        .collect()
}
