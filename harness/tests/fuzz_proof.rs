//! Proof that the fuzzer finds real bugs: the Python port with a deliberate
//! bug switched on (`PTC_PY_BUG`) is fuzzed against the reference; the bug
//! must be found, shrunk to a small case, and that case must fail the buggy
//! port and pass the reference.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance_harness::corpus::{self, Origin, Sources};
use ptc_conformance_harness::judging::outcome::{Outcome, Strictness};
use ptc_conformance_harness::judging::runner::{self, RunOptions};
use ptc_conformance_harness::review::fuzz::{self, FuzzConfig};
use ptc_conformance_harness::subject::adapter::{Adapter, AdapterConfig};
use ptc_conformance_harness::subject::reference::Reference;
use std::path::{Path, PathBuf};

fn python_port(bug: &str) -> AdapterConfig {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/adapters/python/adapter.py");
    AdapterConfig::new(vec![
        "env".into(),
        format!("PTC_PY_BUG={bug}"),
        "python3".into(),
        script.display().to_string(),
    ])
}

fn prove(bug: &str, op: &str, max_nodes: usize) {
    let sources = Sources::embedded();
    let corpus = corpus::load(&sources);
    assert!(corpus.errors.is_empty(), "{:?}", corpus.errors);
    let emit = std::env::temp_dir().join(format!("ptc-fuzz-proof-{bug}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&emit);
    let cfg = FuzzConfig {
        ops: vec![op.into()],
        cases_per_op: 50_000,
        emit: Some(emit.clone()),
        ..FuzzConfig::new(7)
    };

    let mut buggy = Adapter::start(python_port(bug)).expect("the Python port starts");
    let report = fuzz::run(&mut buggy, &cfg, &corpus.cases, &mut |_| {}).expect("fuzzing runs");
    let finding = report
        .findings
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("{bug}: no disagreement in {} inputs", report.checked));
    let nodes: usize = finding.args.iter().map(fuzz::size).sum();
    assert!(
        nodes <= max_nodes,
        "{bug}: shrunk input still has {nodes} nodes: {:?}",
        finding.args
    );

    // The emitted case is a valid case file that fails the bug and passes the reference.
    let path: PathBuf = finding.emitted.clone().expect("a case file was written");
    let id = corpus::id_from_path(&emit, &path).unwrap();
    let emitted = corpus::load(&Sources {
        roots: vec![Origin::Dir(emit.clone())],
        ..sources
    });
    assert!(
        emitted.errors.is_empty(),
        "emitted case does not load: {:?}",
        emitted.errors
    );
    let case = emitted.cases.iter().find(|c| c.id == id).unwrap();
    let against_bug = runner::run(&mut buggy, &[case], RunOptions::new(Strictness::Default));
    assert!(
        matches!(against_bug[0].outcome, Outcome::Fail(_)),
        "{bug}: {:?}",
        against_bug[0].outcome
    );
    let against_reference = runner::run(
        &mut Reference::default(),
        &[case],
        RunOptions::new(Strictness::Strict),
    );
    assert_eq!(against_reference[0].outcome, Outcome::Pass);
    // And without the bug the port agrees.
    let mut fixed = Adapter::start(python_port("")).expect("the Python port starts");
    let clean = runner::run(&mut fixed, &[case], RunOptions::new(Strictness::Default));
    assert_eq!(
        clean[0].outcome,
        Outcome::Pass,
        "{bug}: the correct port must pass the emitted case"
    );
}

#[test]
fn finds_signed_zero_not_collapsed() {
    prove("neg-zero", "key_normalizer.canonical_cache_key", 6);
}

#[test]
fn finds_huge_integral_floats_left_as_floats() {
    prove("big-float", "key_normalizer.canonical_cache_key", 6);
}

#[test]
fn finds_cache_hint_keys_sorted_backwards() {
    prove("hint-order", "native_preview.cache_hint", 8);
}
