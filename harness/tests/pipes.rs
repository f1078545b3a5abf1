//! A closed stdout (`ptc-conformance list | head`) ends every command
//! quietly: no panic, no "Broken pipe", status 0 for a command that only
//! prints; a command that writes files finishes them and ends with its own
//! status (`harness/src/cli/out.rs`). A stdout that cannot be written for
//! another reason (a full disk) is status 1, said on stderr.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use common::*;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cmd` with its stdout a pipe whose reading end is closed before
/// the command writes anything, `input` on its stdin.
fn with_closed_stdout(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The command may end before it reads all of its input.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn assert_quiet(what: &str, o: &Output, status: i32) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(!err.contains("Broken pipe"), "{what}: {err}");
    assert_eq!(o.status.code(), Some(status), "{what}: {err}");
}

#[test]
fn every_command_ends_quietly_on_a_closed_stdout() {
    let dir = scratch_dir("pipes");
    let report = dir.join("report.json");
    let o = bin().args(["run", "--format", "json"]).output().unwrap();
    std::fs::write(&report, &o.stdout).unwrap();
    let report = report.display().to_string();
    let hello = r#"{"id":0,"op":"hello","args":[{"protocol":1}]}"#;
    let normalize = r#"{"id":1,"op":"key_normalizer.normalize_key","args":["a-b"]}"#;
    let adapter_input = format!("{hello}\n{}", format!("{normalize}\n").repeat(5000));
    let op = "key_normalizer.normalize_key";
    let commands: Vec<(Vec<&str>, &str)> = vec![
        (vec!["list"], ""),
        (vec!["list", "--op", op], ""),
        (vec!["run"], ""),
        (vec!["run", "--format", "json"], ""),
        (vec!["run", "--format", "junit"], ""),
        (vec!["run", "--format", "html"], ""),
        (vec!["lint"], ""),
        (vec!["bless", "--op", op], ""),
        (
            vec!["fuzz", "--op", op, "--cases", "200", "--seed", "1"],
            "",
        ),
        (vec!["laws", "--cases", "50", "--seed", "1"], ""),
        (vec!["matrix", &report], ""),
        (vec!["adapter"], &adapter_input),
        (vec!["--help"], ""),
    ];
    for (args, input) in commands {
        let mut cmd = bin();
        cmd.args(&args);
        let o = with_closed_stdout(cmd, input);
        assert_quiet(&args.join(" "), &o, 0);
    }
}

/// A command that writes files finishes them, and keeps its own status.
#[test]
fn a_command_that_writes_files_finishes_them() {
    let dir = scratch_dir("pipes-files");
    let kit = dir.join("kit");
    let mut cmd = bin();
    cmd.arg("export").arg(&kit);
    assert_quiet("export", &with_closed_stdout(cmd, ""), 0);
    let cases = walk(&kit.join("golden"));
    assert_eq!(
        cases,
        walk(&repo().join("golden")),
        "export wrote every case"
    );

    // A failing run that writes its known-failures file: written, status 1.
    let golden = corpus(
        &dir,
        &["key_normalizer/normalize_key/string-with-hyphen"],
        &[(
            "key_normalizer/normalize_key/wrong.json",
            case_json(
                "key_normalizer/normalize_key/wrong",
                "key_normalizer.normalize_key",
                "KN-2",
                "\"a-b\"",
                "\"a-b\"",
            ),
        )],
    );
    let known = dir.join("known.txt");
    let mut cmd = bin();
    cmd.arg("run")
        .arg("--corpus")
        .arg(&golden)
        .arg("--update-known-failures")
        .arg(&known);
    assert_quiet(
        "run --update-known-failures",
        &with_closed_stdout(cmd, ""),
        1,
    );
    let text = std::fs::read_to_string(&known).unwrap();
    assert!(
        text.contains("key_normalizer/normalize_key/wrong"),
        "{text}"
    );
}

/// How many files are under `dir`.
fn walk(dir: &std::path::Path) -> usize {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter(|e| e.as_ref().unwrap().file_type().is_file())
        .count()
}

/// A stdout that fails for another reason than a closed pipe is status 1,
/// with the reason on stderr.
#[test]
fn an_unwritable_stdout_is_status_1_with_its_reason() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux: no device that is always full
    };
    let o = bin().arg("list").stdout(full).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("ptc-conformance: cannot write to stdout: No space left on device"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// Nothing prints to stdout around `cli/out.rs`: `print!` and `println!`
/// panic on a closed stdout.
#[test]
fn stdout_is_written_only_through_the_output_module() {
    let print = regex::Regex::new(r"\bprint(ln)?!").unwrap();
    let src = repo().join("harness/src");
    let mut found = Vec::new();
    for e in walkdir::WalkDir::new(&src) {
        let path = e.unwrap().into_path();
        if path.extension().is_none_or(|x| x != "rs") || path.ends_with("cli/out.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if print.is_match(line) && !line.trim_start().starts_with("//") {
                found.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "use out!/outln! (harness/src/cli/out.rs) instead:\n{}",
        found.join("\n")
    );
}
