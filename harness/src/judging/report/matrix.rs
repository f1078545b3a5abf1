//! The conformance matrix: several JSON reports (`run --format json`) side
//! by side in one self-contained HTML page. Implementations are columns,
//! ops and rules are rows, each cell the pass rate of that implementation
//! on that row's cases (coloured), linking to its failures further down the
//! same page (case id, diff, replay command).
//!
//! Reports of different corpora (their `corpus.sha256` differs) are refused unless
//! allowed, because a pass rate over other cases is not the same figure;
//! allowed, the page says so. A report without a corpus hash (written
//! before reports carried one) cannot be checked, and the page says that too.

use super::html::{anchor, escape, failure_block, page, rate_cell, verdict_badge};
use super::json::JsonReport;
use super::Totals;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One column: a report and the file it came from.
#[derive(Debug)]
pub struct Column {
    /// The file, as given.
    pub file: PathBuf,
    /// The report.
    pub report: JsonReport,
}

/// Reads the reports, checks they ran the same corpus, and returns the
/// columns and the warnings to show (on the page and on stderr). Reports of
/// different corpora are an error unless `allow_mixed_corpora`.
pub fn read(
    files: &[PathBuf],
    allow_mixed_corpora: bool,
    release: Option<ptc_conformance::Release>,
) -> Result<(Vec<Column>, Vec<String>), String> {
    if files.is_empty() {
        return Err("give at least one JSON report (`run --format json` output)".to_owned());
    }
    let mut columns = Vec::new();
    for file in files {
        let report = JsonReport::read(file)?;
        columns.push(Column {
            file: file.clone(),
            report,
        });
    }
    let mut warnings = Vec::new();
    // Reports judged at different releases held the answers to different
    // expectations: refused like different corpora (AP-18).
    if let Some(want) = release {
        if let Some(col) = columns
            .iter()
            .find(|c| c.report.release() != want.version())
        {
            return Err(format!(
                "{} judged release {}, not {want} (--release {want})",
                col.file.display(),
                col.report.release()
            ));
        }
    }
    if let Some(other) = columns
        .iter()
        .find(|c| c.report.release() != columns[0].report.release())
    {
        let msg = format!(
            "{} judged release {} and {} release {}: their pass rates are against different expectations",
            columns[0].file.display(),
            columns[0].report.release(),
            other.file.display(),
            other.report.release()
        );
        if !allow_mixed_corpora {
            return Err(format!(
                "{msg} (--allow-mixed-corpora draws the matrix anyway)"
            ));
        }
        warnings.push(msg);
    }
    let mut first: Option<(&Column, &str)> = None;
    for col in &columns {
        let Some(corpus) = col.report.corpus.as_ref().filter(|c| !c.sha256.is_empty()) else {
            warnings.push(format!(
                "{}: the report names no corpus hash (written by an older kit); it cannot be checked against the others",
                col.file.display()
            ));
            continue;
        };
        match first {
            None => first = Some((col, &corpus.sha256)),
            Some((a, digest)) if digest != corpus.sha256 => {
                let msg = format!(
                    "{} and {} ran different corpora ({digest}, {} cases, and {}, {} cases): their pass rates are not over the same cases",
                    a.file.display(),
                    col.file.display(),
                    a.report.corpus.as_ref().map_or(0, |c| c.cases),
                    corpus.sha256,
                    corpus.cases
                );
                if !allow_mixed_corpora {
                    return Err(format!(
                        "{msg} (--allow-mixed-corpora draws the matrix anyway)"
                    ));
                }
                warnings.push(msg);
            }
            Some(_) => {}
        }
    }
    Ok((columns, warnings))
}

/// Per column: totals by op and by rule.
type Counts = (BTreeMap<String, Totals>, BTreeMap<String, Totals>);

