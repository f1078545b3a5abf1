//! The `ptc-conformance` command: exit statuses, corpus errors that name
//! their file and case, known failures, reports and replay commands.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use common::{bin, case_json, cases_not_at, json_report, misbehave, repo, text, with_adapter};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// How many case files the corpus has under `golden/<dir>` (all of it for
/// `""`), so that expectations about counts follow the corpus as it grows.
fn cases_under(dir: &str) -> usize {
    walkdir::WalkDir::new(repo().join("golden").join(dir))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .count()
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
        (
            "x/bad-field.json",
            &case_json(
                "x/bad-field",
                "tool.new",
                "TL-1",
                "\"t\", {\"$struct\": {\"module\": \"PtcRunner.Tool\", \"fields\": {\"nam\": \"x\"}}}",
                "\"a\"",
            ),
            "/args/1/$struct/fields: PtcRunner.Tool has no field \"nam\"",
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

/// An expected exception without its message fails lint, naming the file
/// and saying how to fill it: messages are always compared.
#[test]
fn lint_requires_a_raised_message() {
    let body = r#"{"id": "x/no-message", "op": "key_normalizer.normalize_key", "description": "d", "spec": ["KN-1"], "features": [], "level": "required", "args": ["a"], "expect": {"raised": {"class": "ArgumentError"}}}"#;
    let dir = scratch("nomsg", &[("x/no-message.json", body)]);
    let out = run_on(&dir, "lint", &[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("x/no-message.json (case x/no-message): expect.raised has no message"),
        "{t}"
    );
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

/// AP-2, AP-11: a handshake naming an op or a feature the kit does not know
/// is an adapter fault in every report format, with the likely name, and
/// the run fails although every case it runs passes.
#[test]
fn unknown_ops_and_features_in_the_handshake_fail_the_run() {
    let dir = scratch("unknown-hello", &[]);
    let cmd = misbehave(&[("MISBEHAVE_HELLO", "unknown")]);
    for format in ["pretty", "json", "junit"] {
        let out = run_on(&dir, "run", &with_adapter(&["--format", format], &cmd));
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{format}: {t}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        for says in [
            "op \\\"protocol.to_json\\\"",
            "protocol.to_json_value",
            "feature \\\"atom\\\"",
        ] {
            let says = if format == "json" {
                says.to_owned()
            } else {
                says.replace("\\\"", "\"")
            };
            let says = if format == "junit" {
                says.replace('"', "&quot;")
            } else {
                says
            };
            assert!(
                stdout.contains(&says),
                "{format} report must say {says:?}: {stdout}"
            );
        }
        if format == "json" {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["totals"]["passed"], 1, "{v}");
            assert_eq!(v["verdict"]["passed"], false, "{v}");
            assert_eq!(v["verdict"]["exit"], 1, "{v}");
        }
    }
}

/// AP-8, AP-13: a run in which every selected case is skipped fails,
/// naming the selection and the skip reasons.
#[test]
fn a_run_that_executes_no_case_fails() {
    let python = repo().join("harness/adapters/python/adapter.py");
    let out = bin()
        .args(["run", "--op", "protocol.render_error", "--adapter", "--"])
        .arg("python3")
        .arg(&python)
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains(&format!("no case was executed: {n} case(s) selected (--op protocol.render_error), all skipped: {n} × op not declared by the subject (protocol.render_error)", n = cases_under("protocol/render_error"))),
        "{t}"
    );
    // Also in the JSON report, and on stderr for a machine-readable format.
    let out = bin()
        .args(["run", "--format", "json", "--op", "protocol.render_error"])
        .args(["--adapter", "--", "python3"])
        .arg(&python)
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["verdict"]["reasons"][0]
            .as_str()
            .unwrap()
            .starts_with("no case was executed"),
        "{v}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no case was executed"));
}

