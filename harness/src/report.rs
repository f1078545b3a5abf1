//! Reports: a per-op summary table with failure details, and a stable JSON
//! shape (`spec/report.md`).

use crate::judge::Outcome;
use crate::runner::CaseResult;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Cases considered.
    pub total: usize,
    /// Passed.
    pub passed: usize,
    /// Failed and required at this level.
    pub failed: usize,
    /// Failed but not required at this level (pinned cases at the default level).
    pub failed_not_required: usize,
    /// Skipped.
    pub skipped: usize,
    /// Errors (no valid answer).
    pub errors: usize,
    /// Failed as the known-failures file says.
    pub expected_failures: usize,
    /// Passed although the known-failures file lists them.
    pub unexpected_passes: usize,
}

impl Totals {
    /// Adds one result.
    pub fn add(&mut self, r: &CaseResult<'_>) {
        self.total += 1;
        match &r.outcome {
            Outcome::Pass => self.passed += 1,
            Outcome::Fail(_) if r.required => self.failed += 1,
            Outcome::Fail(_) => self.failed_not_required += 1,
            Outcome::Skip(_) => self.skipped += 1,
            Outcome::Error(_) => self.errors += 1,
            Outcome::ExpectedFailure(_) => self.expected_failures += 1,
            Outcome::UnexpectedPass => self.unexpected_passes += 1,
        }
    }

    /// Totals of `results`.
    pub fn of(results: &[CaseResult<'_>]) -> Totals {
        let mut t = Totals::default();
        results.iter().for_each(|r| t.add(r));
        t
    }

    /// Whether the run succeeded: no required failure and no error.
    pub fn ok(&self) -> bool {
        self.failed == 0 && self.errors == 0 && self.unexpected_passes == 0
    }
}

/// The pretty report: a table per op, then each failure and error.
pub fn pretty(subject: &str, results: &[CaseResult<'_>]) -> String {
    let mut by_op: BTreeMap<&str, Totals> = BTreeMap::new();
    for r in results {
        by_op.entry(r.case.op.name).or_default().add(r);
    }
    let totals = Totals::of(results);
    let mut out = String::new();
    let _ = writeln!(out, "subject: {subject}\n");
    let w = by_op.keys().map(|k| k.len()).max().unwrap_or(2).max(5);
    let _ = writeln!(out, "{:<w$}  {:>6} {:>6} {:>6} {:>7} {:>6}", "op", "total", "passed", "failed", "skipped", "errors");
    let row = |out: &mut String, name: &str, t: &Totals| {
        let _ = writeln!(
            out,
            "{:<w$}  {:>6} {:>6} {:>6} {:>7} {:>6}",
            name,
            t.total,
            t.passed + t.expected_failures,
            t.failed + t.failed_not_required + t.unexpected_passes,
            t.skipped,
            t.errors
        );
    };
    for (op, t) in &by_op {
        row(&mut out, op, t);
    }
    row(&mut out, "all", &totals);
    for r in results {
        let (label, text) = match &r.outcome {
            Outcome::Fail(d) if r.required => ("FAIL", d.as_str()),
            Outcome::Fail(d) => ("FAIL (pinned, not required at this level)", d.as_str()),
            Outcome::Error(e) => ("ERROR", e.as_str()),
            Outcome::UnexpectedPass => ("UNEXPECTED PASS", "listed as a known failure, but passes"),
            _ => continue,
        };
        let _ = writeln!(out, "\n{label} {} ({})", r.case.id, r.case.file.display());
        let _ = writeln!(out, "  spec: {}", r.case.spec.join(", "));
        for line in text.lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = writeln!(
        out,
        "\n{} passed, {} failed, {} skipped, {} errors{}",
        totals.passed,
        totals.failed,
        totals.skipped,
        totals.errors,
        if totals.failed_not_required > 0 {
            format!(" ({} pinned cases fail, not required at this level)", totals.failed_not_required)
        } else {
            String::new()
        }
    );
    out
}

/// The JSON report.
pub fn json(subject: &str, level: &str, results: &[CaseResult<'_>]) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = results
        .iter()
        .map(|r| {
            let mut v = json!({
                "id": r.case.id,
                "op": r.case.op.name,
                "level": r.case.level.as_str(),
                "outcome": r.outcome.name(),
                "required": r.required,
            });
            match &r.outcome {
                Outcome::Fail(d) => v["diff"] = json!(d),
                Outcome::Skip(m) | Outcome::Error(m) | Outcome::ExpectedFailure(m) => v["message"] = json!(m),
                _ => {}
            }
            v
        })
        .collect();
    json!({
        "format": 1,
        "subject": subject,
        "level": level,
        "totals": Totals::of(results),
        "cases": cases,
    })
}
