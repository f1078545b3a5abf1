//! The `ptc-conformance` command line: arguments, dispatch and printing.
//! [`Cli`] and [`Command`] are the clap definitions and [`execute`] the
//! dispatch; [`args`] holds the arguments several commands share, and
//! [`commands`] one module per command (its arguments, its run, its
//! printing). What the commands do lives in the library's modules
//! (selection in [`crate::corpus::select`], lint in [`crate::corpus::lint`],
//! the verdict in [`crate::judging::report::Summary`], known failures in
//! [`crate::judging::known`]), where the tests call it too. Exit statuses
//! are [`Exit`]'s.

pub mod args;
pub mod commands;
pub mod out;

use crate::exit::{Exit, Failure};
use clap::{FromArgMatches, Parser, Subcommand};
use commands::bench::BenchArgs;
use commands::bless::BlessArgs;
use commands::compare::CompareArgs;
use commands::export::ExportArgs;
use commands::fuzz::FuzzArgs;
use commands::laws::LawsArgs;
use commands::list::ListArgs;
use commands::matrix::MatrixArgs;
use commands::run::RunArgs;
use commands::{adapter, bench, bless, compare, export, fuzz, laws, lint, list, matrix, run};
use out::errln;
use std::process::ExitCode;

/// Conformance kit for the tool boundary of PtcRunner v0.13.0: check your
/// port of it against the golden corpus, review two builds, check the laws
/// of canonicalization.
#[derive(Parser, Debug)]
#[command(
    name = "ptc-conformance",
    version,
    after_help = "Check your port: ptc-conformance run --adapter -- ./my-port\n\
                  (your port answers adapter protocol v1 on stdin/stdout; \
                  `ptc-conformance export kit` writes the spec, the corpus and SDKs for Python and JavaScript)"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands, in the order a porter meets them, then a reviewer, then a
/// contributor.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the corpus against the reference or, with --adapter, against your
    /// port, and report.
    Run(RunArgs),
    /// Fuzz your port (--adapter) against the reference: generate arguments
    /// per op, compare, shrink the first disagreement, write it as a case.
    Fuzz(FuzzArgs),
    /// Check the laws of canonicalization (spec/laws.md) on your port or the
    /// reference: pairs of inputs that must answer alike; a broken law is
    /// shrunk to a small pair.
    Laws(LawsArgs),
    /// List cases.
    List(ListArgs),
    /// Write the corpus (`golden/`), the spec (`spec/`, with its schemas and
    /// porter data) and the porter SDKs (`sdk/`) this binary carries into a
    /// directory, to read or to run with `--corpus`.
    Export(ExportArgs),
    /// Serve the reference over adapter protocol v1 on stdin/stdout, as the
    /// release `--release` names: ask it what an op answers.
    Adapter(adapter::AdapterServeArgs),
    /// Hold two builds against each other: run the corpus and the fuzzer
    /// against two adapters (base and head) and report each cause of
    /// difference once.
    Compare(CompareArgs),
    /// Put several JSON reports (`run --format json`) side by side in one
    /// HTML page: implementations as columns, ops and rules as rows.
    Matrix(MatrixArgs),
    /// Recompute expectations from the reference (or an adapter) and show,
    /// check or write what changes.
    Bless(BlessArgs),
    /// Check the corpus: schema, ops, ids, spec rules, features, coverage.
    Lint(lint::LintArgs),
    /// Measure cases per second: in process, against `ptc-conformance adapter`
    /// pipelined and one at a time, and against any other adapter given.
    Bench(BenchArgs),
}

/// The command line's definition: [`Cli`]'s, with `--help` printing the
/// short help everywhere (one line per option, the possible values inline),
/// so that `run --help` fits on a screen.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    let short_help = |c: clap::Command| {
        c.disable_help_flag(true).arg(
            clap::Arg::new("help")
                .short('h')
                .long("help")
                .action(clap::ArgAction::HelpShort)
                .help("Print help"),
        )
    };
    short_help(Cli::command()).mut_subcommands(short_help)
}

/// [`command`], whose `--version` also names the corpus and spec by their
/// hashes ([`crate::corpus::embedded::version`]) when the command line asks
/// for it: the hashes take a pass over the embedded files, which no other
/// command should pay for. The flag belongs to no subcommand, so it is the
/// first argument when given.
fn command_for(first_arg: Option<&std::ffi::OsStr>) -> clap::Command {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    match first_arg {
        Some(a) if a == "-V" || a == "--version" => command().version(
            VERSION
                .get_or_init(crate::corpus::embedded::version)
                .as_str(),
        ),
        _ => command(),
    }
}

/// Parses the command line, runs it and returns the exit status.
pub fn main() -> ExitCode {
    let first_arg = std::env::args_os().nth(1);
    let cli = match Cli::from_arg_matches(&command_for(first_arg.as_deref()).get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    match execute(cli) {
        Ok(()) => Exit::Passed.into(),
        Err(f) => {
            if !f.message.is_empty() {
                errln!("{}", f.message);
            }
            f.exit.into()
        }
    }
}

/// Runs a parsed command.
pub fn execute(cli: Cli) -> Result<(), Failure> {
    if cli.command.writes_files() {
        out::finish_work();
    }
    match cli.command {
        Command::Run(args) => run::exec(args),
        Command::List(args) => list::exec(args),
        Command::Lint(args) => lint::exec(args),
        Command::Bench(args) => bench::exec(args),
        Command::Fuzz(args) => fuzz::exec(args),
        Command::Bless(args) => bless::exec(args),
        Command::Compare(args) => compare::exec(args),
        Command::Laws(args) => laws::exec(args),
        Command::Matrix(args) => matrix::exec(args),
        Command::Adapter(args) => adapter::exec(args),
        Command::Export(args) => export::exec(args),
    }
}

impl Command {
    /// Whether the command writes files, which a closed stdout must not
    /// cut short ([`out::finish_work`]).
    pub fn writes_files(&self) -> bool {
        match self {
            Command::Export(_) => true,
            Command::Bless(a) => a.write,
            Command::Run(a) => a.update_known_failures.is_some(),
            Command::Fuzz(a) => a.emit.is_some(),
            Command::Laws(a) => a.emit.is_some(),
            Command::Compare(a) => a.emit.is_some(),
            Command::Matrix(a) => a.output.is_some(),
            Command::Lint(a) => a.emit.is_some(),
            Command::List(_) | Command::Bench(_) | Command::Adapter(_) => false,
        }
    }
}
