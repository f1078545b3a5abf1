//! Another program's output quoted in a message or a report: an adapter's
//! stderr, an answer line it wrote that could not be read, its handshake,
//! its `unsupported` reasons, an answer a failure quotes. Every quotation
//! goes through here, and is cut per line ([`LINE_CHARS`]) and in total
//! ([`TOTAL_CHARS`]), each cut marked with what was left out, so that a
//! program that floods its output cannot flood the report.

/// Characters of one quoted line shown before it is cut.
pub const LINE_CHARS: usize = 300;
/// Characters of one quotation, all its lines together (the marks aside).
pub const TOTAL_CHARS: usize = 2_000;

use std::collections::VecDeque;

/// `text` as one line (line breaks and tabs shown as `\n`, `\r` and
/// `\t`), cut after [`LINE_CHARS`] characters: `abc…(+5,450 chars)`.
pub fn line(text: &str) -> String {
    let mut shown = String::new();
    let mut n = 0usize;
    for c in text.chars() {
        n += 1;
        if n > LINE_CHARS {
            continue;
        }
        match c {
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\t' => shown.push_str("\\t"),
            c => shown.push(c),
        }
    }
    marked(shown, n.saturating_sub(LINE_CHARS))
}

/// `head`, the start of a text, followed by how many characters of the
/// text it leaves out (`…(+5,450 chars)`), if any.
pub fn marked(head: String, left_out: usize) -> String {
    if left_out == 0 {
        head
    } else {
        format!("{head}…(+{} chars)", thousands(left_out))
    }
}

/// The last lines of a program's output, kept as they come (at most
/// `max_lines` of them, each only its first [`LINE_CHARS`] characters),
/// with a count of everything seen, so [`Tail::render`] can say what it
/// left out.
#[derive(Debug, Default)]
pub struct Tail {
    kept: VecDeque<Line>,
    max_lines: usize,
    lines: usize,
    chars: usize,
}

/// A line as it was kept: its first bytes, and its length in characters.
#[derive(Debug)]
struct Line {
    head: Vec<u8>,
    chars: usize,
}

impl Line {
    /// The line quoted as [`line`] quotes it, the cut counted against the
    /// whole line, not only the head kept of it.
    fn quoted(&self) -> String {
        let text = String::from_utf8_lossy(&self.head);
        let head: String = text.chars().take(LINE_CHARS).collect();
        let shown = head.chars().count();
        let quoted = line(&head);
        marked(quoted, self.chars.saturating_sub(shown))
    }
}

impl Tail {
    /// An empty tail keeping the last `max_lines` lines.
    pub fn new(max_lines: usize) -> Tail {
        Tail {
            max_lines,
            ..Tail::default()
        }
    }

    /// Adds a line of `chars` characters of which `head` (its first bytes,
    /// at least [`LINE_CHARS`] characters' worth when it is longer) was
    /// kept. Cheap: a flood is counted as fast as it comes, and quoted only
    /// when [`Tail::render`] is asked.
    pub fn push(&mut self, head: &[u8], chars: usize) {
        self.lines += 1;
        self.chars += chars;
        if self.max_lines == 0 {
            return;
        }
        let mut kept = if self.kept.len() == self.max_lines {
            self.kept.pop_front().map(|l| l.head).unwrap_or_default()
        } else {
            Vec::new()
        };
        kept.clear();
        kept.extend_from_slice(head);
        self.kept.push_back(Line { head: kept, chars });
    }

    /// Whether no line was seen.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// The kept lines, oldest first, one quoted line each (`  | text`, cut
    /// as [`line`] cuts), as many of the last as fit in [`TOTAL_CHARS`];
    /// when lines were left out, a first line says how many lines and
    /// characters that was.
    pub fn render(&self) -> String {
        let mut shown: Vec<(String, usize)> = Vec::new();
        let mut total = 0usize;
        for l in self.kept.iter().rev() {
            let quoted = l.quoted();
            let len = quoted.chars().count();
            if total + len > TOTAL_CHARS && !shown.is_empty() {
                break;
            }
            total += len;
            shown.push((quoted, l.chars));
        }
        let mut out: Vec<String> = Vec::new();
        let hidden = self.lines - shown.len();
        if hidden > 0 {
            let chars = self.chars - shown.iter().map(|(_, c)| c).sum::<usize>();
            out.push(format!(
                "  | …({} earlier line(s), {} chars, left out)",
                thousands(hidden),
                thousands(chars)
            ));
        }
        out.extend(shown.iter().rev().map(|(q, _)| format!("  | {q}")));
        out.join("\n")
    }
}

/// A program's whole output (its stderr, say) as [`Tail::render`] quotes it.
pub fn text(output: &str) -> String {
    let mut tail = Tail::new(usize::MAX);
    for l in output.lines() {
        tail.push(l.as_bytes(), l.chars().count());
    }
    tail.render()
}

/// `n` with thousands separators: `5,450`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_cut_with_how_much_was_left_out() {
        let q = line(&"e".repeat(10_000));
        assert_eq!(q, format!("{}…(+9,700 chars)", "e".repeat(LINE_CHARS)));
        assert_eq!(line("a\tb\nc"), "a\\tb\\nc");
        assert_eq!(line(&"é".repeat(LINE_CHARS)), "é".repeat(LINE_CHARS));
    }

    /// Twenty lines of 500 characters (10,000 of one letter) come out
    /// under the total, the earliest left out and counted.
    #[test]
    fn a_tail_is_capped_in_total_and_the_cut_is_marked() {
        let mut tail = Tail::new(20);
        for i in 0..25 {
            tail.push(format!("{i:02}{}", "e".repeat(498)).as_bytes(), 500);
        }
        let q = tail.render();
        let each = LINE_CHARS + "…(+200 chars)".chars().count();
        let fit = TOTAL_CHARS / each;
        assert_eq!(q.lines().count(), fit + 1, "{q}");
        assert_eq!(
            q.lines().next().unwrap(),
            format!(
                "  | …({} earlier line(s), {} chars, left out)",
                25 - fit,
                thousands((25 - fit) * 500)
            )
        );
        assert!(q.lines().last().unwrap().starts_with("  | 24eee"), "{q}");
        assert!(
            q.lines().all(|l| l.chars().count() <= LINE_CHARS + 60),
            "{q}"
        );
        assert!(
            q.chars().count() < TOTAL_CHARS + 100,
            "{}",
            q.chars().count()
        );
        // Short output is quoted whole.
        assert_eq!(text("one\ntwo"), "  | one\n  | two");
        // One line over the total is still shown, cut.
        assert_eq!(
            text(&"x".repeat(5000)),
            format!("  | {}…(+4,700 chars)", "x".repeat(LINE_CHARS))
        );
    }

    /// A line whose head alone was kept is marked with all it left out.
    #[test]
    fn a_line_kept_by_its_head_counts_the_whole_line() {
        let mut tail = Tail::new(2);
        tail.push(&[b'e'; 1200], 52_428_800);
        let want = format!("  | {}…(+52,428,500 chars)", "e".repeat(LINE_CHARS));
        assert_eq!(tail.render(), want);
        assert!(Tail::new(2).is_empty() && !tail.is_empty());
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(52_428_800), "52,428,800");
    }
}
