//! The corpus holds every class of input at every place of every op
//! (`ptc-conformance lint --coverage`, `harness/src/corpus/coverage.rs`),
//! or `coverage.unreachable.txt` says why no case can: a case removed, a
//! class or place added to the generators' tables, or a stale line in the
//! file fails this test.

use ptc_conformance_harness::corpus::{self, coverage, Origin, Sources};
use std::path::Path;

fn golden() -> corpus::Corpus {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = corpus::load(&Sources {
        roots: vec![Origin::Dir(root.join("golden"))],
        spec: Origin::Dir(root.join("spec")),
    });
    assert!(
        corpus.errors.is_empty(),
        "the corpus has problems: {:?}",
        corpus.errors
    );
    corpus
}

#[test]
fn the_corpus_holds_every_class_of_every_place() {
    let cov = coverage::measure(&golden(), coverage::UNREACHABLE);
    let open: Vec<String> = cov
        .open()
        .iter()
        .map(|(p, c)| format!("{} {} {}", p.op, p.place, c.class))
        .collect();
    assert!(
        open.is_empty() && cov.problems.is_empty(),
        "{}\n{} class(es) no case holds and coverage.unreachable.txt does not list:\n  {}\n\
         problems with coverage.unreachable.txt:\n  {}\n\
         `ptc-conformance lint --coverage --emit DIR` writes a case for each open class; \
         bless it from each release's build (docs/releases.md) and add it to golden/, \
         or list the class with the reason no case can hold it",
        coverage::summary_line(&cov.summary()),
        open.len(),
        open.join("\n  "),
        cov.problems.join("\n  ")
    );
}

/// The check has teeth: a case that alone holds a class, taken out,
/// leaves that class open.
#[test]
fn a_case_removed_leaves_its_class_open() {
    let mut corpus = golden();
    let cov = coverage::measure(&corpus, coverage::UNREACHABLE);
    let (place, cell) = cov
        .places
        .iter()
        .flat_map(|p| p.classes.iter().map(move |c| (p, c)))
        .find(|(_, c)| c.cases.len() == 1)
        .expect("some class is held by one case alone");
    let id = cell.cases[0].clone();
    corpus.cases.retain(|c| c.id != id);
    let after = coverage::measure(&corpus, coverage::UNREACHABLE);
    assert!(
        after
            .open()
            .iter()
            .any(|(p, c)| p.op == place.op && p.place == place.place && c.class == cell.class),
        "removing {id} should leave {} {} {} open",
        place.op,
        place.place,
        cell.class
    );
}

/// A line of the file that names a class some case holds is a problem.
#[test]
fn a_listed_class_a_case_holds_is_a_problem() {
    let corpus = golden();
    let cov = coverage::measure(&corpus, "");
    let (p, c) = cov
        .places
        .iter()
        .flat_map(|p| p.classes.iter().map(move |c| (p, c)))
        .find(|(_, c)| !c.cases.is_empty())
        .expect("a held class");
    let line = format!("{} {} {} — planted\n", p.op, p.place, c.class);
    let cov = coverage::measure(&corpus, &line);
    assert!(
        cov.problems.iter().any(|m| m.contains("is held by")),
        "{:?}",
        cov.problems
    );
    let cov = coverage::measure(&corpus, "term.inspect args[9] int:zero — no such place\n");
    assert!(
        cov.problems.iter().any(|m| m.contains("names no class")),
        "{:?}",
        cov.problems
    );
}
