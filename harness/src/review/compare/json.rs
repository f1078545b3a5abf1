//! `compare --format json`: the comparison as data.

use super::{Comparison, OneSided};

impl Comparison<'_> {
    /// The comparison as data (`compare --format json`): the sides, the
    /// totals, what only one side declares, each kind once with its count,
    /// cases and smallest example, and the faults.
    pub fn to_json(&self) -> serde_json::Value {
        use crate::review::show::answer_text;
        use serde_json::json;
        let labels = ("base", "head");
        let one_sided = |v: &[OneSided]| -> Vec<serde_json::Value> {
            v.iter()
                .map(|o| json!({"name": o.name, "declared_by": o.declared_by, "cases": o.cases}))
                .collect()
        };
        let kinds: Vec<serde_json::Value> = self
            .groups
            .iter()
            .map(|g| {
                let args: Vec<serde_json::Value> = g
                    .example
                    .args
                    .iter()
                    .map(|a| {
                        serde_json::from_str(&ptc_conformance::tagged::encode(a))
                            .unwrap_or(serde_json::Value::Null)
                    })
                    .collect();
                json!({
                    "title": g.kind.title(labels),
                    "op": g.kind.op,
                    "path": g.kind.path,
                    "struct": g.kind.structure,
                    "how": format!("{:?}", g.kind.how),
                    "count": g.count(),
                    "cases": g.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                    "generated": g.generated,
                    "example": {
                        "case": g.example.case,
                        "args": args,
                        "base": answer_text(&g.example.base),
                        "head": answer_text(&g.example.head),
                        "diff": g.example.diff,
                        "shrink_steps": g.example.shrink_steps,
                    },
                    "emitted": g.emitted.as_ref().map(|p| p.display().to_string()),
                    "also_seen_in": g.also.iter().map(|a| json!({
                        "op": a.op,
                        "refused": a.refused,
                        "cases": a.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                        "generated": a.generated,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let fuzz = self.fuzz.as_ref().map(|f| {
            json!({
                "checked": f.checked,
                "declined": f.declined,
                "unanswered": f.unanswered,
                "elapsed_seconds": f.elapsed.as_secs_f64(),
                "per_op": f.checked_per_op,
                "differed": f.findings.iter().map(|x| x.count).sum::<usize>(),
            })
        });
        json!({
            "base": self.base,
            "head": self.head,
            "passed": self.passed(),
            "totals": {
                "selected": self.selected,
                "agreed": self.agreed,
                "differed": self.differences.len(),
                "skipped": self.skipped,
                "unanswered": self.unanswered,
                "kinds": self.groups.len(),
                "explained_by_structs": {
                    "cases": self.explained().0,
                    "generated": self.explained().1,
                },
            },
            "one_sided": {
                "ops": one_sided(&self.one_sided_ops),
                "features": one_sided(&self.one_sided_features),
            },
            "kinds": kinds,
            "fuzz": fuzz,
            "faults": self.faults,
        })
    }
}
