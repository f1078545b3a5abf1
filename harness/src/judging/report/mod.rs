//! Reports of a run: its [`Summary`], which also owns the run's verdict
//! ([`Summary::verdict`]), and three formats of it: a per-op and per-rule
//! table with failure details, a stable JSON shape and JUnit XML
//! (`spec/adapter_protocol.md` § Reports).

use crate::corpus::Case;
use crate::exit::Exit;
use crate::judging::judge::{Outcome, Strictness};
use crate::judging::runner::CaseResult;
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
    /// Skipped although a known-failures file pins coverage and does not list them.
    pub unexpected_skips: usize,
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
            Outcome::UnexpectedSkip(_) => self.unexpected_skips += 1,
        }
    }

    /// Totals of `results`.
    pub fn of(results: &[CaseResult<'_>]) -> Totals {
        let mut t = Totals::default();
        results.iter().for_each(|r| t.add(r));
        t
    }

    /// Cases that were answered (neither skipped nor unexpectedly skipped).
    pub fn executed(&self) -> usize {
        self.total - self.skipped - self.unexpected_skips
    }
}

/// Everything a report shows, and what decides the run.
#[derive(Debug)]
pub struct Summary<'c> {
    /// The subject's name.
    pub subject: String,
    /// How strictly the cases were compared.
    pub strictness: Strictness,
    /// One result per selected case.
    pub results: Vec<CaseResult<'c>>,
    /// Faults of the subject not tied to a case (unknown ops or features in
    /// its handshake, answers to unknown ids, restarts).
    pub faults: Vec<String>,
    /// Known-failures entries that no longer hold.
    pub stale_known: Vec<String>,
    /// Whether listed cases that pass are allowed.
    pub allow_unexpected_pass: bool,
    /// What was selected, as the command line said it (for messages).
    pub selection: String,
}

/// How a run ended and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// [`Exit::Passed`] or [`Exit::Failed`].
    pub exit: Exit,
    /// Why it failed, one line each (empty when it passed).
    pub reasons: Vec<String>,
}

impl Verdict {
    /// Whether the run passed.
    pub fn passed(&self) -> bool {
        self.exit == Exit::Passed
    }
}

impl Summary<'_> {
    /// The level's name in reports: `default` or `strict`.
    pub fn level(&self) -> &'static str {
        match self.strictness {
            Strictness::Default => "default",
            Strictness::Strict => "strict",
        }
    }

    /// Counts of outcomes.
    pub fn totals(&self) -> Totals {
        Totals::of(&self.results)
    }

    /// The run's verdict: it passes when no result fails it
    /// ([`CaseResult::fails_run`]), the subject committed no fault, no
    /// known-failures entry is stale, and at least one case was executed.
    /// The CLI's exit status and the `cargo test` trials both come from here.
    pub fn verdict(&self) -> Verdict {
        let t = self.totals();
        let mut reasons = Vec::new();
        let mut count = |n: usize, what: &str| {
            if n > 0 {
                reasons.push(format!("{n} {what}"));
            }
        };
        count(t.failed, "required case(s) failed");
        count(t.errors, "case(s) got no valid answer (error)");
        count(
            t.unexpected_skips,
            "case(s) skipped without an expected-skip entry (coverage shrank)",
        );
        if !self.allow_unexpected_pass {
            count(
                t.unexpected_passes,
                "listed known failure(s) passed (unexpected pass)",
            );
        }
        count(
            self.stale_known.len(),
            "known-failures entry(ies) are stale",
        );
        for f in &self.faults {
            reasons.push(format!("adapter fault: {f}"));
        }
        if t.executed() == 0 {
            reasons.push(self.nothing_executed());
        }
        Verdict {
            exit: if reasons.is_empty() {
                Exit::Passed
            } else {
                Exit::Failed
            },
            reasons,
        }
    }

    /// Why no case was executed: what was selected and the skip reasons.
    fn nothing_executed(&self) -> String {
        let mut why: BTreeMap<String, usize> = BTreeMap::new();
        for r in &self.results {
            if let Outcome::Skip(s) | Outcome::UnexpectedSkip(s) = &r.outcome {
                *why.entry(s.to_string()).or_default() += 1;
            }
        }
        let mut by_count: Vec<(usize, String)> = why.into_iter().map(|(w, n)| (n, w)).collect();
        by_count.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let shown: Vec<String> = by_count
            .iter()
            .take(5)
            .map(|(n, w)| format!("{n} × {w}"))
            .collect();
        let more = by_count.len().saturating_sub(5);
        format!(
            "no case was executed: {} case(s) selected ({}), all skipped: {}{}",
            self.results.len(),
            if self.selection.is_empty() {
                "the whole corpus"
            } else {
                &self.selection
            },
            shown.join("; "),
            if more > 0 {
                format!("; and {more} other reason(s)")
            } else {
                String::new()
            }
        )
    }
}

/// A one-line shell command that replays `case` against the adapter `cmd`,
/// handshake included.
pub fn repro_command(cmd: &[String], case: &Case) -> String {
    let mut request = String::new();
    crate::subject::wire::push_request(
        &mut request,
        1,
        case.op.name,
        &crate::subject::wire::encode_args(&case.args),
    );
    let lines = [
        crate::subject::wire::hello_line(0),
        request,
        crate::subject::wire::bye_line(2),
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
        Outcome::UnexpectedSkip(why) => (
            "UNEXPECTED SKIP",
            format!("{why}; the known-failures file lists no expected skip for it (an op or feature dropped from the handshake?)"),
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
pub fn pretty(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
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

/// The JSON report (`spec/adapter_protocol.md` § Reports).
pub fn json(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> serde_json::Value {
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
                Outcome::Skip(why) | Outcome::UnexpectedSkip(why) => {
                    v["message"] = json!(why.to_string())
                }
                Outcome::Error(m) | Outcome::ExpectedFailure(m) => v["message"] = json!(m),
                _ => {}
            }
            if problem(r).is_some() && r.outcome.executed() {
                if let Some(cmd) = repro(r.case) {
                    v["replay"] = json!(cmd);
                }
            }
            v
        })
        .collect();
    let verdict = s.verdict();
    json!({
        "format": 1,
        "subject": s.subject,
        "level": s.level(),
        "verdict": {"passed": verdict.passed(), "exit": verdict.exit.code(), "reasons": verdict.reasons},
        "totals": s.totals(),
        "faults": s.faults,
        "stale_known_failures": s.stale_known,
        "cases": cases,
    })
}

/// JUnit XML: one test suite per op, one test case per case.
pub fn junit(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("ptc-conformance");
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for r in &s.results {
        let status = match &r.outcome {
            Outcome::Pass | Outcome::ExpectedFailure(_) => TestCaseStatus::success(),
            Outcome::Skip(why) => {
                let mut st = TestCaseStatus::skipped();
                st.set_message(why.to_string());
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
                if let Some(cmd) = repro(r.case).filter(|_| r.outcome.executed()) {
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
    // The run as a whole: adapter faults, stale entries and an empty run
    // fail it without failing a case, so they get a test case of their own.
    let verdict = s.verdict();
    let status = if verdict.passed() {
        TestCaseStatus::success()
    } else {
        let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
        st.set_message("the run fails");
        st.set_description(verdict.reasons.join("\n"));
        st
    };
    let mut run = TestSuite::new("run");
    let mut tc = TestCase::new("verdict", status);
    tc.set_classname("run");
    run.add_test_case(tc);
    report.add_test_suites(suites.into_values());
    report.add_test_suite(run);
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write JUnit XML: {e} -->\n"))
}
