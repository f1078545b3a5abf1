//! The JUnit XML report, for CI systems, made from the JSON report.

use super::json::JsonReport;
use std::collections::BTreeMap;

/// JUnit XML: one test suite per op, one test case per case.
pub fn render(report: &JsonReport) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut junit = Report::new("ptc-conformance");
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for c in &report.cases {
        let status = match (c.outcome.as_str(), c.problem()) {
            ("skip", _) => {
                let mut st = TestCaseStatus::skipped();
                st.set_message(c.message.clone().unwrap_or_default());
                st
            }
            (_, None) => TestCaseStatus::success(),
            (outcome, Some((label, text))) => {
                let kind = if outcome == "error" {
                    NonSuccessKind::Error
                } else {
                    NonSuccessKind::Failure
                };
                let mut st = TestCaseStatus::non_success(kind);
                st.set_message(label);
                let mut desc = text;
                if let Some(cmd) = &c.replay {
                    desc.push_str(&format!("\nreplay: {cmd}"));
                }
                st.set_description(desc);
                st
            }
        };
        let mut tc = TestCase::new(c.id.as_str(), status);
        tc.set_classname(c.op.as_str());
        suites
            .entry(c.op.as_str())
            .or_insert_with(|| TestSuite::new(c.op.as_str()))
            .add_test_case(tc);
    }
    // The run as a whole: adapter faults, stale entries and an empty run
    // fail it without failing a case, so they get a test case of their own.
    let status = if report.verdict.passed {
        TestCaseStatus::success()
    } else {
        let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
        st.set_message("the run fails");
        st.set_description(report.verdict.reasons.join("\n"));
        st
    };
    let mut run = TestSuite::new("run");
    // Which corpus ran: the run suite's properties (`corpus.source`,
    // `corpus.cases`, `corpus.sha256`, `spec.sha256`, ...).
    if let Some(c) = &report.corpus {
        for (name, value) in crate::corpus::properties(c, report.spec.as_ref()) {
            run.add_property(quick_junit::Property::new(name, value));
        }
    }
    run.add_property(quick_junit::Property::new("release", report.release_line()));
    let mut tc = TestCase::new("verdict", status);
    tc.set_classname("run");
    run.add_test_case(tc);
    junit.add_test_suites(suites.into_values());
    junit.add_test_suite(run);
    junit
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write JUnit XML: {e} -->\n"))
}