/// AP-16: a known-failures file pins coverage. An op dropped from the
/// handshake makes its cases unexpected skips; a feature newly declared
/// makes its `skip feature` entry stale; `--update-known-failures` writes
/// the skips and keeps old reasons.
#[test]
fn pinned_coverage_that_shrinks_fails_the_run() {
    let dir = scratch(
        "pinned",
        &[
            (
                "key_normalizer/normalize_keys/plain.json",
                &case_json(
                    "key_normalizer/normalize_keys/plain",
                    "key_normalizer.normalize_keys",
                    "KN-1",
                    "\"a-b\"",
                    "\"a_b\"",
                ),
            ),
            (
                "key_normalizer/normalize_key/atom.json",
                &case_json(
                    "key_normalizer/normalize_key/atom",
                    "key_normalizer.normalize_key",
                    "KN-1",
                    "{\"$atom\": \"a\"}",
                    "\"a\"",
                )
                .replace("\"features\": []", "\"features\": [\"atoms\"]"),
            ),
        ],
    );
    let both = "key_normalizer.normalize_key,key_normalizer.normalize_keys";
    let known = dir.join("known.txt");
    let k = known.to_str().unwrap();
    let cmd = misbehave(&[("MISBEHAVE_OPS", both)]);
    let out = run_on(
        &dir,
        "run",
        &with_adapter(&["--update-known-failures", k], &cmd),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = std::fs::read_to_string(&known).unwrap();
    assert!(
        written.contains("skip op tool.new  # new: not declared"),
        "{written}"
    );
    assert!(
        written.contains("skip feature atoms  # new: not declared"),
        "{written}"
    );
    assert!(
        !written.contains("skip op key_normalizer.normalize_keys"),
        "{written}"
    );
    std::fs::write(
        &known,
        written.replace(
            "skip feature atoms  # new: not declared",
            "skip feature atoms  # no atoms in this port",
        ),
    )
    .unwrap();

    // The same coverage passes.
    let out = run_on(&dir, "run", &with_adapter(&["--known-failures", k], &cmd));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // normalize_keys dropped from the handshake: its case is an unexpected skip.
    let dropped = misbehave(&[("MISBEHAVE_OPS", "key_normalizer.normalize_key")]);
    let out = run_on(
        &dir,
        "run",
        &with_adapter(&["--known-failures", k], &dropped),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("UNEXPECTED SKIP key_normalizer/normalize_keys/plain"),
        "{t}"
    );
    assert!(t.contains("coverage shrank"), "{t}");
    // Without the file nothing is pinned.
    let out = run_on(&dir, "run", &with_adapter(&[], &dropped));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // A feature now declared: its entry is stale.
    let atoms = misbehave(&[("MISBEHAVE_OPS", both), ("MISBEHAVE_FEATURES", "atoms")]);
    let out = run_on(&dir, "run", &with_adapter(&["--known-failures", k], &atoms));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("skip feature atoms, but the subject now declares it"),
        "{t}"
    );
    // Updating records the new state and keeps old reasons.
    let updated = dir.join("updated.txt");
    let u = updated.to_str().unwrap();
    let _ = run_on(
        &dir,
        "run",
        &with_adapter(&["--known-failures", k, "--update-known-failures", u], &cmd),
    );
    let text2 = std::fs::read_to_string(&updated).unwrap();
    assert!(
        text2.contains("skip feature atoms  # no atoms in this port"),
        "{text2}"
    );
}

/// Reports show paths as the user gave them: relative ones relative to
/// where the user stands (tidied: no `.`, no `dir/..`), absolute ones
/// absolute, whatever the current directory.
#[test]
fn reports_show_paths_as_given() {
    let dir = scratch(
        "paths",
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
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let out = bin()
        .args(["run", "--corpus", "./../golden", "--spec"])
        .arg(repo().join("spec"))
        .current_dir(&sub)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("FAIL key_normalizer/normalize_key/wrong (../golden/key_normalizer/normalize_key/wrong.json)"),
        "{t}"
    );
    // The same corpus named absolutely is shown absolutely.
    let golden = dir.join("golden");
    let out = bin()
        .args(["run", "--corpus"])
        .arg(&golden)
        .current_dir(&sub)
        .output()
        .unwrap();
    let t = text(&out);
    let file = golden.join("key_normalizer/normalize_key/wrong.json");
    assert!(t.contains(&format!("({})", file.display())), "{t}");
    assert!(
        t.contains(&format!("directory {}", golden.display())),
        "{t}"
    );
    // A missing corpus, spec or known-failures file is named as typed.
    for (args, named) in [
        (
            &["run", "--corpus", "/nonexistent"][..],
            "/nonexistent: directory does not exist",
        ),
        (
            &["run", "--corpus", "../nonexistent"][..],
            "../nonexistent: directory does not exist",
        ),
        (
            &["lint", "--spec", "/nonexistent/spec"][..],
            "/nonexistent/spec: directory does not exist",
        ),
        (
            &["run", "--known-failures", "/nonexistent/known.txt"][..],
            "/nonexistent/known.txt: cannot read",
        ),
        (
            &["matrix", "/nonexistent/r.json"][..],
            "/nonexistent/r.json: cannot read",
        ),
    ] {
        let out = bin().args(args).current_dir(&sub).output().unwrap();
        let t = text(&out);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {t}");
        assert!(
            t.lines().any(|l| l.trim_start().starts_with(named)),
            "{args:?}: {t}"
        );
    }
    // The embedded spec names its files as the repository does.
    let out = bin().arg("lint").current_dir(&sub).output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let spec_line = t.lines().find(|l| l.starts_with("KN-1 ")).unwrap();
    assert!(
        spec_line.ends_with(" spec/key_normalizer.md"),
        "{spec_line}"
    );
    // The repository's spec on disk, named absolutely: its files are absolute.
    let out = bin()
        .arg("lint")
        .arg("--corpus")
        .arg(repo().join("golden"))
        .arg("--spec")
        .arg(repo().join("spec"))
        .current_dir(&sub)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let spec_line = t.lines().find(|l| l.starts_with("KN-1 ")).unwrap();
    let path = spec_line.split_whitespace().last().unwrap();
    assert_eq!(
        path,
        repo().join("spec/key_normalizer.md").display().to_string()
    );
}

