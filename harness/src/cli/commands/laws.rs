//! `ptc-conformance laws`: the laws of canonicalization (`spec/laws.md`)
//! checked on the reference or an adapter, with the subject's own answers.

use super::fuzz::progress_display;
use crate::cli::args::{seconds, start, AdapterArgs, CorpusArgs, ReleaseArg};
use crate::cli::out::outln;
use crate::exit::Failure;
use crate::review::laws::{self, LawsConfig};
use crate::subject::reference::Reference;
use crate::subject::Subject;
use clap::Args;
use std::path::PathBuf;

/// `laws` arguments.
#[derive(Args, Debug)]
pub struct LawsArgs {
    /// Corpus location (its cases seed the generators' mutations).
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Check only this law (repeatable; default: every law whose ops the subject declares).
    #[arg(long = "law", value_name = "ID")]
    pub law: Vec<String>,
    /// Check the laws only on this op, or on the ops a glob matches (`key_normalizer.*`; repeatable).
    #[arg(long = "op", value_name = "OP")]
    pub op: Vec<String>,
    /// Generated inputs per law, shared out among its ops.
    #[arg(long, default_value = "10000")]
    pub cases: usize,
    /// Stop generating for a law after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub seconds: Option<f64>,
    /// Generator seed (printed when not given, for replay).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write each broken law's shrunk pair as two case files under DIR.
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
    /// The release the reference answers as when no adapter is given.
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Check the adapter given after `--` (default: the reference).
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

/// Checks the laws on the reference or an adapter and prints each broken
/// one, shrunk, and the inputs each law got.
pub fn exec(args: LawsArgs) -> Result<(), Failure> {
    let mut chosen = laws::select(&args.law).map_err(Failure::usage)?;
    let ops = crate::corpus::select::expand_ops(&args.op, None).map_err(Failure::usage)?;
    if !ops.is_empty() {
        chosen.retain(|l| l.ops.iter().any(|o| ops.contains(o)));
        if chosen.is_empty() {
            return Err(Failure::usage(format!(
                "no law chosen is about {} (each law's ops: spec/laws.md)",
                ops.join(", ")
            )));
        }
    }
    if args.cases == 0 {
        return Err(Failure::usage("--cases must be at least 1"));
    }
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = crate::review::fuzz::seed_or_now(args.seed);
    let cfg = LawsConfig {
        laws: chosen.iter().map(|l| l.id.to_owned()).collect(),
        ops: ops.iter().map(|o| (*o).to_owned()).collect(),
        cases: args.cases,
        time_limit: args.seconds.map(|t| seconds("seconds", t)).transpose()?,
        seed,
        batch: 256,
        emit: args.emit.clone(),
    };
    let mut adapter;
    let mut reference = Reference::at(args.release.get());
    let subject: &mut dyn Subject = match args.adapter.config()? {
        Some(c) => {
            adapter = start(c)?;
            &mut adapter
        }
        None => &mut reference,
    };
    outln!(
        "checking {} law(s) on {} with seed {seed} (replay: --seed {seed}), {} inputs per law\n{}",
        chosen.len(),
        subject.name(),
        args.cases,
        corpus.describe()
    );
    let (bar, mut progress) = progress_display(args.cases * chosen.len());
    let report = laws::run(subject, &cfg, &corpus.cases, &mut progress)
        .map_err(|e| Failure::failed(format!("laws: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for (law, why) in &report.skipped {
        outln!("SKIPPED {} ({}): {why}", law.id, law.title);
    }
    // Ops left out of laws that run on others, grouped by why.
    let mut left_out: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for lr in &report.laws {
        for (_, why) in &lr.skipped_ops {
            left_out.entry(why.as_str()).or_default().push(lr.law.id);
        }
    }
    for (why, ids) in &left_out {
        outln!("op {why}; left out of {}", ids.join(", "));
    }
    for lr in &report.laws {
        let Some(b) = &lr.broken else { continue };
        let pair = &b.breach;
        outln!("\nBROKEN {}: {} (spec/laws.md)", lr.law.id, lr.law.title);
        outln!("  op: {}, shrunk in {} steps", b.op.name, b.shrink_steps);
        outln!("  first args:      {}", pair.first.wire());
        outln!("  second args:     {}", pair.second.wire());
        outln!(
            "  first answered:  {}",
            crate::review::fuzz::describe(&pair.first_answer)
        );
        outln!(
            "  second answered: {}",
            crate::review::fuzz::describe(&pair.second_answer)
        );
        for line in pair.diff.lines() {
            outln!("  {line}");
        }
        for p in &b.emitted {
            outln!("  case written to {}", p.display());
        }
    }
    outln!(
        "\n{:<6} {:>9} {:>9} {:>8} {:>10} {:>8} {:>8}  verdict",
        "law",
        "inputs",
        "compared",
        "outside",
        "unanswered",
        "seconds",
        "inputs/s"
    );
    for lr in &report.laws {
        let secs = lr.elapsed.as_secs_f64();
        let verdict = match (&lr.broken, lr.errors.0) {
            (Some(_), _) => "BROKEN".to_owned(),
            (None, 0) => "holds".to_owned(),
            (None, n) => format!(
                "{n} request(s) without a valid answer, first: {}",
                lr.errors.1.as_deref().unwrap_or("")
            ),
        };
        outln!(
            "{:<6} {:>9} {:>9} {:>8} {:>10} {:>8.1} {:>8.0}  {verdict}",
            lr.law.id,
            lr.total_inputs(),
            lr.total_compared(),
            lr.outside,
            lr.unanswered,
            secs,
            lr.total_inputs() as f64 / secs.max(1e-9)
        );
        for (op, n) in &lr.inputs {
            outln!(
                "         {op}: {n} inputs, {} compared",
                lr.compared.get(op).copied().unwrap_or(0)
            );
        }
        if let Some(why) = &lr.unanswered_first {
            outln!(
                "         unanswered: {} input(s) the subject declined (unsupported), not checked; the first said: {}",
                lr.unanswered,
                crate::review::compare::cut(why)
            );
        }
    }
    let faults = crate::subject::faults_of(subject);
    for f in &faults {
        outln!("ADAPTER FAULT {f}");
    }
    if report.passed() && faults.is_empty() {
        outln!("every law checked holds (seed {seed})");
        Ok(())
    } else {
        Err(Failure::reported())
    }
}
