//! Writing a shrunk disagreement as a ready-to-review case file.

use super::shrink::Finding;
use crate::corpus::Case;
use crate::subject::Answer;
use ptc_conformance::ops::Op;
use ptc_conformance::tagged;
use ptc_conformance::term::Term;
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
    let rel = format!(
        "{}/fuzz-{:08x}",
        op.name.replace('.', "/"),
        hash_of(&args_json)
    );
    let first_line = finding.diff.lines().next().unwrap_or("").to_owned();
    let notes = format!(
        "Found by fuzzing (seed {seed}) {subject} against {expected}; shrunk in {} steps. The expectation is the answer of {expected}: check it against PtcRunner v0.13.0 (the Elixir adapter) and the cited rule before adding the case to golden/.",
        finding.shrink_steps
    );
    write_case(
        dir,
        &NewCase {
            id: &rel,
            op,
            description: &format!("Found by fuzzing (seed {seed}): {first_line}"),
            spec: &[rule],
            args: &finding.args,
            args_json: &args_json,
            answer: &finding.expected,
            notes: &notes,
        },
    )
    .map_err(|e| format!("the expected side gave no expectation: {e}"))
}

/// A short hash of a text (FNV-1a, kept to 32 bits), to name generated case files.
pub fn hash_of(text: &str) -> u32 {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    hash as u32
}

/// A generated case to write for review.
pub struct NewCase<'a> {
    /// Its id, which is also its path under the directory.
    pub id: &'a str,
    /// The op.
    pub op: &'static Op,
    /// The one-line description.
    pub description: &'a str,
    /// The rules it cites.
    pub spec: &'a [String],
    /// The arguments (their features are declared).
    pub args: &'a [Term],
    /// The arguments as written to the file (tagged JSON, one line).
    pub args_json: &'a str,
    /// The answer that becomes the expectation.
    pub answer: &'a Answer,
    /// The notes: how it was found and what to check.
    pub notes: &'a str,
}

/// Writes `case` under `dir` as `ID.json`, fields in the corpus's order and
/// indentation, declaring the features its args and answer use; returns
/// the path. An answer that sets no expectation is an error.
pub fn write_case(dir: &Path, case: &NewCase<'_>) -> Result<PathBuf, String> {
    let expect = crate::review::bless::new_expect(case.answer)?;
    let mut used = std::collections::BTreeSet::new();
    case.args
        .iter()
        .for_each(|a| ptc_conformance::features::used_by(a, &mut used));
    if let Answer::Ok(t) = case.answer {
        ptc_conformance::features::used_by(t, &mut used);
    }
    let q = |s: &str| {
        let mut out = String::new();
        tagged::push_json_str(s, &mut out);
        out
    };
    let features: Vec<String> = used.iter().map(|f| q(f)).collect();
    let spec: Vec<String> = case.spec.iter().map(|r| q(r)).collect();
    // Fields in the corpus's order, indented as the corpus is written.
    let text = format!(
        "{{\n  \"id\": {},\n  \"op\": {},\n  \"description\": {},\n  \"spec\": [\n    {}\n  ],\n  \"features\": [{}],\n  \"level\": \"required\",\n  \"args\": {},\n  \"expect\": {},\n  \"notes\": {}\n}}",
        q(case.id),
        q(case.op.name),
        q(case.description),
        spec.join(",\n    "),
        if features.is_empty() { String::new() } else { format!("\n    {}\n  ", features.join(",\n    ")) },
        crate::review::bless::pretty(case.args_json, 2)?,
        crate::review::bless::pretty(&expect, 2)?,
        q(case.notes),
    );
    let path = dir.join(format!("{}.json", case.id));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
