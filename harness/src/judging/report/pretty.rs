//! The pretty report, for people: per-op and per-rule tables, then each
//! failure with its diff.

use super::{problem, Summary, Totals};
use crate::corpus::Case;
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn table<K: AsRef<str>>(
    out: &mut String,
    title: &str,
    rows: &BTreeMap<K, Totals>,
    all: Option<&Totals>,
) {
    let w = rows
        .keys()
        .map(|k| k.as_ref().len())
        .max()
        .unwrap_or(2)
        .max(title.len());
    let _ = writeln!(
        out,
        "{title:<w$}  {:>6} {:>6} {:>6} {:>7} {:>6} {:>6}",
        "total", "passed", "failed", "skipped", "errors", "xfail"
    );
    let row = |out: &mut String, name: &str, t: &Totals| {
        let _ = writeln!(
            out,
            "{name:<w$}  {:>6} {:>6} {:>6} {:>7} {:>6} {:>6}",
            t.total,
            t.passed,
            t.failed + t.failed_not_required + t.unexpected_passes,
            t.skipped + t.unexpected_skips,
            t.errors,
            t.expected_failures
        );
    };
    for (k, t) in rows {
        row(out, k.as_ref(), t);
    }
    if let Some(t) = all {
        row(out, "all", t);
    }
}

/// The pretty report: per-op and per-rule tables, then each failure and
/// error with its diff and, against an adapter, a command that replays it.
pub fn render(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
    let mut by_op: BTreeMap<&str, Totals> = BTreeMap::new();
    let mut by_rule: BTreeMap<&str, Totals> = BTreeMap::new();
    for r in &s.results {
        by_op.entry(r.case.op.name).or_default().add(r);
        for rule in &r.case.spec {
            by_rule.entry(rule.as_str()).or_default().add(r);
        }
    }
    let totals = s.totals();
    let mut out = String::new();
    let _ = writeln!(out, "subject: {}\nlevel: {}\n", s.subject, s.level());
    table(&mut out, "op", &by_op, Some(&totals));
    out.push('\n');
    table(&mut out, "rule", &by_rule, None);
    for r in &s.results {
        let Some((label, text)) = problem(r) else {
            continue;
        };
        let _ = writeln!(out, "\n{label} {} ({})", r.case.id, r.case.file.display());
        let _ = writeln!(out, "  spec: {}", r.case.spec.join(", "));
        for line in text.lines() {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(cmd) = repro(r.case).filter(|_| r.outcome.executed()) {
            let _ = writeln!(out, "  replay: {cmd}");
        }
    }
    for f in &s.faults {
        let _ = writeln!(out, "\nADAPTER FAULT {f}");
    }
    for st in &s.stale_known {
        let _ = writeln!(out, "\nSTALE KNOWN FAILURE {st}");
    }
    let verdict = s.verdict();
    if !verdict.passed() {
        let _ = writeln!(out, "\nTHE RUN FAILS:");
        for r in &verdict.reasons {
            let _ = writeln!(out, "  - {r}");
        }
    }
    let _ = writeln!(
        out,
        "\n{} passed, {} failed, {} skipped, {} errors, {} expected failures, {} unexpected passes{}{}",
        totals.passed,
        totals.failed,
        totals.skipped,
        totals.errors,
        totals.expected_failures,
        totals.unexpected_passes,
        if totals.unexpected_skips > 0 {
            format!(", {} unexpected skips", totals.unexpected_skips)
        } else {
            String::new()
        },
        if totals.failed_not_required > 0 {
            format!(" ({} pinned cases fail, not required at this level)", totals.failed_not_required)
        } else {
            String::new()
        }
    );
    out
}
