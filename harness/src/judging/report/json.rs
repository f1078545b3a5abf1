//! The JSON report, a stable shape for machines: [`JsonReport`] is that
//! shape, written by [`render`] and read back by [`read`] (the HTML report
//! and the matrix are made from it), so the writer and the readers cannot
//! drift apart.

use super::{CorpusInfo, SkipGroup, Summary, Totals};
use crate::corpus::{Case, Provenance};
use crate::judging::outcome::Outcome;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `kit` field: which kit wrote the report.
pub const KIT: &str = "ptc-conformance";

/// The JSON report (`spec/adapter_protocol.md` § Reports).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonReport {
    /// The report format's version: 1.
    pub format: u32,
    /// [`KIT`]; absent in reports written before the field was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kit: Option<String>,
    /// The subject's name.
    pub subject: String,
    /// `default` or `strict`.
    pub level: String,
    /// Whether the run passes, and why not.
    pub verdict: JsonVerdict,
    /// Counts of outcomes.
    pub totals: Totals,
    /// Faults of the subject not tied to a case.
    pub faults: Vec<String>,
    /// Known-failures entries that no longer hold.
    pub stale_known_failures: Vec<String>,
    /// The corpus the cases came from (absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus: Option<CorpusInfo>,
    /// The spec the corpus was checked against (absent in older reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<Provenance>,
    /// What was selected, as the command line said it (empty: everything).
    #[serde(default)]
    pub selection: String,
    /// The release judged (`0.13.0`); absent in reports written before
    /// releases were targets, which judged 0.13.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// Who chose it: `the default`, `--release` or `named by the adapter's hello`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_from: Option<String>,
    /// Skipped cases grouped by reason ([`Summary::skip_groups`]).
    #[serde(default)]
    pub skips: Vec<SkipGroup>,
    /// One entry per selected case.
    pub cases: Vec<JsonCase>,
}

/// The run's verdict in the JSON report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonVerdict {
    /// Whether the run passed.
    pub passed: bool,
    /// The exit status.
    pub exit: u8,
    /// Why it fails, one line each.
    pub reasons: Vec<String>,
}

/// One case in the JSON report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonCase {
    /// The case id.
    pub id: String,
    /// Its op.
    pub op: String,
    /// The case file, relative to where the run was started (absent in
    /// older reports).
    #[serde(default)]
    pub file: String,
    /// `required` or `pinned`.
    pub level: String,
    /// The rules it checks.
    pub spec: Vec<String>,
    /// One of [`Outcome::NAMES`].
    pub outcome: String,
    /// Whether a failure of it fails the run.
    pub required: bool,
    /// Where the answer differs (failures).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Why it was skipped, the error, or the expected failure's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// A shell command replaying it against the adapter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

impl JsonCase {
    /// The label and text of a failure, error or unexpected outcome, as
    /// every report shows it; `None` for a pass, a skip or an expected failure.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        let text = || self.diff.clone().or_else(|| self.message.clone());
        Some(match self.outcome.as_str() {
            "fail" if self.required => ("FAIL", text().unwrap_or_default()),
            "fail" => (
                "FAIL (pinned, not required at this level)",
                text().unwrap_or_default(),
            ),
            "error" => ("ERROR", text().unwrap_or_default()),
            "unexpected_pass" => (
                "UNEXPECTED PASS",
                "listed as a known failure, but passes".to_owned(),
            ),
            "unexpected_skip" => (
                "UNEXPECTED SKIP",
                format!("{}; the known-failures file lists no expected skip for it (an op or feature dropped from the handshake?)", text().unwrap_or_default()),
            ),
            _ => return None,
        })
    }
}

