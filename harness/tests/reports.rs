//! The pretty report reads on one screen for a passing run, groups skips by
//! reason, and marks where a failing string or binary first differs; the matrix
//! refuses files that are not reports of this kit and reports of different
//! corpora; the corpus and spec lines `spec/adapter_protocol.md` shows are
//! the ones `run` prints.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use common::*;
use std::collections::BTreeMap;

/// A passing run of the reference over the whole corpus fits in 40 lines;
/// `--rules` lists every rule.
#[test]
fn a_passing_run_of_the_reference_fits_one_screen() {
    let out = bin().arg("run").current_dir(repo()).output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    let lines = t.lines().count();
    assert!(lines <= 40, "{lines} lines:\n{t}");
    assert!(t.contains("(--rules lists every rule)"), "{t}");
    let all = bin()
        .args(["run", "--rules"])
        .current_dir(repo())
        .output()
        .unwrap();
    let rules = text(&all)
        .lines()
        .filter(|l| {
            regex::Regex::new(r"^[A-Z]{2,5}-[0-9]+ ")
                .unwrap()
                .is_match(l)
        })
        .count();
    assert!(rules > 100, "--rules lists every rule: {rules}");
}

/// Skipped cases are counted by reason (op not declared, features not
/// declared, the adapter's `unsupported` text), in the pretty report and in
/// the JSON report's `skips`, with the counts the cases themselves give.
#[test]
fn skip_reasons_are_grouped_with_counts() {
    let cmd = misbehave(&[]);
    let sel = [
        "--op",
        "key_normalizer.normalize_key",
        "--op",
        "key_normalizer.normalize_keys",
    ];
    let golden = repo().join("golden");
    let json = run(
        &golden,
        &with_adapter(&[&sel[..], &["--format", "json"]].concat(), &cmd),
    );
    let report = json_report(&json);
    let mut expected: BTreeMap<String, usize> = BTreeMap::new();
    for c in report["cases"].as_array().unwrap() {
        if c["outcome"] == "skip" {
            let m = c["message"].as_str().unwrap();
            let key = if m.starts_with("op ") {
                "op not declared by the subject".to_owned()
            } else {
                m.to_owned()
            };
            *expected.entry(key).or_default() += 1;
        }
    }
    assert!(
        expected.len() >= 3,
        "op, feature and unsupported skips: {expected:?}"
    );
    assert!(
        expected.contains_key("unsupported: strings only"),
        "{expected:?}"
    );
    let groups: BTreeMap<String, usize> = report["skips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let label = match g["kind"].as_str().unwrap() {
                "unsupported" => format!("unsupported: {}", g["reason"].as_str().unwrap()),
                _ => g["reason"].as_str().unwrap().to_owned(),
            };
            (label, g["count"].as_u64().unwrap() as usize)
        })
        .collect();
    assert_eq!(groups, expected);
    let pretty = run(&golden, &with_adapter(&sel, &cmd));
    let t = text(&pretty);
    let total: usize = expected.values().sum();
    assert!(
        t.contains(&format!("skipped {total} case(s), by reason:")),
        "{t}"
    );
    for (reason, n) in &expected {
        let line = if reason.starts_with("op ") {
            format!("{n}  {reason}: key_normalizer.normalize_keys")
        } else {
            format!("{n}  {reason}")
        };
        assert!(
            t.lines().any(|l| l.trim_start() == line),
            "no line {line:?} in\n{t}"
        );
    }
    assert!(t.contains("not run: 1 op(s)"), "{t}");
}

/// At the default level, a long string that differs shows the offset of its
/// first difference, a window of both and a marker under it.
#[test]
fn a_failing_long_string_is_marked_at_the_default_level() {
    let dir = scratch_dir("long-string");
    let long = format!("{}-{}", "k".repeat(50), "v".repeat(50));
    let golden = corpus(
        &dir,
        &[],
        &[(
            "key_normalizer/normalize_key/long.json",
            case_json(
                "key_normalizer/normalize_key/long",
                "key_normalizer.normalize_key",
                "KN-2",
                &format!("\"{long}\""),
                &format!("\"{long}\""),
            ),
        )],
    );
    let out = run(&golden, &[]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("first difference at byte 50 (expected is 101 bytes, got 101):"),
        "{t}"
    );
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("expected …"))
        .expect("a window");
    let (exp, got, marker) = (lines[at], lines[at + 1], lines[at + 2]);
    let col = marker.chars().count() - 1;
    assert_eq!(marker.trim(), "^", "{t}");
    assert_eq!(exp.chars().nth(col), Some('-'), "{t}");
    assert_eq!(got.chars().nth(col), Some('_'), "{t}");
}

