//! Known kinds of disagreement a campaign steps over (`PTC_FUZZ_KNOWN`),
//! and how often each was met.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Known kinds of disagreement to step over: one regex per line of a file
/// (`#` starts a comment line), matched against what a person reads in the
/// report, uncut: the op, the expected side's answer and the subject's on
/// three lines, each answer as [`crate::review::show::answer_text`] writes
/// it (`ok <tagged JSON>`, a string answer verbatim between quotes;
/// `raised <Class>: <message verbatim>`). For a campaign that must run past
/// kinds already being fixed elsewhere; each kind's count is printed at the end.
#[derive(Debug, Default)]
pub struct Known {
    patterns: Vec<(regex::Regex, AtomicUsize)>,
}

impl Known {
    /// The patterns in the file named by `PTC_FUZZ_KNOWN`, none when it is
    /// unset. An empty value, a file that cannot be read or holds no
    /// pattern, and a pattern that is not a regex are errors naming the
    /// file and line (a usage error for the CLI).
    pub fn from_env() -> Result<Known, String> {
        match std::env::var_os("PTC_FUZZ_KNOWN") {
            None => Ok(Known::default()),
            Some(p) if p.is_empty() => {
                Err("PTC_FUZZ_KNOWN is set but empty: name a file of patterns, or unset it".into())
            }
            Some(p) => Known::from_file(std::path::Path::new(&p)),
        }
    }

    /// The patterns in `path`.
    pub fn from_file(path: &std::path::Path) -> Result<Known, String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("PTC_FUZZ_KNOWN={shown}: cannot read: {e}"))?;
        let patterns = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .map(|(n, l)| {
                regex::Regex::new(l)
                    .map(|re| (re, AtomicUsize::new(0)))
                    .map_err(|e| format!("PTC_FUZZ_KNOWN={shown}:{n}: not a regex: {l}\n{e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if patterns.is_empty() {
            return Err(format!("PTC_FUZZ_KNOWN={shown}: holds no pattern"));
        }
        Ok(Known { patterns })
    }

    /// Whether `text` (op, expected answer, actual answer on three lines) is
    /// a known kind; counts the match.
    pub fn matches(&self, text: &str) -> bool {
        match self.patterns.iter().find(|(re, _)| re.is_match(text)) {
            Some((_, n)) => {
                n.fetch_add(1, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Whether there is any pattern.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Each pattern with how often it was stepped over.
    pub fn counts(&self) -> Vec<(String, usize)> {
        self.patterns
            .iter()
            .map(|(re, n)| (re.as_str().to_owned(), n.load(Ordering::Relaxed)))
            .collect()
    }
}
