//! The HTML report and the matrix, rendered by headless Chromium: the page
//! the browser builds shows the figures of the JSON reports it was made
//! from (totals, verdict, pass rates per op, a failure's id), and answer
//! text holding markup stays text.
//!
//! These tests need Chromium (Debian: `apt-get install -y chromium`;
//! `PTC_CHROMIUM` names another binary). Where it is missing they are
//! ignored, and the run says once which tests did not run and how to run
//! them, so `cargo test` passes on a fresh machine. Where they are required,
//! under CI (`CI=true`, as CI services set it) or with
//! `PTC_REQUIRE_BROWSER=1` (as `.ci/run` sets it), a missing Chromium fails
//! them instead: nothing CI runs is skipped silently. `PTC_SKIP_BROWSER=1`
//! leaves them out even where Chromium is installed (and fails them where
//! they are required). One libtest-mimic trial per test, as cargo's own test
//! suite marks a test that `requires` a missing tool.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

mod common;

use common::*;
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// A browser test's body, given the Chromium binary.
type Body = fn(&str);

/// The browser tests, by name.
const TESTS: [(&str, Body); 2] = [
    (
        "the_html_report_shows_what_the_json_report_says",
        the_html_report_shows_what_the_json_report_says,
    ),
    (
        "the_matrix_shows_each_reports_figures",
        the_matrix_shows_each_reports_figures,
    ),
];

const INSTALL: &str = "install Chromium (`apt-get update && apt-get install -y chromium`) \
                       or name it with PTC_CHROMIUM=/path/to/chromium";

/// Where the browser is, or why there is none.
enum Browser {
    Found(String),
    /// Why there is none, and how to get one.
    Missing(String, &'static str),
}

impl Browser {
    fn find() -> Browser {
        if std::env::var("PTC_SKIP_BROWSER").as_deref() == Ok("1") {
            return Browser::Missing(
                "PTC_SKIP_BROWSER=1 leaves them out".into(),
                "unset PTC_SKIP_BROWSER",
            );
        }
        let bin = std::env::var("PTC_CHROMIUM").unwrap_or_else(|_| "chromium".to_owned());
        match Command::new(&bin).arg("--version").output() {
            Ok(o) if o.status.success() => Browser::Found(bin),
            Ok(o) => Browser::Missing(
                format!(
                    "`{bin} --version` failed ({}){}",
                    o.status,
                    match String::from_utf8_lossy(&o.stderr).trim() {
                        "" => String::new(),
                        err => format!(
                            ", its stderr:\n{}",
                            ptc_conformance_harness::quote::text(err)
                        ),
                    }
                ),
                INSTALL,
            ),
            Err(e) => Browser::Missing(format!("Chromium was not found (`{bin}`: {e})"), INSTALL),
        }
    }
}

/// What requires the browser tests to run here, if anything.
fn required_by() -> Option<String> {
    if std::env::var("PTC_REQUIRE_BROWSER").as_deref() == Ok("1") {
        return Some("PTC_REQUIRE_BROWSER=1".into());
    }
    match std::env::var("CI") {
        Ok(v) if !v.is_empty() && v != "false" && v != "0" => Some(format!("CI={v}")),
        _ => None,
    }
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let browser = Browser::find();
    let required = required_by();
    let trials: Vec<Trial> = TESTS
        .iter()
        .map(|&(name, body)| {
            let (bin, missing, fix) = match &browser {
                Browser::Found(bin) => (Some(bin.clone()), String::new(), ""),
                Browser::Missing(why, fix) => (None, why.clone(), *fix),
            };
            let required = required.clone();
            Trial::ignorable_test(name, move || match (bin, required) {
                (Some(bin), _) => {
                    body(&bin);
                    Ok(Completion::Completed)
                }
                (None, Some(by)) => Err(Failed::from(format!(
                    "the browser tests must run here ({by}), but {missing}: {fix}"
                ))),
                (None, None) => Ok(Completion::ignored_with(
                    "needs Chromium: apt-get install -y chromium",
                )),
            })
        })
        .collect();
    // The note comes last, after the summary: this target runs last in
    // `cargo test` (its name, `web_pages`, sorts after every other), so the
    // note is the last thing a run without Chromium prints.
    let note = match (&browser, &required, args.list) {
        (Browser::Missing(why, fix), None, false) => {
            let left_out: Vec<&str> = trials
                .iter()
                .filter(|t| !args.is_filtered_out(t))
                .map(Trial::name)
                .collect();
            (!left_out.is_empty()).then(|| {
                format!(
                    "note: browser tests not run: {}; {why}. To run them, {fix}. \
                     Under CI=true or PTC_REQUIRE_BROWSER=1 they fail instead.",
                    left_out.join(", ")
                )
            })
        }
        _ => None,
    };
    let conclusion = libtest_mimic::run(&args, trials);
    if let Some(note) = note {
        println!("{note}");
    }
    conclusion.exit_code()
}

/// The DOM Chromium builds from `page`.
fn dom(chromium: &str, page: &Path, profile: &Path) -> String {
    let out = Command::new(chromium)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        dom.contains("</html>"),
        "chromium gave no DOM ({}); its stderr:\n{}",
        out.status,
        ptc_conformance_harness::quote::text(&String::from_utf8_lossy(&out.stderr))
    );
    dom
}