/// AP-12: at the strict level a byte mismatch shows the offset and a marked window.
#[test]
fn strict_byte_mismatches_show_offset_and_window() {
    let original =
        std::fs::read_to_string(repo().join("golden/protocol/render_error/args-error.json"))
            .unwrap();
    let mut case: serde_json::Value = serde_json::from_str(&original).unwrap();
    case["id"] = "protocol/render_error/spaced".into();
    let rendered = case["expect"]["ok"].as_str().unwrap().to_owned();
    // Equal as JSON, not byte for byte: a blank after the third colon.
    let third = rendered.match_indices("\":").nth(2).unwrap().0 + 2;
    let spaced = format!("{} {}", &rendered[..third], &rendered[third..]);
    case["expect"]["ok"] = spaced.clone().into();
    let dir = scratch(
        "strict",
        &[(
            "protocol/render_error/spaced.json",
            &serde_json::to_string_pretty(&case).unwrap(),
        )],
    );
    let out = run_on(&dir, "run", &["--op", "protocol.render_error"]);
    assert_eq!(out.status.code(), Some(0), "equal as JSON: {}", text(&out));
    let out = run_on(
        &dir,
        "run",
        &["--op", "protocol.render_error", "--level", "strict"],
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains(&format!(
            "first difference at byte {third} (expected is {} bytes, got {})",
            spaced.len(),
            rendered.len()
        )),
        "{t}"
    );
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("expected …"))
        .unwrap();
    let (exp, got, marker) = (lines[at], lines[at + 1], lines[at + 2]);
    let col = marker.chars().count() - 1;
    assert_eq!(marker.trim(), "^", "{t}");
    assert_eq!(exp.chars().nth(col), Some(' '), "{t}");
    assert_eq!(got.chars().nth(col), Some('"'), "{t}");
}

/// `fuzz` says which ops it fuzzes and how many inputs each got.
#[test]
fn fuzz_names_its_ops_and_inputs_per_op() {
    let out = bin()
        .args(["fuzz", "--cases", "600", "--seed", "5"])
        .args([
            "--op",
            "key_normalizer.normalize_key",
            "--op",
            "term.inspect",
        ])
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("ops (2): key_normalizer.normalize_key, term.inspect"),
        "{t}"
    );
    let per_op = |op: &str| -> usize {
        t.lines()
            .find(|l| l.trim_start().starts_with(op))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count for {op}: {t}"))
    };
    assert_eq!(
        per_op("key_normalizer.normalize_key") + per_op("term.inspect"),
        600
    );
    assert!(per_op("term.inspect") > 0);
}

/// Each op gets its own budget of generated inputs (`--cases-per-op`);
/// `--cases` caps the total.
#[test]
fn fuzz_budgets_inputs_per_op() {
    let out = bin()
        .args(["fuzz", "--cases-per-op", "300", "--seed", "5"])
        .args([
            "--op",
            "key_normalizer.normalize_key",
            "--op",
            "term.inspect",
        ])
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    for op in ["key_normalizer.normalize_key", "term.inspect"] {
        assert!(
            t.lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == [op, "300", "inputs"]),
            "{op}: {t}"
        );
    }
    assert!(t.contains("600 inputs checked"), "{t}");
}

