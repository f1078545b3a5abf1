//! `ptc-conformance fuzz`: differential fuzzing against the reference, and
//! the fuzz printing `compare` shares.

use crate::cli::args::{seconds, start, AdapterArgs, CorpusArgs};
use crate::exit::Failure;
use crate::subject::reference::Reference;
use crate::subject::Subject;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `fuzz` arguments.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Corpus location (to cite the op's most cited rule in emitted cases).
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Fuzz only this op (repeatable; default: every op with a generator the subject declares).
    #[arg(long = "op", value_name = "OP")]
    pub op: Vec<String>,
    /// Generated inputs at most.
    #[arg(long, default_value = "10000")]
    pub cases: usize,
    /// Generator seed (printed when not given, for replay).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Write the minimal disagreement as a case file under DIR.
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
    /// Fuzz the adapter given after `--` (default: the reference against itself).
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

/// Fuzzes the reference or an adapter and prints the first disagreement.
pub fn exec(args: FuzzArgs) -> Result<(), Failure> {
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = crate::review::fuzz::seed_or_now(args.seed);
    let time_limit = args.time.map(|t| seconds("time", t)).transpose()?;
    if args.cases == 0 {
        return Err(Failure::usage("--cases must be at least 1"));
    }
    let cfg = crate::review::fuzz::FuzzConfig {
        ops: args.op.clone(),
        cases: args.cases,
        seed,
        time_limit,
        batch: 256,
        emit: args.emit.clone(),
        one_per_op: false,
    };
    let mut adapter;
    let subject: &mut dyn Subject = match args.adapter.config()? {
        Some(c) => {
            adapter = start(c)?;
            &mut adapter
        }
        None => &mut Reference,
    };
    let ops = crate::review::fuzz::plan(&cfg.ops, &subject.ops()).map_err(Failure::usage)?;
    let names: Vec<&str> = ops.iter().map(|o| o.name).collect();
    eprintln!(
        "fuzzing {} with seed {seed} (replay: --seed {seed})\nops ({}): {}",
        subject.name(),
        names.len(),
        names.join(", ")
    );
    let (bar, mut progress) = progress_display(args.cases);
    // The ops were checked above; what can go wrong now is writing the case.
    let report = crate::review::fuzz::run(subject, &cfg, &corpus.cases, &mut progress)
        .map_err(|e| Failure::failed(format!("fuzz: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    print_fuzz_totals(&report);
    let faults = crate::subject::faults_of(subject);
    for f in &faults {
        println!("ADAPTER FAULT {f}");
    }
    match report.findings.first() {
        None if faults.is_empty() => {
            println!("no disagreement found (seed {seed})");
            Ok(())
        }
        None => Err(Failure::reported()),
        Some(f) => {
            print_finding(f, "reference", "subject");
            println!("  (seed {seed})");
            Err(Failure::reported())
        }
    }
}

/// A progress display for `total` generated inputs: a bar on a terminal, a
/// line every two seconds otherwise.
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
    let mut last_line = std::time::Instant::now();
    let progress = move |n: usize| match &shown {
        Some(b) => b.set_position(n as u64),
        None => {
            if last_line.elapsed() >= Duration::from_secs(2) {
                eprintln!("{n} inputs checked");
                last_line = std::time::Instant::now();
            }
        }
    };
    (bar, progress)
}

/// Prints how many inputs were checked, in all and per op.
pub(super) fn print_fuzz_totals(report: &crate::review::fuzz::FuzzReport) {
    let rate = report.checked as f64 / report.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} inputs checked in {:.2}s ({rate:.0}/s), {} declined by the subject",
        report.checked,
        report.elapsed.as_secs_f64(),
        report.declined
    );
    let w = report.ops.iter().map(|o| o.len()).max().unwrap_or(2);
    for op in &report.ops {
        let n = report.checked_per_op.get(op).copied().unwrap_or(0);
        println!("  {op:<w$}  {n:>8} inputs");
    }
}

/// Prints one shrunk disagreement: its arguments, both answers and the diff.
pub(super) fn print_finding(
    f: &crate::review::fuzz::Finding,
    expected_label: &str,
    subject_label: &str,
) {
    let args_text: Vec<String> = f.args.iter().map(ptc_conformance::tagged::encode).collect();
    let w = expected_label.len().max(subject_label.len()).max(4);
    println!(
        "DISAGREEMENT on {}, shrunk in {} steps",
        f.op.name, f.shrink_steps
    );
    println!("  {:<w$}  [{}]", "args:", args_text.join(", "));
    println!(
        "  {:<w$}  {}",
        format!("{expected_label}:"),
        crate::review::fuzz::describe(&f.expected)
    );
    println!(
        "  {:<w$}  {}",
        format!("{subject_label}:"),
        crate::review::fuzz::describe(&f.actual)
    );
    for line in f.diff.lines() {
        println!("  {line}");
    }
    if let Some(p) = &f.emitted {
        println!("  case written to {}", p.display());
    }
}
