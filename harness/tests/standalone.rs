//! The binary on its own: copied into an empty directory and run from
//! another one outside the repository, with no `CARGO_MANIFEST_DIR`, it runs
//! the whole corpus it carries and every report names that corpus
//! (embedded, how many cases, the hash of the repository's `golden/`).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance_harness::corpus::tree::{self, Tree};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh empty directory under the system's temporary directory.
fn empty_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-standalone-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The built binary, copied alone into an empty directory.
fn copied_binary() -> PathBuf {
    let dir = empty_dir("bin");
    let bin = dir.join("ptc-conformance");
    std::fs::copy(env!("CARGO_BIN_EXE_ptc-conformance"), &bin).unwrap();
    bin
}

/// Runs the copy with `cwd` as its current directory and no cargo variables.
fn run(bin: &Path, cwd: &Path, args: &[&str]) -> Output {
    let out = Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?} exited {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Case files in the repository's `golden/`, and their hash, read from disk
/// here (not through the binary).
fn repository_corpus() -> (usize, String) {
    let (golden, errors) = Tree::read(&repo().join("golden"));
    assert!(errors.is_empty(), "{errors:?}");
    let cases = golden
        .files
        .iter()
        .filter(|f| f.rel.ends_with(".json"))
        .count();
    (cases, tree::sha256(&[golden]))
}

#[test]
fn a_copied_binary_runs_and_names_the_corpus_it_carries() {
    let bin = copied_binary();
    let cwd = empty_dir("cwd");
    assert!(
        !cwd.starts_with(repo()),
        "{} is inside the repository",
        cwd.display()
    );
    let (cases, sha) = repository_corpus();
    assert!(cases > 1000, "{cases}");

    let json = run(&bin, &cwd, &["run", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let corpus = &report["corpus"];
    assert_eq!(corpus["embedded"], true, "{corpus}");
    assert_eq!(
        corpus["source"],
        format!("embedded in ptc-conformance {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(corpus["cases"], cases, "{corpus}");
    assert_eq!(corpus["sha256"], sha.as_str(), "{corpus}");
    assert_eq!(report["spec"]["embedded"], true);
    assert_eq!(report["totals"]["total"], cases);
    assert_eq!(report["totals"]["passed"], cases);
    assert_eq!(report["verdict"]["passed"], true);

    let pretty = run(&bin, &cwd, &["run"]);
    let text = String::from_utf8(pretty.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("corpus: "))
        .unwrap_or_else(|| panic!("no corpus line: {text}"));
    assert_eq!(
        line,
        format!(
            "corpus: {cases} cases, embedded in ptc-conformance {}, sha256 {sha}",
            env!("CARGO_PKG_VERSION")
        )
    );
    assert!(
        text.contains(&format!("\n{cases} passed, 0 failed")),
        "{text}"
    );

    let junit = run(&bin, &cwd, &["run", "--format", "junit"]);
    let xml = String::from_utf8(junit.stdout).unwrap();
    assert!(
        xml.contains(&format!(
            r#"<property name="corpus.sha256" value="{sha}"/>"#
        )),
        "{xml}"
    );
    assert!(xml.contains(&format!(
        r#"<property name="corpus.cases" value="{cases}"/>"#
    )));

    // What it carries, written out, is the same corpus: same hash, read from disk.
    run(&bin, &cwd, &["export", "kit"]);
    let exported = run(
        &bin,
        &cwd,
        &[
            "run",
            "--format",
            "json",
            "--corpus",
            "kit/golden",
            "--spec",
            "kit/spec",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!(report["corpus"]["embedded"], false);
    assert_eq!(report["corpus"]["source"], "directory kit/golden");
    assert_eq!(report["corpus"]["sha256"], sha.as_str());
    assert_eq!(report["totals"]["passed"], cases);
    let spec_on_disk = tree::sha256(&[Tree::read(&repo().join("spec")).0]);
    assert_eq!(report["spec"]["sha256"], spec_on_disk.as_str());

    let _ = std::fs::remove_dir_all(bin.parent().unwrap());
    let _ = std::fs::remove_dir_all(&cwd);
}
