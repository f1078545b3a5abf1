//! `ptc-conformance bench`: cases per second through each path.

use crate::cli::args::{load_clean, CorpusArgs, ReleaseArg};
use crate::cli::out::{out, outln};
use crate::exit::Failure;
use clap::Args;

/// `bench` arguments.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Run the corpus repeated to at least this many cases per path.
    #[arg(long, default_value = "100000")]
    pub cases: usize,
    /// The release the reference answers as (in process and as `adapter --release`).
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Requests in flight at once for the pipelined paths.
    #[arg(long, default_value = "64")]
    pub window: usize,
    /// Another adapter to measure, pipelined (the command after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// Measures each path and prints the table.
pub fn exec(args: BenchArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::failed(format!("cannot find this program: {e}")))?;
    let others: Vec<Vec<String>> = if args.command.is_empty() {
        Vec::new()
    } else {
        vec![args.command.clone()]
    };
    outln!(
        "{}\nthe reference at {}; the corpus repeated to at least {} cases per path, median of {} runs; {} cores",
        corpus.describe(),
        args.release.get(),
        args.cases,
        crate::review::bench::REPEATS,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    let measures = crate::review::bench::run(
        &corpus.cases,
        args.cases,
        args.window.max(1),
        &exe.display().to_string(),
        &others,
        args.release.get(),
    )
    .map_err(|e| Failure::failed(format!("bench: {e}")))?;
    out!("{}", crate::review::bench::table(&measures));
    Ok(())
}
