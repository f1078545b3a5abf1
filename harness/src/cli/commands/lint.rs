//! `ptc-conformance lint`: the corpus checked as a whole.

use crate::cli::args::CorpusArgs;
use crate::corpus;
use crate::exit::Failure;

/// Prints the rule table and fails on any problem.
pub fn exec(args: CorpusArgs) -> Result<(), Failure> {
    let corpus = corpus::load(&args.sources());
    let lint = corpus::lint::check(&corpus);
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
