//! Traceability between the spec and the reference: every behaviour rule
//! of `spec/` is cited in `src/` at the code that implements it, and every
//! rule id `src/` cites exists.
//!
//! A behaviour rule is one defined in a spec file without a
//! `<!-- lint: tested-by ... -->` marker: the adapter protocol (`AP-`) and
//! the laws (`LAW-`) are the harness's business and name their own tests,
//! which `ptc-conformance lint` checks; every other rule (`KN`, `NP`, `PP`,
//! `EX`, `IN`, `JH`, `LF`, `SG`, `TL`, `TV`, and `TJ` and `LOOSE`, which the
//! term model in `src/model/` implements) states a decision of the
//! reference. A citation is the id written out (`KN-7`) in a comment or doc
//! comment; a range (`JH-11 to JH-19`) cites only its two ends, so each
//! rule sits where its decision is made. The mutation-guided gap finder
//! (`harness/mutants_gaps.py`, `docs/gap-report.md`) reads the same
//! citations to ask whether the cases that catch a mutant cite the rules
//! of the code it changed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance_harness::corpus::rule_regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A rule of the spec: the file that defines it, its first line, and
/// whether a harness test (not `src/`) implements it.
struct Rule {
    file: String,
    first_line: String,
    harness_only: bool,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_owned()
}

/// Every rule `spec/*.md` defines, by id.
fn spec_rules() -> BTreeMap<String, Rule> {
    let re = rule_regex();
    let mut rules = BTreeMap::new();
    let dir = root().join("spec");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let harness_only = text.contains("<!-- lint: tested-by");
        let name = format!("spec/{}", path.file_name().unwrap().to_string_lossy());
        for cap in re.captures_iter(&text) {
            let start = cap.get(0).unwrap().start();
            let first_line = text[start..].lines().next().unwrap_or("").to_owned();
            rules.insert(
                cap[1].to_owned(),
                Rule {
                    file: name.clone(),
                    first_line,
                    harness_only,
                },
            );
        }
    }
    assert!(
        rules.len() > 100,
        "only {} rules found under {}",
        rules.len(),
        dir.display()
    );
    rules
}

/// Every id with a spec prefix written in `src/**/*.rs`, with the places
/// (`file:line`) that cite it.
fn src_citations(prefixes: &BTreeSet<String>) -> BTreeMap<String, Vec<String>> {
    let alternatives: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let re = regex::Regex::new(&format!(r"\b((?:{})-[0-9]+)\b", alternatives.join("|"))).unwrap();
    let mut cited: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let src = root().join("src");
    for entry in walkdir::WalkDir::new(&src).sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let shown = path.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            for cap in re.captures_iter(line) {
                cited
                    .entry(cap[1].to_owned())
                    .or_default()
                    .push(format!("{shown}:{}", n + 1));
            }
        }
    }
    assert!(!cited.is_empty(), "no rule cited under {}", src.display());
    cited
}

fn prefixes(rules: &BTreeMap<String, Rule>) -> BTreeSet<String> {
    rules
        .keys()
        .filter_map(|id| id.split_once('-').map(|(p, _)| p.to_owned()))
        .collect()
}

#[test]
fn every_behaviour_rule_is_cited_in_src() {
    let rules = spec_rules();
    let cited = src_citations(&prefixes(&rules));
    let missing: Vec<String> = rules
        .iter()
        .filter(|(id, r)| !r.harness_only && !cited.contains_key(*id))
        .map(|(id, r)| format!("  {id} ({}): {}", r.file, r.first_line))
        .collect();
    let behaviour = rules.values().filter(|r| !r.harness_only).count();
    assert!(
        missing.is_empty(),
        "{} of {behaviour} behaviour rules are cited nowhere in src/: cite each \
         (`// KN-7: ...` or in a doc comment) at the code that implements it, or, \
         if no code does, the rule or the code is wrong:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_rule_cited_in_src_exists() {
    let rules = spec_rules();
    let cited = src_citations(&prefixes(&rules));
    let unknown: Vec<String> = cited
        .iter()
        .filter(|(id, _)| !rules.contains_key(*id))
        .map(|(id, at)| format!("  {id} at {}", at.join(", ")))
        .collect();
    assert!(
        unknown.is_empty(),
        "src/ cites rules that spec/ does not define:\n{}",
        unknown.join("\n")
    );
}
