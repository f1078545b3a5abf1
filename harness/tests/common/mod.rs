//! What the CLI, report and browser tests share: the binary, the repository,
//! scratch corpora and runs against them.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `ptc-conformance` binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptc-conformance"))
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Stdout then stderr.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// An empty scratch directory for test `name`.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scratch corpus under `dir/golden`: copies of the repository's cases
/// `copies` (ids) and the `extra` files (path, body).
pub fn corpus(dir: &Path, copies: &[&str], extra: &[(&str, String)]) -> PathBuf {
    let golden = dir.join("golden");
    for id in copies {
        let to = golden.join(format!("{id}.json"));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(repo().join("golden").join(format!("{id}.json")), to).unwrap();
    }
    for (path, body) in extra {
        let p = golden.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    golden
}

/// A case file's text: one argument, an `ok` expectation.
pub fn case_json(id: &str, op: &str, spec: &str, arg: &str, expect: &str) -> String {
    format!(
        r#"{{"id": "{id}", "op": "{op}", "description": "d", "spec": ["{spec}"], "features": [], "level": "required", "args": [{arg}], "expect": {{"ok": {expect}}}}}"#
    )
}

/// `ptc-conformance run` on the corpus `golden` with the repository's spec.
pub fn run(golden: &Path, more: &[&str]) -> Output {
    bin()
        .arg("run")
        .arg("--corpus")
        .arg(golden)
        .arg("--spec")
        .arg(repo().join("spec"))
        .args(more)
        .output()
        .unwrap()
}

/// The misbehaving test adapter's command, with `env` set.
pub fn misbehave(env: &[(&str, &str)]) -> Vec<String> {
    let mut cmd = vec!["env".to_owned()];
    cmd.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
    cmd.push("python3".into());
    cmd.push(
        repo()
            .join("harness/tests/adapters/misbehave.py")
            .display()
            .to_string(),
    );
    cmd
}

/// `more`, then `--adapter --` and `cmd`.
pub fn with_adapter<'a>(more: &[&'a str], cmd: &'a [String]) -> Vec<&'a str> {
    let mut v: Vec<&str> = more.to_vec();
    v.push("--adapter");
    v.push("--");
    v.extend(cmd.iter().map(String::as_str));
    v
}

/// A run's JSON report, parsed.
pub fn json_report(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {}", text(o)))
}

/// The repository's cases whose `releases` leave `release` out (a run at
/// that release reports them skipped, not in the release).
pub fn cases_not_at(release: &str) -> usize {
    walkdir::WalkDir::new(repo().join("golden"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter(|e| {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap();
            v["releases"]
                .as_array()
                .is_some_and(|rs| !rs.iter().any(|r| r == release))
        })
        .count()
}
