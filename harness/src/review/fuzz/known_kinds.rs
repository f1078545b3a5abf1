//! Known kinds of disagreement a campaign steps over (`PTC_FUZZ_KNOWN`),
//! and how often each was met.

/// Known kinds of disagreement to step over, from the file named by the
/// environment variable `PTC_FUZZ_KNOWN`: one regex per line (`#` starts a
/// comment line), matched against `op`, the reference's answer and the
/// subject's answer on three lines (as [`describe`] writes them). For a
/// campaign that must run past kinds already being fixed elsewhere; each
/// kind's count is printed to stderr at the end.
pub(super) fn known_disagreements() -> &'static [(regex::Regex, std::sync::atomic::AtomicUsize)] {
    static KNOWN: std::sync::OnceLock<Vec<(regex::Regex, std::sync::atomic::AtomicUsize)>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        let Some(path) = std::env::var_os("PTC_FUZZ_KNOWN") else {
            return Vec::new();
        };
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("PTC_FUZZ_KNOWN={}: {e}", path.to_string_lossy()));
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let re =
                    regex::Regex::new(l).unwrap_or_else(|e| panic!("PTC_FUZZ_KNOWN: {l}: {e}"));
                (re, std::sync::atomic::AtomicUsize::new(0))
            })
            .collect()
    })
}

/// Prints how often each `PTC_FUZZ_KNOWN` kind was stepped over.
pub(super) fn print_known_counts() {
    for (re, n) in known_disagreements() {
        eprintln!(
            "known disagreement stepped over {} times: {}",
            n.load(std::sync::atomic::Ordering::Relaxed),
            re.as_str()
        );
    }
}
