//! Elixir's grapheme-based `String.length/1` and `String.slice/3` as the
//! reference platform counts. Elixir 1.18 defers to OTP's
//! `:unicode_util.gc/1`, whose OTP 25 segmentation (Unicode 14.0) mostly
//! follows UAX #29's extended grapheme clusters but not quite: after an
//! extended pictographic character, spacing marks extend the cluster like
//! combining marks, and a ZWJ that is not followed by another pictograph
//! ends it (PP-105). This module ports that state machine; [`tables`] holds
//! its character classes.

pub mod tables;

/// How `gc_1/1` treats a cluster's first character (from U+0100 on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// A control: a cluster of its own.
    Control,
    /// A prepend character: joins what follows unless that is a control.
    Prepend,
    /// A Hangul leading jamo.
    L,
    /// A Hangul vowel jamo.
    V,
    /// A Hangul trailing jamo.
    T,
    /// A regional indicator: pairs with the next one.
    Regional,
    /// An extended pictographic character.
    ExtPict,
}

impl First {
    /// The class's name in `spec/data/unicode/grapheme.json`.
    pub fn name(self) -> &'static str {
        match self {
            First::Control => "control",
            First::Prepend => "prepend",
            First::L => "hangul_l",
            First::V => "hangul_v",
            First::T => "hangul_t",
            First::Regional => "regional_indicator",
            First::ExtPict => "extended_pictographic",
        }
    }
}

const ZWJ: u32 = 0x200D;

/// `String.length/1`: the number of grapheme clusters.
pub fn length(s: &str) -> usize {
    let cps: Vec<u32> = s.chars().map(u32::from).collect();
    let mut i = 0;
    let mut n = 0;
    while i < cps.len() {
        i = cluster_end(&cps, i);
        n += 1;
    }
    n
}

/// `String.slice(s, 0, n)`: the first `n` grapheme clusters (all of `s`
/// when it has fewer).
pub fn take(s: &str, n: usize) -> &str {
    let offsets: Vec<usize> = s.char_indices().map(|(o, _)| o).collect();
    let cps: Vec<u32> = s.chars().map(u32::from).collect();
    let mut i = 0;
    for _ in 0..n {
        if i >= cps.len() {
            return s;
        }
        i = cluster_end(&cps, i);
    }
    offsets.get(i).map_or(s, |&o| &s[..o])
}

/// `String.length/1` of any binary: an invalid byte is a grapheme of its
/// own, and clusters never span one.
pub fn length_bytes(b: &[u8]) -> usize {
    b.utf8_chunks()
        .map(|c| length(c.valid()) + c.invalid().len())
        .sum()
}

/// `String.slice(b, 0, n)` of any binary, counting as [`length_bytes`].
pub fn take_bytes(b: &[u8], n: usize) -> &[u8] {
    let mut left = n;
    let mut end = 0;
    for chunk in b.utf8_chunks() {
        let valid = chunk.valid();
        let taken = take(valid, left);
        end += taken.len();
        if taken.len() < valid.len() {
            return &b[..end];
        }
        left -= length(valid);
        let bad = chunk.invalid().len().min(left);
        end += bad;
        left -= bad;
        if left == 0 {
            return &b[..end];
        }
    }
    b
}

fn in_ranges(cp: u32, ranges: &[(u32, u32)]) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn first_class(cp: u32) -> Option<First> {
    let i = tables::FIRST.partition_point(|&(_, hi, _)| hi < cp);
    match tables::FIRST.get(i) {
        Some(&(lo, _, class)) if lo <= cp => Some(class),
        _ => None,
    }
}

fn is_extend(cp: u32) -> bool {
    cp == ZWJ || in_ranges(cp, tables::EXTEND)
}

fn is_l(cp: u32) -> bool {
    in_ranges(cp, tables::HANGUL_L)
}

fn is_v(cp: u32) -> bool {
    in_ranges(cp, tables::HANGUL_V)
}

fn is_t(cp: u32) -> bool {
    in_ranges(cp, tables::HANGUL_T)
}

/// The precomposed Hangul syllables, U+AC00..U+D7A3 (first and last).
pub const HANGUL_SYLLABLES: (u32, u32) = (0xAC00, 0xD7A3);

