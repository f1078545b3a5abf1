//! `ptc-conformance lint`: the corpus checked as a whole, and with
//! `--coverage` the classes of input it holds at each place of each op.

use crate::cli::args::CorpusArgs;
use crate::cli::out::outln;
use crate::corpus;
use crate::corpus::coverage;
use crate::exit::Failure;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `lint` arguments.
#[derive(Args, Debug)]
pub struct LintArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Report which classes of input (integers of each sign, texts at and
    /// past each limit, each struct, ...) the corpus holds at each place of
    /// each op, the generators' places and classes; fails while a class is
    /// open (held by no case, and not listed in coverage.unreachable.txt).
    #[arg(long)]
    pub coverage: bool,
    /// The coverage report's format.
    #[arg(long, value_enum, default_value_t = LintFormat::Text, requires = "coverage")]
    pub format: LintFormat,
    /// Write a case for each open class into DIR: an existing case of the
    /// op with the class's example at the place, its expectation the
    /// reference's (bless it from each release's build before adding it).
    #[arg(long, value_name = "DIR", requires = "coverage")]
    pub emit: Option<PathBuf>,
}

/// How `lint --coverage` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// A line per place and per class.
    Text,
    /// The same as data.
    Json,
}

/// Prints the rule table (or, with `--coverage`, the coverage report) and
/// fails on any problem.
pub fn exec(args: LintArgs) -> Result<(), Failure> {
    if args.coverage {
        return exec_coverage(&args);
    }
    let corpus = corpus::load(&args.corpus.sources());
    let lint = corpus::lint::check(&corpus);
    outln!("{}\n", corpus.describe());
    outln!("{:<10} {:>6}  defined in", "rule", "cases");
    for r in &lint.rules {
        match r.cases {
            Some(n) => outln!("{:<10} {n:>6}  {}", r.rule, r.file.display()),
            None => outln!(
                "{:<10} {:>6}  {} (checked by the harness's tests)",
                r.rule,
                "-",
                r.file.display()
            ),
        }
    }
    outln!(
        "\n{} cases in {} files, {} rules, {} ops",
        corpus.cases.len(),
        corpus.files_scanned,
        corpus.rules.len(),
        ptc_conformance::ops::OPS.len()
    );
    if corpus.spec.embedded && !corpus.tested_by.is_empty() {
        outln!(
            "({} rules are checked by the harness's tests, which this binary does not carry: \
             `ptc-conformance lint --spec spec` in a checkout checks that those tests name them)",
            corpus.tested_by.len()
        );
    }
    if lint.problems.is_empty() {
        outln!("lint: ok");
        Ok(())
    } else {
        let mut msg = format!("lint: {} problem(s):\n", lint.problems.len());
        for p in &lint.problems {
            msg.push_str(&format!("  {p}\n"));
        }
        Err(Failure::usage(msg.trim_end().to_owned()))
    }
}

fn exec_coverage(args: &LintArgs) -> Result<(), Failure> {
    let corpus = crate::cli::args::load_clean(&args.corpus)?;
    let cov = coverage::measure(&corpus, coverage::UNREACHABLE);
    let summary = cov.summary();
    match args.format {
        LintFormat::Text => {
            outln!("{}", corpus.describe());
            crate::cli::out::out!("{}", coverage::render_text(&cov));
        }
        LintFormat::Json => {
            let json = serde_json::json!({
                "corpus": corpus.info(),
                "summary": summary,
                "places": cov.places,
                "problems": cov.problems,
            });
            outln!(
                "{}",
                serde_json::to_string_pretty(&json)
                    .map_err(|e| Failure::failed(format!("writing the report: {e}")))?
            );
        }
    }
    if let Some(dir) = &args.emit {
        let (fills, none) = crate::review::gen::fill::plan(&corpus, &cov);
        let paths = crate::review::gen::fill::write(dir, &corpus, &fills)
            .map_err(|e| Failure::failed(format!("--emit: {e}")))?;
        crate::cli::out::errln!(
            "wrote {} case(s) into {} for the open classes; {} open class(es) no case of the op takes{}",
            paths.len(),
            dir.display(),
            none.len(),
            if none.is_empty() { String::new() } else { format!(":\n  {}", none.join("\n  ")) }
        );
    }
    let mut problems = cov.problems.clone();
    if summary.open > 0 {
        problems.push(format!(
            "{} class(es) open: held by no case and not listed in coverage.unreachable.txt \
             (`lint --coverage --emit DIR` writes a case for each)",
            summary.open
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Failure::usage(format!(
            "lint --coverage: {} problem(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        )))
    }
}
