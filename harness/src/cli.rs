//! The `ptc-conformance` command line: arguments, dispatch and printing.
//! What the commands do lives in the library's modules (selection in
//! [`crate::select`], lint in [`crate::corpus`], the verdict in
//! [`crate::report::Summary`], known failures in [`crate::known`]), where
//! the tests call it too. Exit statuses are [`Exit`]'s.

use crate::adapter::{Adapter, AdapterConfig};
use crate::corpus::{self, Corpus, Level, Sources};
use crate::exit::{Exit, Failure};
use crate::judge::Strictness;
use crate::known::{self, KnownFailures};
use crate::report;
use crate::runner::{self, RunOptions};
use crate::select::{Selection, Shard};
use crate::subject::{Reference, Subject};
use clap::{Args, Parser, Subcommand, ValueEnum};
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
    /// Hold two builds against each other: run the corpus and the fuzzer
    /// against two adapters (base and head) and report every case and every
    /// shrunk generated input they answer differently.
    Compare(CompareArgs),
    /// Check the laws of canonicalization (spec/laws.md) on the reference or
    /// an adapter: pairs of inputs that must answer alike, from the
    /// subject's own answers; a broken law is shrunk to a small pair.
    Laws(LawsArgs),
}

/// `laws` arguments.
#[derive(Args, Debug)]
pub struct LawsArgs {
    /// Corpus location (its cases seed the generators' mutations).
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Check only this law (repeatable; default: every law whose ops the subject declares).
    #[arg(long = "law", value_name = "ID")]
    pub law: Vec<String>,
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
    /// Check the adapter given after `--` (default: the reference).
    #[command(flatten)]
    pub adapter: AdapterArgs,
}

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
    /// Where the corpus and spec are: the ones given, else this repository's.
    pub fn sources(&self) -> Sources {
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

impl Filter {
    /// The selection it asks for, in shard `shard` if given.
    pub fn selection(&self, shard: Option<Shard>) -> Selection {
        Selection {
            ops: self.op.clone(),
            ids: self.id.clone(),
            features: self.feature.clone(),
            level: self.case_level.map(|l| match l {
                CaseLevel::Required => Level::Required,
                CaseLevel::Pinned => Level::Pinned,
            }),
            shard,
        }
    }
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
                if self.window == 0 {
                    return Err(Failure::usage("--window must be at least 1"));
                }
                Ok(Some(AdapterConfig {
                    command: self.command.clone(),
                    timeout: seconds("timeout", self.timeout)?,
                    startup_timeout: seconds("startup-timeout", self.startup_timeout)?,
                    window: self.window,
                    max_line: self.max_line_bytes,
                    max_restarts: 3,
                    cwd: None,
                }))
            }
        }
    }
}

/// `--NAME SECS` as a duration; it must be positive.
fn seconds(name: &str, v: f64) -> Result<Duration, Failure> {
    if v.is_finite() && v > 0.0 {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(Failure::usage(format!(
            "--{name} must be a positive number of seconds, got {v}"
        )))
    }
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

/// Parses the command line, runs it and returns the exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match execute(cli) {
        Ok(()) => Exit::Passed.into(),
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("{}", f.message);
            }
            f.exit.into()
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
        Command::Compare(args) => compare(args),
        Command::Laws(args) => laws(args),
        Command::Adapter => crate::serve::serve(std::io::stdin(), std::io::stdout())
            .map_err(|e| Failure::failed(format!("adapter: {e}"))),
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

fn start(cfg: AdapterConfig) -> Result<Adapter, Failure> {
    Adapter::start(cfg).map_err(|e| Failure::failed(format!("adapter: {e}")))
}

