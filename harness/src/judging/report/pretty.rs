//! The pretty report, for people, made from the JSON report: a per-op
//! table (ops that ran; those that did not, summed in one line), the rules
//! with problems (every rule with `--rules`), the skips grouped by reason,
//! then each failure with its diff. A passing run fits on one screen.

use super::json::JsonReport;
use super::Totals;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the pretty report shows beyond the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrettyOptions {
    /// List every rule, not only those with failures, errors or unexpected outcomes.
    pub all_rules: bool,
}

/// Replay commands longer than this (bytes) are described, not printed:
/// the arguments of a case can be tens of kilobytes.
const MAX_REPLAY: usize = 2000;

fn table<K: AsRef<str>>(
    out: &mut String,
    title: &str,
    rows: &[(K, &Totals)],
    all: Option<&Totals>,
) {
    let w = rows
        .iter()
        .map(|(k, _)| k.as_ref().len())
        .max()
        .unwrap_or(2)
        .max(title.len())
        .max(3);
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
            t.failures(),
            t.skips(),
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

/// The pretty report of `report`.
pub fn render(report: &JsonReport, opts: PrettyOptions) -> String {
    let (by_op, by_rule) = report.by_op_and_rule();
    let totals = report.totals;
    let mut out = String::new();
    let _ = writeln!(out, "subject: {}", report.subject);
    if let Some(c) = &report.corpus {
        let _ = writeln!(out, "{}", crate::corpus::describe(c, report.spec.as_ref()));
        if report.cases.len() != c.cases {
            let _ = writeln!(
                out,
                "selected: {} cases, by {}",
                report.cases.len(),
                report.selection
            );
        }
    }
    let _ = writeln!(out, "release: {}", report.release_line());
    let _ = writeln!(out, "level: {}\n", report.level);
    let (ran, idle): (Vec<_>, Vec<_>) = by_op.iter().partition(|(_, t)| t.executed() > 0);
    table(&mut out, "op", &ran, Some(&totals));
    if !idle.is_empty() {
        let cases: usize = idle.iter().map(|(_, t)| t.total).sum();
        let _ = writeln!(
            out,
            "not run: {} op(s), {cases} case(s), every one skipped (reasons below)",
            idle.len()
        );
    }
    out.push('\n');
    rules(&mut out, &by_rule, opts.all_rules);
    skips(&mut out, report);
    for c in &report.cases {
        let Some((label, text)) = c.problem() else {
            continue;
        };
        let _ = writeln!(out, "\n{label} {} ({})", c.id, c.file);
        let _ = writeln!(out, "  spec: {}", c.spec.join(", "));
        for line in text.lines() {
            let _ = writeln!(out, "  {line}");
        }
        match &c.replay {
            Some(cmd) if cmd.len() > MAX_REPLAY => {
                let _ = writeln!(
                    out,
                    "  replay: a command of {} bytes, too long to print (the request carries the \
                     arguments of {}): `--format json` reports it whole, `--id '{}'` reruns this case alone",
                    cmd.len(),
                    c.file,
                    c.id
                );
            }
            Some(cmd) => {
                let _ = writeln!(out, "  replay: {cmd}");
            }
            None => {}
        }
    }
    for f in &report.faults {
        let _ = writeln!(out, "\nADAPTER FAULT {f}");
    }
    for st in &report.stale_known_failures {
        let _ = writeln!(out, "\nSTALE KNOWN FAILURE {st}");
    }
    if !report.verdict.passed {
        let _ = writeln!(out, "\nTHE RUN FAILS:");
        for r in &report.verdict.reasons {
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

/// The rule table: every rule, or those with problems and one line for the
/// rest. The rest is counted over the cases that ran: a port that declares
/// one op is told the rules of its cases, and the rules cited only by
/// skipped cases are counted apart, so no rule reads as checked that was not.
fn rules(out: &mut String, by_rule: &BTreeMap<String, Totals>, all: bool) {
    let shown: Vec<(&String, &Totals)> = by_rule
        .iter()
        .filter(|(_, t)| all || t.has_problems())
        .collect();
    let quiet = |t: &Totals| !all && !t.has_problems();
    let held = by_rule
        .values()
        .filter(|t| quiet(t) && t.executed() > 0)
        .count();
    let unchecked = by_rule
        .values()
        .filter(|t| quiet(t) && t.executed() == 0)
        .count();
    if !shown.is_empty() {
        table(out, "rule", &shown, None);
    }
    if held + unchecked > 0 {
        let lead = if shown.is_empty() { "rules: " } else { "and " };
        let unchecked = match unchecked {
            0 => String::new(),
            n => format!("; {n} more cited only by skipped cases, not checked"),
        };
        let _ = writeln!(
            out,
            "{lead}{held} rule(s) cited by the cases that ran, without a failure, an error or an \
             unexpected outcome{unchecked} (--rules lists every rule)",
        );
    }
}

/// The skipped cases, one line per reason with its count.
fn skips(out: &mut String, report: &JsonReport) {
    let skipped: usize = report.skips.iter().map(|g| g.count).sum();
    if skipped == 0 {
        return;
    }
    let _ = writeln!(out, "\nskipped {skipped} case(s), by reason:");
    let w = report
        .skips
        .iter()
        .map(|g| g.count.to_string().len())
        .max()
        .unwrap_or(1);
    for g in &report.skips {
        let ops = match g.kind.as_str() {
            "op" => format!(": {}", g.ops.join(", ")),
            _ => String::new(),
        };
        let _ = writeln!(out, "  {:>w$}  {}{ops}", g.count, g.label());
    }
}
