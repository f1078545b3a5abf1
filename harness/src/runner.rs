//! Running cases against a subject: skipping what it does not declare,
//! calling it for the rest, and judging the answers.

use crate::corpus::Case;
use crate::judge::{is_required, judge, Outcome, Strictness};
use crate::subject::{Request, Subject};

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

/// Why `subject` cannot run `case`, if it cannot.
pub fn skip_reason(case: &Case, ops: &std::collections::BTreeSet<String>, features: &std::collections::BTreeSet<String>) -> Option<String> {
    if !ops.contains(case.op.name) {
        return Some(format!("op {} not declared by the subject", case.op.name));
    }
    let missing: Vec<&str> = case.features.iter().filter(|f| !features.contains(*f)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Some(format!("needs features the subject does not declare: {}", missing.join(", ")));
    }
    None
}

/// Runs `cases` against `subject`, in order, one result per case.
pub fn run<'c>(subject: &mut dyn Subject, cases: &[&'c Case], strictness: Strictness) -> Vec<CaseResult<'c>> {
    let ops = subject.ops();
    let features = subject.features();
    let mut results: Vec<Option<CaseResult<'c>>> = vec![None; cases.len()];
    let mut to_call: Vec<usize> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match skip_reason(case, &ops, &features) {
            Some(why) => results[i] = Some(CaseResult { case, outcome: Outcome::Skip(why), required: false }),
            None => to_call.push(i),
        }
    }
    let requests: Vec<Request<'_>> = to_call.iter().map(|&i| Request { op: cases[i].op.name, args: &cases[i].args }).collect();
    let answers = subject.call_many(&requests);
    for (n, &i) in to_call.iter().enumerate() {
        let case = cases[i];
        let outcome = match answers.get(n) {
            Some(a) => judge(case, a, strictness),
            None => Outcome::Error("the subject gave no answer".into()),
        };
        results[i] = Some(CaseResult { case, outcome, required: is_required(case, strictness) });
    }
    results.into_iter().flatten().collect()
}
