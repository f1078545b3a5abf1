//! Writing a shrunk disagreement as a ready-to-review case file.

use super::shrink::Finding;
use crate::corpus::Case;
use crate::subject::Answer;
use ptc_conformance::tagged;
use std::path::{Path, PathBuf};

/// Writes `finding` as a case file under `dir`, citing the rule the corpus
/// cites most for its op; returns the path.
pub(super) fn emit(
    dir: &Path,
    finding: &Finding,
    seed: u64,
    expected: &str,
    subject: &str,
    corpus: &[Case],
) -> Result<PathBuf, String> {
    let op = finding.op;
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for c in corpus.iter().filter(|c| c.op.name == op.name) {
        for r in &c.spec {
            *counts.entry(r.as_str()).or_default() += 1;
        }
    }
    let rule = counts
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(r, _)| (*r).to_owned())
        .unwrap_or_else(|| format!("{}-1", op.spec_prefix));
    let args_json = crate::subject::wire::encode_args(&finding.args);
    let hash = args_json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let rel = format!("{}/fuzz-{:08x}", op.name.replace('.', "/"), hash as u32);
    let expect = crate::review::bless::new_expect(&finding.expected)
        .map_err(|e| format!("the expected side gave no expectation: {e}"))?;
    let mut used = std::collections::BTreeSet::new();
    finding
        .args
        .iter()
        .for_each(|a| ptc_conformance::features::used_by(a, &mut used));
    if let Answer::Ok(t) = &finding.expected {
        ptc_conformance::features::used_by(t, &mut used);
    }
    let first_line = finding.diff.lines().next().unwrap_or("").to_owned();
    let q = |s: &str| {
        let mut out = String::new();
        tagged::push_json_str(s, &mut out);
        out
    };
    let features: Vec<String> = used.iter().map(|f| q(f)).collect();
    let notes = format!(
        "Found by fuzzing (seed {seed}) {subject} against {expected}; shrunk in {} steps. The expectation is the answer of {expected}: check it against PtcRunner v0.13.0 (the Elixir adapter) and the cited rule before adding the case to golden/.",
        finding.shrink_steps
    );
    // Fields in the corpus's order, indented as the corpus is written.
    let text = format!(
        "{{\n  \"id\": {},\n  \"op\": {},\n  \"description\": {},\n  \"spec\": [\n    {}\n  ],\n  \"features\": [{}],\n  \"level\": \"required\",\n  \"args\": {},\n  \"expect\": {},\n  \"notes\": {}\n}}",
        q(&rel),
        q(op.name),
        q(&format!("Found by fuzzing (seed {seed}): {first_line}")),
        q(&rule),
        if features.is_empty() { String::new() } else { format!("\n    {}\n  ", features.join(",\n    ")) },
        crate::review::bless::pretty(&args_json, 2)?,
        crate::review::bless::pretty(&expect, 2)?,
        q(&notes),
    );
    let path = dir.join(format!("{rel}.json"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