fn run(args: RunArgs) -> Result<(), Failure> {
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
    let opts = RunOptions {
        strictness: args.level,
        max_fail,
        known: known.as_ref(),
    };
    let ids: Vec<&str> = corpus.cases.iter().map(|c| c.id.as_str()).collect();
    let adapter_cfg = args.adapter.config()?;
    let mut adapter;
    let subject: &mut dyn Subject = match &adapter_cfg {
        None => &mut Reference,
        Some(cfg) => {
            adapter = start(cfg.clone())?;
            &mut adapter
        }
    };
    let mut summary = runner::session(subject, &ids, &cases, opts);
    summary.allow_unexpected_pass = args.allow_unexpected_pass;
    summary.selection = selection.describe();
    let repro_cmd = adapter_cfg.map(|c| c.command);
    let repro = |c: &corpus::Case| repro_cmd.as_ref().map(|cmd| report::repro_command(cmd, c));
    match args.format {
        Format::Pretty => print!("{}", report::pretty(&summary, &repro)),
        Format::Json => println!("{}", report::json(&summary, &repro)),
        Format::Junit => print!("{}", report::junit(&summary, &repro)),
    }
    if let Some(path) = &args.update_known_failures {
        let text = known::updated(
            known.as_ref(),
            &summary.results,
            &subject.ops(),
            &subject.features(),
        );
        std::fs::write(path, &text).map_err(|e| Failure::io(path, "write", e))?;
        let entries = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .count();
        eprintln!(
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

fn list(args: ListArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let cases = args
        .filter
        .selection(None)
        .apply(&corpus)
        .map_err(Failure::usage)?;
    for c in cases {
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
    let lint = corpus::lint(&corpus);
    println!("{:<10} {:>6}  defined in", "rule", "cases");
    for r in &lint.rules {
        match r.cases {
            Some(n) => println!("{:<10} {n:>6}  {}", r.rule, r.file.display()),
            None => println!(
                "{:<10} {:>6}  {} (checked by the harness's tests)",
                r.rule,
                "-",
                r.file.display()
            ),
        }
    }
    println!(
        "\n{} cases in {} files, {} rules, {} ops",
        corpus.cases.len(),
        corpus.files_scanned,
        corpus.rules.len(),
        ptc_conformance::ops::OPS.len()
    );
    if lint.problems.is_empty() {
        println!("lint: ok");
        Ok(())
    } else {
        let mut msg = format!("lint: {} problem(s):\n", lint.problems.len());
        for p in &lint.problems {
            msg.push_str(&format!("  {p}\n"));
        }
        Err(Failure::usage(msg.trim_end().to_owned()))
    }
}

fn bench(args: BenchArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::failed(format!("cannot find this program: {e}")))?;
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
    .map_err(|e| Failure::failed(format!("bench: {e}")))?;
    print!("{}", crate::bench::table(&measures));
    Ok(())
}

fn bless(args: BlessArgs) -> Result<(), Failure> {
    use crate::bless::{recompute, replace_expect, show, Change};
    let corpus = load_clean(&args.corpus)?;
    let selection = args.filter.selection(None);
    let cases = selection.apply(&corpus).map_err(Failure::usage)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches {}",
            selection.describe()
        )));
    }
    let changes = match (args.from_adapter, args.command.is_empty()) {
        (false, true) => recompute(&mut Reference, &cases),
        (true, false) => {
            let mut adapter = start(AdapterConfig::new(args.command.clone()))?;
            let changes = recompute(&mut adapter, &cases);
            let faults = crate::subject::faults_of(&adapter);
            if !faults.is_empty() {
                return Err(Failure::failed(format!(
                    "adapter faults:\n  {}",
                    faults.join("\n  ")
                )));
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
                    let text = std::fs::read_to_string(&case.file)
                        .map_err(|e| Failure::io(&case.file, "read", e))?;
                    let new = replace_expect(&text, new_text)
                        .map_err(|e| Failure::usage(format!("{}: {e}", case.file.display())))?;
                    std::fs::write(&case.file, new)
                        .map_err(|e| Failure::io(&case.file, "write", e))?;
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
        return Err(Failure::reported());
    }
    Ok(())
}

fn seed_or_now(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    })
}

