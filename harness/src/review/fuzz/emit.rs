//! Writing a kind's smallest disagreement as a ready-to-review case file
//! that cites the rules the disagreement touches, at the level the corpus
//! and the spec give such behaviour.

use super::disagreement::disagreement_of_kind;
use super::known_kinds::Known;
use super::shrink::Finding;
use crate::corpus::{Case, Expect, Level};
use crate::judging::judge::Reading;
use crate::review::kinds::{How, Kind, Labels};
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::tagged;
use ptc_conformance::term::Term;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The golden cases of `op`, each with the kind in which the two sides
/// differ on it (`None`: they agree). Run once per op that has a finding.
pub fn evidence<'c>(
    expected: &mut dyn Subject,
    subject: &mut dyn Subject,
    op: &'static Op,
    corpus: &'c [Case],
    known: &Known,
    reading: Reading,
) -> Vec<(&'c Case, Option<Kind>)> {
    let cases: Vec<&Case> = corpus.iter().filter(|c| c.op.name == op.name).collect();
    let requests: Vec<Request<'_>> = cases
        .iter()
        .map(|c| Request::new(op.name, &c.args))
        .collect();
    let ((e, a), _) = crate::subject::call_both(expected, subject, &requests);
    cases
        .into_iter()
        .zip(e.iter().zip(&a))
        .map(|(c, (e, a))| {
            let kind = disagreement_of_kind(op, &c.args, e, a, known, reading).map(|(_, k)| k);
            (c, kind)
        })
        .collect()
}

/// The rules a case of `kind` cites, its level, and why, from the op's
/// golden cases (`evidence`): the rules of those that differ in the same
/// kind; else of those whose expectation holds what differs (the same
/// exception class, the same struct field) or, for a value, that use the
/// most features of `args`; else the op's most cited rule. The case is
/// `pinned` when a cited rule is marked **Quirk.** in the spec (`quirks`)
/// or every case that gave the rules is pinned, `required` otherwise.
pub fn cite(
    kind: &Kind,
    args: &[Term],
    evidence: &[(&Case, Option<Kind>)],
    quirks: &BTreeSet<String>,
) -> (Vec<String>, Level, String) {
    let same: Vec<&Case> = evidence
        .iter()
        .filter(|(_, k)| k.as_ref() == Some(kind))
        .map(|(c, _)| *c)
        .collect();
    let (chosen, why) = if !same.is_empty() {
        (
            same,
            "the golden cases of this op that differ in the same kind",
        )
    } else {
        let shares = sharing(kind, args, evidence);
        if shares.is_empty() {
            (Vec::new(), "")
        } else {
            (
                shares,
                "the golden cases of this op whose expectation holds what differs",
            )
        }
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let pool: Vec<&Case> = if chosen.is_empty() {
        evidence.iter().map(|(c, _)| *c).collect()
    } else {
        chosen.clone()
    };
    for c in &pool {
        for r in &c.spec {
            *counts.entry(r.as_str()).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let take = if chosen.is_empty() { 1 } else { 3 };
    let rules: Vec<String> = ranked
        .iter()
        .take(take)
        .map(|(r, _)| (*r).to_owned())
        .collect();
    let rules = if rules.is_empty() {
        let prefix = ptc_conformance::ops::find(kind.op).map_or("", |o| o.spec_prefix);
        vec![format!("{prefix}-1")]
    } else {
        rules
    };
    let quirk = rules.iter().find(|r| quirks.contains(*r));
    let all_pinned = !chosen.is_empty() && chosen.iter().all(|c| c.level == Level::Pinned);
    let level = if quirk.is_some() || all_pinned {
        Level::Pinned
    } else {
        Level::Required
    };
    let mut because = if chosen.is_empty() {
        "no golden case of this op differs in this kind or holds what differs, so the op's most cited rule is cited: check it".to_owned()
    } else {
        let ids: Vec<&str> = chosen.iter().take(3).map(|c| c.id.as_str()).collect();
        format!(
            "rules of {why} ({}{})",
            ids.join(", "),
            if chosen.len() > 3 { ", ..." } else { "" }
        )
    };
    because.push_str(&match (quirk, all_pinned) {
        (Some(r), _) => format!("; pinned: {r} is marked Quirk in the spec"),
        (None, true) => "; pinned: those cases are pinned".to_owned(),
        (None, false) => "; required: no cited rule is a quirk".to_owned(),
    });
    (rules, level, because)
}

/// The op's cases whose expectation holds what `kind` says differs.
fn sharing<'c>(kind: &Kind, args: &[Term], evidence: &[(&'c Case, Option<Kind>)]) -> Vec<&'c Case> {
    let cases = evidence.iter().map(|(c, _)| *c);
    let raises = |class: &str| -> Vec<&'c Case> {
        cases
            .clone()
            .filter(|c| matches!(&c.expect, Expect::Raised { class: k, .. } if k == class))
            .collect()
    };
    match &kind.how {
        How::Raises { class, .. } => raises(class),
        How::Class { expected, .. } => raises(expected),
        How::Message { class } => raises(class),
        _ if kind.structure.is_some() => {
            let field = kind.path.rsplit("/.").next().unwrap_or("");
            let module = kind.structure.as_deref().unwrap_or("");
            cases
                .clone()
                .filter(|c| matches!(&c.expect, Expect::Ok(t) if has_field(t, module, field)))
                .collect()
        }
        _ => {
            let mut used = BTreeSet::new();
            args.iter()
                .for_each(|a| ptc_conformance::features::used_by(a, &mut used));
            let overlap = |c: &Case| {
                c.features
                    .iter()
                    .filter(|f| used.contains(f.as_str()))
                    .count()
            };
            let best = cases.clone().map(overlap).max().unwrap_or(0);
            if best == 0 {
                return Vec::new();
            }
            cases
                .filter(|c| matches!(c.expect, Expect::Ok(_)) && overlap(c) == best)
                .collect()
        }
    }
}

