//! Which cases a command takes: filters by op (a name or a glob over op
//! names), id glob, feature and level, and stable shards of the result, so
//! a large run can be spread over CI jobs.

use crate::corpus::{Case, Corpus, Level};
use std::fmt;

/// Shard `k` of `n` (1-based): the cases whose id hashes to `k - 1` modulo `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub k: u64,
    /// How many slices.
    pub n: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 1/4")?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("K in {s:?} is not a number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("N in {s:?} is not a number"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard {s:?}: need 1 <= K <= N"));
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// Whether `id` falls in this shard (FNV-1a of the id, 64-bit: stable
    /// across runs and machines).
    pub fn contains(self, id: &str) -> bool {
        super::fnv1a64(id.as_bytes()) % self.n == self.k - 1
    }
}

/// Whether an `--op` value is a glob rather than an op's name.
fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '[', '{'])
}

/// The ops that `--op` values name, in registry order, each once: an op's
/// name, or a glob over op names (`protocol.*`, `*.normalize_*`). A name
/// that is no op, a glob that does not parse or matches no op, is an error
/// naming it. Given the ops declared (and by whom, for the message: "the
/// subject", "both sides"), a glob keeps only those and names what it
/// matched when it keeps none; a name is kept as given, so that the caller
/// can say it is not declared.
pub fn expand_ops(
    patterns: &[String],
    declared: Option<(&std::collections::BTreeSet<String>, &str)>,
) -> Result<Vec<&'static str>, String> {
    let all = ptc_conformance::ops::OPS;
    let mut wanted = std::collections::BTreeSet::new();
    for p in patterns {
        // An op's own name is never a glob (`tool.private?` has a `?`).
        if let Some(op) = ptc_conformance::ops::find(p) {
            wanted.insert(op.name);
            continue;
        }
        if !is_glob(p) {
            return Err(format!(
                "--op {p:?}: no such op (see `ptc-conformance list --counts`)"
            ));
        }
        let glob = globset::Glob::new(p)
            .map_err(|e| format!("--op {p:?}: {e}"))?
            .compile_matcher();
        let matched: Vec<&'static str> = all
            .iter()
            .map(|o| o.name)
            .filter(|n| glob.is_match(n))
            .collect();
        if matched.is_empty() {
            return Err(format!(
                "--op {p:?}: the pattern matches no op (see `ptc-conformance list --counts`)"
            ));
        }
        let kept: Vec<&'static str> = match declared {
            Some((d, _)) => matched.iter().copied().filter(|n| d.contains(*n)).collect(),
            None => matched.clone(),
        };
        if let (true, Some((_, who))) = (kept.is_empty(), declared) {
            return Err(format!(
                "--op {p:?}: the pattern matches {}, none of them declared by {who}",
                matched.join(", ")
            ));
        }
        wanted.extend(kept);
    }
    Ok(all
        .iter()
        .map(|o| o.name)
        .filter(|n| wanted.contains(n))
        .collect())
}

/// A selection of cases; empty fields select everything.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only cases of these ops: names or globs over op names ([`expand_ops`]).
    pub ops: Vec<String>,
    /// Only cases whose id matches one of these globs (`*` stays within a
    /// `/` segment, `**` crosses them).
    pub ids: Vec<String>,
    /// Only cases that need all of these features.
    pub features: Vec<String>,
    /// Only cases of this level.
    pub level: Option<Level>,
    /// Only this shard.
    pub shard: Option<Shard>,
}

impl Selection {
    /// The selected cases of `corpus`, in corpus order. An unknown op or
    /// feature, a glob that does not parse, or an op glob that matches no
    /// op, is an error naming it.
    pub fn apply<'c>(&self, corpus: &'c Corpus) -> Result<Vec<&'c Case>, String> {
        let mut builder = globset::GlobSetBuilder::new();
        for g in &self.ids {
            let glob = globset::GlobBuilder::new(g)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("--id {g:?}: {e}"))?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| format!("--id: {e}"))?;
        let ops = expand_ops(&self.ops, None)?;
        for f in &self.features {
            if !ptc_conformance::features::is_feature(f) {
                return Err(format!(
                    "--feature {f:?}: no such feature (features are: {})",
                    ptc_conformance::features::ALL.join(", ")
                ));
            }
        }
        Ok(corpus
            .cases
            .iter()
            .filter(|c| ops.is_empty() || ops.contains(&c.op.name))
            .filter(|c| self.ids.is_empty() || globs.is_match(&c.id))
            .filter(|c| self.features.iter().all(|f| c.features.contains(f)))
            .filter(|c| self.level.is_none_or(|l| c.level == l))
            .filter(|c| self.shard.is_none_or(|s| s.contains(&c.id)))
            .collect())
    }

    /// What it selects, as the command line said it (for messages).
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.ops.iter().map(|o| format!("--op {o}")));
        parts.extend(self.ids.iter().map(|i| format!("--id {i}")));
        parts.extend(self.features.iter().map(|f| format!("--feature {f}")));
        if let Some(l) = self.level {
            parts.push(format!("--case-level {}", l.as_str()));
        }
        if let Some(s) = self.shard {
            parts.push(format!("--shard {s}"));
        }
        if parts.is_empty() {
            "the whole corpus".to_owned()
        } else {
            parts.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_and_parse() {
        let ids = ["a/b", "a/c", "x/y/z", "k", "long/id/here"];
        for id in ids {
            let hits = (1..=3)
                .filter(|k| Shard { k: *k, n: 3 }.contains(id))
                .count();
            assert_eq!(hits, 1, "{id}");
        }
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { k: 2, n: 4 }));
        assert!("4/3".parse::<Shard>().is_err());
        assert!("0/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn op_patterns_expand_over_the_registry() {
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let protocol = expand_ops(&p(&["protocol.*"]), None).unwrap();
        assert!(protocol.len() > 3, "{protocol:?}");
        assert!(protocol.iter().all(|o| o.starts_with("protocol.")));
        // A name and a glob that covers it give it once, in registry order.
        let both = expand_ops(
            &p(&["key_normalizer.normalize_key", "key_normalizer.*"]),
            None,
        )
        .unwrap();
        assert_eq!(both, expand_ops(&p(&["key_normalizer.*"]), None).unwrap());
        assert_eq!(
            expand_ops(&p(&["tool.private?"]), Some((&Default::default(), "s"))).unwrap(),
            vec!["tool.private?"]
        );
        let err = expand_ops(&p(&["nope.*"]), None).unwrap_err();
        assert!(
            err.contains(r#"--op "nope.*": the pattern matches no op"#),
            "{err}"
        );
        let err = expand_ops(&p(&["nope"]), None).unwrap_err();
        assert!(err.contains("no such op"), "{err}");
        // Against a subject, a glob keeps the declared ops and names them
        // when it keeps none.
        let declared = ["key_normalizer.normalize_key".to_owned()].into();
        assert_eq!(
            expand_ops(&p(&["key_normalizer.*"]), Some((&declared, "s"))).unwrap(),
            vec!["key_normalizer.normalize_key"]
        );
        let err = expand_ops(&p(&["protocol.*"]), Some((&declared, "the subject"))).unwrap_err();
        assert!(
            err.contains("none of them declared by the subject"),
            "{err}"
        );
    }
}
