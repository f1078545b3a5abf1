//! The HTML report: one self-contained page (inline CSS, no script, no
//! external asset) made from the JSON report: the verdict, the subject and
//! the corpus, ops × outcomes, the rules with problems, the skips by
//! reason, and each failure with its diff and replay command. The page's
//! pieces ([`escape`], [`anchor`], [`page`], [`rate_cell`],
//! [`failure_block`]) are shared with the [`super::matrix`].

use super::json::{JsonCase, JsonReport, JsonVerdict};
use super::Totals;
use std::fmt::Write as _;

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element text and
/// attribute values alike: answers hold arbitrary text.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An element id (and `#` fragment) made from `prefix` and any text:
/// ASCII letters, digits, `-`, `_` and `.` kept, every other byte as `~xx`,
/// so ids are unique, need no escaping and never break a link.
pub fn anchor(prefix: &str, text: &str) -> String {
    let mut out = format!("{prefix}-");
    for b in text.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(char::from(b)),
            b => {
                let _ = write!(out, "~{b:02x}");
            }
        }
    }
    out
}

const STYLE: &str = "
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;color:#1d1d1f}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
h3{font-size:1.05em;margin-top:1.2em}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .6em;border:1px solid #ddd;text-align:right}
th{background:#f4f4f6}td.name,th.name{text-align:left;font-family:ui-monospace,monospace;font-size:.92em}
pre{background:#f6f6f8;border:1px solid #e3e3e8;padding:.5em;overflow-x:auto;white-space:pre-wrap;word-break:break-all;font-size:.88em}
.verdict{display:inline-block;padding:.2em .8em;border-radius:.3em;font-weight:700;color:#fff}
.pass{background:#2e7d32}.fail{background:#c62828}
.r100{background:#c8e6c9}.r90{background:#e6f2c9}.r50{background:#fff3bf}.r0{background:#ffcdd2}.none{background:#eee;color:#777}
td.cell{white-space:nowrap}td.cell a{color:inherit}td.cell small{display:block;color:#555}
small.reasons{display:block;color:#555;text-align:left}
.failure{border-left:4px solid #c62828;padding:.1em .8em;margin:1em 0}
.warning{background:#fff3bf;border:1px solid #e0c060;padding:.5em}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
";

/// A whole page: `title` and `body` (already escaped HTML) with the inline style.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// The colour class of a pass rate: passed of executed.
pub fn rate_class(t: &Totals) -> &'static str {
    let run = t.executed();
    match run {
        0 => "none",
        _ if t.passed == run => "r100",
        _ if t.passed * 10 >= run * 9 => "r90",
        _ if t.passed * 2 >= run => "r50",
        _ => "r0",
    }
}

/// A pass rate as text: `97.5% (39/40)`, or `not run`.
pub fn rate_text(t: &Totals) -> String {
    match t.executed() {
        0 => "not run".to_owned(),
        run => format!("{}% ({}/{run})", percent(t.passed, run), t.passed),
    }
}

/// `n` of `of` in percent with at most one decimal, never rounded up to 100.
fn percent(n: usize, of: usize) -> String {
    let tenths = n * 1000 / of;
    match tenths % 10 {
        0 => format!("{}", tenths / 10),
        d => format!("{}.{d}", tenths / 10),
    }
}

/// A table cell coloured by pass rate, linking to `href` when given; its
/// second line counts skips.
pub fn rate_cell(t: &Totals, href: Option<&str>) -> String {
    let text = escape(&rate_text(t));
    let text = match href {
        Some(h) => format!("<a href=\"#{h}\">{text}</a>"),
        None => text,
    };
    let skipped = match t.skips() {
        0 => String::new(),
        n => format!("<small>{n} skipped</small>"),
    };
    format!("<td class=\"cell {}\">{text}{skipped}</td>", rate_class(t))
}

/// One failure, error or unexpected outcome: its label, id, file, rules,
/// diff and replay command, under the element id `id`.
pub fn failure_block(c: &JsonCase, id: &str) -> String {
    let Some((label, text)) = c.problem() else {
        return String::new();
    };
    let mut out = format!(
        "<div class=\"failure\" id=\"{id}\">\n<h3><span class=\"label\">{}</span> <code class=\"case-id\">{}</code></h3>\n<p>",
        escape(label),
        escape(&c.id)
    );
    if !c.file.is_empty() {
        let _ = write!(out, "file <code>{}</code>; ", escape(&c.file));
    }
    let _ = write!(
        out,
        "op <code>{}</code>; spec {}</p>\n<pre class=\"diff\">{}</pre>\n",
        escape(&c.op),
        escape(&c.spec.join(", ")),
        escape(&text)
    );
    if let Some(cmd) = &c.replay {
        let _ = writeln!(
            out,
            "<p>replay:</p><pre class=\"replay\">{}</pre>",
            escape(cmd)
        );
    }
    out.push_str("</div>\n");
    out
}

/// The verdict as a badge with the element id `id`, its reasons (if
/// given) in small print.
pub fn verdict_badge(verdict: &JsonVerdict, id: &str, reasons: bool) -> String {
    let (class, word) = if verdict.passed {
        ("pass", "PASS")
    } else {
        ("fail", "FAIL")
    };
    let mut out = format!("<span class=\"verdict {class}\" id=\"{id}\">{word}</span>");
    if reasons && !verdict.reasons.is_empty() {
        let _ = write!(
            out,
            "<small class=\"reasons\">{}</small>",
            escape(&verdict.reasons.join("; "))
        );
    }
    out
}

/// The verdict as a badge and its reasons as a list.
pub fn verdict_html(report: &JsonReport) -> String {
    let mut out = verdict_badge(&report.verdict, "verdict", false);
    if !report.verdict.reasons.is_empty() {
        out.push_str("\n<ul class=\"reasons\">");
        for r in &report.verdict.reasons {
            let _ = write!(out, "<li>{}</li>", escape(r));
        }
        out.push_str("</ul>");
    }
    out
}

fn totals_row(name: &str, t: &Totals, id: &str) -> String {
    format!(
        "<tr id=\"{id}\"><td class=\"name\">{}</td><td class=\"total\">{}</td><td class=\"passed\">{}</td><td class=\"failed\">{}</td><td class=\"skipped\">{}</td><td class=\"errors\">{}</td><td class=\"xfail\">{}</td>{}</tr>\n",
        escape(name),
        t.total,
        t.passed,
        t.failures(),
        t.skips(),
        t.errors,
        t.expected_failures,
        rate_cell(t, None)
    )
}

const TOTALS_HEAD: &str = "<tr><th class=\"name\">{}</th><th>total</th><th>passed</th><th>failed</th><th>skipped</th><th>errors</th><th>xfail</th><th>pass rate</th></tr>\n";

/// The HTML report of `report`.
pub fn render(report: &JsonReport) -> String {
    let (by_op, by_rule) = report.by_op_and_rule();
    let t = &report.totals;
    let mut b = String::new();
    let _ = writeln!(
        b,
        "<h1>ptc-conformance report</h1>\n<p>{}</p>",
        verdict_html(report)
    );
    b.push_str("<dl class=\"facts\">\n");
    let mut fact = |k: &str, id: &str, v: String| {
        let _ = writeln!(b, "<dt>{k}</dt><dd id=\"{id}\">{}</dd>", escape(&v));
    };
    fact("subject", "subject", report.subject.clone());
    fact("release", "release", report.release_line());
    fact("level", "level", report.level.clone());
    if let Some(c) = &report.corpus {
        fact(
            "corpus",
            "corpus",
            format!(
                "{} ({} cases, sha256 {})",
                c.roots.join(", "),
                c.cases,
                c.sha256
            ),
        );
        if !c.sha256.is_empty() {
            fact(
                "corpus source",
                "corpus-source",
                format!("{}, sha256 {}", c.source, c.sha256),
            );
        }
    }
    if let Some(p) = &report.spec {
        fact(
            "spec",
            "spec",
            format!("{} files, {}, sha256 {}", p.files, p.source, p.sha256),
        );
    }
    if report
        .corpus
        .as_ref()
        .is_some_and(|c| c.cases != report.cases.len())
    {
        fact(
            "selection",
            "selection",
            format!("{} cases: {}", report.cases.len(), report.selection),
        );
    }
    b.push_str("</dl>\n");
    let _ = writeln!(
        b,
        "<p id=\"totals\"><span id=\"total-passed\">{}</span> passed, <span id=\"total-failed\">{}</span> failed, <span id=\"total-skipped\">{}</span> skipped, <span id=\"total-errors\">{}</span> errors, <span id=\"total-xfail\">{}</span> expected failures, <span id=\"total-unexpected-passes\">{}</span> unexpected passes, of <span id=\"total-cases\">{}</span> cases</p>",
        t.passed, t.failed, t.skipped, t.errors, t.expected_failures, t.unexpected_passes, t.total
    );
    b.push_str("<h2>Ops</h2>\n<table id=\"ops\">\n");
    b.push_str(&TOTALS_HEAD.replace("{}", "op"));
    for (op, ot) in &by_op {
        b.push_str(&totals_row(op, ot, &anchor("op", op)));
    }
    b.push_str(&totals_row("all", t, "op-all"));
    b.push_str("</table>\n<h2>Rules with failures</h2>\n");
    let bad: Vec<_> = by_rule.iter().filter(|(_, t)| t.has_problems()).collect();
    if bad.is_empty() {
        let _ = writeln!(
            b,
            "<p id=\"rules-none\">None of the {} rules cited by the cases that ran has a failure, an error or an unexpected outcome.</p>",
            by_rule.values().filter(|t| t.executed() > 0).count()
        );
    } else {
        b.push_str("<table id=\"rules\">\n");
        b.push_str(&TOTALS_HEAD.replace("{}", "rule"));
        for (rule, rt) in bad {
            b.push_str(&totals_row(rule, rt, &anchor("rule", rule)));
        }
        b.push_str("</table>\n");
    }
    b.push_str("<h2>Skips by reason</h2>\n");
    if report.skips.is_empty() {
        b.push_str("<p id=\"skips-none\">No case was skipped.</p>\n");
    } else {
        b.push_str("<table id=\"skips\">\n<tr><th>cases</th><th class=\"name\">reason</th><th class=\"name\">ops</th></tr>\n");
        for g in &report.skips {
            let _ = writeln!(
                b,
                "<tr><td class=\"count\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td></tr>",
                g.count,
                escape(&g.label()),
                escape(&g.ops.join(", "))
            );
        }
        b.push_str("</table>\n");
    }
    let problems: Vec<&JsonCase> = report
        .cases
        .iter()
        .filter(|c| c.problem().is_some())
        .collect();
    let _ = writeln!(b, "<h2>Failures ({})</h2>", problems.len());
    if problems.is_empty() {
        b.push_str("<p id=\"failures-none\">No failure, error or unexpected outcome.</p>\n");
    }
    for c in problems {
        b.push_str(&failure_block(c, &anchor("case", &c.id)));
    }
    for (title, items) in [
        ("Adapter faults", &report.faults),
        ("Stale known failures", &report.stale_known_failures),
    ] {
        if !items.is_empty() {
            let _ = write!(b, "<h2>{title}</h2>\n<ul>");
            for f in items {
                let _ = write!(b, "<li>{}</li>", escape(f));
            }
            b.push_str("</ul>\n");
        }
    }
    page(&format!("ptc-conformance: {}", report.subject), &b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<script>alert('x')</script> & "q""#),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }

    #[test]
    fn anchors_are_unique_and_plain() {
        assert_eq!(
            anchor("case", "tool/private?/a b"),
            "case-tool~2fprivate~3f~2fa~20b"
        );
        assert_ne!(anchor("c", "a/b"), anchor("c", "a~2fb"));
    }

    #[test]
    fn rates_are_never_rounded_up_to_all() {
        let t = Totals {
            total: 1000,
            passed: 999,
            ..Totals::default()
        };
        assert_eq!(rate_text(&t), "99.9% (999/1000)");
        assert_eq!(rate_class(&t), "r90");
        let none = Totals {
            total: 3,
            skipped: 3,
            ..Totals::default()
        };
        assert_eq!(
            (rate_text(&none).as_str(), rate_class(&none)),
            ("not run", "none")
        );
    }
}
