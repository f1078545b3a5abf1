//! The JSON report, a stable shape for machines.

use super::{problem, Summary};
use crate::corpus::Case;
use crate::judging::outcome::Outcome;
use serde_json::json;

/// The JSON report (`spec/adapter_protocol.md` § Reports).
pub fn render(s: &Summary<'_>, repro: &dyn Fn(&Case) -> Option<String>) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = s
        .results
        .iter()
        .map(|r| {
            let mut v = json!({
                "id": r.case.id,
                "op": r.case.op.name,
                "level": r.case.level.as_str(),
                "spec": r.case.spec,
                "outcome": r.outcome.name(),
                "required": r.required,
            });
            match &r.outcome {
                Outcome::Fail(d) => v["diff"] = json!(d),
                Outcome::Skip(why) | Outcome::UnexpectedSkip(why) => {
                    v["message"] = json!(why.to_string())
                }
                Outcome::Error(m) | Outcome::ExpectedFailure(m) => v["message"] = json!(m),
                _ => {}
            }
            if problem(r).is_some() && r.outcome.executed() {
                if let Some(cmd) = repro(r.case) {
                    v["replay"] = json!(cmd);
                }
            }
            v
        })
        .collect();
    let verdict = s.verdict();
    json!({
        "format": 1,
        "subject": s.subject,
        "level": s.level(),
        "verdict": {"passed": verdict.passed(), "exit": verdict.exit.code(), "reasons": verdict.reasons},
        "totals": s.totals(),
        "faults": s.faults,
        "stale_known_failures": s.stale_known,
        "cases": cases,
    })
}