/// A precomposed Hangul syllable: `Some(true)` for LV (one every 28 code
/// points from the first), `Some(false)` for LVT, `None` for any other
/// code point (`spec/data/unicode/grapheme.json`, PP-105).
pub fn syllable(cp: u32) -> Option<bool> {
    let (first, last) = HANGUL_SYLLABLES;
    (first..=last).contains(&cp).then(|| (cp - first) % 28 == 0)
}

/// The index just past the cluster that starts at `i` (`gc_1/1`).
pub(crate) fn cluster_end(s: &[u32], i: usize) -> usize {
    let cp = s[i];
    let next = s.get(i + 1).copied();
    if cp == u32::from('\r') {
        return if next == Some(u32::from('\n')) {
            i + 2
        } else {
            i + 1
        };
    }
    if cp < 0x100 {
        if tables::LATIN1_CONTROL.contains(&cp) {
            return i + 1;
        }
        if tables::LATIN1_PICT.contains(&cp) {
            return ext_pict(s, i + 1);
        }
        return match next {
            Some(c) if c < 0x100 => i + 1,
            _ => extend(s, i + 1),
        };
    }
    match first_class(cp) {
        Some(First::Control) => i + 1,
        Some(First::Prepend) => match next {
            None => i + 1,
            Some(c) if in_ranges(c, tables::CONTROL) => i + 1,
            Some(_) => cluster_end(s, i + 1),
        },
        Some(First::L) => hangul_l(s, i + 1),
        Some(First::V) => hangul_v(s, i + 1),
        Some(First::T) => hangul_t(s, i + 1),
        Some(First::Regional) => match next {
            Some(c) if (0x1F1E6..=0x1F1FF).contains(&c) => extend(s, i + 2),
            _ => extend(s, i + 1),
        },
        Some(First::ExtPict) => ext_pict(s, i + 1),
        None if cp > 44000 && cp < 56000 => match syllable(cp) {
            Some(true) => hangul_v(s, i + 1),
            Some(false) => hangul_t(s, i + 1),
            None => extend(s, i + 1),
        },
        None => extend(s, i + 1),
    }
}

/// Extend and ZWJ characters continue the cluster.
fn extend(s: &[u32], mut i: usize) -> usize {
    while s.get(i).is_some_and(|&c| is_extend(c)) {
        i += 1;
    }
    i
}

/// After a pictograph: extend characters continue; a ZWJ continues only
/// into another pictograph, else the cluster ends after the ZWJ.
fn ext_pict(s: &[u32], mut i: usize) -> usize {
    loop {
        match s.get(i) {
            Some(&ZWJ) => match s.get(i + 1) {
                Some(&c) if in_ranges(c, tables::EXT_PICT) => i += 2,
                _ => return i + 1,
            },
            Some(&c) if is_extend(c) => i += 1,
            _ => return i,
        }
    }
}

fn hangul_l(s: &[u32], mut i: usize) -> usize {
    while s.get(i).is_some_and(|&c| is_l(c)) {
        i += 1;
    }
    match s.get(i) {
        Some(&c) if is_v(c) => hangul_v(s, i + 1),
        Some(&c) => match syllable(c) {
            Some(true) => hangul_v(s, i + 1),
            Some(false) => hangul_t(s, i + 1),
            None => extend(s, i),
        },
        None => i,
    }
}

fn hangul_v(s: &[u32], mut i: usize) -> usize {
    while s.get(i).is_some_and(|&c| is_v(c)) {
        i += 1;
    }
    match s.get(i) {
        Some(&c) if is_t(c) => hangul_t(s, i + 1),
        _ => extend(s, i),
    }
}

fn hangul_t(s: &[u32], mut i: usize) -> usize {
    while s.get(i).is_some_and(|&c| is_t(c)) {
        i += 1;
    }
    extend(s, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_clusters_as_otp_25() {
        assert_eq!(length("e\u{301}x"), 2);
        assert_eq!(length("\r\n"), 1);
        assert_eq!(length("🇫🇷🇩🇪"), 2);
        // OTP ends a pictograph's cluster at a ZWJ not followed by a pictograph.
        assert_eq!(length("\u{231A}\u{200D}\u{1F3FB}"), 2);
        // ... and lets spacing marks extend it.
        assert_eq!(length("\u{231A}\u{E33}\u{FE0F}\u{200D}\u{2640}\u{E33}"), 1);
        assert_eq!(take("e\u{301}x", 1), "e\u{301}");
        assert_eq!(take("ab", 5), "ab");
        assert_eq!(take("ab", 0), "");
    }
}