/// `--cases N` alone keeps its old meaning: N inputs in all, shared among
/// the ops in turn (one op gets all N, even past the per-op default).
#[test]
fn fuzz_cases_alone_is_the_total_shared_among_ops() {
    let out = bin()
        .args(["fuzz", "--cases", "500", "--seed", "5"])
        .args(["--op", "key_normalizer.normalize_key"])
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("500 inputs checked"), "{t}");
    let out = bin()
        .args(["fuzz", "--cases", "600", "--seed", "5"])
        .args([
            "--op",
            "key_normalizer.normalize_key",
            "--op",
            "term.inspect",
        ])
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("600 inputs checked"), "{t}");
}

/// AP-13: a failed write is a failure (1), not a usage error (2).
#[test]
fn a_failed_write_exits_1() {
    let out = bin()
        .args(["run", "--op", "term.inspect", "--update-known-failures"])
        .arg("/nonexistent-dir/known.txt")
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("/nonexistent-dir/known.txt: cannot write"),
        "{t}"
    );
}

/// `compare` holds two builds against each other: the reference served as
/// an adapter (base) and the Python port with two planted bugs (head). Ops
/// only one declares are named; the differences of the corpus and of
/// generated inputs are grouped by kind, each once with its count and its
/// smallest example (a generated one shrunk), and written as one case file
/// per kind that base passes and head fails, citing the rules the
/// difference touches at the level the spec gives them.
#[test]
fn compare_groups_what_two_builds_answer_differently_by_kind() {
    let me = env!("CARGO_BIN_EXE_ptc-conformance");
    let python = repo().join("harness/adapters/python/adapter.py");
    let bugs = "PTC_PY_BUG=neg-zero,hint-order";
    let head = format!("env {bugs} python3 {}", python.display());
    let emit = std::env::temp_dir().join(format!("ptc-cli-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&emit);
    let compare = |format: &str| {
        bin()
            .args(["compare", "--cases-per-op", "1500", "--seed", "3"])
            .args(["--format", format, "--base"])
            .arg(format!("{me} adapter"))
            .arg("--head")
            .arg(&head)
            .arg("--emit")
            .arg(&emit)
            .current_dir(repo())
            .output()
            .unwrap()
    };
    let out = compare("pretty");
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.lines().any(|l| l.starts_with("CAUSE ")
            && l.contains("op(s) declared by base only: ")
            && l.contains("term.inspect")),
        "{t}"
    );
    assert!(t.contains("ONLY BASE DECLARES feature structs"), "{t}");
    // Two bugs, each once: not one block per differing case or input.
    assert!(
        t.contains(
            "KIND 1. key_normalizer.canonical_cache_key at /: integer in base, float in head"
        ),
        "{t}"
    );
    assert!(
        t.contains("native_preview.cache_hint at /: binary value changed"),
        "{t}"
    );
    // Inputs the port declines beyond its declared features are counted
    // too, under their own causes.
    let kinds = t
        .lines()
        .filter(|l| l.trim_start().starts_with("KIND ") && !l.contains("unsupported by head"))
        .count();
    assert!((2..=6).contains(&kinds), "{kinds} kinds: {t}");
    // Two planted bugs, two causes (besides the ops and inputs the port
    // declines), and at most one more: the reversed hint order also decides
    // which of two keys `to_string/1` refuses raises first (NP-2; the case
    // `native_preview/cache_hint/key-texts-before-values` seeds such inputs),
    // which the search names by that key, not by the order.
    let causes: Vec<&str> = t
        .lines()
        .filter(|l| {
            l.starts_with("CAUSE ") && !l.contains("declared by") && !l.contains("declines")
        })
        .collect();
    assert!((2..=3).contains(&causes.len()), "{t}");
    if causes.len() == 3 {
        assert!(causes.iter().any(|c| c.contains("map key of class")), "{t}");
    }
    // The report leads with causes, each kind under one.
    assert!(t.contains("\nCAUSE 1. "), "{t}");
    // Not a terminal: no progress lines.
    let progress = |l: &str| l.ends_with(" inputs checked") || l.contains(" inputs, ");
    assert!(
        !String::from_utf8_lossy(&out.stderr).lines().any(progress),
        "{t}"
    );
    assert!(t.lines().count() < 120, "a few screens: {t}");

    let out = compare("json");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let all = v["kinds"].as_array().unwrap();
    let mut under: Vec<u64> = v["causes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| {
            c["kinds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_u64().unwrap())
        })
        .collect();
    under.sort_unstable();
    assert_eq!(
        under,
        (0..all.len() as u64).collect::<Vec<_>>(),
        "each kind under one cause: {v}"
    );
    let cck = all
        .iter()
        .find(|k| k["op"] == "key_normalizer.canonical_cache_key")
        .unwrap();
    assert_eq!(cck["path"], "/");
    assert!(cck["generated"].as_u64().unwrap() > 1, "{cck}");
    assert_eq!(
        cck["count"].as_u64().unwrap(),
        cck["generated"].as_u64().unwrap() + cck["cases"].as_array().unwrap().len() as u64
    );
    // The smallest example: the shrunk generated input, or a golden case as small.
    assert!(
        cck["example"]["shrink_steps"].as_u64().is_some() || cck["example"]["case"].is_string(),
        "{cck}"
    );
    assert!(
        cck["example"]["args"].to_string().len() < 60,
        "shrunk: {}",
        cck["example"]["args"]
    );
    let hint = all
        .iter()
        .find(|k| k["op"] == "native_preview.cache_hint")
        .unwrap();
    assert!(hint["cases"].as_array().unwrap().len() > 5, "{hint}");
    // One case per kind, cited as the difference's rule and level: the
    // golden case of canonical_cache_key that differs alike cites KN-10, a
    // rule the spec marks Quirk, so the written case is pinned.
    let written: Vec<&str> = all.iter().filter_map(|k| k["emitted"].as_str()).collect();
    assert_eq!(written.len(), all.len(), "{v}");
    let cck_case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cck["emitted"].as_str().unwrap()).unwrap())
            .unwrap();
    assert_eq!(cck_case["spec"], serde_json::json!(["KN-10"]), "{cck_case}");
    assert_eq!(cck_case["level"], "pinned", "{cck_case}");
    // The written cases: base passes every one, head fails every one.
    let against = |cmd: &[&str]| {
        let out = bin()
            .args(["run", "--level", "strict", "--format", "json", "--corpus"])
            .arg(&emit)
            .arg("--adapter")
            .arg("--")
            .args(cmd)
            .current_dir(repo())
            .output()
            .unwrap();
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["totals"].clone()
    };
    let python = python.to_str().unwrap();
    let base = against(&[me, "adapter"]);
    let head = against(&["env", bugs, "python3", python]);
    assert_eq!(base["total"], all.len(), "{base}");
    assert_eq!(base["passed"], base["total"], "{base}");
    assert_eq!(head["passed"], 0, "{head}");
}

