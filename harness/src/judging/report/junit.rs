//! The JUnit XML report, for CI systems.

use super::{problem, Summary};
use crate::corpus::Case;
use crate::judging::outcome::Outcome;
use std::collections::BTreeMap;

/// JUnit XML: one test suite per op, one test case per case.
pub fn render(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("ptc-conformance");
    let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
    for r in &s.results {
        let status = match &r.outcome {
            Outcome::Pass | Outcome::ExpectedFailure(_) => TestCaseStatus::success(),
            Outcome::Skip(why) => {
                let mut st = TestCaseStatus::skipped();
                st.set_message(why.to_string());
                st
            }
            _ => {
                let (label, text) = problem(r).unwrap_or(("FAIL", String::new()));
                let kind = if matches!(r.outcome, Outcome::Error(_)) {
                    NonSuccessKind::Error
                } else {
                    NonSuccessKind::Failure
                };
                let mut st = TestCaseStatus::non_success(kind);
                st.set_message(label);
                let mut desc = text;
                if let Some(cmd) = repro(r.case).filter(|_| r.outcome.executed()) {
                    desc.push_str(&format!("\nreplay: {cmd}"));
                }
                st.set_description(desc);
                st
            }
        };
        let mut tc = TestCase::new(r.case.id.as_str(), status);
        tc.set_classname(r.case.op.name);
        suites
            .entry(r.case.op.name)
            .or_insert_with(|| TestSuite::new(r.case.op.name))
            .add_test_case(tc);
    }
    // The run as a whole: adapter faults, stale entries and an empty run
    // fail it without failing a case, so they get a test case of their own.
    let verdict = s.verdict();
    let status = if verdict.passed() {
        TestCaseStatus::success()
    } else {
        let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
        st.set_message("the run fails");
        st.set_description(verdict.reasons.join("\n"));
        st
    };
    let mut run = TestSuite::new("run");
    let mut tc = TestCase::new("verdict", status);
    tc.set_classname("run");
    run.add_test_case(tc);
    report.add_test_suites(suites.into_values());
    report.add_test_suite(run);
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- cannot write JUnit XML: {e} -->\n"))
}
