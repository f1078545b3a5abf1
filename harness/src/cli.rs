//! The `ptc-conformance` command line.
//!
//! Exit status: 0 when every required case passes, 1 when a case fails or
//! errs, 2 for usage or corpus errors.

use crate::adapter::{Adapter, AdapterConfig};
use crate::corpus::{self, Case, Corpus, Level, Sources};
use crate::judge::{self, Strictness};
use crate::known::{self, KnownFailures};
use crate::report;
use crate::runner;
use crate::runner::RunOptions;
use crate::subject::{Reference, Subject};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
    /// Serve the reference over adapter protocol v1 on stdin/stdout.
    Adapter,
    /// Recompute expectations from the reference (or an adapter) and show,
    /// check or write what changes.
    Bless(BlessArgs),
    /// Fuzz an implementation against the reference: generate arguments per
    /// op, compare, shrink the first disagreement, write it as a case.
    Fuzz(FuzzArgs),
    /// Measure cases per second: in process, against `ptc-conformance adapter`
    /// pipelined and one at a time, and against any other adapter given.
    Bench(BenchArgs),
}

/// `bless` arguments.
#[derive(Args, Debug)]
pub struct BlessArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection.
    #[command(flatten)]
    pub filter: Filter,
    /// Write the new expectations into the case files (only `expect` changes).
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// Exit 1 when any expectation differs (for CI).
    #[arg(long)]
    pub check: bool,
    /// Take expectations from the adapter command after `--` (e.g. the Elixir adapter).
    #[arg(long)]
    pub from_adapter: bool,
    /// The adapter command (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

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

/// `bench` arguments.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Run the corpus repeated to at least this many cases per path.
    #[arg(long, default_value = "100000")]
    pub cases: usize,
    /// Requests in flight at once for the pipelined paths.
    #[arg(long, default_value = "64")]
    pub window: usize,
    /// Another adapter to measure, pipelined (the command after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
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
            roots: if self.corpus.is_empty() {
                default.roots
            } else {
                self.corpus.clone()
            },
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
    /// JUnit XML, for CI systems.
    Junit,
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
    /// Run only shard K of N (e.g. `2/4`): a deterministic slice by case id.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<(u64, u64)>,
    /// Stop at the first failure or error.
    #[arg(long)]
    pub fail_fast: bool,
    /// Stop after N failures and errors.
    #[arg(long, value_name = "N")]
    pub max_fail: Option<usize>,
    /// Cases expected to fail: one id or glob per line, reason after '#'.
    #[arg(long, value_name = "FILE")]
    pub known_failures: Option<PathBuf>,
    /// Write the known-failures list this run implies to FILE.
    #[arg(long, value_name = "FILE")]
    pub update_known_failures: Option<PathBuf>,
    /// Do not fail the run for listed cases that pass.
    #[arg(long)]
    pub allow_unexpected_pass: bool,
    /// Run against an external implementation: the command after `--`.
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

/// How to reach an external implementation.
#[derive(Args, Debug, Clone)]
pub struct AdapterArgs {
    /// Use the adapter command given after `--` instead of the reference.
    #[arg(long)]
    pub adapter: bool,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value = "5")]
    pub timeout: f64,
    /// Seconds start-up and the handshake may take.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub startup_timeout: f64,
    /// Requests in flight at once (1 = one at a time).
    #[arg(long, value_name = "N", default_value = "64")]
    pub window: usize,
    /// Longest answer line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value = "16777216")]
    pub max_line_bytes: usize,
    /// The adapter command and its arguments (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