/// The text of the element with id `id` (tags inside it removed).
fn by_id(dom: &str, id: &str) -> String {
    let re = Regex::new(&format!(
        r#"(?s)<(\w+)[^>]*\bid="{}"[^>]*>(.*?)</(\w+)>"#,
        regex::escape(id)
    ))
    .unwrap();
    let caps = re
        .captures(dom)
        .unwrap_or_else(|| panic!("no element #{id} in the page"));
    strip(&caps[2])
}

/// The text of the table row with id `id`, one string per cell.
fn row(dom: &str, id: &str) -> Vec<String> {
    let re = Regex::new(&format!(
        r#"(?s)<tr[^>]*\bid="{}"[^>]*>(.*?)</tr>"#,
        regex::escape(id)
    ))
    .unwrap();
    let caps = re
        .captures(dom)
        .unwrap_or_else(|| panic!("no row #{id} in the page"));
    Regex::new(r"(?s)<td[^>]*>(.*?)</td>")
        .unwrap()
        .captures_iter(&caps[1])
        .map(|c| strip(&c[1]))
        .collect()
}

fn strip(html: &str) -> String {
    let text = Regex::new(r"<[^>]*>").unwrap().replace_all(html, " ");
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A pass rate as the pages print it, computed here from a JSON report's cases.
fn rate(report: &serde_json::Value, op: &str) -> String {
    let cases: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["op"] == op)
        .collect();
    let run = cases
        .iter()
        .filter(|c| c["outcome"] != "skip" && c["outcome"] != "unexpected_skip")
        .count();
    let passed = cases.iter().filter(|c| c["outcome"] == "pass").count();
    let skipped = cases.len() - run;
    let mut text = match (passed * 1000).checked_div(run) {
        None => "not run".to_owned(),
        Some(tenths) => match tenths % 10 {
            0 => format!("{}% ({passed}/{run})", tenths / 10),
            d => format!("{}.{d}% ({passed}/{run})", tenths / 10),
        },
    };
    if skipped > 0 {
        text.push_str(&format!(" {skipped} skipped"));
    }
    text
}

/// A corpus with a passing case, a failing one whose answer holds markup,
/// and a case of an op the test adapter does not declare; the reference's
/// and the test adapter's JSON reports of it.
fn reports(dir: &Path) -> (PathBuf, Vec<(PathBuf, serde_json::Value)>) {
    let hostile = r#"</pre><script>document.title='pwned'</script><b>bold</b> & \"q\"-x"#;
    let golden = corpus(
        dir,
        &[
            "key_normalizer/normalize_key/string-with-hyphen",
            "key_normalizer/normalize_keys/collision-hyphen-vs-underscore",
        ],
        &[(
            "key_normalizer/normalize_key/hostile.json",
            case_json(
                "key_normalizer/normalize_key/hostile",
                "key_normalizer.normalize_key",
                "KN-2",
                &format!("\"{hostile}\""),
                &format!("\"{hostile}\""),
            ),
        )],
    );
    let adapter = misbehave(&[]);
    let mut out = Vec::new();
    for (name, more) in [
        ("reference", vec![]),
        ("misbehave", with_adapter(&[], &adapter)),
    ] {
        let o = run(&golden, &[&["--format", "json"], &more[..]].concat());
        assert_eq!(
            o.status.code(),
            Some(1),
            "{name}: the hostile case fails: {}",
            text(&o)
        );
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, &o.stdout).unwrap();
        out.push((path, json_report(&o)));
    }
    (golden, out)
}

