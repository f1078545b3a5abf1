//! Elixir's grapheme-based `String.length/1` and `String.slice/3`, as the
//! reference platform counts: extended grapheme clusters of Unicode 14.0,
//! the version of OTP 25's `:unicode_util`, which Elixir 1.18 defers to.

use unicode_segmentation::UnicodeSegmentation;

/// `String.length/1`: the number of grapheme clusters.
pub fn length(s: &str) -> usize {
    s.graphemes(true).count()
}

/// `String.slice(s, 0, n)`: the first `n` grapheme clusters (all of `s`
/// when it has fewer).
pub fn take(s: &str, n: usize) -> &str {
    match s.grapheme_indices(true).nth(n) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_clusters_not_code_points() {
        assert_eq!(length("e\u{301}x"), 2);
        assert_eq!(length("\r\n"), 1);
        assert_eq!(length("🇫🇷🇩🇪"), 2);
        assert_eq!(take("e\u{301}x", 1), "e\u{301}");
        assert_eq!(take("ab", 5), "ab");
        assert_eq!(take("ab", 0), "");
    }
}
