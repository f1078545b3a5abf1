//! Which cases a command takes: filters by op, id glob, feature and level,
//! and stable shards of the result, so a large run can be spread over CI
//! jobs.

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

/// A selection of cases; empty fields select everything.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Only cases of these ops.
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
    /// feature, or a glob that does not parse, is an error naming it.
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
        for op in &self.ops {
            if ptc_conformance::ops::find(op).is_none() {
                return Err(format!(
                    "--op {op:?}: no such op (see `ptc-conformance list`)"
                ));
            }
        }
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
            .filter(|c| self.ops.is_empty() || self.ops.iter().any(|o| o == c.op.name))
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
}
