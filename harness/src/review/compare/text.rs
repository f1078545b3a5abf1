//! The comparison's causes for people: one screen per cause, its trigger,
//! counts, the ops it reaches and one smallest example, its kinds beneath.

use super::{AlsoSeen, Cause, Comparison, Group};
use crate::review::causes::Trigger;
use crate::review::kinds::{How, Side};
use crate::review::show::{answer_line, args_line};
use std::fmt::Write;

/// Characters of an example's line (an answer, a line of diff) shown.
pub const LINE_CHARS: usize = 120;
/// Width lists are wrapped at.
const WRAP: usize = 100;
/// Kinds listed under one cause; the rest are counted (`--format json` has all).
const KINDS_SHOWN: usize = 8;

/// `n case(s)`, `n input(s)` or both, joined by `+`.
pub fn counts(cases: usize, generated: usize) -> String {
    let mut out = Vec::new();
    if cases > 0 {
        out.push(format!("{cases} case(s)"));
    }
    if generated > 0 {
        out.push(format!("{generated} input(s)"));
    }
    if out.is_empty() {
        return "0".into();
    }
    out.join(" + ")
}

/// `items` after `label`, comma-separated, wrapped at [`WRAP`], indented.
pub fn wrapped(out: &mut String, indent: &str, label: &str, items: &[String]) {
    let mut line = format!("{indent}{label}");
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() + 1 + piece.len() > WRAP && line.trim().len() > label.len() {
            let _ = writeln!(out, "{line}");
            line = format!("{indent}  ");
        }
        line.push(' ');
        line.push_str(&piece);
    }
    let _ = writeln!(out, "{line}");
}

/// `line` cut to [`LINE_CHARS`] characters, its middle elided with how
/// many were cut, so that both ends stay (where a key or a value that
/// differs is, a line often ends).
pub fn cut(line: &str) -> String {
    let n = line.chars().count();
    if n <= LINE_CHARS {
        return line.to_owned();
    }
    let (head, tail) = (LINE_CHARS * 2 / 3, LINE_CHARS / 3);
    let first: String = line.chars().take(head).collect();
    let last: String = line.chars().skip(n - tail).collect();
    format!("{first}…(+{} chars)…{last}", n - head - tail)
}

impl Comparison<'_> {
    /// One line per cause, numbered as the screens below: its trigger, the
    /// ops it reaches, its counts and kinds.
    pub fn summary_text(&self) -> String {
        let mut out = String::new();
        let (faults, causes): (Vec<&Cause>, Vec<&Cause>) =
            self.causes.iter().partition(|c| c.is_fault());
        let numbered = causes
            .iter()
            .enumerate()
            .map(|(i, c)| (format!("CAUSE {}", i + 1), c))
            .chain(
                faults
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (format!("NO VALID ANSWER {}", i + 1), c)),
            );
        for (label, c) in numbered {
            let _ = writeln!(out, "  {label}. {}", c.title(("base", "head")));
            if let Trigger::Ops { .. } = c.trigger {
                let _ = writeln!(
                    out,
                    "      {} selected case(s) run on neither side",
                    c.cases_not_run
                );
                continue;
            }
            let (cases, generated) = self.cause_counts(c);
            let ops: Vec<&str> = self.cause_ops(c).into_iter().collect();
            let shown = if ops.len() > 3 {
                format!("{}, +{} more", ops[..3].join(", "), ops.len() - 3)
            } else {
                ops.join(", ")
            };
            let _ = writeln!(
                out,
                "      {}; {} kind(s); {} op(s): {shown}",
                counts(cases, generated),
                c.kinds.len(),
                ops.len()
            );
        }
        out
    }

    /// Every cause, one screen each, numbered from 1.
    pub fn causes_text(&self) -> String {
        let mut out = String::new();
        let (faults, causes): (Vec<&Cause>, Vec<&Cause>) =
            self.causes.iter().partition(|c| c.is_fault());
        for (i, c) in causes.iter().enumerate() {
            self.cause_text(&mut out, ("CAUSE", i + 1), c);
        }
        for (i, c) in faults.iter().enumerate() {
            self.cause_text(&mut out, ("NO VALID ANSWER", i + 1), c);
        }
        out
    }

    fn cause_text(&self, out: &mut String, (what, n): (&str, usize), c: &Cause) {
        let labels = ("base", "head");
        let (cases, generated) = self.cause_counts(c);
        let _ = writeln!(out, "\n{what} {n}. {}", c.title(labels));
        if let Trigger::Ops { .. } = c.trigger {
            let _ = writeln!(
                out,
                "  {} selected case(s) of them run on neither side",
                c.cases_not_run
            );
            return;
        }
        let ops: Vec<String> = self.cause_ops(c).into_iter().map(str::to_owned).collect();
        wrapped(
            out,
            "  ",
            &format!("{}, in {} op(s):", counts(cases, generated), ops.len()),
            &ops,
        );
        if let Some(change) = &c.change {
            let _ = writeln!(out, "  what changed: {}", cut(&change.phrase(labels)));
        }
        let _ = writeln!(out, "  shows: {}", cut(&c.when(labels)));
        let _ = writeln!(out, "  found: {}", c.how);
        for (t, test) in c.joined.iter().take(JOINED_SHOWN) {
            let _ = writeln!(out, "  joined: {} ({test})", cut(t));
        }
        if c.joined.len() > JOINED_SHOWN {
            let _ = writeln!(
                out,
                "  (+{} more joined by test; --format json lists every one)",
                c.joined.len() - JOINED_SHOWN
            );
        }
        if let Some(k) = c.example.or_else(|| self.cause_example(c)) {
            example(out, &self.groups[k]);
        }
        let _ = writeln!(out, "  kinds ({}):", c.kinds.len());
        for &k in c.kinds.iter().take(KINDS_SHOWN) {
            kind_lines(out, k + 1, &self.groups[k]);
        }
        if c.kinds.len() > KINDS_SHOWN {
            let _ = writeln!(
                out,
                "    (+{} more kind(s) of this cause; --format json lists every one)",
                c.kinds.len() - KINDS_SHOWN
            );
        }
    }
}

