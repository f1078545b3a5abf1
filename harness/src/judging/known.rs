//! Known failures and expected skips of an implementation: a data file,
//! one entry per line with the reason after `#` (`spec/adapter_protocol.md`
//! AP-14, AP-16).
//!
//! ```text
//! # my-port: known failures
//! key_normalizer/canonical_cache_key/float-huge   # no big integers yet
//! native_preview/build/**                         # previews not finished
//! # expected skips: what my-port does not run
//! skip op tool.validate                           # no agent construction
//! skip feature functions                          # no closures in Go
//! skip exposure/filter_by_expose/map-*            # answered unsupported: maps of tools
//! ```
//!
//! A listed case that fails is an expected failure; one that passes is an
//! unexpected pass. When a file is given it pins coverage: a case that is
//! skipped without a `skip` entry covering it is an unexpected skip (an op
//! dropped from the handshake, a feature no longer declared). An entry that
//! no longer holds is stale: a failure entry that matches no case, `skip op`
//! or `skip feature` for something the subject now declares, a `skip` glob
//! whose cases ran. All of these fail the run, so the file cannot rot;
//! [`updated`] writes the file a run implies.

use crate::judging::outcome::{CaseResult, Outcome, Skip};
use std::collections::BTreeSet;
use std::path::Path;

/// What an entry says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `ID-OR-GLOB`: the cases fail.
    Failure,
    /// `skip ID-OR-GLOB`: the cases are skipped (for whatever reason).
    SkipCases,
    /// `skip op OP`: the subject does not declare the op.
    SkipOp,
    /// `skip feature FEATURE`: the subject does not declare the feature.
    SkipFeature,
}

/// One entry of the file.
#[derive(Clone, Debug)]
pub struct Entry {
    /// What it says.
    pub kind: Kind,
    /// The id, glob, op or feature as written.
    pub pattern: String,
    /// The reason after `#`.
    pub reason: String,
    /// The line it is on.
    pub line: usize,
    matcher: Option<globset::GlobMatcher>,
}

impl Entry {
    fn matches(&self, id: &str) -> bool {
        self.matcher.as_ref().is_some_and(|m| m.is_match(id))
    }

    /// The entry as written, without its reason.
    pub fn text(&self) -> String {
        match self.kind {
            Kind::Failure => self.pattern.clone(),
            Kind::SkipCases => format!("skip {}", self.pattern),
            Kind::SkipOp => format!("skip op {}", self.pattern),
            Kind::SkipFeature => format!("skip feature {}", self.pattern),
        }
    }
}

/// A parsed known-failures file.
#[derive(Clone, Debug, Default)]
pub struct KnownFailures {
    /// Entries in file order.
    pub entries: Vec<Entry>,
}

fn glob(pattern: &str, line: usize) -> Result<globset::GlobMatcher, String> {
    Ok(globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("{line}: {e}"))?
        .compile_matcher())
}

