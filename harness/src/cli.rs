//! The `ptc-conformance` command line.
//!
//! Exit status: 0 when every required case passes, 1 when a case fails or
//! errs, 2 for usage or corpus errors.

use crate::corpus::{self, Case, Corpus, Level, Sources};
use crate::judge::Strictness;
use crate::report;
use crate::runner;
use crate::subject::{Reference, Subject};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// Conformance kit for PtcRunner v0.13.0's tool boundary.
#[derive(Parser, Debug)]
#[command(name = "ptc-conformance", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the corpus against the reference and report.
    Run(RunArgs),
    /// List cases.
    List(ListArgs),
    /// Check the corpus: schema, ops, ids, spec rules, features, coverage.
    Lint(CorpusArgs),
}

/// Where the corpus and spec are.
#[derive(Args, Debug, Clone)]
pub struct CorpusArgs {
    /// A corpus root (repeatable); default: this repository's golden/.
    #[arg(long = "corpus", value_name = "DIR")]
    pub corpus: Vec<PathBuf>,
    /// The spec directory; default: this repository's spec/.
    #[arg(long = "spec", value_name = "DIR")]
    pub spec: Option<PathBuf>,
}

impl CorpusArgs {
    fn sources(&self) -> Sources {
        let default = Sources::default_for_repo();
        Sources {
            roots: if self.corpus.is_empty() { default.roots } else { self.corpus.clone() },
            spec: self.spec.clone().unwrap_or(default.spec),
        }
    }
}

/// Which cases to take.
#[derive(Args, Debug, Clone, Default)]
pub struct Filter {
    /// Only cases of this op (repeatable).
    #[arg(long = "op", value_name = "OP")]
    pub op: Vec<String>,
    /// Only cases whose id matches this glob (repeatable; `*` stays within a `/` segment, `**` crosses them).
    #[arg(long = "id", value_name = "GLOB")]
    pub id: Vec<String>,
    /// Only cases that need this feature (repeatable).
    #[arg(long = "feature", value_name = "FEATURE")]
    pub feature: Vec<String>,
    /// Only cases of this level.
    #[arg(long = "case-level", value_name = "LEVEL")]
    pub case_level: Option<CaseLevel>,
}

/// A case level, as a CLI value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CaseLevel {
    /// `required` cases.
    Required,
    /// `pinned` cases.
    Pinned,
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables and diffs for people.
    Pretty,
    /// The JSON report.
    Json,
}

/// `run` arguments.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection.
    #[command(flatten)]
    pub filter: Filter,
    /// Report format.
    #[arg(long, value_enum, default_value = "pretty")]
    pub format: Format,
    /// `default` requires the required cases and compares rendered JSON as JSON;
    /// `strict` requires pinned cases too and rendered JSON byte for byte.
    #[arg(long, value_enum, default_value = "default")]
    pub level: Strictness,
}

/// `list` arguments.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection.
    #[command(flatten)]
    pub filter: Filter,
}

/// A failure of the command, with its exit status.
#[derive(Debug)]
pub struct Failure {
    /// 1 for failed cases, 2 for usage or corpus errors.
    pub code: u8,
    /// What to print on stderr.
    pub message: String,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Failure {
        Failure { code: 2, message: message.into() }
    }
}

/// Parses the command line, runs it and returns the exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match execute(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("{}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

/// Runs a parsed command.
pub fn execute(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Run(args) => run(args),
        Command::List(args) => list(args),
        Command::Lint(args) => lint(args),
    }
}

/// Loads the corpus; any corpus error stops with status 2.
pub fn load_clean(args: &CorpusArgs) -> Result<Corpus, Failure> {
    let corpus = corpus::load(&args.sources());
    if corpus.errors.is_empty() {
        Ok(corpus)
    } else {
        let mut msg = format!("the corpus has {} problem(s):\n", corpus.errors.len());
        for e in &corpus.errors {
            msg.push_str(&format!("  {e}\n"));
        }
        Err(Failure::usage(msg.trim_end().to_owned()))
    }
}

