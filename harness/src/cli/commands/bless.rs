//! `ptc-conformance bless`: expectations recomputed from the reference or an adapter.

use crate::cli::args::{load_clean, start, CorpusArgs, Filter, ReleaseArg};
use crate::cli::out::outln;
use crate::exit::Failure;
use crate::judging::release;
use crate::review::bless::{apply, recompute, show, Change, Place};
use crate::subject::adapter::AdapterConfig;
use crate::subject::reference::Reference;
use crate::subject::Subject;
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
    /// The release whose expectations are recomputed: `expect` at the
    /// newest release a case holds for, its `expect_by_release` entry at an
    /// older one (written only where it differs from `expect`).
    #[command(flatten)]
    pub release: ReleaseArg,
    /// Write the new expectations into the case files (only the release's
    /// expectation changes); needs `--corpus DIR`, the files to rewrite (the default
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
    let mut adapter = match (args.from_adapter, args.command.is_empty()) {
        (false, true) => None,
        (true, false) => Some(start(AdapterConfig::new(args.command.clone()))?),
        (true, true) => {
            return Err(Failure::usage(
                "--from-adapter needs the command after `--`",
            ))
        }
        (false, false) => return Err(Failure::usage("a command after `--` needs --from-adapter")),
    };
    let named = adapter.as_ref().and_then(|a| a.release());
    let judged = release::resolve(args.release.release, named)
        .map_err(|e| Failure::usage(format!("adapter: {e}")))?;
    let at = judged.release;
    outln!("release: {}", judged.describe());
    // A case that does not hold at the release has no expectation there.
    let (cases, absent): (Vec<_>, Vec<_>) = cases.into_iter().partition(|c| c.holds_at(at));
    let changes = match &mut adapter {
        None => recompute(&mut Reference::at(at), &cases, at),
        Some(adapter) => {
            let changes = recompute(adapter, &cases, at);
            let faults = crate::subject::faults_of(adapter);
            if !faults.is_empty() {
                return Err(Failure::failed(format!(
                    "adapter faults:\n  {}",
                    faults.join("\n  ")
                )));
            }
            changes
        }
    };
    let (mut updates, mut problems) = (0usize, 0usize);
    for (case, change) in cases.iter().zip(&changes) {
        match change {
            Change::Same => {}
            Change::Problem(why) => {
                problems += 1;
                outln!("PROBLEM {} ({}): {why}", case.id, case.file.display());
            }
            Change::Update {
                place,
                old_text,
                new_text,
            } => {
                updates += 1;
                let what = match place {
                    Place::Expect => "expect".to_owned(),
                    Place::Release(r) => format!("expect_by_release {r}"),
                    Place::DropRelease(r) => {
                        format!("expect_by_release {r} removed: it now answers as `expect`")
                    }
                };
                outln!(
                    "CHANGE {} ({}): {what}\n{}",
                    case.id,
                    case.file.display(),
                    show(old_text, new_text)
                );
                if args.write {
                    let new = apply(case, *place, new_text)
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
        "bless: {} cases at {at}, {updates} {verb}, {problems} without an answer{}",
        cases.len(),
        if absent.is_empty() {
            String::new()
        } else {
            format!(", {} not holding at {at} (left alone)", absent.len())
        }
    );
    if !args.write && updates > 0 && !args.check {
        outln!("(dry run: --write applies the changes)");
    }
    if args.check && (updates > 0 || problems > 0) {
        return Err(Failure::reported());
    }
    Ok(())
}
