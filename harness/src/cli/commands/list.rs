//! `ptc-conformance list`: the selected cases, one a line, or with
//! `--counts` how many each op has.

use crate::cli::args::{load_clean, CorpusArgs, Filter, ReleaseArg};
use crate::cli::out::{errln, outln};
use crate::corpus::{Case, Level};
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
    /// Only the cases that hold at this release (default 0.13.0).
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Print, per op, how many cases are selected (all, required, pinned)
    /// instead of the cases; ops with none are left out.
    #[arg(long)]
    pub counts: bool,
}

/// Prints id, op, level and description of each selected case, or the
/// counts per op.
pub fn exec(args: ListArgs) -> Result<(), Failure> {
    let corpus = load_clean(&args.corpus)?;
    let at = args.release.get();
    let selected = args
        .filter
        .selection(None)
        .apply(&corpus)
        .map_err(Failure::usage)?;
    let all = selected.len();
    let cases: Vec<&Case> = selected.into_iter().filter(|c| c.holds_at(at)).collect();
    // `run` counts the corpus whole; at a terminal, say why this count is
    // smaller (stdout stays one case or op a line).
    let others = all - cases.len();
    // Which corpus and release, on stderr, and only for a reader at a
    // terminal: stdout is one case (or op) a line, and `list | head -3`
    // shows three of them.
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        errln!(
            "{}
release: {at}",
            corpus.describe()
        );
        if others > 0 {
            errln!(
                "{others} selected case(s) hold only at other releases than {at} and are left out (--release names another)"
            );
        }
    }
    if args.counts {
        print_counts(&cases);
        return Ok(());
    }
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

/// `op  cases  required  pinned`, one op a line in registry order, then the total.
fn print_counts(cases: &[&Case]) {
    let count = |op: Option<&str>| {
        let of: Vec<&&Case> = cases
            .iter()
            .filter(|c| op.is_none_or(|o| c.op.name == o))
            .collect();
        let required = of.iter().filter(|c| c.level == Level::Required).count();
        (of.len(), required, of.len() - required)
    };
    let ops: Vec<&str> = ptc_conformance::ops::OPS
        .iter()
        .map(|o| o.name)
        .filter(|o| cases.iter().any(|c| c.op.name == *o))
        .collect();
    let w = ops
        .iter()
        .map(|o| o.len())
        .max()
        .unwrap_or(0)
        .max("total".len());
    outln!(
        "{:<w$}  {:>6}  {:>8}  {:>6}",
        "op",
        "cases",
        "required",
        "pinned"
    );
    for op in &ops {
        let (n, r, p) = count(Some(op));
        outln!("{op:<w$}  {n:>6}  {r:>8}  {p:>6}");
    }
    let (n, r, p) = count(None);
    outln!("{:<w$}  {n:>6}  {r:>8}  {p:>6}", "total");
}