/// `fuzz --keep-going` counts every disagreement by kind and shrinks the
/// smallest of each; without it the first disagreement stops the run.
#[test]
fn fuzz_keeps_going_and_groups_by_kind() {
    let python = repo().join("harness/adapters/python/adapter.py");
    let fuzz = |more: &[&str], env: &[(&str, &str)]| {
        let bugs = if env.is_empty() {
            "PTC_PY_BUG=neg-zero,big-float"
        } else {
            "PTC_PY_BUG=neg-zero"
        };
        let mut cmd = bin();
        cmd.args(["fuzz", "--op", "key_normalizer.canonical_cache_key"])
            .args(["--cases-per-op", "1500", "--seed", "3"])
            .args(more)
            .args(["--adapter", "--", "env", bugs, "python3"])
            .arg(&python)
            .current_dir(repo());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let emit = std::env::temp_dir().join(format!("ptc-fuzz-kinds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&emit);
    let out = fuzz(&["--keep-going", "--emit", emit.to_str().unwrap()], &[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    // The written case cites the rule of the golden cases the subject gets
    // wrong in the same kind (KN-10, float collapse), not the op's most
    // cited rule, and is pinned because the spec marks KN-10 a quirk.
    let written = t
        .lines()
        .find_map(|l| l.trim().strip_prefix("case written to "))
        .unwrap_or_else(|| panic!("{t}"));
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(written).unwrap()).unwrap();
    assert_eq!(case["spec"][0], "KN-10", "{case}");
    assert_eq!(case["level"], "pinned", "{case}");
    assert!(
        case["notes"]
            .as_str()
            .unwrap()
            .contains("differ in the same kind"),
        "{case}"
    );
    let per_op = |t: &str| -> usize {
        t.lines()
            .find(|l| {
                l.trim_start()
                    .starts_with("key_normalizer.canonical_cache_key ")
            })
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count: {t}"))
    };
    assert_eq!(per_op(&t), 1500, "the whole budget: {t}");
    let line = t
        .lines()
        .find(|l| l.contains("disagreement(s) in"))
        .unwrap_or_else(|| panic!("{t}"));
    let n: usize = line.split_whitespace().next().unwrap().parse().unwrap();
    assert!(n > 10, "{t}");
    assert!(
        t.contains(
            "key_normalizer.canonical_cache_key at /: integer in reference, float in subject ("
        ),
        "{t}"
    );
    // Without --keep-going: stopped at the first.
    let out = fuzz(&[], &[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert_eq!(t.matches("DISAGREEMENT on").count(), 1, "{t}");
    assert!(per_op(&t) < 1500, "{t}");

    // A known kind, written as the report shows the answer, is stepped
    // over: the CLI reference's example file, as it stands there.
    let reference = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    let example = reference
        .split("```text\n# signed zero")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/cli.md's PTC_FUZZ_KNOWN example");
    let known = std::env::temp_dir().join(format!("ptc-known-{}.txt", std::process::id()));
    std::fs::write(&known, format!("# signed zero{example}")).unwrap();
    let out = fuzz(&[], &[("PTC_FUZZ_KNOWN", known.to_str().unwrap())]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("known disagreement stepped over"), "{t}");
}

/// A bad `PTC_FUZZ_KNOWN` is a usage error naming the file and line.
#[test]
fn a_bad_known_kinds_file_is_a_usage_error() {
    let known = std::env::temp_dir().join(format!("ptc-known-bad-{}.txt", std::process::id()));
    std::fs::write(&known, "# fine\nok (unclosed\nfine\n").unwrap();
    let missing = std::env::temp_dir().join("ptc-no-such-known-file.txt");
    for (value, says) in [
        (String::new(), "PTC_FUZZ_KNOWN is set but empty".to_owned()),
        (
            missing.display().to_string(),
            format!("PTC_FUZZ_KNOWN={}: cannot read", missing.display()),
        ),
        (
            known.display().to_string(),
            format!(
                "PTC_FUZZ_KNOWN={}:2: not a regex: ok (unclosed",
                known.display()
            ),
        ),
    ] {
        let out = bin()
            .args(["fuzz", "--cases", "10", "--seed", "1"])
            .env("PTC_FUZZ_KNOWN", &value)
            .current_dir(repo())
            .output()
            .unwrap();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{value:?}: {t}");
        assert!(t.contains(&says), "{value:?}: {t}");
    }
}

/// Two identical builds: nothing differs, status 0.
#[test]
fn compare_of_one_build_with_itself_passes() {
    let me = env!("CARGO_BIN_EXE_ptc-conformance");
    let out = bin()
        .args(["compare", "--cases-per-op", "30", "--seed", "1", "--base"])
        .arg(format!("{me} adapter"))
        .arg("--head")
        .arg(format!("{me} adapter"))
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "compare: {n} cases selected, {n} answered alike, 0 answered differently",
            n = cases_under("")
        )),
        "{t}"
    );
    // A comparison that compares nothing does not pass.
    let python = repo().join("harness/adapters/python/adapter.py");
    let out = bin()
        .args(["compare", "--cases", "0", "--op", "term.inspect", "--base"])
        .arg(format!("{me} adapter"))
        .arg("--head")
        .arg(format!("python3 {}", python.display()))
        .current_dir(repo())
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("compare: nothing was compared"), "{t}");
}

/// A normalize_key case on `arg` expecting `expect`, with `extra` fields
/// (`"releases": [...]`, `"expect_by_release": {...}`) after `level`.
fn release_case(id: &str, arg: &str, expect: &str, extra: &str) -> String {
    format!(
        r#"{{"id": "{id}", "op": "key_normalizer.normalize_key", "description": "d",
  "spec": ["KN-2"], "features": [], "level": "required",{extra}
  "args": ["{arg}"],
  "expect": {{"ok": "{expect}"}}
}}
"#
    )
}