/// The matrix page.
pub fn render(columns: &[Column], warnings: &[String]) -> String {
    let counts: Vec<Counts> = columns.iter().map(|c| c.report.by_op_and_rule()).collect();
    let ops: BTreeSet<&String> = counts.iter().flat_map(|(o, _)| o.keys()).collect();
    let rules: BTreeSet<&String> = counts.iter().flat_map(|(_, r)| r.keys()).collect();
    let mut b = String::from("<h1>ptc-conformance matrix</h1>\n");
    for w in warnings {
        let _ = writeln!(b, "<p class=\"warning\">{}</p>", escape(w));
    }
    if let Some(c) = columns.iter().find_map(|c| c.report.corpus.as_ref()) {
        let _ = writeln!(
            b,
            "<p id=\"corpus\">corpus: {} ({} cases, sha256 {})</p>",
            escape(&c.roots.join(", ")),
            c.cases,
            escape(&c.sha256)
        );
    }
    b.push_str("<p>Each cell: passed of the cases the implementation ran (skipped cases are counted apart). Green: all passed; light green: 90% or more; yellow: half or more; red: less; grey: none ran. A cell with failures links to them.</p>\n");
    b.push_str("<h2>Implementations</h2>\n<table id=\"implementations\">\n<tr><th>column</th><th class=\"name\">subject</th><th class=\"name\">report</th><th>release</th><th>level</th><th>verdict</th><th>passed</th><th>failed</th><th>skipped</th><th>errors</th><th>total</th></tr>\n");
    for (i, col) in columns.iter().enumerate() {
        let r = &col.report;
        let t = &r.totals;
        let _ = writeln!(
            b,
            "<tr id=\"impl-{i}\"><td>{}</td><td class=\"name subject\">{}</td><td class=\"name\">{}</td><td class=\"release\">{}</td><td>{}</td><td>{}</td><td class=\"passed\">{}</td><td class=\"failed\">{}</td><td class=\"skipped\">{}</td><td class=\"errors\">{}</td><td class=\"total\">{}</td></tr>",
            i + 1,
            escape(&r.subject),
            escape(&col.file.display().to_string()),
            escape(&r.release_line()),
            escape(&r.level),
            verdict_badge(&r.verdict, &format!("verdict-{i}"), true),
            t.passed,
            t.failed,
            t.skipped,
            t.errors,
            t.total
        );
    }
    b.push_str("</table>\n");
    let head = {
        let mut h = String::from("<tr><th class=\"name\">{}</th>");
        for (i, col) in columns.iter().enumerate() {
            let file = col.file.display().to_string();
            let base = col
                .file
                .file_name()
                .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
            let _ = write!(
                h,
                "<th title=\"{}\">{}. {}<br><small>{}</small></th>",
                escape(&file),
                i + 1,
                escape(short_name(&col.report.subject)),
                escape(&base)
            );
        }
        h.push_str("</tr>\n");
        h
    };
    let row = |b: &mut String, kind: &str, name: &str, pick: &dyn Fn(&Counts) -> Option<Totals>| {
        let _ = write!(
            b,
            "<tr id=\"{}\"><td class=\"name\">{}</td>",
            anchor(kind, name),
            escape(name)
        );
        for (i, c) in counts.iter().enumerate() {
            let t = pick(c).unwrap_or_default();
            let href = t
                .has_problems()
                .then(|| anchor(&format!("f{i}-{kind}"), name));
            let cell = rate_cell(&t, href.as_deref()).replacen(
                "<td class=\"cell",
                &format!("<td data-col=\"{i}\" class=\"cell"),
                1,
            );
            b.push_str(&cell);
        }
        b.push_str("</tr>\n");
    };
    b.push_str("<h2>Ops</h2>\n<table id=\"ops\">\n");
    b.push_str(&head.replace("{}", "op"));
    for op in &ops {
        row(&mut b, "op", op, &|c: &Counts| c.0.get(*op).copied());
    }
    let all = |b: &mut String| {
        b.push_str("<tr id=\"op-all\"><td class=\"name\">all</td>");
        for (i, col) in columns.iter().enumerate() {
            b.push_str(&rate_cell(&col.report.totals, None).replacen(
                "<td class=\"cell",
                &format!("<td data-col=\"{i}\" class=\"cell"),
                1,
            ));
        }
        b.push_str("</tr>\n");
    };
    all(&mut b);
    b.push_str("</table>\n");
    let (bad, good): (Vec<&String>, Vec<&String>) = rules.iter().partition(|r| {
        counts
            .iter()
            .any(|c| c.1.get(**r).is_some_and(|t| t.has_problems()))
    });
    let _ = writeln!(
        b,
        "<h2>Rules with failures in some implementation ({})</h2>",
        bad.len()
    );
    if !bad.is_empty() {
        b.push_str("<table id=\"rules\">\n");
        b.push_str(&head.replace("{}", "rule"));
        for rule in &bad {
            row(&mut b, "rule", rule, &|c: &Counts| c.1.get(*rule).copied());
        }
        b.push_str("</table>\n");
    }
    let _ = writeln!(
        b,
        "<details><summary>{} other rules: no failure in any implementation</summary>\n<table id=\"rules-clean\">",
        good.len()
    );
    b.push_str(&head.replace("{}", "rule"));
    for rule in &good {
        row(&mut b, "rule", rule, &|c: &Counts| c.1.get(*rule).copied());
    }
    b.push_str("</table>\n</details>\n");
    failures(&mut b, columns);
    page("ptc-conformance matrix", &b)
}

/// The failures section: per implementation, an index by rule, then each
/// failure grouped by op, each under its own anchor.
fn failures(b: &mut String, columns: &[Column]) {
    b.push_str("<h2>Failures</h2>\n");
    for (i, col) in columns.iter().enumerate() {
        let problems: Vec<_> = col
            .report
            .cases
            .iter()
            .filter(|c| c.problem().is_some())
            .collect();
        let _ = writeln!(
            b,
            "<h3 id=\"failures-{i}\">{}. {} ({} failures, errors or unexpected outcomes)</h3>",
            i + 1,
            escape(&col.report.subject),
            problems.len()
        );
        let case_id = |id: &str| anchor(&format!("f{i}-case"), id);
        let mut by_rule: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for c in &problems {
            for rule in &c.spec {
                by_rule.entry(rule).or_default().push(&c.id);
            }
        }
        if !by_rule.is_empty() {
            b.push_str("<ul class=\"by-rule\">\n");
            for (rule, ids) in &by_rule {
                let links: Vec<String> = ids
                    .iter()
                    .map(|id| format!("<a href=\"#{}\">{}</a>", case_id(id), escape(id)))
                    .collect();
                let _ = writeln!(
                    b,
                    "<li id=\"{}\">{}: {}</li>",
                    anchor(&format!("f{i}-rule"), rule),
                    escape(rule),
                    links.join(", ")
                );
            }
            b.push_str("</ul>\n");
        }
        let mut by_op: BTreeMap<&str, Vec<_>> = BTreeMap::new();
        for c in problems {
            by_op.entry(&c.op).or_default().push(c);
        }
        for (op, cases) in by_op {
            let _ = writeln!(
                b,
                "<h4 id=\"{}\">{}</h4>",
                anchor(&format!("f{i}-op"), op),
                escape(op)
            );
            for c in cases {
                b.push_str(&failure_block(c, &case_id(&c.id)));
            }
        }
    }
}

/// A subject's name without its version and command: what fits a column head.
fn short_name(subject: &str) -> &str {
    subject.split(" (").next().unwrap_or(subject)
}
