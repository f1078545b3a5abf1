//! Known failures of an implementation: a data file, one id or glob per
//! line with the reason after `#` (`spec/protocol.md` § Known failures).
//!
//! ```text
//! # my-port known failures
//! key_normalizer/canonical_cache_key/float-huge   # no big integers yet
//! native_preview/build/**                         # previews not ported
//! ```
//!
//! A listed case that fails is an expected failure; one that passes is an
//! unexpected pass; an entry that matches no case of the corpus is stale.
//! Both fail the run, so the list cannot rot.

use std::path::Path;

/// One entry of the file.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The id or glob as written.
    pub pattern: String,
    /// The reason after `#`.
    pub reason: String,
    /// The line it is on.
    pub line: usize,
    matcher: globset::GlobMatcher,
}

/// A parsed known-failures file.
#[derive(Clone, Debug, Default)]
pub struct KnownFailures {
    /// Entries in file order.
    pub entries: Vec<Entry>,
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
            let (pattern, reason) = match trimmed.split_once('#') {
                Some((p, r)) => (p.trim(), r.trim()),
                None => (trimmed, ""),
            };
            if reason.is_empty() {
                return Err(format!("{line}: {pattern:?} needs a reason after '#'"));
            }
            if pattern.contains(char::is_whitespace) {
                return Err(format!("{line}: one id or glob per line, got {pattern:?}"));
            }
            let matcher = globset::GlobBuilder::new(pattern)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("{line}: {e}"))?
                .compile_matcher();
            entries.push(Entry {
                pattern: pattern.to_owned(),
                reason: reason.to_owned(),
                line,
                matcher,
            });
        }
        Ok(KnownFailures { entries })
    }

    /// The reason a case is listed, if it is (the first matching entry).
    pub fn reason_for(&self, id: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|e| e.matcher.is_match(id))
            .map(|e| e.reason.as_str())
    }

    /// Entries that match none of `ids`.
    pub fn stale<'a>(&'a self, ids: &[&str]) -> Vec<&'a Entry> {
        self.entries
            .iter()
            .filter(|e| !ids.iter().any(|id| e.matcher.is_match(id)))
            .collect()
    }
}

/// The known-failures text for the cases that failed or erred in a run:
/// kept entries keep their reason; new ones get a placeholder reason.
pub fn updated(previous: Option<&KnownFailures>, failing: &[(&str, String)]) -> String {
    let mut out =
        String::from("# Known failures: one case id or glob per line, the reason after '#'.\n");
    for (id, why) in failing {
        let reason = previous
            .and_then(|k| k.reason_for(id))
            .map(str::to_owned)
            .unwrap_or_else(|| {
                format!(
                    "new: {}",
                    why.lines()
                        .next()
                        .unwrap_or("fails")
                        .chars()
                        .take(100)
                        .collect::<String>()
                )
            });
        out.push_str(&format!("{id}  # {reason}\n"));
    }
    out
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
        assert_eq!(k.stale(&["a/b/c"]).len(), 1);
        assert!(KnownFailures::parse("a/b\n")
            .unwrap_err()
            .starts_with("1: "));
    }
}