/// A scratch corpus with a case that holds only at 0.13.0 and one whose
/// answer at 0.12.0 differs from `expect`.
fn release_scratch(name: &str) -> PathBuf {
    scratch(
        name,
        &[
            (
                "r/only-13.json",
                &release_case("r/only-13", "a-b", "a_b", r#" "releases": ["0.13.0"],"#),
            ),
            (
                "r/differs.json",
                &release_case(
                    "r/differs",
                    "c-d",
                    "c_d",
                    r#" "expect_by_release": {"0.12.0": {"ok": "c-d"}},"#,
                ),
            ),
        ],
    )
}

/// AP-18: an adapter naming its release in hello is judged at it when no
/// `--release` is given (the header says so, a case not holding there is
/// skipped with its reason, the release's own expectation is used); one
/// naming another release than `--release` is refused before any case
/// runs; an unknown release is an adapter fault naming it; one naming
/// nothing is judged at 0.13.0.
#[test]
fn the_release_is_negotiated_in_hello() {
    let dir = release_scratch("release-hello");
    let at_12 = misbehave(&[("MISBEHAVE_RELEASE", "0.12.0")]);
    let out = run_on(&dir, "run", &with_adapter(&[], &at_12));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("release: 0.12.0 (named by the adapter's hello)"),
        "{t}"
    );
    assert!(t.contains("not in release 0.12.0"), "{t}");
    assert!(t.contains("r/differs"), "{t}");
    let out = run_on(&dir, "run", &with_adapter(&["--format", "json"], &at_12));
    let v = common::json_report(&out);
    assert_eq!(v["release"], "0.12.0", "{v}");
    assert_eq!(v["totals"]["passed"], 1, "{v}");
    assert_eq!(v["totals"]["failed"], 1, "{v}");
    assert_eq!(v["totals"]["skipped"], 1, "{v}");
    assert_eq!(v["skips"][0]["kind"], "release", "{v}");
    // Asked for 0.13.0, the adapter says 0.12.0: refused, nothing runs.
    let out = run_on(&dir, "run", &with_adapter(&["--release", "0.13.0"], &at_12));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("implements release 0.12.0") && t.contains("--release 0.13.0"),
        "{t}"
    );
    assert!(!t.contains("passed,"), "no case may run: {t}");
    // Asked for what it says: judged there.
    let out = run_on(&dir, "run", &with_adapter(&["--release", "0.12.0"], &at_12));
    assert!(
        text(&out).contains("release: 0.12.0 (--release)"),
        "{}",
        text(&out)
    );
    // An unknown release is the adapter's fault, named.
    let out = run_on(
        &dir,
        "run",
        &with_adapter(&[], &misbehave(&[("MISBEHAVE_RELEASE", "0.14.0")])),
    );
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("\"0.14.0\"") && t.contains("0.11.0, 0.12.0, 0.13.0"),
        "{t}"
    );
    // Says nothing: 0.13.0, as before releases were targets.
    let out = run_on(&dir, "run", &with_adapter(&[], &misbehave(&[])));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("release: 0.13.0 (the default)"), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bless --release R --write` writes R's expectation where R answers
/// otherwise than `expect`, and removes an entry R no longer needs; lint
/// refuses an unknown release (naming file and path) and a redundant entry.
#[test]
fn bless_and_lint_per_release_expectations() {
    let dir = release_scratch("release-bless");
    let wrong = dir.join("golden/r/wrong.json");
    std::fs::write(&wrong, release_case("r/wrong", "e-f", "zz", "")).unwrap();
    let cmd = misbehave(&[]);
    let mut args = vec!["--release", "0.12.0", "--write", "--from-adapter", "--"];
    args.extend(cmd.iter().map(String::as_str));
    let out = run_on(&dir, "bless", &args);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("1 not holding at 0.12.0"), "{t}");
    let differs = std::fs::read_to_string(dir.join("golden/r/differs.json")).unwrap();
    assert!(!differs.contains("expect_by_release"), "{differs}");
    let written = std::fs::read_to_string(&wrong).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["expect_by_release"]["0.12.0"]["ok"], "e_f", "{written}");
    assert_eq!(v["expect"]["ok"], "zz", "{written}");
    // Checked again: nothing to change.
    let mut check = vec!["--release", "0.12.0", "--check", "--from-adapter", "--"];
    check.extend(cmd.iter().map(String::as_str));
    let out = run_on(&dir, "bless", &check);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    // Lint: an unknown release, a redundant entry.
    std::fs::write(
        dir.join("golden/r/differs.json"),
        release_case(
            "r/differs",
            "c-d",
            "c_d",
            r#" "expect_by_release": {"0.12.0": {"ok": "c_d"}},"#,
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("golden/r/only-13.json"),
        release_case("r/only-13", "a-b", "a_b", r#" "releases": ["0.14.0"],"#),
    )
    .unwrap();
    let out = run_on(&dir, "lint", &[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("only-13.json (case r/only-13): /releases/0: unknown release \"0.14.0\""),
        "{t}"
    );
    std::fs::write(
        dir.join("golden/r/only-13.json"),
        release_case("r/only-13", "a-b", "a_b", r#" "releases": ["0.13.0"],"#),
    )
    .unwrap();
    let out = run_on(&dir, "lint", &[]);
    let t = text(&out);
    assert_ne!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("differs.json (case r/differs): /expect_by_release/0.12.0: equal to `expect`"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `export --release R` writes only the cases that hold at R, each with
/// R's answer as `expect` and `releases` naming R: a corpus a runner that
/// reads `expect` alone can run at R.
#[test]
fn export_at_a_release_writes_that_release_s_answers() {
    let dir = std::env::temp_dir().join(format!("ptc-cli-export-release-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = bin()
        .args(["export", "--release", "0.12.0"])
        .arg(&dir)
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("as it holds at 0.12.0"), "{t}");
    assert!(
        !dir.join("golden/tool/private/private.json").exists(),
        "{t}"
    );
    let case =
        std::fs::read_to_string(dir.join("golden/tool/validate/visibility-nil.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&case).unwrap();
    let embedded: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("golden/tool/validate/visibility-nil.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        v["expect"], embedded["expect_by_release"]["0.12.0"],
        "{case}"
    );
    assert_eq!(v["releases"], serde_json::json!(["0.12.0"]), "{case}");
    assert!(v.get("expect_by_release").is_none(), "{case}");
    let out = bin()
        .arg("list")
        .arg("--corpus")
        .arg(dir.join("golden"))
        .arg("--spec")
        .arg(dir.join("spec"))
        .args(["--release", "0.12.0"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&out.stdout).lines().count();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        cases_not_at("0.12.0") >= 12,
        "the cases of 0.13.0 alone at least"
    );
    assert_eq!(
        listed,
        cases_under("") - cases_not_at("0.12.0"),
        "every case but those whose releases leave 0.12.0 out"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// AP-18 in `fuzz` as in `run`: the reference answers as the release the
/// adapter's hello names when no `--release` is given (so the reference at
/// 0.12.0 fuzzed against itself at 0.12.0 agrees, where 0.13.0's answers
/// would differ), and a `--release` the hello contradicts is refused
/// before anything is generated.
#[test]
fn fuzz_answers_as_the_release_the_adapter_names() {
    let me = env!("CARGO_BIN_EXE_ptc-conformance");
    let fuzz = |more: &[&str]| {
        let mut c = bin();
        c.args([
            "fuzz",
            "--op",
            "tool.new",
            "--cases-per-op",
            "200",
            "--seed",
            "3",
        ])
        .args(more)
        .args(["--adapter", "--", me, "adapter", "--release", "0.12.0"]);
        c.output().expect("fuzz runs")
    };
    let out = fuzz(&[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("0.12.0 (named by the adapter's hello)"), "{t}");
    assert!(t.contains("no disagreement found"), "{t}");
    let out = fuzz(&["--release", "0.13.0"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("implements release 0.12.0"), "{t}");
    assert!(!t.contains("inputs checked"), "nothing may be fuzzed: {t}");
}

/// `--version` (and `-V`) names the version and the corpus and spec the
/// binary carries by the hashes its reports name them by, so that a
/// porter's CI log says what judged the port; the hashes are computed only
/// for it, and `--version` after a subcommand is that command's business.
#[test]
fn version_names_the_corpus_and_spec_hashes() {
    let report = json_report(&bin().args(["run", "--format", "json"]).output().unwrap());
    let expected = format!(
        "ptc-conformance {}\ncorpus: {} files, sha256 {}\nspec: {} files, sha256 {}\n",
        env!("CARGO_PKG_VERSION"),
        report["corpus"]["files"],
        report["corpus"]["sha256"].as_str().unwrap(),
        report["spec"]["files"],
        report["spec"]["sha256"].as_str().unwrap(),
    );
    assert_eq!(report["corpus"]["sha256"].as_str().unwrap().len(), 64);
    for flag in ["--version", "-V"] {
        let o = bin().arg(flag).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{flag}: {}", text(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout), expected, "{flag}");
    }
    let o = bin().args(["list", "--version"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
