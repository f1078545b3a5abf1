//! `ptc-conformance list`: the selected cases, one a line.

use crate::cli::args::{load_clean, CorpusArgs, Filter};
use crate::cli::out::{errln, outln};
use crate::exit::Failure;
use clap::Args;

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

/// Prints id, op, level and description of each selected case.
pub fn exec(args: ListArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let cases = args
        .filter
        .selection(None)
        .apply(&corpus)
        .map_err(Failure::usage)?;
    // Which corpus, on stderr: stdout is one case a line, for pipes.
    errln!("{}", corpus.describe());
    for c in cases {
        outln!(
            "{}\t{}\t{}\t{}",
            c.id,
            c.op.name,
            c.level.as_str(),
            c.description
        );
    }
    Ok(())
}