impl JsonReport {
    /// The report of `s`; `repro` gives a case's replay command, if any.
    pub fn of(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> JsonReport {
        let cases = s
            .results
            .iter()
            .map(|r| {
                let (diff, message) = match &r.outcome {
                    Outcome::Fail(d) => (Some(d.clone()), None),
                    Outcome::Skip(why) | Outcome::UnexpectedSkip(why) => {
                        (None, Some(why.to_string()))
                    }
                    Outcome::Error(m) | Outcome::ExpectedFailure(m) => (None, Some(m.clone())),
                    _ => (None, None),
                };
                let mut case = JsonCase {
                    id: r.case.id.clone(),
                    op: r.case.op.name.to_owned(),
                    file: r.case.file.display().to_string(),
                    level: r.case.level.as_str().to_owned(),
                    spec: r.case.spec.clone(),
                    outcome: r.outcome.name().to_owned(),
                    required: r.required,
                    diff,
                    message,
                    replay: None,
                };
                if case.problem().is_some() && r.outcome.executed() {
                    case.replay = repro(r.case);
                }
                case
            })
            .collect();
        let verdict = s.verdict();
        JsonReport {
            format: 1,
            kit: Some(KIT.to_owned()),
            subject: s.subject.clone(),
            level: s.level().to_owned(),
            verdict: JsonVerdict {
                passed: verdict.passed(),
                exit: verdict.exit.code(),
                reasons: verdict.reasons,
            },
            totals: s.totals(),
            faults: s.faults.clone(),
            stale_known_failures: s.stale_known.clone(),
            corpus: (s.corpus != CorpusInfo::default()).then(|| s.corpus.clone()),
            spec: s.spec.clone(),
            selection: s.selection.clone(),
            release: Some(s.release.release.to_string()),
            release_from: Some(s.release.from.as_str().to_owned()),
            skips: s.skip_groups(),
            cases,
        }
    }

    /// Reads a JSON report written by `run --format json`; the error names
    /// the file and says what is wrong with it.
    pub fn read(path: &Path) -> Result<JsonReport, String> {
        let shown = crate::paths::shown(path);
        let not_ours = |why: String| {
            format!(
                "{}: not a JSON report of {KIT} (`run --format json`): {why}",
                shown.display()
            )
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", shown.display()))?;
        let report: JsonReport = serde_json::from_str(&text)
            .map_err(|e| not_ours(crate::quote::line(&e.to_string())))?;
        if report.format != 1 {
            return Err(not_ours(format!(
                "format {} (this kit reads 1)",
                report.format
            )));
        }
        if let Some(kit) = report.kit.as_deref().filter(|k| *k != KIT) {
            return Err(not_ours(format!("written by {kit:?}")));
        }
        if let Some(c) = report
            .cases
            .iter()
            .find(|c| !Outcome::NAMES.contains(&c.outcome.as_str()))
        {
            return Err(not_ours(format!(
                "case {}: unknown outcome {:?}",
                c.id, c.outcome
            )));
        }
        Ok(report)
    }

    /// The release it judged: 0.13.0 for a report written before the field.
    pub fn release(&self) -> &str {
        self.release.as_deref().unwrap_or("0.13.0")
    }

    /// `release: 0.12.0 (--release)`, the header line every format shows.
    pub fn release_line(&self) -> String {
        match &self.release_from {
            Some(from) => format!("{} ({from})", self.release()),
            None => self.release().to_owned(),
        }
    }

    /// Totals per op and per rule, counted from the cases.
    pub fn by_op_and_rule(
        &self,
    ) -> (
        std::collections::BTreeMap<String, Totals>,
        std::collections::BTreeMap<String, Totals>,
    ) {
        let mut by_op: std::collections::BTreeMap<String, Totals> = Default::default();
        let mut by_rule: std::collections::BTreeMap<String, Totals> = Default::default();
        for c in &self.cases {
            by_op
                .entry(c.op.clone())
                .or_default()
                .add_named(&c.outcome, c.required);
            for rule in &c.spec {
                by_rule
                    .entry(rule.clone())
                    .or_default()
                    .add_named(&c.outcome, c.required);
            }
        }
        (by_op, by_rule)
    }
}

/// The JSON report as text (one line).
pub fn render(report: &JsonReport) -> String {
    serde_json::to_string(report)
        .unwrap_or_else(|e| format!("{{\"format\": 1, \"error\": {:?}}}", e.to_string()))
}
