//! `ptc-conformance run`: the corpus against a subject, with a report.

use crate::cli::args::{load_clean, start, AdapterArgs, CorpusArgs, Filter, ReleaseArg};
use crate::cli::out::{errln, out, outln};
use crate::corpus;
use crate::corpus::select::Shard;
use crate::exit::Failure;
use crate::judging::known::{self, KnownFailures};
use crate::judging::outcome::Strictness;
use crate::judging::release;
use crate::judging::report;
use crate::judging::report::json::JsonReport;
use crate::judging::report::pretty::PrettyOptions;
use crate::judging::runner::{self, RunOptions};
use crate::subject::reference::Reference;
use crate::subject::Subject;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `run` arguments.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection.
    #[command(flatten)]
    pub filter: Filter,
    /// The release to judge against.
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Report format.
    #[arg(long, value_enum, default_value = "pretty")]
    pub format: Format,
    /// In the pretty report, list every rule (by default only rules with
    /// failures, errors or unexpected outcomes).
    #[arg(long)]
    pub rules: bool,
    /// `default` requires the required cases and compares rendered JSON as JSON;
    /// `strict` requires pinned cases too and rendered JSON byte for byte.
    #[arg(long, value_enum, default_value = "default")]
    pub level: Strictness,
    /// Run only shard K of N (e.g. `2/4`): a deterministic slice by case id.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Stop at the first failure or error.
    #[arg(long)]
    pub fail_fast: bool,
    /// Stop after N failures and errors.
    #[arg(long, value_name = "N")]
    pub max_fail: Option<usize>,
    /// Cases expected to fail (one id or glob per line, reason after '#') and
    /// expected skips (`skip op OP`, `skip feature F`, `skip GLOB`); given, it
    /// pins coverage: a skip it does not list fails the run.
    #[arg(long, value_name = "FILE")]
    pub known_failures: Option<PathBuf>,
    /// Write the known-failures file this run implies (failures and skips) to FILE.
    #[arg(long, value_name = "FILE")]
    pub update_known_failures: Option<PathBuf>,
    /// Do not fail the run for listed cases that pass.
    #[arg(long)]
    pub allow_unexpected_pass: bool,
    /// Run against an external implementation: the command after `--`.
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables and diffs for people.
    Pretty,
    /// The JSON report.
    Json,
    /// JUnit XML, for CI systems.
    Junit,
    /// One self-contained HTML page.
    Html,
}

/// Runs the selected cases against the reference or an adapter and reports.
pub fn exec(args: RunArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let selection = args.filter.selection(args.shard);
    let cases = selection.apply(&corpus).map_err(Failure::usage)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches {} ({} cases in the corpus)",
            selection.describe(),
            corpus.cases.len()
        )));
    }
    let known = match &args.known_failures {
        Some(p) => Some(KnownFailures::load(p).map_err(Failure::usage)?),
        None => None,
    };
    let max_fail = if args.fail_fast {
        Some(1)
    } else {
        args.max_fail
    };
    if max_fail == Some(0) {
        return Err(Failure::usage("--max-fail must be at least 1"));
    }
    let adapter_cfg = args.adapter.config()?;
    let mut adapter;
    let mut reference = Reference::at(args.release.get());
    let subject: &mut dyn Subject = match &adapter_cfg {
        None => &mut reference,
        Some(cfg) => {
            adapter = start(cfg.clone())?;
            &mut adapter
        }
    };
    // AP-18: the release asked for, else the adapter's own, else 0.13.0;
    // a mismatch is refused before a case runs.
    let judged = release::resolve(args.release.release, subject.release())
        .map_err(|e| Failure::usage(format!("adapter: {e}")))?;
    let opts = RunOptions {
        strictness: args.level,
        max_fail,
        known: known.as_ref(),
        release: judged.release,
    };
    let mut summary = runner::session(subject, &corpus, &cases, opts);
    summary.release = judged;
    summary.allow_unexpected_pass = args.allow_unexpected_pass;
    summary.selection = selection.describe();
    let repro_cmd = adapter_cfg.map(|c| c.command);
    let repro = |c: &corpus::Case| repro_cmd.as_ref().map(|cmd| report::repro_command(cmd, c));
    let json = JsonReport::of(&summary, &repro);
    match args.format {
        Format::Pretty => out!(
            "{}",
            report::pretty::render(
                &json,
                PrettyOptions {
                    all_rules: args.rules
                }
            )
        ),
        Format::Json => outln!("{}", report::json::render(&json)),
        Format::Junit => out!("{}", report::junit::render(&json)),
        Format::Html => out!("{}", report::html::render(&json)),
    }
    if let Some(path) = &args.update_known_failures {
        let text = known::updated(
            known.as_ref(),
            &summary.results,
            &subject.ops(),
            &subject.features(),
        );
        std::fs::write(path, &text).map_err(|e| Failure::io(path, "write", e))?;
        let entries = known::entry_count(&text);
        errln!(
            "wrote {entries} known-failures entries to {}",
            path.display()
        );
    }
    let verdict = summary.verdict();
    if verdict.passed() {
        Ok(())
    } else if args.format == Format::Pretty {
        Err(Failure::reported())
    } else {
        // The report went to stdout for a machine; say why on stderr too.
        Err(Failure::failed(format!(
            "the run fails:\n  - {}",
            verdict.reasons.join("\n  - ")
        )))
    }
}
