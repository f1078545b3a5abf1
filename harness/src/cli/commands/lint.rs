//! `ptc-conformance lint`: the corpus checked as a whole.

use crate::cli::args::CorpusArgs;
use crate::cli::out::outln;
use crate::corpus;
use crate::exit::Failure;

/// Prints the rule table and fails on any problem.
pub fn exec(args: CorpusArgs) -> Result<(), Failure> {
    let corpus = corpus::load(&args.sources());
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