/// A kind's smallest example on a few short lines: the arguments, both
/// answers and where they first differ.
/// Kinds and causes joined by test listed under a cause at most.
const JOINED_SHOWN: usize = 5;

fn example(out: &mut String, g: &Group<'_>) {
    let from = match (&g.example.case, g.example.shrink_steps) {
        (Some(id), _) => format!("case {id}"),
        (None, Some(steps)) => format!("generated, shrunk in {steps} steps"),
        (None, None) => String::new(),
    };
    let _ = writeln!(out, "  e.g. ({from}) {}", cut(&args_line(&g.example.args)));
    let _ = writeln!(out, "    base: {}", cut(&answer_line(&g.example.base)));
    let _ = writeln!(out, "    head: {}", cut(&answer_line(&g.example.head)));
    let lines: Vec<&str> = g.example.diff.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("first difference at"));
    let shown = match at {
        Some(i) => &lines[i..(i + 3).min(lines.len())],
        None => &lines[..diff_head(&lines)],
    };
    for line in shown {
        let _ = writeln!(out, "    {}", cut(line.trim()));
    }
}

/// How many of a diff's first lines to show when it has no "first
/// difference at" line: its first, and when that one announces a list
/// (`rendered JSON differs (paths into the payload):`), the first two
/// entries under it, so a heading never stands alone.
fn diff_head(lines: &[&str]) -> usize {
    match lines.first() {
        Some(first) if first.trim_end().ends_with(':') => 3.min(lines.len()),
        Some(_) => 1,
        None => 0,
    }
}

/// One kind under its cause: its title and counts, its first case, what
/// a struct change explains elsewhere, the case file written.
fn kind_lines(out: &mut String, n: usize, g: &Group<'_>) {
    let first = g
        .cases
        .first()
        .map(|c| {
            let more = g.cases.len() - 1;
            if more > 0 {
                format!(" (case {} +{more} more)", c.id)
            } else {
                format!(" (case {})", c.id)
            }
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "    KIND {n}. {}: {}{first}",
        g.kind.title(("base", "head")),
        counts(g.cases.len(), g.generated)
    );
    let (answers, refusals): (Vec<&AlsoSeen<'_>>, Vec<&AlsoSeen<'_>>) =
        g.also.iter().partition(|a| !a.refused);
    let list = |v: &[&AlsoSeen<'_>]| -> Vec<String> {
        v.iter()
            .map(|a| format!("{} {}", a.op, counts(a.cases.len(), a.generated)))
            .collect()
    };
    if !answers.is_empty() {
        wrapped(out, "      ", "also seen in:", &list(&answers));
    }
    if !refusals.is_empty() {
        let side = match &g.kind.how {
            How::OnlyIn(Side::Actual) => "base",
            _ => "head",
        };
        wrapped(
            out,
            "      ",
            &format!("refused by {side} where args name it:"),
            &list(&refusals),
        );
    }
    if let Some(p) = &g.emitted {
        let _ = writeln!(out, "      case written to {}", p.display());
    }
}

#[cfg(test)]
mod tests {
    use super::diff_head;

    /// A heading ending in ':' is shown with the paths under it.
    #[test]
    fn a_heading_is_never_shown_alone() {
        let d = "rendered JSON differs (paths into the payload):\n  /result: \"a\" -> \"b\"\n  /x\n  /y";
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(diff_head(&lines), 3);
        assert_eq!(diff_head(&["/a: 1 -> 2", "/b"]), 1);
        assert_eq!(diff_head(&["heading:"]), 1);
        assert_eq!(diff_head(&[]), 0);
    }
}