/// A failing `$bytes` expectation of tens of kilobytes shows as a short
/// escaped view of each side with the first differing byte marked, never
/// as base64, and its replay command is described rather than printed.
#[test]
fn a_failing_binary_shows_escaped_bytes_not_base64() {
    let dir = scratch_dir("long-bytes");
    let mut bytes = vec![0xFF_u8];
    bytes.extend(vec![b'a'; 30_000]);
    bytes.push(b'-');
    bytes.extend(vec![b'z'; 10_000]);
    let tagged = ptc_conformance::tagged::encode(&ptc_conformance::Term::Bytes(bytes));
    let b64 = tagged["{\"$bytes\":\"".len()..tagged.len() - 2].to_owned();
    // The reference replaces the `-`: the answer differs at byte 30001.
    let golden = corpus(
        &dir,
        &[],
        &[(
            "key_normalizer/normalize_key/long-bytes.json",
            case_json(
                "key_normalizer/normalize_key/long-bytes",
                "key_normalizer.normalize_key",
                "KN-2",
                &tagged,
                &tagged,
            )
            .replace(r#""features": []"#, r#""features": ["binaries"]"#),
        )],
    );
    let adapter = [
        env!("CARGO_BIN_EXE_ptc-conformance").to_owned(),
        "adapter".to_owned(),
    ];
    let out = run(&golden, &with_adapter(&[], &adapter));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.len() < 3000, "{} bytes of report:\n{t}", t.len());
    assert!(!t.contains(&b64[..64]), "no base64 in the report:\n{t}");
    let view = format!("$bytes of 40002 bytes: \"\\xFF{}…\"", "a".repeat(31));
    assert!(
        t.contains(&format!("/: expected {view}, got {view}\n")),
        "{t}"
    );
    assert!(
        t.contains("first difference at byte 30001 (expected is 40002 bytes, got 40002):"),
        "{t}"
    );
    let lines: Vec<&str> = t.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("expected …"))
        .expect("a window");
    let (exp, got, marker) = (lines[at], lines[at + 1], lines[at + 2]);
    let col = marker.chars().count() - 1;
    assert_eq!(marker.trim(), "^", "{t}");
    assert_eq!(exp.chars().nth(col), Some('-'), "{t}");
    assert_eq!(got.chars().nth(col), Some('_'), "{t}");
    assert!(
        t.contains("`--id 'key_normalizer/normalize_key/long-bytes'` reruns this case alone"),
        "{t}"
    );
    // The JSON report keeps the replay whole.
    let json = json_report(&run(
        &golden,
        &with_adapter(&["--format", "json"], &adapter),
    ));
    let replay = json["cases"][0]["replay"].as_str().unwrap();
    assert!(replay.contains(&b64), "{}", &replay[..200]);
}

/// The matrix names a file that is not a JSON report of this kit, and
/// refuses reports of different corpora unless allowed.
#[test]
fn the_matrix_refuses_what_it_cannot_compare() {
    let dir = scratch_dir("matrix-errors");
    let not_ours = dir.join("other.json");
    std::fs::write(&not_ours, r#"{"format": 1, "tests": []}"#).unwrap();
    let out = bin().arg("matrix").arg(&not_ours).output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("other.json: not a JSON report of ptc-conformance"),
        "{t}"
    );
    let reports: Vec<_> = ["a", "b"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let copies: &[&str] = if i == 0 {
                &["key_normalizer/normalize_key/string-with-hyphen"]
            } else {
                &["key_normalizer/normalize_key/atom-with-hyphen"]
            };
            let golden = corpus(&dir.join(name), copies, &[]);
            let out = run(&golden, &["--format", "json"]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
            let path = dir.join(format!("{name}.json"));
            std::fs::write(&path, &out.stdout).unwrap();
            path
        })
        .collect();
    let out = bin().arg("matrix").args(&reports).output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("a.json and ") && t.contains("b.json ran different corpora"),
        "{t}"
    );
    let out = bin()
        .args(["matrix", "--allow-mixed-corpora"])
        .args(&reports)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains("class=\"warning\""), "{page}");
}

/// AP-18: reports judged at different releases are refused side by side
/// (unless allowed), and `--release` requires every report to have judged
/// it; each report's release shows on the page.
#[test]
fn the_matrix_refuses_reports_of_different_releases() {
    let dir = scratch_dir("matrix-releases");
    let golden = corpus(
        &dir.join("c"),
        &["key_normalizer/normalize_key/string-with-hyphen"],
        &[],
    );
    let reports: Vec<_> = ["0.12.0", "0.13.0"]
        .iter()
        .map(|r| {
            let out = run(&golden, &["--format", "json", "--release", r]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out));
            let path = dir.join(format!("at-{r}.json"));
            std::fs::write(&path, &out.stdout).unwrap();
            path
        })
        .collect();
    let out = bin().arg("matrix").args(&reports).output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("judged release 0.12.0") && t.contains("release 0.13.0"),
        "{t}"
    );
    let out = bin()
        .args(["matrix", "--release", "0.13.0"])
        .arg(&reports[1])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0.13.0 (--release)"));
    let out = bin()
        .args(["matrix", "--release", "0.13.0"])
        .arg(&reports[0])
        .output()
        .unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("at-0.12.0.json judged release 0.12.0, not 0.13.0"),
        "{t}"
    );
}

/// `spec/adapter_protocol.md` § Reports shows the corpus and spec lines of
/// a report with placeholders (`N`, `VERSION`, `HASH`) for the run's own
/// figures; each is the shape `run` prints, so the example cannot go
/// stale as the corpus grows.
#[test]
fn the_reports_section_shows_the_corpus_and_spec_lines_run_prints() {
    let spec = std::fs::read_to_string(repo().join("spec/adapter_protocol.md")).unwrap();
    let section = spec
        .split_once("## Reports")
        .map(|(_, s)| s.split("\n## ").next().unwrap_or(s))
        .expect("spec/adapter_protocol.md has a § Reports");
    let shown: Vec<String> = section
        .replace('\n', " ")
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("corpus: ") || s.starts_with("spec: "))
        .map(str::to_owned)
        .collect();
    assert_eq!(shown.len(), 2, "§ Reports shows {shown:?}");
    let out = bin().arg("run").current_dir(repo()).output().unwrap();
    let t = text(&out);
    for example in &shown {
        let pattern = format!(
            "^{}$",
            regex::escape(example)
                .replace(" N ", " [0-9]+ ")
                .replace("VERSION", r"[0-9]+\.[0-9]+\.[0-9]+")
                .replace("HASH", "[0-9a-f]{64}")
        );
        let re = regex::Regex::new(&pattern).unwrap();
        assert!(
            t.lines().any(|l| re.is_match(l)),
            "spec/adapter_protocol.md § Reports shows `{example}`, which no line of `run` matches:\n{t}"
        );
    }
}
