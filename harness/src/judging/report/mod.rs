//! Reports of a run: its [`Summary`], which also owns the run's verdict
//! ([`Summary::verdict`]), and three formats of it (`spec/adapter_protocol.md`
//! § Reports), each in its own module: [`pretty`] (a per-op and per-rule
//! table with failure details), [`json`] (a stable JSON shape) and [`junit`]
//! (JUnit XML). The formats build on this module; it imports none of them.

pub mod json;
pub mod junit;
pub mod pretty;

use crate::corpus::Case;
use crate::exit::Exit;
use crate::judging::outcome::{CaseResult, Outcome, Strictness};
use std::collections::BTreeMap;

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
