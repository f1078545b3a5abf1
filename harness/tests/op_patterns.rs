//! `--op` takes a glob over op names wherever it is taken (run, list,
//! fuzz, compare, laws), a pattern that matches no op is a usage error
//! naming it, and `list --counts` prints how many cases each op has.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use common::*;
use std::collections::BTreeMap;

/// `list --counts`: op → (cases, required, pinned), and the total line.
fn counts(more: &[&str]) -> (BTreeMap<String, [usize; 3]>, [usize; 3]) {
    let out = bin()
        .args(["list", "--counts"])
        .args(more)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["op", "cases", "required", "pinned"], "{stdout}");
    let mut ops = BTreeMap::new();
    let mut total = None;
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        let n = [f[1], f[2], f[3]].map(|x| x.parse::<usize>().unwrap());
        if f[0] == "total" {
            total = Some(n);
        } else {
            ops.insert(f[0].to_owned(), n);
        }
    }
    (ops, total.expect("a total line"))
}

#[test]
fn list_counts_cases_per_op() {
    let (ops, total) = counts(&[]);
    assert_eq!(ops.len(), ptc_conformance::ops::OPS.len());
    let cases = bin().arg("list").output().unwrap();
    let lines: Vec<String> = String::from_utf8(cases.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(total[0], lines.len());
    for (op, [n, required, pinned]) in &ops {
        let of: Vec<&String> = lines
            .iter()
            .filter(|l| l.split('\t').nth(1) == Some(op.as_str()))
            .collect();
        assert_eq!(*n, of.len(), "{op}");
        assert_eq!(*n, required + pinned, "{op}");
        let p = of
            .iter()
            .filter(|l| l.split('\t').nth(2) == Some("pinned"))
            .count();
        assert_eq!(*pinned, p, "{op}");
    }
    let sum: usize = ops.values().map(|c| c[0]).sum();
    assert_eq!(sum, total[0]);
}

#[test]
fn an_op_glob_selects_every_op_it_matches() {
    let (all, _) = counts(&[]);
    let (protocol, total) = counts(&["--op", "protocol.*"]);
    let want: BTreeMap<String, [usize; 3]> = all
        .into_iter()
        .filter(|(op, _)| op.starts_with("protocol."))
        .collect();
    assert!(want.len() > 3);
    assert_eq!(protocol, want);
    let out = bin()
        .args(["run", "--format", "json", "--op", "protocol.*"])
        .output()
        .unwrap();
    let report = json_report(&out);
    // `list` counts the cases that hold at v0.13.0; `run` also reports the
    // others, skipped as not in the release.
    assert_eq!(report["totals"]["passed"], total[0]);
    assert_eq!(
        report["totals"]["total"].as_u64().unwrap() - report["totals"]["skipped"].as_u64().unwrap(),
        total[0] as u64
    );
    // A name and a glob together: each case once.
    let (mixed, t) = counts(&["--op", "tool.new", "--op", "tool.*"]);
    assert_eq!(mixed.len(), 3, "{mixed:?}");
    assert_eq!(t, counts(&["--op", "tool.*"]).1);
}

#[test]
fn an_unmatched_op_pattern_is_a_usage_error_everywhere() {
    let me = env!("CARGO_BIN_EXE_ptc-conformance");
    let adapter = format!("{me} adapter");
    for args in [
        &["run", "--op", "nope.*"][..],
        &["list", "--op", "nope.*"],
        &["list", "--counts", "--op", "nope.*"],
        &["fuzz", "--cases", "10", "--op", "nope.*"],
        &["laws", "--cases", "10", "--op", "nope.*"],
        &[
            "compare", "--cases", "10", "--op", "nope.*", "--base", &adapter, "--head", &adapter,
        ],
    ] {
        let out = bin().args(args).output().unwrap();
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {t}");
        assert!(
            t.contains(r#"--op "nope.*": the pattern matches no op"#),
            "{args:?}: {t}"
        );
    }
}

#[test]
fn fuzz_compare_and_laws_take_an_op_glob() {
    let out = bin()
        .args([
            "fuzz",
            "--cases",
            "300",
            "--seed",
            "3",
            "--op",
            "key_normalizer.normalize_*",
        ])
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("ops (2): key_normalizer.normalize_key, key_normalizer.normalize_keys"),
        "{t}"
    );
    // Against an adapter, a glob keeps the ops it declares.
    let python = repo().join("harness/adapters/python/adapter.py");
    let out = bin()
        .args([
            "fuzz",
            "--cases",
            "100",
            "--seed",
            "3",
            "--op",
            "*.normalize_key*",
        ])
        .args(["--adapter", "--", "node"])
        .arg(repo().join("harness/adapters/js/adapter.js"))
        .output()
        .unwrap();
    let t = text(&out);
    assert!(
        t.contains("ops (2): key_normalizer.normalize_key, key_normalizer.normalize_keys"),
        "{t}"
    );
    let me = env!("CARGO_BIN_EXE_ptc-conformance");
    let out = bin()
        .args([
            "compare",
            "--cases-per-op",
            "20",
            "--seed",
            "1",
            "--op",
            "key_normalizer.*",
        ])
        .arg("--base")
        .arg(format!("{me} adapter"))
        .arg("--head")
        .arg(format!("{me} adapter"))
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let (_, kn) = counts(&["--op", "key_normalizer.*"]);
    assert!(
        t.contains(&format!(
            "compare: {n} cases selected, {n} answered alike",
            n = kn[0]
        )),
        "{t}"
    );
    // A glob neither side's ops match fuzzes nothing: a usage error naming them.
    let out = bin()
        .args([
            "compare",
            "--cases-per-op",
            "20",
            "--seed",
            "1",
            "--op",
            "tool.*",
        ])
        .arg("--base")
        .arg(format!("{me} adapter"))
        .arg("--head")
        .arg(format!("python3 {}", python.display()))
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains(r#"--op "tool.*": the pattern matches tool.new, tool.private?, tool.validate, none of them declared by both sides"#),
        "{t}"
    );
    let out = bin()
        .args([
            "laws",
            "--cases",
            "200",
            "--seed",
            "2",
            "--op",
            "native_preview.*",
        ])
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("native_preview.build: "), "{t}");
    assert!(!t.contains("key_normalizer.normalize_key: "), "{t}");
}
