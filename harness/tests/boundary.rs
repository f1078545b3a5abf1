//! `spec/boundary.md` accounts for the whole boundary: every op it names
//! is in the registry (`src/ops.rs`), and every op of the registry is
//! named there, so a new op cannot go unlisted and a listed one cannot
//! vanish.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance::ops::OPS;
use std::collections::BTreeSet;

fn named_ops() -> BTreeSet<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/boundary.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let op = regex::Regex::new(r"`([a-z_]+\.[a-z_]+\??)`").unwrap();
    op.captures_iter(&text)
        .map(|c| c[1].to_owned())
        .filter(|t| ![".md", ".json", ".rs"].iter().any(|x| t.ends_with(x)))
        .collect()
}

#[test]
fn every_op_named_in_the_boundary_exists() {
    let registry: BTreeSet<&str> = OPS.iter().map(|o| o.name).collect();
    let unknown: Vec<String> = named_ops()
        .into_iter()
        .filter(|n| !registry.contains(n.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "spec/boundary.md names ops the registry lacks: {unknown:?}"
    );
}

#[test]
fn every_op_of_the_registry_is_in_the_boundary() {
    let named = named_ops();
    let missing: Vec<&str> = OPS
        .iter()
        .map(|o| o.name)
        .filter(|n| !named.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "ops missing from spec/boundary.md: {missing:?}"
    );
}
