//! `ptc-conformance fuzz`: differential fuzzing against the reference, and
//! the fuzz printing `compare` shares.

use crate::cli::args::{seconds, start, AdapterArgs, CorpusArgs, ReleaseArg};
use crate::cli::out::{errln, outln};
use crate::exit::Failure;
use crate::subject::reference::Reference;
use crate::subject::Subject;
use clap::Args;
use std::path::PathBuf;

/// `fuzz` arguments.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Corpus location (to cite the op's most cited rule in emitted cases).
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Fuzz only this op, or the ops a glob matches that the subject declares
    /// (`protocol.*`; repeatable; default: every op with a generator the subject declares).
    #[arg(long = "op", value_name = "OP")]
    pub op: Vec<String>,
    /// Generated inputs in all at most, taken from the ops in turn (default: no cap).
    #[arg(long, value_name = "N")]
    pub cases: Option<usize>,
    /// Generated inputs per op.
    #[command(flatten)]
    pub budget: Budget,
    /// Generator seed (printed when not given, for replay).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Go on after a disagreement: count every one by kind and shrink the
    /// smallest of each kind (default: stop at the first).
    #[arg(long)]
    pub keep_going: bool,
    /// Write the smallest disagreement (of each kind) as a case file under DIR.
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
    /// The release the reference answers as.
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Fuzz the adapter given after `--` (default: the reference against itself).
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

/// How many generated inputs each op gets.
#[derive(Args, Debug, Clone)]
pub struct Budget {
    /// Generated inputs per op (default 40,000; given `--cases N` alone,
    /// N is shared among the ops in turn, as before the per-op budget).
    #[arg(long, value_name = "N")]
    pub cases_per_op: Option<usize>,
    /// Stop generating for an op after this many seconds spent on it.
    #[arg(long, value_name = "SECS")]
    pub time_per_op: Option<f64>,
}

/// The fuzzing settings `fuzz` and `compare` share: the budget, the
/// seed, the known kinds (`PTC_FUZZ_KNOWN`, a usage error when bad) and
/// the spec's quirk rules.
pub(super) fn fuzz_config(
    ops: &[String],
    cases: Option<usize>,
    budget: &Budget,
    seed: u64,
    time: Option<f64>,
    corpus: &crate::corpus::Corpus,
) -> Result<crate::review::fuzz::FuzzConfig, Failure> {
    if cases == Some(0) {
        return Err(Failure::usage("--cases must be at least 1"));
    }
    let cases_per_op = match (budget.cases_per_op, cases) {
        (Some(0), _) => return Err(Failure::usage("--cases-per-op must be at least 1")),
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => crate::review::fuzz::CASES_PER_OP,
    };
    let known = crate::review::fuzz::known_kinds::Known::from_env().map_err(Failure::usage)?;
    // Checked before any adapter starts; narrowed to what the subject
    // declares once it has said (`expand_ops`).
    let ops = crate::corpus::select::expand_ops(ops, None).map_err(Failure::usage)?;
    Ok(crate::review::fuzz::FuzzConfig {
        ops: ops.iter().map(|o| (*o).to_owned()).collect(),
        cases_per_op,
        cases,
        time_limit: time.map(|t| seconds("time", t)).transpose()?,
        time_per_op: budget
            .time_per_op
            .map(|t| seconds("time-per-op", t))
            .transpose()?,
        known: std::sync::Arc::new(known),
        quirks: crate::corpus::quirk_rules(&corpus.rules),
        ..crate::review::fuzz::FuzzConfig::new(seed)
    })
}

/// The inputs a run generates at most: the cap, or every op's budget.
pub(super) fn planned(cfg: &crate::review::fuzz::FuzzConfig, ops: usize) -> usize {
    cfg.cases
        .unwrap_or(usize::MAX)
        .min(cfg.cases_per_op.saturating_mul(ops))
}

