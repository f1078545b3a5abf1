//! `ptc-conformance bench`: cases per second through each path (in process,
//! the reference's own adapter pipelined and one request at a time, and
//! optionally any other adapter), with the ratios, measured in one run.

use crate::corpus::Case;
use crate::judging::outcome::{Outcome, Strictness};
use crate::judging::runner::{self, RunOptions};
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::subject::reference::Reference;
use crate::subject::Subject;
use std::time::Instant;

/// One measured path.
#[derive(Clone, Debug)]
pub struct Measure {
    /// What was measured.
    pub label: String,
    /// Cases run.
    pub cases: usize,
    /// Cases that passed.
    pub passed: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Measure {
    /// Cases per second.
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.seconds.max(1e-9)
    }
}

/// Times of repeated measurements; the median is reported.
pub const REPEATS: usize = 5;

/// Runs `cases` against `subject` [`REPEATS`] times and keeps the median
/// time, after one untimed warm-up run (the machine is shared and noisy;
/// one run can be off by half).
pub fn measure(
    label: &str,
    subject: &mut dyn Subject,
    cases: &[&Case],
    release: ptc_conformance::Release,
) -> Measure {
    let options = || RunOptions {
        release,
        ..RunOptions::new(Strictness::Default)
    };
    // One untimed run first: caches, allocator and the adapter warm up.
    runner::run(subject, cases, options());
    let mut runs: Vec<(f64, usize, usize)> = (0..REPEATS)
        .map(|_| {
            let started = Instant::now();
            let results = runner::run(subject, cases, options());
            let seconds = started.elapsed().as_secs_f64();
            let passed = results
                .iter()
                .filter(|r| r.outcome == Outcome::Pass)
                .count();
            (seconds, results.len(), passed)
        })
        .collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (seconds, cases, passed) = runs[REPEATS / 2];
    Measure {
        label: label.to_owned(),
        cases,
        passed,
        seconds,
    }
}

/// The corpus repeated to at least `n` cases.
pub fn repeated(corpus: &[Case], n: usize) -> Vec<&Case> {
    if corpus.is_empty() {
        return Vec::new();
    }
    let rounds = n.div_ceil(corpus.len());
    (0..rounds).flat_map(|_| corpus.iter()).collect()
}

/// Runs the whole benchmark with the reference at `release` (in process
/// and as `ptc-conformance adapter --release`) on the cases of ops that
/// release has, and returns the measures, in-process first.
pub fn run(
    corpus: &[Case],
    n: usize,
    window: usize,
    self_exe: &str,
    others: &[Vec<String>],
    release: ptc_conformance::Release,
) -> Result<Vec<Measure>, String> {
    let reference = Reference::at(release);
    let has: Vec<Case> = corpus
        .iter()
        .filter(|c| c.op.exists_at(release) && c.holds_at(release))
        .cloned()
        .collect();
    let cases = repeated(&has, n);
    let mut out = vec![measure(
        "in-process reference",
        &mut reference.clone(),
        &cases,
        release,
    )];
    let ours = vec![
        self_exe.to_owned(),
        "adapter".to_owned(),
        "--release".to_owned(),
        release.to_string(),
    ];
    let pipelined = format!("`ptc-conformance adapter`, pipelined (window {window})");
    for (label, command, w) in [
        (pipelined.as_str(), ours.clone(), window),
        ("`ptc-conformance adapter`, one at a time", ours, 1),
    ] {
        let mut cfg = AdapterConfig::new(command);
        cfg.window = w;
        let mut adapter = Adapter::start(cfg)?;
        out.push(measure(label, &mut adapter, &cases, release));
    }
    for command in others {
        let mut cfg = AdapterConfig::new(command.clone());
        cfg.window = window;
        let mut adapter = Adapter::start(cfg)?;
        let label = format!("{}, pipelined (window {window})", command.join(" "));
        out.push(measure(&label, &mut adapter, &cases, release));
    }
    Ok(out)
}

/// The table of measures, with each rate as a ratio of the first.
pub fn table(measures: &[Measure]) -> String {
    let base = measures.first().map(Measure::rate).unwrap_or(1.0);
    let w = measures.iter().map(|m| m.label.len()).max().unwrap_or(10);
    let mut s = format!(
        "{:<w$}  {:>9} {:>9} {:>8} {:>12} {:>9}\n",
        "path", "cases", "passed", "seconds", "cases/s", "ratio"
    );
    for m in measures {
        s.push_str(&format!(
            "{:<w$}  {:>9} {:>9} {:>8.3} {:>12.0} {:>9.3}\n",
            m.label,
            m.cases,
            m.passed,
            m.seconds,
            m.rate(),
            m.rate() / base
        ));
    }
    s
}