/// A progress display for `total` generated inputs: a bar on a terminal, a
/// line every two seconds otherwise.
fn progress_display(total: usize) -> (Option<indicatif::ProgressBar>, impl FnMut(usize)) {
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

fn print_fuzz_totals(report: &crate::fuzz::FuzzReport) {
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

fn print_finding(f: &crate::fuzz::Finding, expected_label: &str, subject_label: &str) {
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
        crate::fuzz::describe(&f.expected)
    );
    println!(
        "  {:<w$}  {}",
        format!("{subject_label}:"),
        crate::fuzz::describe(&f.actual)
    );
    for line in f.diff.lines() {
        println!("  {line}");
    }
    if let Some(p) = &f.emitted {
        println!("  case written to {}", p.display());
    }
}

fn fuzz(args: FuzzArgs) -> Result<(), Failure> {
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = seed_or_now(args.seed);
    let time_limit = args.time.map(|t| seconds("time", t)).transpose()?;
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
    let ops = crate::fuzz::plan(&cfg.ops, &subject.ops()).map_err(Failure::usage)?;
    let names: Vec<&str> = ops.iter().map(|o| o.name).collect();
    eprintln!(
        "fuzzing {} with seed {seed} (replay: --seed {seed})\nops ({}): {}",
        subject.name(),
        names.len(),
        names.join(", ")
    );
    let (bar, mut progress) = progress_display(args.cases);
    // The ops were checked above; what can go wrong now is writing the case.
    let report = crate::fuzz::run(subject, &cfg, &corpus.cases, &mut progress)
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

fn compare(args: CompareArgs) -> Result<(), Failure> {
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
    let seed = seed_or_now(args.seed);
    let fuzz = (args.cases > 0)
        .then(|| -> Result<crate::fuzz::FuzzConfig, Failure> {
            Ok(crate::fuzz::FuzzConfig {
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
    let cfg = crate::compare::CompareConfig {
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
    let c = crate::compare::compare(
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
        println!("  base: {}", crate::fuzz::describe(&d.base));
        println!("  head: {}", crate::fuzz::describe(&d.head));
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

fn laws(args: LawsArgs) -> Result<(), Failure> {
    use crate::laws::{self, LawsConfig};
    let chosen = laws::select(&args.law).map_err(Failure::usage)?;
    if args.cases == 0 {
        return Err(Failure::usage("--cases must be at least 1"));
    }
    let corpus = crate::corpus::load(&args.corpus.sources());
    let seed = seed_or_now(args.seed);
    let cfg = LawsConfig {
        laws: args.law.clone(),
        cases: args.cases,
        time_limit: args.seconds.map(|t| seconds("seconds", t)).transpose()?,
        seed,
        batch: 256,
        emit: args.emit.clone(),
    };
    let mut adapter;
    let subject: &mut dyn Subject = match args.adapter.config()? {
        Some(c) => {
            adapter = start(c)?;
            &mut adapter
        }
        None => &mut Reference,
    };
    println!(
        "checking {} law(s) on {} with seed {seed} (replay: --seed {seed}), {} inputs per law",
        chosen.len(),
        subject.name(),
        args.cases
    );
    let (bar, mut progress) = progress_display(args.cases * chosen.len());
    let report = laws::run(subject, &cfg, &corpus.cases, &mut progress)
        .map_err(|e| Failure::failed(format!("laws: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for (law, why) in &report.skipped {
        println!("SKIPPED {} ({}): {why}", law.id, law.title);
    }
    for lr in &report.laws {
        for (op, why) in &lr.skipped_ops {
            println!("{}: op {op} skipped ({why})", lr.law.id);
        }
    }
    for lr in &report.laws {
        let Some(b) = &lr.broken else { continue };
        let pair = &b.breach;
        println!("\nBROKEN {}: {} (spec/laws.md)", lr.law.id, lr.law.title);
        println!("  op: {}, shrunk in {} steps", b.op.name, b.shrink_steps);
        println!("  first args:      {}", pair.first.wire());
        println!("  second args:     {}", pair.second.wire());
        println!("  first answered:  {}", crate::fuzz::describe(&pair.first_answer));
        println!("  second answered: {}", crate::fuzz::describe(&pair.second_answer));
        for line in pair.diff.lines() {
            println!("  {line}");
        }
        for p in &b.emitted {
            println!("  case written to {}", p.display());
        }
    }
    println!(
        "\n{:<6} {:>9} {:>9} {:>8} {:>10} {:>8} {:>8}  verdict",
        "law", "inputs", "compared", "outside", "unanswered", "seconds", "inputs/s"
    );
    for lr in &report.laws {
        let secs = lr.elapsed.as_secs_f64();
        let verdict = match (&lr.broken, lr.errors.0) {
            (Some(_), _) => "BROKEN".to_owned(),
            (None, 0) => "holds".to_owned(),
            (None, n) => format!("{n} request(s) without a valid answer, first: {}", lr.errors.1.as_deref().unwrap_or("")),
        };
        println!(
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
            println!(
                "         {op}: {n} inputs, {} compared",
                lr.compared.get(op).copied().unwrap_or(0)
            );
        }
    }
    let faults = crate::subject::faults_of(subject);
    for f in &faults {
        println!("ADAPTER FAULT {f}");
    }
    if report.passed() && faults.is_empty() {
        println!("every law checked holds (seed {seed})");
        Ok(())
    } else {
        Err(Failure::reported())
    }
}