/// Fuzzes the reference or an adapter and prints the first disagreement,
/// or with `--keep-going` each kind of disagreement once.
pub fn exec(args: FuzzArgs) -> Result<(), Failure> {
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = crate::review::fuzz::seed_or_now(args.seed);
    let mut cfg = fuzz_config(&args.op, args.cases, &args.budget, seed, args.time, &corpus)?;
    cfg.emit = args.emit.clone();
    cfg.keep_going = args.keep_going;
    let mut adapter;
    let config = args.adapter.config()?;
    let self_check = config.is_none();
    let named = match config {
        Some(c) => {
            adapter = Some(start(c)?);
            adapter.as_ref().and_then(|a| a.release())
        }
        None => {
            adapter = None;
            None
        }
    };
    // AP-18, as `run` judges: the release asked for, else the one the
    // adapter's hello names, else 0.13.0; a mismatch is refused.
    let judged = crate::judging::release::resolve(args.release.release, named)
        .map_err(|e| Failure::usage(format!("adapter: {e}")))?;
    cfg.release = judged.release;
    let reference = Reference::at(cfg.release);
    let mut itself = reference;
    let subject: &mut dyn Subject = match &mut adapter {
        Some(a) => a,
        None => &mut itself,
    };
    // Only ops the release has are fuzzed: an op the subject declares that
    // the release lacks (`tool.private?` before 0.13.0) has no reference
    // answer to compare with.
    let declared: std::collections::BTreeSet<String> = subject
        .ops()
        .intersection(&reference.ops())
        .cloned()
        .collect();
    cfg.ops = crate::corpus::select::expand_ops(&args.op, Some((&declared, "the subject")))
        .map_err(Failure::usage)?
        .into_iter()
        .map(str::to_owned)
        .collect();
    let ops = crate::review::fuzz::plan(&cfg.ops, &declared).map_err(Failure::usage)?;
    let names: Vec<&str> = ops.iter().map(|o| o.name).collect();
    if self_check {
        errln!("fuzz: {SELF_CHECK}");
    }
    errln!(
        "fuzzing {} against the reference at {} with seed {seed} (replay: --seed {seed})\n{}\nops ({}): {}",
        subject.name(),
        judged.describe(),
        corpus.describe(),
        names.len(),
        names.join(", ")
    );
    let (bar, mut progress) = progress_display(planned(&cfg, names.len()));
    // The ops were checked above; what can go wrong now is writing the case.
    let report = crate::review::fuzz::run(subject, &cfg, &corpus.cases, &mut progress)
        .map_err(|e| Failure::failed(format!("fuzz: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    print_fuzz_totals(&report);
    let faults = crate::subject::faults_of(subject);
    for f in &faults {
        outln!("ADAPTER FAULT {f}");
    }
    if report.findings.is_empty() {
        if faults.is_empty() {
            if self_check {
                outln!("no disagreement found (seed {seed}): {SELF_CHECK}");
            } else {
                outln!("no disagreement found (seed {seed})");
            }
            return Ok(());
        }
        return Err(Failure::reported());
    }
    if args.keep_going {
        let n: usize = report.findings.iter().map(|f| f.count).sum();
        outln!(
            "{n} disagreement(s) in {} kind(s), each once with its smallest input shrunk:",
            report.findings.len()
        );
    }
    for f in &report.findings {
        outln!();
        print_finding(f, "reference", "subject", args.keep_going);
    }
    outln!("  (seed {seed})");
    Err(Failure::reported())
}

/// What `fuzz` without `--adapter` is, said at its start and its end: the
/// reference answers both sides, so it checks the fuzzer and the generators,
/// not a port.
const SELF_CHECK: &str = "a self-check of the reference against itself (no --adapter given); \
     to fuzz your port, add `--adapter -- ./my-port`";

/// A progress display for `total` generated inputs: a bar on a terminal's
/// stderr, nothing otherwise (a report redirected to a file or a pipe
/// carries no progress lines).
pub(super) fn progress_display(
    total: usize,
) -> (Option<indicatif::ProgressBar>, impl FnMut(usize)) {
    use std::io::IsTerminal;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} inputs, {per_sec}, {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let shown = bar.clone();
    let progress = move |n: usize| {
        if let Some(b) = &shown {
            b.set_position(n as u64);
        }
    };
    (bar, progress)
}

/// Lines of declined requests listed (by side, op and reason); the rest counted.
const DECLINES_SHOWN: usize = 12;

/// Prints how many inputs were checked, in all and per op.
pub(super) fn print_fuzz_totals(report: &crate::review::fuzz::FuzzReport) {
    let rate = report.checked as f64 / report.elapsed.as_secs_f64().max(1e-9);
    outln!(
        "{} inputs checked in {:.2}s ({rate:.0}/s)",
        report.checked,
        report.elapsed.as_secs_f64(),
    );
    let w = report.ops.iter().map(|o| o.len()).max().unwrap_or(2);
    for op in &report.ops {
        let n = report.checked_per_op.get(op).copied().unwrap_or(0);
        outln!("  {op:<w$}  {n:>8} inputs");
    }
    let mut declines: Vec<(&(&str, &str, String), &usize)> = report.declines.iter().collect();
    declines.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if !declines.is_empty() {
        // Each side is asked every input, so a refusal is counted once, by
        // the side that made it; both sides' counts are said, zero included.
        let mut by_side: std::collections::BTreeMap<&str, usize> = Default::default();
        for ((side, _, _), n) in &declines {
            *by_side.entry(side).or_default() += **n;
        }
        let sides: Vec<String> = [report.labels.0, report.labels.1]
            .iter()
            .map(|side| format!("{} by {side}", by_side.get(side).copied().unwrap_or(0)))
            .collect();
        outln!(
            "requests declined (unsupported, not compared): {}; by side, op and reason:",
            sides.join(", ")
        );
    }
    for ((side, op, reason), n) in declines.iter().take(DECLINES_SHOWN) {
        outln!(
            "  {n:>8}  {side} {op}: {}",
            crate::review::compare::cut(reason)
        );
    }
    if declines.len() > DECLINES_SHOWN {
        let rest: usize = declines[DECLINES_SHOWN..].iter().map(|(_, n)| **n).sum();
        outln!(
            "  {rest:>8}  in {} more (side, op, reason)",
            declines.len() - DECLINES_SHOWN
        );
    }
    print_struct_field_notes(report);
}

/// Prints what the fuzzer learned of the two sides' structs: inputs
/// retried without a field one side lacks, the fields each side's build
/// lacks, and the fields neither has (left out of every input). `fuzz` and
/// `compare` print it alike.
pub(super) fn print_struct_field_notes(report: &crate::review::fuzz::FuzzReport) {
    if report.retried > 0 {
        outln!(
            "{} input(s) declined for naming a struct field one side lacks, retried without it and compared",
            report.retried
        );
    }
    for (side, fields) in &report.lacking {
        let names: Vec<String> = fields.iter().map(|(m, f)| format!("{m}.{f}")).collect();
        outln!("struct fields {side}'s build lacks: {}", names.join(", "));
    }
    if !report.unknown_fields.is_empty() {
        let names: Vec<String> = report
            .unknown_fields
            .iter()
            .map(|(m, f)| format!("{m}.{f}"))
            .collect();
        outln!(
            "struct fields neither build has, left out of every input ({} input(s) sent without them): {}",
            report.stripped,
            names.join(", ")
        );
    }
}

/// Prints one kind of disagreement: its name (and count when counting),
/// its smallest input shrunk and abbreviated, both answers and the diff.
pub(super) fn print_finding(
    f: &crate::review::fuzz::Finding,
    expected_label: &'static str,
    subject_label: &'static str,
    counted: bool,
) {
    let w = expected_label.len().max(subject_label.len()).max(4) + 1;
    outln!(
        "DISAGREEMENT on {}, shrunk in {} steps",
        f.op.name,
        f.shrink_steps
    );
    outln!(
        "  {:<w$}  {}{}",
        "kind:",
        f.kind.title((expected_label, subject_label)),
        if counted {
            format!(" ({} inputs)", f.count)
        } else {
            String::new()
        }
    );
    outln!(
        "  {:<w$}  {}",
        "args:",
        crate::review::show::args_line(&f.args)
    );
    outln!(
        "  {:<w$}  {}",
        format!("{expected_label}:"),
        crate::review::fuzz::describe(&f.expected)
    );
    outln!(
        "  {:<w$}  {}",
        format!("{subject_label}:"),
        crate::review::fuzz::describe(&f.actual)
    );
    print_diff(&f.diff);
    if let Some(p) = &f.emitted {
        outln!("  case written to {}", p.display());
    }
}

/// Lines of a diff shown under an example; the rest is counted.
const DIFF_LINES: usize = 4;

/// Prints the first lines of a diff, abbreviated, indented.
pub(super) fn print_diff(diff: &str) {
    let lines: Vec<&str> = diff.lines().collect();
    for line in lines.iter().take(DIFF_LINES) {
        outln!("  {}", crate::review::show::abbreviate_line(line));
    }
    if lines.len() > DIFF_LINES {
        outln!("  ... {} more line(s) of diff", lines.len() - DIFF_LINES);
    }
}