impl AdapterArgs {
    /// The adapter configuration, or `None` for the reference.
    pub fn config(&self) -> Result<Option<AdapterConfig>, Failure> {
        match (self.adapter, self.command.is_empty()) {
            (false, true) => Ok(None),
            (true, true) => Err(Failure::usage("--adapter needs the command after `--`: ptc-conformance run --adapter -- CMD [ARGS...]")),
            (false, false) => Err(Failure::usage("a command after `--` needs --adapter")),
            (true, false) => {
                let secs = |name: &str, v: f64| {
                    if v.is_finite() && v > 0.0 {
                        Ok(Duration::from_secs_f64(v))
                    } else {
                        Err(Failure::usage(format!("--{name} must be a positive number of seconds, got {v}")))
                    }
                };
                if self.window == 0 {
                    return Err(Failure::usage("--window must be at least 1"));
                }
                Ok(Some(AdapterConfig {
                    command: self.command.clone(),
                    timeout: secs("timeout", self.timeout)?,
                    startup_timeout: secs("startup-timeout", self.startup_timeout)?,
                    window: self.window,
                    max_line: self.max_line_bytes,
                    max_restarts: 3,
                    cwd: None,
                }))
            }
        }
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 1/4")?;
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("K in {s:?} is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("N in {s:?} is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard {s:?}: need 1 <= K <= N"));
    }
    Ok((k, n))
}

/// Whether `id` falls in shard `k` of `n` (FNV-1a of the id, stable across runs and machines).
pub fn in_shard(id: &str, (k, n): (u64, u64)) -> bool {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h % n == k - 1
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
        Failure {
            code: 2,
            message: message.into(),
        }
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
        Command::Bench(args) => bench(args),
        Command::Fuzz(args) => fuzz(args),
        Command::Bless(args) => bless(args),
        Command::Adapter => {
            crate::serve::serve(std::io::stdin(), std::io::stdout()).map_err(|e| Failure {
                code: 1,
                message: format!("adapter: {e}"),
            })
        }
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
    let globs = builder
        .build()
        .map_err(|e| Failure::usage(format!("--id: {e}")))?;
    for op in &filter.op {
        if ptc_conformance::ops::find(op).is_none() {
            return Err(Failure::usage(format!(
                "--op {op:?}: no such op (see `ptc-conformance list`)"
            )));
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
    let mut cases = select(&corpus, &args.filter)?;
    if let Some(shard) = args.shard {
        cases.retain(|c| in_shard(&c.id, shard));
    }
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches the filter ({} cases in the corpus)",
            corpus.cases.len()
        )));
    }
    let known = match &args.known_failures {
        Some(p) => Some(KnownFailures::load(p).map_err(Failure::usage)?),
        None => None,
    };
    let adapter_cfg = args.adapter.config()?;
    let max_fail = if args.fail_fast {
        Some(1)
    } else {
        args.max_fail
    };
    if max_fail == Some(0) {
        return Err(Failure::usage("--max-fail must be at least 1"));
    }
    let opts = RunOptions {
        strictness: args.level,
        max_fail,
        known: known.as_ref(),
    };
    let level = match args.level {
        Strictness::Default => "default",
        Strictness::Strict => "strict",
    };
    let (name, results, faults, repro_cmd) = match &adapter_cfg {
        None => {
            let mut subject = Reference;
            (
                subject.name(),
                runner::run(&mut subject, &cases, opts),
                Vec::new(),
                None,
            )
        }
        Some(cfg) => {
            let mut subject = Adapter::start(cfg.clone()).map_err(|e| Failure {
                code: 1,
                message: format!("adapter: {e}"),
            })?;
            let results = runner::run(&mut subject, &cases, opts);
            let mut faults = subject.faults.clone();
            if subject.restarts > 0 {
                faults.push(format!(
                    "the adapter was restarted {} time(s)",
                    subject.restarts
                ));
            }
            (subject.name(), results, faults, Some(cfg.command.clone()))
        }
    };
    let mut stale: Vec<String> = Vec::new();
    if let Some(k) = &known {
        let ids: Vec<&str> = corpus.cases.iter().map(|c| c.id.as_str()).collect();
        stale = k
            .stale(&ids)
            .iter()
            .map(|e| format!("line {}: {} matches no case", e.line, e.pattern))
            .collect();
    }
    let repro = |c: &corpus::Case| repro_cmd.as_ref().map(|cmd| report::repro_command(cmd, c));
    let summary = report::Summary {
        subject: &name,
        level,
        results: &results,
        faults: &faults,
        stale_known: &stale,
    };
    match args.format {
        Format::Pretty => print!("{}", report::pretty(&summary, &repro)),
        Format::Json => println!("{}", report::json(&summary, &repro)),
        Format::Junit => print!("{}", report::junit(&summary, &repro)),
    }
    if let Some(path) = &args.update_known_failures {
        let failing: Vec<(&str, String)> = results
            .iter()
            .filter_map(|r| match &r.outcome {
                judge::Outcome::Fail(d) | judge::Outcome::Error(d)
                    if r.required || matches!(r.outcome, judge::Outcome::Error(_)) =>
                {
                    Some((r.case.id.as_str(), d.clone()))
                }
                judge::Outcome::ExpectedFailure(_) => Some((r.case.id.as_str(), String::new())),
                _ => None,
            })
            .collect();
        std::fs::write(path, known::updated(known.as_ref(), &failing))
            .map_err(|e| Failure::usage(format!("{}: cannot write: {e}", path.display())))?;
        eprintln!(
            "wrote {} known failure(s) to {}",
            failing.len(),
            path.display()
        );
    }
    let totals = report::Totals::of(&results);
    let unexpected_ok = args.allow_unexpected_pass || totals.unexpected_passes == 0;
    if totals.failed == 0
        && totals.errors == 0
        && unexpected_ok
        && stale.is_empty()
        && faults.is_empty()
    {
        Ok(())
    } else {
        Err(Failure {
            code: 1,
            message: String::new(),
        })
    }
}