impl KnownFailures {
    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<KnownFailures, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        KnownFailures::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
    }

    /// Parses the file's text; errors are `line: message`.
    pub fn parse(text: &str) -> Result<KnownFailures, String> {
        let mut entries = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (body, reason) = match trimmed.split_once('#') {
                Some((p, r)) => (p.trim(), r.trim()),
                None => (trimmed, ""),
            };
            if reason.is_empty() {
                return Err(format!("{line}: {body:?} needs a reason after '#'"));
            }
            let words: Vec<&str> = body.split_whitespace().collect();
            let (kind, pattern) = match words.as_slice() {
                [id] => (Kind::Failure, *id),
                ["skip", "op", op] => {
                    if ptc_conformance::ops::find(op).is_none() {
                        return Err(format!(
                            "{line}: skip op {op:?}: no such op (see `ptc-conformance list`)"
                        ));
                    }
                    (Kind::SkipOp, *op)
                }
                ["skip", "feature", f] => {
                    if !ptc_conformance::features::is_feature(f) {
                        return Err(format!(
                            "{line}: skip feature {f:?}: no such feature (features are: {})",
                            ptc_conformance::features::ALL.join(", ")
                        ));
                    }
                    (Kind::SkipFeature, *f)
                }
                ["skip", id] => (Kind::SkipCases, *id),
                _ => {
                    return Err(format!(
                        "{line}: expected `ID-OR-GLOB`, `skip ID-OR-GLOB`, `skip op OP` or `skip feature FEATURE` before '#', got {body:?}"
                    ))
                }
            };
            let matcher = match kind {
                Kind::Failure | Kind::SkipCases => Some(glob(pattern, line)?),
                Kind::SkipOp | Kind::SkipFeature => None,
            };
            entries.push(Entry {
                kind,
                pattern: pattern.to_owned(),
                reason: reason.to_owned(),
                line,
                matcher,
            });
        }
        Ok(KnownFailures { entries })
    }

    /// The reason a case is listed as failing, if it is (the first matching entry).
    pub fn reason_for(&self, id: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.kind == Kind::Failure && e.matches(id))
            .map(|e| e.reason.as_str())
    }

    /// Whether the file expects case `id` to be skipped for `why`. A run
    /// that stopped early, and a case that does not hold at the release
    /// judged, are never held against coverage.
    pub fn expects_skip(&self, id: &str, why: &Skip) -> bool {
        self.entries.iter().any(|e| match (&e.kind, why) {
            (_, Skip::Stopped | Skip::Release(..)) => true,
            (Kind::SkipCases, _) => e.matches(id),
            (Kind::SkipOp, Skip::Op(op)) => e.pattern == *op,
            (Kind::SkipFeature, Skip::Features(fs)) => fs.contains(&e.pattern),
            _ => false,
        })
    }

    /// Entries that no longer hold, each as a message naming its line: a
    /// failure or skip glob that matches none of `corpus_ids`, `skip op` or
    /// `skip feature` for something the subject declares, a `skip` glob
    /// whose selected cases ran.
    pub fn stale(
        &self,
        corpus_ids: &[&str],
        ops: &BTreeSet<String>,
        features: &BTreeSet<String>,
        results: &[CaseResult<'_>],
    ) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.entries {
            let at = format!("line {}: {}", e.line, e.text());
            match e.kind {
                Kind::Failure | Kind::SkipCases if !corpus_ids.iter().any(|id| e.matches(id)) => {
                    out.push(format!("{at} matches no case"));
                }
                Kind::SkipCases => {
                    let ran: Vec<&str> = results
                        .iter()
                        .filter(|r| r.outcome.executed() && e.matches(&r.case.id))
                        .map(|r| r.case.id.as_str())
                        .collect();
                    if !ran.is_empty() {
                        out.push(format!(
                            "{at}, but {} of its cases ran: {}{}",
                            ran.len(),
                            ran[..ran.len().min(3)].join(", "),
                            if ran.len() > 3 { ", ..." } else { "" }
                        ));
                    }
                }
                Kind::SkipOp if ops.contains(&e.pattern) => {
                    out.push(format!("{at}, but the subject now declares it"));
                }
                Kind::SkipFeature if features.contains(&e.pattern) => {
                    out.push(format!("{at}, but the subject now declares it"));
                }
                _ => {}
            }
        }
        out
    }

    fn reason(&self, kind: Kind, pattern: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.kind == kind && e.pattern == pattern)
            .map(|e| e.reason.as_str())
    }
}

fn first_line(why: &str) -> String {
    why.lines()
        .next()
        .unwrap_or("fails")
        .chars()
        .take(100)
        .collect()
}

