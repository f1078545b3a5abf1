//! Reports of a run: its [`Summary`], which also owns the run's verdict
//! ([`Summary::verdict`]) and its skips grouped by reason
//! ([`Summary::skip_groups`]), and four formats of it
//! (`spec/adapter_protocol.md` § Reports), each in its own module:
//! [`pretty`] (per-op and per-rule tables, skips by reason, failure
//! details), [`json`] (a stable JSON shape, written and read back),
//! [`junit`] (JUnit XML) and [`html`] (one self-contained page, made from
//! the JSON report). [`matrix`] puts several JSON reports side by side in
//! one page. The formats build on this module; it imports none of them.

pub mod html;
pub mod json;
pub mod junit;
pub mod matrix;
pub mod pretty;

pub use crate::corpus::CorpusInfo;
use crate::corpus::{Case, Provenance};
use crate::exit::Exit;
use crate::judging::outcome::{CaseResult, Outcome, Skip, Strictness};
pub use crate::judging::release::{Judged, ReleaseFrom};
use std::collections::{BTreeMap, BTreeSet};

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
        self.add_named(r.outcome.name(), r.required);
    }

    /// Adds one outcome by its name in reports ([`Outcome::name`]), as a
    /// JSON report carries it; a name that is none of
    /// [`Outcome::NAMES`] counts only in `total` (readers check names).
    pub fn add_named(&mut self, outcome: &str, required: bool) {
        self.total += 1;
        match outcome {
            "pass" => self.passed += 1,
            "fail" if required => self.failed += 1,
            "fail" => self.failed_not_required += 1,
            "skip" => self.skipped += 1,
            "error" => self.errors += 1,
            "expected_failure" => self.expected_failures += 1,
            "unexpected_pass" => self.unexpected_passes += 1,
            "unexpected_skip" => self.unexpected_skips += 1,
            _ => {}
        }
    }

    /// Failures of any kind: failed (required or not) and unexpected passes.
    pub fn failures(&self) -> usize {
        self.failed + self.failed_not_required + self.unexpected_passes
    }

    /// Skips, expected or not.
    pub fn skips(&self) -> usize {
        self.skipped + self.unexpected_skips
    }

    /// Whether anything here is a failure, an error or an unexpected outcome.
    pub fn has_problems(&self) -> bool {
        self.failures() + self.errors + self.unexpected_skips > 0
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

/// Skipped cases that share a reason.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SkipGroup {
    /// `op` (op not declared), `features` (features not declared),
    /// `unsupported` (the subject answered so) or `stopped` (the run
    /// stopped early).
    pub kind: String,
    /// The reason: the subject's `unsupported` text for that kind, else
    /// what the harness says.
    pub reason: String,
    /// How many cases.
    pub count: usize,
    /// The ops of those cases, sorted.
    pub ops: Vec<String>,
}

impl SkipGroup {
    /// The reason as one line: `unsupported: <text>` for the subject's own.
    pub fn label(&self) -> String {
        match self.kind.as_str() {
            "unsupported" => format!("unsupported: {}", self.reason),
            _ => self.reason.clone(),
        }
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
    /// The corpus the cases came from (where from, how many cases, hashes).
    pub corpus: CorpusInfo,
    /// The spec the corpus was checked against (where from, files, hash).
    pub spec: Option<Provenance>,
    /// The release judged and who chose it.
    pub release: Judged,
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

    /// The skipped cases (expected or not) grouped by reason, most cases
    /// first: one group for every op the subject does not declare (listing
    /// them), one per set of undeclared features, one per `unsupported`
    /// text, one for a run that stopped early, one for the cases that do
    /// not hold at the release judged.
    pub fn skip_groups(&self) -> Vec<SkipGroup> {
        let mut groups: BTreeMap<(&str, String), (usize, BTreeSet<&str>)> = BTreeMap::new();
        for r in &self.results {
            let (Outcome::Skip(s) | Outcome::UnexpectedSkip(s)) = &r.outcome else {
                continue;
            };
            let key = match s {
                Skip::Op(_) => ("op", "op not declared by the subject".to_owned()),
                Skip::Features(_) => ("features", s.to_string()),
                Skip::Unsupported(why) => ("unsupported", why.clone()),
                Skip::Stopped => ("stopped", s.to_string()),
                Skip::Release(at, _) => (
                    "release",
                    format!("not in release {at}: the case's `releases` leave it out"),
                ),
            };
            let g = groups.entry(key).or_default();
            g.0 += 1;
            g.1.insert(r.case.op.name);
        }
        let mut out: Vec<SkipGroup> = groups
            .into_iter()
            .map(|((kind, reason), (count, ops))| SkipGroup {
                kind: kind.to_owned(),
                reason,
                count,
                ops: ops.into_iter().map(str::to_owned).collect(),
            })
            .collect();
        out.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| a.label().cmp(&b.label()))
        });
        out
    }

    /// Why no case was executed: what was selected and the skip reasons.
    fn nothing_executed(&self) -> String {
        let groups = self.skip_groups();
        let shown: Vec<String> = groups
            .iter()
            .take(5)
            .map(|g| match g.kind.as_str() {
                "op" => format!("{} × {} ({})", g.count, g.label(), g.ops.join(", ")),
                _ => format!("{} × {}", g.count, g.label()),
            })
            .collect();
        let more = groups.len().saturating_sub(5);
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
