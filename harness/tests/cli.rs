//! The `ptc-conformance` command: exit statuses, corpus errors that name
//! their file and case, known failures, reports and replay commands.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptc-conformance"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A scratch corpus: `golden/` holding a copy of one real case plus `extra`
/// files, and the repository's spec.
fn scratch(name: &str, extra: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptc-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let case_dir = dir.join("golden/key_normalizer/normalize_key");
    std::fs::create_dir_all(&case_dir).unwrap();
    std::fs::copy(
        repo().join("golden/key_normalizer/normalize_key/string-with-hyphen.json"),
        case_dir.join("string-with-hyphen.json"),
    )
    .unwrap();
    for (path, body) in extra {
        let p = dir.join("golden").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    dir
}

fn run_on(dir: &Path, cmd: &str, more: &[&str]) -> Output {
    bin()
        .arg(cmd)
        .arg("--corpus")
        .arg(dir.join("golden"))
        .arg("--spec")
        .arg(repo().join("spec"))
        .args(more)
        .output()
        .unwrap()
}

fn case_json(id: &str, op: &str, spec: &str, arg: &str, expect: &str) -> String {
    format!(
        r#"{{"id": "{id}", "op": "{op}", "description": "d", "spec": ["{spec}"], "features": [], "level": "required", "args": [{arg}], "expect": {{"ok": {expect}}}}}"#
    )
}

/// A corrupted file, an unknown op, a wrong id, an unknown rule and an undeclared
/// feature each stop `run` and `lint` with status 2, naming the file and case.
#[test]
fn corpus_errors_name_file_and_case() {
    let bad: &[(&str, &str, &str)] = &[
        (
            "x/corrupt.json",
            "{\"id\": \"x/corrupt\", \"op\": ",
            "x/corrupt",
        ),
        (
            "x/unknown-op.json",
            &case_json(
                "x/unknown-op",
                "key_normalizer.no_such",
                "KN-1",
                "\"a\"",
                "\"a\"",
            ),
            "unknown op \"key_normalizer.no_such\"",
        ),
        (
            "x/wrong-id.json",
            &case_json(
                "x/other",
                "key_normalizer.normalize_key",
                "KN-1",
                "\"a\"",
                "\"a\"",
            ),
            "its path makes it \"x/wrong-id\"",
        ),
        (
            "x/no-rule.json",
            &case_json(
                "x/no-rule",
                "key_normalizer.normalize_key",
                "KN-999",
                "\"a\"",
                "\"a\"",
            ),
            "KN-999, which the spec does not define",
        ),
        (
            "x/feature.json",
            &case_json(
                "x/feature",
                "key_normalizer.normalize_key",
                "KN-1",
                "{\"$atom\": \"a\"}",
                "\"a\"",
            ),
            "does not declare: atoms",
        ),
        (
            "x/bad-tag.json",
            &case_json(
                "x/bad-tag",
                "key_normalizer.normalize_key",
                "KN-1",
                "{\"$atm\": \"a\"}",
                "\"a\"",
            ),
            "/args/0: unknown tag \"$atm\"",
        ),
    ];
    for (file, body, says) in bad {
        let dir = scratch("bad", &[(file, body)]);
        for cmd in ["run", "lint"] {
            let out = run_on(&dir, cmd, &[]);
            let t = text(&out);
            assert_eq!(out.status.code(), Some(2), "{cmd} on {file}: {t}");
            assert!(t.contains(file), "{cmd} must name {file}: {t}");
            assert!(t.contains(says), "{cmd} on {file} must say {says:?}: {t}");
        }
    }
}

#[test]
fn a_duplicated_id_across_corpus_roots_fails() {
    let dir = scratch("dup", &[]);
    for cmd in ["run", "lint"] {
        let out = bin()
            .arg(cmd)
            .arg("--corpus")
            .arg(dir.join("golden"))
            .arg("--corpus")
            .arg(dir.join("golden"))
            .arg("--spec")
            .arg(repo().join("spec"))
            .output()
            .unwrap();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(
            t.contains(
                "(case key_normalizer/normalize_key/string-with-hyphen): duplicated case id"
            ),
            "{t}"
        );
    }
}

#[test]
fn an_empty_corpus_is_an_error_saying_what_was_scanned() {
    let dir = std::env::temp_dir().join(format!("ptc-cli-empty-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("golden")).unwrap();
    let out = run_on(&dir, "run", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("no cases found: scanned 0 files under"),
        "{}",
        text(&out)
    );
}

/// AP-12, AP-13, AP-15: a wrong expectation fails with a diff, status 1, and a replay command.
#[test]
fn a_failing_case_reports_a_diff_and_a_replay_command() {
    let dir = scratch(
        "fail",
        &[(
            "key_normalizer/normalize_key/wrong.json",
            &case_json(
                "key_normalizer/normalize_key/wrong",
                "key_normalizer.normalize_key",
                "KN-2",
                "\"a-b\"",
                "\"a-b\"",
            ),
        )],
    );
    let adapter = env!("CARGO_BIN_EXE_ptc-conformance");
    let out = run_on(&dir, "run", &["--adapter", "--", adapter, "adapter"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains(r#"/: expected "a-b", got "a_b""#), "{t}");
    let replay = t
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: "))
        .expect("a replay line")
        .to_owned();
    let sh = Command::new("sh").arg("-c").arg(&replay).output().unwrap();
    let answers = String::from_utf8_lossy(&sh.stdout);
    assert!(
        answers.contains(r#"{"id":1,"ok":"a_b"}"#),
        "replay gave {answers}"
    );
}

/// AP-8, AP-14: skips are counted; known failures expect, stale entries fail.
#[test]
fn known_failures_and_skips() {
    let dir = scratch(
        "known",
        &[(
            "key_normalizer/normalize_key/wrong.json",
            &case_json(
                "key_normalizer/normalize_key/wrong",
                "key_normalizer.normalize_key",
                "KN-2",
                "\"a-b\"",
                "\"a-b\"",
            ),
        )],
    );
    let known = dir.join("known.txt");
    std::fs::write(
        &known,
        "key_normalizer/normalize_key/wrong  # wrong on purpose\n",
    )
    .unwrap();
    let out = run_on(
        &dir,
        "run",
        &[
            "--known-failures",
            known.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["totals"]["expected_failures"], 1);
    assert_eq!(report["totals"]["passed"], 1);

    std::fs::write(
        &known,
        "key_normalizer/normalize_key/string-with-hyphen  # passes\nno/such/case  # stale\n",
    )
    .unwrap();
    let out = run_on(&dir, "run", &["--known-failures", known.to_str().unwrap()]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("UNEXPECTED PASS key_normalizer/normalize_key/string-with-hyphen"),
        "{t}"
    );
    assert!(
        t.contains("STALE KNOWN FAILURE line 2: no/such/case matches no case"),
        "{t}"
    );

    let updated = dir.join("updated.txt");
    let _ = run_on(
        &dir,
        "run",
        &["--update-known-failures", updated.to_str().unwrap()],
    );
    let written = std::fs::read_to_string(&updated).unwrap();
    assert!(
        written.contains("key_normalizer/normalize_key/wrong  # new: "),
        "{written}"
    );

    // The misbehaving adapter declares no features and only normalize_key.
    let script = repo().join("harness/tests/adapters/misbehave.py");
    let out = run_on(
        &dir,
        "run",
        &[
            "--format",
            "json",
            "--adapter",
            "--",
            "python3",
            script.to_str().unwrap(),
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["totals"]["total"], 2);
}

#[test]
fn junit_and_shards() {
    let out = bin()
        .args(["run", "--format", "junit"])
        .current_dir(repo())
        .output()
        .unwrap();
    let xml = String::from_utf8_lossy(&out.stdout);
    assert!(
        xml.starts_with("<?xml")
            && xml.contains("<testsuite name=\"key_normalizer.normalize_key\""),
        "{xml}"
    );
    let count = |shard: &str| -> u64 {
        let o = bin()
            .args(["run", "--format", "json", "--shard", shard])
            .current_dir(repo())
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
        v["totals"]["total"].as_u64().unwrap_or(0)
    };
    let all = bin()
        .args(["run", "--format", "json"])
        .current_dir(repo())
        .output()
        .unwrap();
    let all: serde_json::Value = serde_json::from_slice(&all.stdout).unwrap();
    assert_eq!(
        count("1/3") + count("2/3") + count("3/3"),
        all["totals"]["total"].as_u64().unwrap()
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["run", "--shard", "4/3"][..],
        &["run", "--adapter"],
        &["run", "--op", "no.such"],
        &["run", "--id", "[unclosed"],
        &["run", "--format", "yaml"],
        &["run", "--timeout", "-1", "--adapter", "--", "x"],
    ] {
        let out = bin().args(args).current_dir(repo()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
    }
}