/// The known-failures text a run implies: every case that now fails or
/// errs, then `skip op` for every op of the registry the subject does not
/// declare, `skip feature` for every feature it does not declare, and
/// `skip ID` for each other skipped case (answered `unsupported`). Entries
/// that were there keep their reason; new ones get `new: <why>`.
pub fn updated(
    previous: Option<&KnownFailures>,
    results: &[CaseResult<'_>],
    ops: &BTreeSet<String>,
    features: &BTreeSet<String>,
) -> String {
    let mut out =
        String::from("# Known failures: one case id or glob per line, the reason after '#'.\n");
    let old = |kind: Kind, pattern: &str| previous.and_then(|k| k.reason(kind, pattern));
    for r in results {
        let new = match &r.outcome {
            Outcome::Fail(d) if r.required => first_line(d),
            Outcome::Error(d) => first_line(d),
            Outcome::ExpectedFailure(_) => String::new(),
            _ => continue,
        };
        let id = r.case.id.as_str();
        let reason = previous
            .and_then(|k| k.reason_for(id))
            .map(str::to_owned)
            .unwrap_or_else(|| format!("new: {new}"));
        out.push_str(&format!("{id}  # {reason}\n"));
    }
    out.push_str("# Expected skips: what the subject does not run.\n");
    for op in ptc_conformance::ops::OPS
        .iter()
        .filter(|o| !ops.contains(o.name))
    {
        let reason = old(Kind::SkipOp, op.name).unwrap_or("new: not declared");
        out.push_str(&format!("skip op {}  # {reason}\n", op.name));
    }
    for f in ptc_conformance::features::ALL
        .iter()
        .filter(|f| !features.contains(**f))
    {
        let reason = old(Kind::SkipFeature, f).unwrap_or("new: not declared");
        out.push_str(&format!("skip feature {f}  # {reason}\n"));
    }
    for r in results {
        if let Outcome::Skip(why @ Skip::Unsupported(_))
        | Outcome::UnexpectedSkip(why @ Skip::Unsupported(_)) = &r.outcome
        {
            let id = r.case.id.as_str();
            let reason = previous
                .and_then(|k| {
                    k.entries
                        .iter()
                        .find(|e| e.kind == Kind::SkipCases && e.matches(id))
                })
                .map(|e| e.reason.clone())
                .unwrap_or_else(|| format!("new: {}", first_line(&why.to_string())));
            out.push_str(&format!("skip {id}  # {reason}\n"));
        }
    }
    out
}

/// How many entries a known-failures text holds (lines that are not comments).
pub fn entry_count(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AP-14: the known-failures file format.
    #[test]
    fn entries_need_reasons_and_match_globs() {
        let k = KnownFailures::parse("# c\n\na/b/c  # why\nx/**  # all of x\n").unwrap();
        assert_eq!(k.reason_for("a/b/c"), Some("why"));
        assert_eq!(k.reason_for("x/y/z"), Some("all of x"));
        assert_eq!(k.reason_for("a/b"), None);
        let none = BTreeSet::new();
        assert_eq!(k.stale(&["a/b/c"], &none, &none, &[]).len(), 1);
        assert!(KnownFailures::parse("a/b\n")
            .unwrap_err()
            .starts_with("1: "));
    }

    /// AP-16: expected skips by op, feature and glob; unknown names are errors.
    #[test]
    fn skip_entries_expect_skips_by_op_feature_and_glob() {
        let k = KnownFailures::parse(
            "skip op term.inspect  # no inspect\nskip feature atoms  # no atoms\nskip x/**  # declined\n",
        )
        .unwrap();
        assert!(k.expects_skip("a/b", &Skip::Op("term.inspect".into())));
        assert!(!k.expects_skip("a/b", &Skip::Op("tool.new".into())));
        assert!(k.expects_skip(
            "a/b",
            &Skip::Features(vec!["tuples".into(), "atoms".into()])
        ));
        assert!(!k.expects_skip("a/b", &Skip::Features(vec!["tuples".into()])));
        assert!(k.expects_skip("x/y", &Skip::Unsupported("no".into())));
        assert!(!k.expects_skip("a/b", &Skip::Unsupported("no".into())));
        assert_eq!(
            k.reason_for("x/y"),
            None,
            "a skip entry is not a failure entry"
        );
        let declared: BTreeSet<String> = ["term.inspect".to_owned()].into();
        let stale = k.stale(&["x/y"], &declared, &BTreeSet::new(), &[]);
        assert_eq!(
            stale,
            vec!["line 1: skip op term.inspect, but the subject now declares it"]
        );
        for bad in [
            "skip op protocol.to_json  # typo\n",
            "skip feature atom  # typo\n",
            "skip a b c d  # too many\n",
        ] {
            assert!(
                KnownFailures::parse(bad).unwrap_err().starts_with("1: "),
                "{bad}"
            );
        }
    }
}
