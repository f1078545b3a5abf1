//! How a failure shows two texts or two binaries that differ: the offset
//! of the first differing byte and a short window of both with a marker
//! under it, and binaries that are not UTF-8 as short escaped views instead
//! of their base64 (wasm-tools' and expect-test's way of showing the first
//! difference once).

use crate::tagged::encode;
use crate::term::Term;

/// Bytes of a binary shown before the rest is cut.
pub const SHORT_BYTES: usize = 32;

/// A binary that is not UTF-8, as a failure shows it: its length and its
/// first [`SHORT_BYTES`] bytes, escaped (`\xFF`), instead of its base64.
///
/// ```text
/// $bytes of 40960 bytes: "GIF89a\x01\x00\xFF…"
/// ```
pub fn bytes_view(b: &[u8]) -> String {
    let mut out = String::new();
    for &byte in b.iter().take(SHORT_BYTES) {
        out.push_str(&escape_byte(byte));
    }
    let more = if b.len() > SHORT_BYTES { "…" } else { "" };
    format!("$bytes of {} bytes: \"{out}{more}\"", b.len())
}

/// `text` (tagged JSON) with every `{"$bytes":"..."}` in it shown as
/// [`bytes_view`]: a failure never prints a binary's base64.
pub fn short_bytes(text: &str) -> std::borrow::Cow<'_, str> {
    use base64::Engine as _;
    if !text.contains("{\"$bytes\":") {
        return std::borrow::Cow::Borrowed(text);
    }
    let tag =
        regex::Regex::new(r#"\{"\$bytes":"([A-Za-z0-9+/=]*)"\}"#).unwrap_or_else(|e| panic!("{e}"));
    tag.replace_all(
        text,
        |c: &regex::Captures<'_>| match base64::engine::general_purpose::STANDARD.decode(&c[1]) {
            Ok(b) => bytes_view(&b),
            Err(_) => c[0].to_owned(),
        },
    )
}

/// A term's tagged JSON as a failure shows it ([`short_bytes`]).
pub fn shown(t: &Term) -> String {
    short_bytes(&encode(t)).into_owned()
}

/// One byte as the byte views show it: printable ASCII as itself (`\` and
/// `"` escaped), `\n`, `\r`, `\t`, anything else `\xHH`.
fn escape_byte(b: u8) -> String {
    match b {
        b'\n' => "\\n".to_owned(),
        b'\r' => "\\r".to_owned(),
        b'\t' => "\\t".to_owned(),
        b'\\' => "\\\\".to_owned(),
        b'"' => "\\\"".to_owned(),
        0x20..=0x7e => char::from(b).to_string(),
        _ => format!("\\x{b:02X}"),
    }
}

/// Characters of context shown before and after the first difference.
const WINDOW_BEFORE: usize = 24;
const WINDOW_AFTER: usize = 40;

/// The byte offset of the first difference between two texts and a short
/// window of each around it, with a marker under the first differing byte
/// (control characters escaped so the marker lines up). The one home of
/// this window: the strict level's byte comparison of rendered JSON and
/// [`render`]'s long strings both use it.
///
/// ```text
/// first difference at byte 9 of 14 (expected) and 17 (got):
///   expected {"a":1,"b":2.0}
///   got      {"a":1,"b":2.00001}
///                     ^
/// ```
pub fn first_difference(expected: &str, actual: &str) -> String {
    let at = first_differing_byte(expected.as_bytes(), actual.as_bytes());
    // The window starts and the marker sits on character boundaries; a
    // difference inside a multi-byte character marks that character.
    let mut mark = at;
    while !expected.is_char_boundary(mark) || !actual.is_char_boundary(mark) {
        mark -= 1;
    }
    let start = expected[..mark]
        .char_indices()
        .rev()
        .nth(WINDOW_BEFORE - 1)
        .map_or(0, |(i, _)| i);
    let units = |text: &str| -> Vec<(usize, String)> {
        text[start..]
            .char_indices()
            .take(WINDOW_BEFORE + WINDOW_AFTER + 1)
            .map(|(i, c)| (start + i, escape_char(c)))
            .collect()
    };
    window(
        (&units(expected), expected.len()),
        (&units(actual), actual.len()),
        at,
        mark,
        start,
    )
}

