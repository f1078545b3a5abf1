//! `spec/data/ops.json`, the ops as data, held to the op registry
//! (`src/ops.rs`): the same ops in the same order, each with the registry's
//! Elixir function, arities, rule prefix, output kind and first release; one argument per
//! position of the longest arity, the optional ones (past the shortest)
//! with a default that the reference answers alike with (checked on every
//! golden case of the shorter arity); a rule file under `spec/` that holds
//! rules of the prefix. A new op without a row, or a row without an op,
//! fails here. The SDKs' copies are held byte-equal by `porter_data`.

use ptc_conformance::ops::{Output, OPS};
use ptc_conformance::tagged;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rows() -> Vec<Value> {
    let path = root().join("spec/data/ops.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path:?}: {e}"));
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("spec/data/ops.json: {e}"));
    v.get("ops")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_else(|| panic!("spec/data/ops.json: no \"ops\" array"))
}

fn text<'a>(row: &'a Value, field: &str, op: &str) -> &'a str {
    row.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| {
            panic!("spec/data/ops.json: op {op}: \"{field}\" must be a non-empty string")
        })
}

#[test]
fn every_op_of_the_registry_has_its_row() {
    let rows = rows();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r.get("op").and_then(Value::as_str).unwrap_or("<no op>"))
        .collect();
    let registry: Vec<&str> = OPS.iter().map(|o| o.name).collect();
    assert_eq!(
        names, registry,
        "spec/data/ops.json must list the registry's ops (src/ops.rs), in its order"
    );
    for (row, op) in rows.iter().zip(OPS) {
        let at = op.name;
        assert_eq!(text(row, "function", at), op.elixir, "op {at}: function");
        assert_eq!(text(row, "prefix", at), op.spec_prefix, "op {at}: prefix");
        let output = match op.output {
            Output::Term => "term",
            Output::JsonString => "json_string",
        };
        assert_eq!(text(row, "output", at), output, "op {at}: output");
        let arity: Vec<usize> = row
            .get("arity")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_u64())
                    .map(|n| n as usize)
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(arity, op.arity, "op {at}: arity");
        let since = match row.get("since") {
            None => ptc_conformance::Release::V0_11_0,
            Some(v) => v
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("op {at}: \"since\" must name a release, got {v}")),
        };
        assert_eq!(since, op.since, "op {at}: since (spec/releases.md REL-3)");
    }
}

#[test]
fn arguments_are_named_and_optional_ones_have_defaults() {
    for (row, op) in rows().iter().zip(OPS) {
        let at = op.name;
        let args = row
            .get("args")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("op {at}: no \"args\" array"));
        let (least, most) = (
            op.arity.iter().copied().min().unwrap_or(0),
            op.arity.iter().copied().max().unwrap_or(0),
        );
        assert_eq!(
            args.len(),
            most,
            "op {at}: one argument per position of arity {most}"
        );
        for (i, arg) in args.iter().enumerate() {
            text(arg, "name", at);
            text(arg, "may", at);
            let default = arg.get("default");
            assert_eq!(
                default.is_some(),
                i >= least,
                "op {at}: argument {i} ({}) must have a default exactly when it is optional (arities {:?})",
                arg["name"],
                op.arity
            );
            if let Some(d) = default {
                tagged::decode_str(&d.to_string(), &format!("/{at}/args/{i}/default"))
                    .unwrap_or_else(|e| panic!("op {at}: argument {i}'s default: {e}"));
            }
        }
    }
}

/// Every golden case of an op's shorter arity answers alike with the
/// row's defaults appended: the default is the one the reference uses.
#[test]
fn defaults_are_what_the_shorter_arity_uses() {
    let mut checked = 0;
    for (row, op) in rows().iter().zip(OPS) {
        let args = row["args"].as_array().cloned().unwrap_or_default();
        let defaults: Vec<_> = args
            .iter()
            .filter_map(|a| a.get("default"))
            .map(|d| tagged::decode_str(&d.to_string(), "").unwrap_or_else(|e| panic!("{e}")))
            .collect();
        if defaults.is_empty() {
            continue;
        }
        let dir = root().join("golden").join(op.name.replace('.', "/"));
        for case in json_files(&dir) {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(&case).unwrap_or_default())
                    .unwrap_or_else(|e| panic!("{case:?}: {e}"));
            if v.get("op").and_then(Value::as_str) != Some(op.name) {
                continue;
            }
            let given = tagged::decode_args(&v["args"].to_string(), "/args")
                .unwrap_or_else(|e| panic!("{case:?}: {e}"));
            let missing = args.len().saturating_sub(given.len());
            if missing == 0 || missing > defaults.len() {
                continue;
            }
            let mut full = given.clone();
            full.extend(defaults[defaults.len() - missing..].iter().cloned());
            assert_eq!(
                op.invoke(ptc_conformance::Release::default(), &given),
                op.invoke(ptc_conformance::Release::default(), &full),
                "{case:?}: {} answers otherwise with the defaults of spec/data/ops.json appended",
                op.name
            );
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no golden case of a shorter arity was found under golden/"
    );
}

#[test]
fn rule_files_hold_rules_of_the_prefix() {
    for (row, op) in rows().iter().zip(OPS) {
        let file = text(row, "rules", op.name);
        let path = root().join("spec").join(file);
        let body = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("op {}: rule file spec/{file}: {e}", op.name));
        assert!(
            body.contains(&format!("**{}-", op.spec_prefix)),
            "op {}: spec/{file} holds no {}- rule",
            op.name,
            op.spec_prefix
        );
    }
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(json_files(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out.sort();
    out
}
