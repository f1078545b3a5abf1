//! The binary on its own: copied into an empty directory and run from
//! another one outside the repository, with no `CARGO_MANIFEST_DIR`, it runs
//! the whole corpus it carries and every report names that corpus
//! (embedded, how many cases, the hash of the repository's `golden/`).
//! Its export stands alone too: it cites only what it carries, and the
//! SDKs' example ports run from it as they are.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use ptc_conformance_harness::corpus::tree::{self, Tree};
use ptc_conformance_harness::links;
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

/// The built binary, copied alone into an empty directory of its own
/// (`test`, so that tests running at once do not share it).
fn copied_binary(test: &str) -> PathBuf {
    let dir = empty_dir(&format!("bin-{test}"));
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

/// The repository's cases whose `releases` leave v0.13.0 out: a default
/// run reports them skipped (not in the release).
fn not_at_default_release() -> usize {
    common::cases_not_at("0.13.0")
}

#[test]
fn a_copied_binary_runs_and_names_the_corpus_it_carries() {
    let bin = copied_binary("run");
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
    assert_eq!(report["totals"]["passed"], cases - not_at_default_release());
    assert_eq!(report["totals"]["skipped"], not_at_default_release());
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
        text.contains(&format!(
            "\n{} passed, 0 failed, {} skipped",
            cases - not_at_default_release(),
            not_at_default_release()
        )),
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
    assert_eq!(report["totals"]["passed"], cases - not_at_default_release());
    let spec_on_disk = tree::sha256(&[Tree::read(&repo().join("spec")).0]);
    assert_eq!(report["spec"]["sha256"], spec_on_disk.as_str());

    let _ = std::fs::remove_dir_all(bin.parent().unwrap());
    let _ = std::fs::remove_dir_all(&cwd);
}

/// `PATH` with nothing from the repository on it and the variables that
/// could point back into it removed, as a porter's shell has it.
fn porter_env(cmd: &mut Command) -> &mut Command {
    cmd.env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO")
        .env_remove("PTC_CONFORMANCE_DATA")
        .env_remove("PTC_CONFORMANCE_BIN")
        .env_remove("PYTHONPATH")
        .env_remove("NODE_PATH")
}

/// An export stands alone: written by a copied binary into a directory
/// outside the repository, every path its spec and SDK READMEs cite
/// resolves inside it (the kit's link check), and each SDK's example port
/// runs as it is from there against the same binary and passes.
#[test]
fn an_export_cites_only_itself_and_its_example_ports_run_as_they_are() {
    let bin = copied_binary("export");
    let kit = empty_dir("export");
    assert!(
        !kit.starts_with(repo()),
        "{} is inside the repository",
        kit.display()
    );
    run(&bin, &kit, &["export", "."]);
    // The ops as data travel with the kit, for the porter and both SDKs.
    for copy in [
        "spec/data/ops.json",
        "sdk/python/ptc_sdk/data/ops.json",
        "sdk/js/data/ops.json",
    ] {
        assert_eq!(
            std::fs::read(kit.join(copy)).ok(),
            std::fs::read(repo().join("spec/data/ops.json")).ok(),
            "the export's {copy} is not the repository's spec/data/ops.json"
        );
    }

    let checked = links::check(&kit, links::Tree::Export);
    assert!(
        checked.files >= 10 && checked.citations > 50,
        "only {} citations in {} files of the export: is the scan broken?",
        checked.citations,
        checked.files
    );
    assert!(
        checked.missing.is_empty(),
        "the export cites what it does not carry:\n{}",
        checked.missing.join("\n")
    );

    for (port, language) in [
        (&["python3", "sdk/python/example_port.py"][..], "python"),
        (&["node", "sdk/js/example-port.js"][..], "javascript"),
    ] {
        let mut args = vec![
            "run",
            "--level",
            "strict",
            "--format",
            "json",
            "--adapter",
            "--",
        ];
        args.extend_from_slice(port);
        let out = porter_env(Command::new(&bin).args(&args).current_dir(&kit))
            .output()
            .unwrap_or_else(|e| panic!("{language} example port: cannot run {port:?}: {e}"));
        assert!(
            out.status.success(),
            "{language} example port {port:?} from the export failed ({:?}):\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let totals = &report["totals"];
        assert!(totals["passed"].as_u64() > Some(10), "{language}: {totals}");
        assert_eq!(totals["failed"], 0, "{language}: {totals}");
        assert_eq!(report["corpus"]["embedded"], true);
    }
    let _ = std::fs::remove_dir_all(bin.parent().unwrap());
    let _ = std::fs::remove_dir_all(&kit);
}