fn list(args: ListArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    for c in select(&corpus, &args.filter)? {
        println!(
            "{}\t{}\t{}\t{}",
            c.id,
            c.op.name,
            c.level.as_str(),
            c.description
        );
    }
    Ok(())
}

fn lint(args: CorpusArgs) -> Result<(), Failure> {
    let corpus = corpus::load(&args.sources());
    let mut problems: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
    let mut citations: BTreeMap<&str, usize> =
        corpus.rules.keys().map(|r| (r.as_str(), 0)).collect();
    for c in &corpus.cases {
        for r in &c.spec {
            if let Some(n) = citations.get_mut(r.as_str()) {
                *n += 1;
            }
        }
    }
    println!("{:<10} {:>6}  defined in", "rule", "cases");
    for (rule, n) in &citations {
        let file = corpus
            .rules
            .get(*rule)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        match corpus.tested_by.get(*rule) {
            Some(tests) => {
                let named = tests
                    .iter()
                    .any(|t| std::fs::read_to_string(t).is_ok_and(|text| names_rule(&text, rule)));
                println!(
                    "{rule:<10} {:>6}  {file} (checked by the harness's tests)",
                    "-"
                );
                if !named {
                    let list: Vec<String> = tests.iter().map(|t| t.display().to_string()).collect();
                    problems.push(format!(
                        "{file}: rule {rule} is named by none of its tests ({})",
                        list.join(", ")
                    ));
                }
            }
            None => {
                println!("{rule:<10} {n:>6}  {file}");
                if *n == 0 {
                    problems.push(format!("{file}: rule {rule} is cited by no case"));
                }
            }
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

/// Whether `text` names `rule` (not as the prefix of a longer id: `AP-1` is not named by `AP-12`).
fn names_rule(text: &str, rule: &str) -> bool {
    text.match_indices(rule)
        .any(|(i, _)| !text[i + rule.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

fn bench(args: BenchArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::usage(format!("cannot find this program: {e}")))?;
    let others: Vec<Vec<String>> = if args.command.is_empty() {
        Vec::new()
    } else {
        vec![args.command.clone()]
    };
    println!(
        "corpus: {} cases, repeated to at least {} per path, median of {} runs; {} cores",
        corpus.cases.len(),
        args.cases,
        crate::bench::REPEATS,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    let measures = crate::bench::run(
        &corpus.cases,
        args.cases,
        args.window.max(1),
        &exe.display().to_string(),
        &others,
    )
    .map_err(|e| Failure {
        code: 1,
        message: format!("bench: {e}"),
    })?;
    print!("{}", crate::bench::table(&measures));
    Ok(())
}

fn bless(args: BlessArgs) -> Result<(), Failure> {
    use crate::bless::{recompute, replace_expect, show, Change};
    let corpus = load_clean(&args.corpus)?;
    let cases = select(&corpus, &args.filter)?;
    if cases.is_empty() {
        return Err(Failure::usage("no case matches the filter"));
    }
    let changes = match (args.from_adapter, args.command.is_empty()) {
        (false, true) => recompute(&mut Reference, &cases),
        (true, false) => {
            let mut adapter =
                Adapter::start(AdapterConfig::new(args.command.clone())).map_err(|e| Failure {
                    code: 1,
                    message: format!("adapter: {e}"),
                })?;
            let changes = recompute(&mut adapter, &cases);
            if !adapter.faults.is_empty() {
                return Err(Failure {
                    code: 1,
                    message: format!("adapter faults:\n{}", adapter.faults.join("\n")),
                });
            }
            changes
        }
        (true, true) => {
            return Err(Failure::usage(
                "--from-adapter needs the command after `--`",
            ))
        }
        (false, false) => return Err(Failure::usage("a command after `--` needs --from-adapter")),
    };
    let (mut updates, mut problems) = (0usize, 0usize);
    for (case, change) in cases.iter().zip(&changes) {
        match change {
            Change::Same => {}
            Change::Problem(why) => {
                problems += 1;
                println!("PROBLEM {} ({}): {why}", case.id, case.file.display());
            }
            Change::Update { old_text, new_text } => {
                updates += 1;
                println!(
                    "CHANGE {} ({})\n{}",
                    case.id,
                    case.file.display(),
                    show(old_text, new_text)
                );
                if args.write {
                    let text = std::fs::read_to_string(&case.file).map_err(|e| {
                        Failure::usage(format!("{}: cannot read: {e}", case.file.display()))
                    })?;
                    let new = replace_expect(&text, new_text)
                        .map_err(|e| Failure::usage(format!("{}: {e}", case.file.display())))?;
                    std::fs::write(&case.file, new).map_err(|e| {
                        Failure::usage(format!("{}: cannot write: {e}", case.file.display()))
                    })?;
                }
            }
        }
    }
    let verb = if args.write {
        "changed"
    } else {
        "would change"
    };
    println!(
        "bless: {} cases, {updates} {verb}, {problems} without an answer",
        cases.len()
    );
    if !args.write && updates > 0 && !args.check {
        println!("(dry run: --write applies the changes)");
    }
    if args.check && (updates > 0 || problems > 0) {
        return Err(Failure {
            code: 1,
            message: String::new(),
        });
    }
    Ok(())
}

fn fuzz(args: FuzzArgs) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let time_limit = match args.time {
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(Failure::usage(format!(
                "--time must be a positive number of seconds, got {t}"
            )))
        }
        None => None,
    };
    if args.cases == 0 {
        return Err(Failure::usage("--cases must be at least 1"));
    }
    let cfg = crate::fuzz::FuzzConfig {
        ops: args.op.clone(),
        cases: args.cases,
        seed,
        time_limit,
        batch: 256,
        emit: args.emit.clone(),
    };
    let mut adapter;
    let mut reference = Reference;
    let subject: &mut dyn Subject = match args.adapter.config()? {
        Some(c) => {
            adapter = Adapter::start(c).map_err(|e| Failure {
                code: 1,
                message: format!("adapter: {e}"),
            })?;
            &mut adapter
        }
        None => &mut reference,
    };
    eprintln!(
        "fuzzing {} with seed {seed} (replay: --seed {seed})",
        subject.name()
    );
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(args.cases as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} inputs, {per_sec}, {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let mut last_line = std::time::Instant::now();
    let mut progress = |n: usize| match &bar {
        Some(b) => b.set_position(n as u64),
        None => {
            if last_line.elapsed() >= Duration::from_secs(2) {
                eprintln!("{n} inputs checked");
                last_line = std::time::Instant::now();
            }
        }
    };
    let report = crate::fuzz::run(subject, &cfg, &corpus.cases, &mut progress)
        .map_err(|e| Failure::usage(format!("fuzz: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let rate = report.checked as f64 / report.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} inputs checked in {:.2}s ({rate:.0}/s), {} declined by the subject",
        report.checked,
        report.elapsed.as_secs_f64(),
        report.declined
    );
    match &report.finding {
        None => {
            println!("no disagreement found (seed {seed})");
            Ok(())
        }
        Some(f) => {
            let args_text: Vec<String> =
                f.args.iter().map(ptc_conformance::tagged::encode).collect();
            println!(
                "DISAGREEMENT on {} (seed {seed}), shrunk in {} steps",
                f.op.name, f.shrink_steps
            );
            println!("  args:      [{}]", args_text.join(", "));
            println!("  reference: {}", crate::fuzz::describe(&f.expected));
            println!("  subject:   {}", crate::fuzz::describe(&f.actual));
            for line in f.diff.lines() {
                println!("  {line}");
            }
            if let Some(p) = &f.emitted {
                println!("  case written to {}", p.display());
            }
            Err(Failure {
                code: 1,
                message: String::new(),
            })
        }
    }
}
