//! Every repository path cited in the README, the spec, the adapters'
//! READMEs and the doc comments exists: a citation that points nowhere is
//! a bug (expect-test's tidy checks, run as a test).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files whose citations are checked, and whether only their doc
/// comments count.
fn sources() -> Vec<(PathBuf, bool)> {
    let root = repo();
    let mut out = vec![(root.join("README.md"), false)];
    for dir in ["spec", "harness/adapters", "golden"] {
        for e in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
            let e = e.unwrap();
            if e.path().extension().is_some_and(|x| x == "md") {
                out.push((e.path().to_owned(), false));
            }
        }
    }
    for dir in ["src", "harness/src", "harness/tests", "tests"] {
        for e in walkdir::WalkDir::new(root.join(dir)).sort_by_file_name() {
            let e = e.unwrap();
            if e.path().extension().is_some_and(|x| x == "rs") {
                out.push((e.path().to_owned(), true));
            }
        }
    }
    out
}

/// The text that counts: all of a Markdown file, the doc comments of a Rust file.
fn cited_text(path: &Path, docs_only: bool) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    if !docs_only {
        return text;
    }
    text.lines()
        .filter_map(|l| {
            let t = l.trim_start();
            t.strip_prefix("//!")
                .or_else(|| t.strip_prefix("///"))
                .map(str::to_owned)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Repository paths in `text`: tokens starting with a top-level directory
/// of the repository, and in the spec also `name.md` / `schema/...` files
/// named relative to it.
fn citations(text: &str, in_spec: bool) -> Vec<String> {
    let top = regex::Regex::new(
        r"(?:^|[\s`(\[\x22'])((?:\.\./)*(?:golden|spec|src|harness|tests|\.ci)/[A-Za-z0-9_./*<>?-]*)",
    )
    .unwrap();
    let local =
        regex::Regex::new(r"`((?:\.\./)*(?:schema/)?[A-Za-z0-9_.*-]+\.(?:md|json))`").unwrap();
    let mut out: Vec<String> = top.captures_iter(text).map(|c| c[1].to_owned()).collect();
    if in_spec {
        out.extend(local.captures_iter(text).map(|c| c[1].to_owned()));
    }
    out.into_iter()
        .map(|p| p.trim_end_matches(['.', ',', ')']).to_owned())
        .collect()
}

/// Whether `cited` exists, from the repository root or from `dir`. A path
/// with a placeholder or a wildcard is checked up to the directory before it.
fn exists(cited: &str, dir: &Path) -> bool {
    let path = match cited.find(['*', '<', '?']) {
        Some(i) => match cited[..i].rfind('/') {
            Some(j) => &cited[..j],
            None => return true,
        },
        None => cited,
    };
    repo().join(path).exists() || dir.join(path).exists()
}

#[test]
fn every_cited_repository_path_exists() {
    let mut missing = Vec::new();
    let mut checked = 0usize;
    for (file, docs_only) in sources() {
        let in_spec = file.starts_with(repo().join("spec"));
        let dir = file.parent().unwrap();
        for cited in citations(&cited_text(&file, docs_only), in_spec) {
            checked += 1;
            if !exists(&cited, dir) {
                missing.push(format!(
                    "{}: cites {cited}, which does not exist",
                    file.strip_prefix(repo()).unwrap_or(&file).display()
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} citations found: is the scan broken?"
    );
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn the_scan_sees_paths_and_placeholders() {
    let found = citations(
        "see `spec/terms.md`, (golden/a/<x>.json) and harness/src/cli.rs.",
        false,
    );
    assert_eq!(
        found,
        vec!["spec/terms.md", "golden/a/<x>.json", "harness/src/cli.rs"]
    );
    assert!(citations("`terms.md` and `schema/case.schema.json`", true).len() == 2);
    let spec = repo().join("spec");
    assert!(exists("terms.md", &spec));
    assert!(exists("golden/<module>/x.json", &spec));
    assert!(!exists("spec/report.md", &spec));
    assert!(!exists(
        "golden/key_normalizer/canonical_cache_key/float-integral-collapses.json",
        &spec
    ));
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