/// The HTML report shows its JSON report's verdict, totals, op figures and
/// failure; the failing answer's markup is text, not elements.
fn the_html_report_shows_what_the_json_report_says(chromium: &str) {
    let dir = scratch_dir("browser-report");
    let (golden, reports) = reports(&dir);
    let (_, json) = &reports[0];
    let o = run(&golden, &["--format", "html"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let page = dir.join("report.html");
    std::fs::write(&page, &o.stdout).unwrap();
    let dom = dom(chromium, &page, &dir.join("profile"));
    assert_eq!(by_id(&dom, "verdict"), "FAIL");
    let totals = &json["totals"];
    for (id, key) in [
        ("total-passed", "passed"),
        ("total-failed", "failed"),
        ("total-skipped", "skipped"),
        ("total-errors", "errors"),
        ("total-cases", "total"),
    ] {
        assert_eq!(by_id(&dom, id), totals[key].to_string(), "#{id}");
    }
    for op in [
        "key_normalizer.normalize_key",
        "key_normalizer.normalize_keys",
    ] {
        let cells = row(&dom, &format!("op-{op}"));
        assert_eq!(cells[0], op);
        assert_eq!(cells.last().unwrap(), &rate(json, op), "{op}: {cells:?}");
    }
    let failing = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["outcome"] == "fail")
        .unwrap();
    let id = failing["id"].as_str().unwrap();
    assert!(
        dom.contains(&format!("<code class=\"case-id\">{id}</code>")),
        "{id}"
    );
    assert!(!dom.contains("<script"), "answer markup became an element");
    assert!(!dom.contains("<b>bold"), "answer markup became an element");
    assert!(strip(&dom).contains("<script>document.title='pwned'</script>"));
    assert!(by_id(&dom, "subject").starts_with("reference"));
}

/// The matrix shows each report's verdict and totals, each op's pass rate
/// per implementation, and links a failing cell to the failure's id.
fn the_matrix_shows_each_reports_figures(chromium: &str) {
    let dir = scratch_dir("browser-matrix");
    let (_, reports) = reports(&dir);
    let page = dir.join("matrix.html");
    let o = bin()
        .arg("matrix")
        .args(reports.iter().map(|(p, _)| p))
        .arg("--output")
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let dom = dom(chromium, &page, &dir.join("profile"));
    for (i, (_, json)) in reports.iter().enumerate() {
        let cells = row(&dom, &format!("impl-{i}"));
        let t = &json["totals"];
        let verdict = if json["verdict"]["passed"] == true {
            "PASS"
        } else {
            "FAIL"
        };
        assert_eq!(cells[3], "0.13.0 (the default)", "{cells:?}");
        assert!(cells[5].starts_with(verdict), "{cells:?}");
        let figures: Vec<String> = ["passed", "failed", "skipped", "errors", "total"]
            .iter()
            .map(|k| t[k].to_string())
            .collect();
        assert_eq!(cells[6..11], figures[..], "column {i}: {cells:?}");
        for op in [
            "key_normalizer.normalize_key",
            "key_normalizer.normalize_keys",
        ] {
            let cells = row(&dom, &format!("op-{op}"));
            assert_eq!(cells[i + 1], rate(json, op), "column {i}, {op}");
        }
    }
    assert_eq!(
        row(&dom, "op-key_normalizer.normalize_keys")[2],
        "not run 1 skipped"
    );
    let href = "#f1-op-key_normalizer.normalize_key";
    assert!(
        dom.contains(&format!("href=\"{href}\"")),
        "a failing cell links to its failures"
    );
    assert!(dom.contains(&format!("id=\"{}\"", &href[1..])));
    let id = "key_normalizer/normalize_key/hostile";
    assert!(dom.contains("id=\"f1-case-key_normalizer~2fnormalize_key~2fhostile\""));
    assert!(dom.contains(&format!("<code class=\"case-id\">{id}</code>")));
    assert!(!dom.contains("<script"), "answer markup became an element");
}
