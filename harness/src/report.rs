//! Reports: a per-op summary table with failure details, and a stable JSON
//! shape (`spec/report.md`).

use crate::corpus::Case;
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

/// Everything a report shows.
pub struct Summary<'a, 'c> {
    /// The subject's name.
    pub subject: &'a str,
    /// `default` or `strict`.
    pub level: &'a str,
    /// One result per case.
    pub results: &'a [CaseResult<'c>],
    /// Adapter faults not tied to a case.
    pub faults: &'a [String],
    /// Known-failure entries that match no case.
    pub stale_known: &'a [String],
}

/// A one-line shell command that replays `case` against the adapter `cmd`,
/// handshake included.
pub fn repro_command(cmd: &[String], case: &Case) -> String {
    let mut request = String::new();
    crate::wire::push_request(
        &mut request,
        1,
        case.op.name,
        &crate::wire::encode_args(&case.args),
    );
    let lines = [
        crate::wire::hello_line(0),
        request,
        crate::wire::bye_line(2),
    ];
    let quoted: Vec<String> = lines.iter().map(|l| quote(l.trim_end())).collect();
    let command: Vec<String> = cmd.iter().map(|a| quote(a)).collect();
    format!(
        "printf '%s\\n' {} | {}",
        quoted.join(" "),
        command.join(" ")
    )
}

fn quote(s: &str) -> String {
    shlex::try_quote(s)
        .map(|q| q.into_owned())
        .unwrap_or_else(|_| format!("'{}'", s.replace('\'', "'\\''")))
}

/// The failure text of a result, if it is one to show.
fn problem(r: &CaseResult<'_>) -> Option<(&'static str, String)> {
    Some(match &r.outcome {
        Outcome::Fail(d) if r.required => ("FAIL", d.clone()),
        Outcome::Fail(d) => ("FAIL (pinned, not required at this level)", d.clone()),
        Outcome::Error(e) => ("ERROR", e.clone()),
        Outcome::UnexpectedPass => (
            "UNEXPECTED PASS",
            "listed as a known failure, but passes".to_owned(),
        ),
        _ => return None,
    })
}

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
            t.skipped,
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
pub fn pretty(s: &Summary<'_, '_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
    let mut by_op: BTreeMap<&str, Totals> = BTreeMap::new();
    let mut by_rule: BTreeMap<&str, Totals> = BTreeMap::new();
    for r in s.results {
        by_op.entry(r.case.op.name).or_default().add(r);
        for rule in &r.case.spec {
            by_rule.entry(rule.as_str()).or_default().add(r);
        }
    }
    let totals = Totals::of(s.results);
    let mut out = String::new();
    let _ = writeln!(out, "subject: {}\nlevel: {}\n", s.subject, s.level);
    table(&mut out, "op", &by_op, Some(&totals));
    out.push('\n');
    table(&mut out, "rule", &by_rule, None);
    for r in s.results {
        let Some((label, text)) = problem(r) else {
            continue;
        };
        let _ = writeln!(out, "\n{label} {} ({})", r.case.id, r.case.file.display());
        let _ = writeln!(out, "  spec: {}", r.case.spec.join(", "));
        for line in text.lines() {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(cmd) = repro(r.case) {
            let _ = writeln!(out, "  replay: {cmd}");
        }
    }
    for f in s.faults {
        let _ = writeln!(out, "\nADAPTER FAULT {f}");
    }
    for st in s.stale_known {
        let _ = writeln!(out, "\nSTALE KNOWN FAILURE {st}");
    }
    let _ = writeln!(
        out,
        "\n{} passed, {} failed, {} skipped, {} errors, {} expected failures, {} unexpected passes{}",
        totals.passed,
        totals.failed,
        totals.skipped,
        totals.errors,
        totals.expected_failures,
        totals.unexpected_passes,
        if totals.failed_not_required > 0 {
            format!(" ({} pinned cases fail, not required at this level)", totals.failed_not_required)
        } else {
            String::new()
        }
    );
    out
}

/// The JSON report (`spec/report.md`).
pub fn json(s: &Summary<'_, '_>, repro: &dyn Fn(&Case) -> Option<String>) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = s
        .results
        .iter()
        .map(|r| {
            let mut v = json!({
                "id": r.case.id,
                "op": r.case.op.name,
                "level": r.case.level.as_str(),
                "spec": r.case.spec,
                "outcome": r.outcome.name(),
                "required": r.required,
            });
            match &r.outcome {
                Outcome::Fail(d) => v["diff"] = json!(d),
                Outcome::Skip(m) | Outcome::Error(m) | Outcome::ExpectedFailure(m) => {
                    v["message"] = json!(m)
                }
                _ => {}
            }
            if problem(r).is_some() {
                if let Some(cmd) = repro(r.case) {
                    v["replay"] = json!(cmd);
                }
            }
            v
        })
        .collect();
    json!({
        "format": 1,
        "subject": s.subject,
        "level": s.level,
        "totals": Totals::of(s.results),
        "faults": s.faults,
        "stale_known_failures": s.stale_known,
        "cases": cases,
    })
}

/// JUnit XML: one test suite per op, one test case per case.
pub fn junit(s: &Summary<'_, '_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("ptc-conformance");
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for r in s.results {
        let status = match &r.outcome {
            Outcome::Pass | Outcome::ExpectedFailure(_) => TestCaseStatus::success(),
            Outcome::Skip(m) => {
                let mut st = TestCaseStatus::skipped();
                st.set_message(m.as_str());
                st
            }
            _ => {
                let (label, text) = problem(r).unwrap_or(("FAIL", String::new()));
                let kind = if matches!(r.outcome, Outcome::Error(_)) {
                    NonSuccessKind::Error
                } else {
                    NonSuccessKind::Failure
                };
                let mut st = TestCaseStatus::non_success(kind);
                st.set_message(label);
                let mut desc = text;
                if let Some(cmd) = repro(r.case) {
                    desc.push_str(&format!("\nreplay: {cmd}"));
                }
                st.set_description(desc);
                st
            }
        };
        let mut tc = TestCase::new(r.case.id.as_str(), status);
        tc.set_classname(r.case.op.name);
        suites
            .entry(r.case.op.name)
            .or_insert_with(|| TestSuite::new(r.case.op.name))
            .add_test_case(tc);
    }
    report.add_test_suites(suites.into_values());
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write JUnit XML: {e} -->\n"))
}