/// Applies the filter to the corpus's cases.
pub fn select<'c>(corpus: &'c Corpus, filter: &Filter) -> Result<Vec<&'c Case>, Failure> {
    let mut builder = globset::GlobSetBuilder::new();
    for g in &filter.id {
        let glob = globset::GlobBuilder::new(g)
            .literal_separator(true)
            .build()
            .map_err(|e| Failure::usage(format!("--id {g:?}: {e}")))?;
        builder.add(glob);
    }
    let globs = builder.build().map_err(|e| Failure::usage(format!("--id: {e}")))?;
    for op in &filter.op {
        if ptc_conformance::ops::find(op).is_none() {
            return Err(Failure::usage(format!("--op {op:?}: no such op (see `ptc-conformance list`)")));
        }
    }
    for f in &filter.feature {
        if !ptc_conformance::features::is_feature(f) {
            return Err(Failure::usage(format!(
                "--feature {f:?}: no such feature (features are: {})",
                ptc_conformance::features::ALL.join(", ")
            )));
        }
    }
    Ok(corpus
        .cases
        .iter()
        .filter(|c| filter.op.is_empty() || filter.op.iter().any(|o| o == c.op.name))
        .filter(|c| filter.id.is_empty() || globs.is_match(&c.id))
        .filter(|c| filter.feature.iter().all(|f| c.features.contains(f)))
        .filter(|c| match filter.case_level {
            None => true,
            Some(CaseLevel::Required) => c.level == Level::Required,
            Some(CaseLevel::Pinned) => c.level == Level::Pinned,
        })
        .collect())
}

fn run(args: RunArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let cases = select(&corpus, &args.filter)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!("no case matches the filter ({} cases in the corpus)", corpus.cases.len())));
    }
    let mut subject = Reference;
    let results = runner::run(&mut subject, &cases, args.level);
    let level = match args.level {
        Strictness::Default => "default",
        Strictness::Strict => "strict",
    };
    match args.format {
        Format::Pretty => print!("{}", report::pretty(&subject.name(), &results)),
        Format::Json => println!("{}", report::json(&subject.name(), level, &results)),
    }
    if report::Totals::of(&results).ok() {
        Ok(())
    } else {
        Err(Failure { code: 1, message: String::new() })
    }
}

fn list(args: ListArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    for c in select(&corpus, &args.filter)? {
        println!("{}\t{}\t{}\t{}", c.id, c.op.name, c.level.as_str(), c.description);
    }
    Ok(())
}

fn lint(args: CorpusArgs) -> Result<(), Failure> {
    let corpus = corpus::load(&args.sources());
    let mut problems: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
    let mut citations: BTreeMap<&str, usize> = corpus.rules.keys().map(|r| (r.as_str(), 0)).collect();
    for c in &corpus.cases {
        for r in &c.spec {
            if let Some(n) = citations.get_mut(r.as_str()) {
                *n += 1;
            }
        }
    }
    println!("{:<10} {:>6}  defined in", "rule", "cases");
    for (rule, n) in &citations {
        let file = corpus.rules.get(*rule).map(|p| p.display().to_string()).unwrap_or_default();
        println!("{rule:<10} {n:>6}  {file}");
        if *n == 0 {
            problems.push(format!("{file}: rule {rule} is cited by no case"));
        }
    }
    for op in ptc_conformance::ops::OPS {
        if !corpus.cases.iter().any(|c| c.op.name == op.name) {
            problems.push(format!("op {} has no case", op.name));
        }
    }
    println!(
        "\n{} cases in {} files, {} rules, {} ops",
        corpus.cases.len(),
        corpus.files_scanned,
        corpus.rules.len(),
        ptc_conformance::ops::OPS.len()
    );
    if problems.is_empty() {
        println!("lint: ok");
        Ok(())
    } else {
        let mut msg = format!("lint: {} problem(s):\n", problems.len());
        for p in &problems {
            msg.push_str(&format!("  {p}\n"));
        }
        Err(Failure::usage(msg.trim_end().to_owned()))
    }
}
