//! `ptc-conformance compare`: two builds held against each other.

use super::fuzz::{print_finding, print_fuzz_totals, progress_display};
use crate::cli::args::{load_clean, seconds, start, CorpusArgs, Filter};
use crate::exit::Failure;
use crate::judging::outcome::Strictness;
use crate::subject::adapter::AdapterConfig;
use crate::subject::Subject;
use clap::Args;
use std::path::PathBuf;

/// `compare` arguments.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection (`--op` also limits the fuzzed ops).
    #[command(flatten)]
    pub filter: Filter,
    /// The first build, whose answers are the expectation: a command line,
    /// split as a shell would (e.g. "elixir -pa ... adapter.exs").
    #[arg(long, value_name = "CMD")]
    pub base: String,
    /// The second build: a command line, split as a shell would.
    #[arg(long, value_name = "CMD")]
    pub head: String,
    /// `strict` (default) compares rendered JSON byte for byte; `default` as JSON.
    #[arg(long, value_enum, default_value = "strict")]
    pub level: Strictness,
    /// Write each difference as a case file under DIR (expectation: base's answer).
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
    /// Generated inputs at most (0: the corpus only).
    #[arg(long, default_value = "10000")]
    pub cases: usize,
    /// Generator seed (printed when not given, for replay).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop fuzzing after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value = "5")]
    pub timeout: f64,
    /// Seconds start-up and the handshake may take.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub startup_timeout: f64,
}

/// Runs the corpus and the fuzzer against base and head and prints every difference.
pub fn exec(args: CompareArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let selection = args.filter.selection(None);
    let cases = selection.apply(&corpus).map_err(Failure::usage)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches {} ({} cases in the corpus)",
            selection.describe(),
            corpus.cases.len()
        )));
    }
    let side = |name: &str, line: &str| -> Result<AdapterConfig, Failure> {
        let argv = shlex::split(line)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| Failure::usage(format!("--{name} {line:?}: not a command line")))?;
        let mut cfg = AdapterConfig::new(argv);
        cfg.timeout = seconds("timeout", args.timeout)?;
        cfg.startup_timeout = seconds("startup-timeout", args.startup_timeout)?;
        Ok(cfg)
    };
    let (base_cfg, head_cfg) = (side("base", &args.base)?, side("head", &args.head)?);
    let seed = crate::review::fuzz::seed_or_now(args.seed);
    let fuzz = (args.cases > 0)
        .then(|| -> Result<crate::review::fuzz::FuzzConfig, Failure> {
            Ok(crate::review::fuzz::FuzzConfig {
                ops: args.filter.op.clone(),
                cases: args.cases,
                seed,
                time_limit: args.time.map(|t| seconds("time", t)).transpose()?,
                batch: 256,
                emit: None,
                one_per_op: true,
            })
        })
        .transpose()?;
    let cfg = crate::review::compare::CompareConfig {
        strictness: args.level,
        emit: args.emit.clone(),
        fuzz,
    };
    let mut base = start(base_cfg)?;
    let mut head = start(head_cfg)?;
    println!("base: {}\nhead: {}", base.name(), head.name());
    if args.cases > 0 {
        println!("fuzz seed {seed} (replay: --seed {seed})");
    }
    let (bar, mut progress) = progress_display(args.cases);
    let c = crate::review::compare::compare(
        &mut base,
        &mut head,
        &cases,
        &corpus.cases,
        &cfg,
        &mut progress,
    )
    .map_err(|e| Failure::failed(format!("compare: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for o in c.one_sided_ops.iter().chain(&c.one_sided_features) {
        let kind = if c.one_sided_ops.contains(o) {
            "op"
        } else {
            "feature"
        };
        println!(
            "ONLY {} DECLARES {kind} {} ({} selected case(s) run on neither side)",
            o.declared_by.to_uppercase(),
            o.name,
            o.cases
        );
    }
    for d in &c.differences {
        println!("\nDIFFERENT {} ({})", d.case.id, d.case.file.display());
        println!("  spec: {}", d.case.spec.join(", "));
        println!("  base: {}", crate::review::fuzz::describe(&d.base));
        println!("  head: {}", crate::review::fuzz::describe(&d.head));
        for line in d.diff.lines() {
            println!("  {line}");
        }
        if let Some(p) = &d.emitted {
            println!("  case written to {}", p.display());
        }
    }
    if let Some(f) = &c.fuzz {
        println!();
        print_fuzz_totals(f);
        if f.unanswered > 0 {
            println!(
                "  ({} inputs base could not answer, not compared)",
                f.unanswered
            );
        }
        for finding in &f.findings {
            println!();
            print_finding(finding, "base", "head");
        }
    }
    for fault in &c.faults {
        println!("\nADAPTER FAULT {fault}");
    }
    let fuzz_found = c.fuzz.as_ref().map_or(0, |f| f.findings.len());
    println!(
        "\ncompare: {} cases selected, {} answered alike, {} answered differently, {} run on neither side, {} unanswered by both; {} generated input(s) answered differently; {} op(s) and {} feature(s) declared by one side only",
        c.selected,
        c.agreed,
        c.differences.len(),
        c.skipped,
        c.unanswered,
        fuzz_found,
        c.one_sided_ops.len(),
        c.one_sided_features.len()
    );
    if c.compared() == 0 {
        println!("compare: nothing was compared: neither the selected cases nor generated inputs were answered by both sides");
    }
    if c.passed() {
        Ok(())
    } else {
        Err(Failure::reported())
    }
}
