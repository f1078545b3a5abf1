//! Every repository path cited in the README, the spec, the SDKs' and the
//! adapters' READMEs and the doc comments exists: a citation that points
//! nowhere is a bug (expect-test's tidy checks, run as a test; the check is
//! `ptc_conformance_harness::links`, which `standalone.rs` runs on an export).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance_harness::links::{self, Tree};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_cited_repository_path_exists() {
    let checked = links::check(&repo(), Tree::Checkout);
    assert!(
        checked.citations > 50 && checked.files > 100,
        "only {} citations in {} files found: is the scan broken?",
        checked.citations,
        checked.files
    );
    assert!(checked.missing.is_empty(), "{}", checked.missing.join("\n"));
}

/// Every `harness/tests/*.rs` is a test target of the root manifest and
/// every `tests/*.rs` one of `src/Cargo.toml`: the targets are listed by
/// hand (neither package finds them on its own), and a file left out would
/// never run.
#[test]
fn every_test_file_is_a_test_target() {
    let mut checked = 0;
    for (dir, manifest, prefix) in [
        ("harness/tests", "Cargo.toml", "harness/tests"),
        ("tests", "src/Cargo.toml", "../tests"),
    ] {
        let text = std::fs::read_to_string(repo().join(manifest)).unwrap();
        for e in std::fs::read_dir(repo().join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "rs") {
                let name = path.file_name().unwrap().to_str().unwrap();
                let line = format!("path = \"{prefix}/{name}\"");
                assert!(
                    text.contains(&line),
                    "{dir}/{name} is not a [[test]] of {manifest}: add one with {line}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5, "only {checked} test files found");
}