/// [`first_difference`] for two binaries, byte by byte: the offset of the
/// first differing byte, a window of both with every byte that is not
/// printable ASCII escaped (`\xFF`), and the marker under it.
///
/// ```text
/// first difference at byte 4 (expected is 6 bytes, got 6):
///   expected GIF8\xFF\x00
///   got      GIF8\xFE\x00
///                ^
/// ```
pub fn first_byte_difference(expected: &[u8], actual: &[u8]) -> String {
    let at = first_differing_byte(expected, actual);
    let start = at.saturating_sub(WINDOW_BEFORE);
    let units = |b: &[u8]| -> Vec<(usize, String)> {
        b.iter()
            .enumerate()
            .skip(start)
            .take(WINDOW_BEFORE + WINDOW_AFTER + 1)
            .map(|(i, &byte)| (i, escape_byte(byte)))
            .collect()
    };
    window(
        (&units(expected), expected.len()),
        (&units(actual), actual.len()),
        at,
        at,
        start,
    )
}

fn first_differing_byte(expected: &[u8], actual: &[u8]) -> usize {
    expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()))
}

fn escape_char(c: char) -> String {
    match c {
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        '\t' => "\\t".to_owned(),
        c if c.is_control() => c.escape_unicode().to_string(),
        c => c.to_string(),
    }
}

/// The window of [`first_difference`] and [`first_byte_difference`]: each
/// side's units (offset, shown text) from `start`, the marker under the
/// unit at `mark`, `at` the first differing byte.
fn window(
    expected: (&[(usize, String)], usize),
    actual: (&[(usize, String)], usize),
    at: usize,
    mark: usize,
    start: usize,
) -> String {
    let side = |units: &[(usize, String)]| {
        let mut out = String::new();
        if start > 0 {
            out.push('…');
        }
        let mut col = usize::from(start > 0);
        let mut mark_col = None;
        let mut shown = 0usize;
        for (offset, piece) in units {
            if *offset >= mark && mark_col.is_none() {
                mark_col = Some(col);
            }
            if mark_col.is_some() {
                shown += 1;
                if shown > WINDOW_AFTER {
                    out.push('…');
                    break;
                }
            }
            col += piece.chars().count();
            out.push_str(piece);
        }
        (out, mark_col.unwrap_or(col))
    };
    let (e, col) = side(expected.0);
    let (a, _) = side(actual.0);
    let end = |len: usize| if len == at { " (ends here)" } else { "" };
    format!(
        "first difference at byte {at} (expected is {} bytes, got {}):\n  expected {e}{}\n  got      {a}{}\n           {}^",
        expected.1,
        actual.1,
        end(expected.1),
        end(actual.1),
        " ".repeat(col)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_difference_is_marked_in_a_window() {
        let e = format!(
            "{{\"pad\":\"{}\",\"v\":1.0e4,\"tail\":\"{}\"}}",
            "x".repeat(100),
            "y".repeat(100)
        );
        let a = e.replace("1.0e4", "10000.0");
        let text = first_difference(&e, &a);
        let at = e.find("1.0e4").unwrap() + 1;
        assert!(
            text.starts_with(&format!("first difference at byte {at} ")),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let (exp, got, marker) = (lines[1], lines[2], lines[3]);
        assert!(
            exp.starts_with("  expected …") && exp.ends_with('…'),
            "{text}"
        );
        assert!(exp.chars().count() < 90, "the window is short: {text}");
        let col = marker.chars().count() - 1;
        assert_eq!(marker.trim(), "^");
        assert_eq!(exp.chars().nth(col), Some('.'), "{text}");
        assert_eq!(got.chars().nth(col), Some('0'), "{text}");
        let before = |l: &str| l.chars().skip(11).take(col - 11).collect::<String>();
        assert_eq!(before(exp), before(got), "the same text up to the marker");
    }

    #[test]
    fn escapes_and_multibyte_characters_keep_the_marker_aligned() {
        let text = first_difference("a\nbé1", "a\nbé2");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "  expected a\\nbé1");
        assert_eq!(lines[3].chars().count() - 1, lines[1].chars().count() - 1);
        // A difference inside a multi-byte character marks the character.
        let text = first_difference("é", "è");
        assert!(text.starts_with("first difference at byte 1 "), "{text}");
        assert_eq!(text.lines().nth(3), Some("           ^"));
        // One text is a prefix of the other.
        let text = first_difference("abc", "abcd");
        assert!(text.contains("expected abc (ends here)"), "{text}");
        assert_eq!(text.lines().nth(3), Some("              ^"));
    }
}
