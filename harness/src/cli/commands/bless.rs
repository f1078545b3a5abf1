//! `ptc-conformance bless`: expectations recomputed from the reference or an adapter.

use crate::cli::args::{load_clean, start, CorpusArgs, Filter};
use crate::cli::out::outln;
use crate::exit::Failure;
use crate::review::bless::{recompute, replace_expect, show, Change};
use crate::subject::adapter::AdapterConfig;
use crate::subject::reference::Reference;
use clap::Args;

/// `bless` arguments.
#[derive(Args, Debug)]
pub struct BlessArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection.
    #[command(flatten)]
    pub filter: Filter,
    /// Write the new expectations into the case files (only `expect`
    /// changes); needs `--corpus DIR`, the files to rewrite (the default
    /// corpus is the copy embedded in the binary).
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

/// Recomputes expectations; shows, checks or writes what changes.
pub fn exec(args: BlessArgs) -> Result<(), Failure> {
    if args.write && args.corpus.corpus.is_empty() {
        return Err(Failure::usage(format!(
            "bless --write rewrites case files, but without --corpus the corpus is the copy {}: \
             name the directory to rewrite, e.g. `ptc-conformance bless --write --corpus golden` \
             in a checkout of the repository",
            crate::corpus::embedded::label()
        )));
    }
    let corpus = load_clean(&args.corpus)?;
    outln!("{}", corpus.describe());
    let selection = args.filter.selection(None);
    let cases = selection.apply(&corpus).map_err(Failure::usage)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches {}",
            selection.describe()
        )));
    }
    let changes = match (args.from_adapter, args.command.is_empty()) {
        (false, true) => recompute(&mut Reference::default(), &cases),
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
                outln!("PROBLEM {} ({}): {why}", case.id, case.file.display());
            }
            Change::Update { old_text, new_text } => {
                updates += 1;
                outln!(
                    "CHANGE {} ({})\n{}",
                    case.id,
                    case.file.display(),
                    show(old_text, new_text)
                );
                if args.write {
                    let new = replace_expect(&case.source, new_text)
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
    outln!(
        "bless: {} cases, {updates} {verb}, {problems} without an answer",
        cases.len()
    );
    if !args.write && updates > 0 && !args.check {
        outln!("(dry run: --write applies the changes)");
    }
    if args.check && (updates > 0 || problems > 0) {
        return Err(Failure::reported());
    }
    Ok(())
}