fn has_field(t: &Term, module: &str, field: &str) -> bool {
    match t {
        Term::Struct(s) => {
            (s.module == module && s.field(field).is_some())
                || s.fields.iter().any(|(_, v)| has_field(v, module, field))
        }
        Term::List(xs) | Term::Tuple(xs) => xs.iter().any(|x| has_field(x, module, field)),
        Term::Map(m) => m.iter().any(|(_, v)| has_field(v, module, field)),
        _ => false,
    }
}

/// Writes `finding` as a case file under `dir`, citing the rules and level
/// [`cite`] gives; returns the path. `sides` names the expected side and
/// the subject, `labels` are what reports call them.
pub fn emit(
    dir: &Path,
    finding: &Finding,
    seed: u64,
    sides: (&str, &str),
    labels: Labels,
    evidence: &[(&Case, Option<Kind>)],
    quirks: &BTreeSet<String>,
) -> Result<PathBuf, String> {
    let (expected, subject) = sides;
    let op = finding.op;
    let (rules, level, because) = cite(&finding.kind, &finding.args, evidence, quirks);
    let args_json = crate::subject::wire::encode_args(&finding.args);
    let rel = format!(
        "{}/fuzz-{:08x}",
        op.name.replace('.', "/"),
        hash_of(&args_json)
    );
    let notes = format!(
        "Found by fuzzing (seed {seed}) {subject} against {expected}: {} input(s) of this kind; the smallest shrunk in {} steps. Cited: {because}. The expectation is the answer of {expected}: check it against PtcRunner v0.13.0 (the Elixir adapter) and the cited rules before adding the case to golden/.",
        finding.count, finding.shrink_steps
    );
    write_case(
        dir,
        &NewCase {
            id: &rel,
            op,
            description: &format!(
                "Found by fuzzing (seed {seed}): {}",
                finding.kind.title(labels)
            ),
            spec: &rules,
            level,
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
    /// Its level.
    pub level: Level,
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
        "{{\n  \"id\": {},\n  \"op\": {},\n  \"description\": {},\n  \"spec\": [\n    {}\n  ],\n  \"features\": [{}],\n  \"level\": \"{}\",\n  \"args\": {},\n  \"expect\": {},\n  \"notes\": {}\n}}",
        q(case.id),
        q(case.op.name),
        q(case.description),
        spec.join(",\n    "),
        if features.is_empty() { String::new() } else { format!("\n    {}\n  ", features.join(",\n    ")) },
        case.level.as_str(),
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
