//! `compare --format json`: the comparison as data.

use super::{Comparison, OneSided};
use crate::review::causes::Trigger;
use crate::review::kinds::Side;

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
                    "ops": g.ops,
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
        let causes: Vec<serde_json::Value> = self
            .causes
            .iter()
            .map(|c| {
                let (cases, generated) = self.cause_counts(c);
                json!({
                    "title": c.title(labels),
                    "difference_of_behaviour": !c.is_fault(),
                    "change": c.change.as_ref().map(|x| change_json(x, labels)),
                    "when": c.when(labels),
                    "joined": c.joined.iter().map(|(t, test)| json!({"trigger": t, "test": test})).collect::<Vec<_>>(),
                    "trigger_title": c.trigger_title(labels),
                    "trigger": trigger_json(&c.trigger, labels),
                    "triggers": c.triggers.iter().map(|t| trigger_json(t, labels)).collect::<Vec<_>>(),
                    "found": c.how,
                    "ops": self.cause_ops(c),
                    "cases": cases,
                    "generated": generated,
                    "cases_run_on_neither_side": c.cases_not_run,
                    "example_kind": c.example.or_else(|| self.cause_example(c)),
                    "kinds": c.kinds,
                })
            })
            .collect();
        let fuzz = self.fuzz.as_ref().map(|f| {
            let declines: Vec<serde_json::Value> = f
                .declines
                .iter()
                .map(|((side, op, reason), n)| {
                    json!({"side": side, "op": op, "reason": reason, "count": n})
                })
                .collect();
            let fields = |s: &std::collections::BTreeSet<(String, String)>| -> Vec<String> {
                s.iter().map(|(m, f)| format!("{m}.{f}")).collect()
            };
            json!({
                "checked": f.checked,
                "declines": declines,
                "retried": f.retried,
                "struct_fields_lacking": f.lacking.iter().map(|(side, s)| (side.to_string(), fields(s))).collect::<std::collections::BTreeMap<_, _>>(),
                "struct_fields_neither_has": fields(&f.unknown_fields),
                "inputs_sent_without_them": f.stripped,
                "declined": f.declined,
                "unanswered": f.unanswered,
                "elapsed_seconds": f.elapsed.as_secs_f64(),
                "per_op": f.checked_per_op,
                "differed": f.findings.iter().map(|x| x.count).sum::<usize>(),
            })
        });
        let t = &self.timing;
        json!({
            "base": self.base,
            "head": self.head,
            "passed": self.passed(),
            "timing": {
                "seconds": t.total().as_secs_f64(),
                "corpus_seconds": t.corpus.as_secs_f64(),
                "fuzz_seconds": t.fuzz.as_secs_f64(),
                "causes_seconds": t.causes.as_secs_f64(),
                "base_answering_seconds": t.answering.0.as_secs_f64(),
                "head_answering_seconds": t.answering.1.as_secs_f64(),
                "shrinking_seconds": t.shrinking.as_secs_f64(),
                "alone": t.alone.map(|(n, b, h)| json!({
                    "inputs": n,
                    "base_seconds": b.as_secs_f64(),
                    "head_seconds": h.as_secs_f64(),
                    "ratio_to_slower_side": t.ratio_alone(),
                })),
                "ratio_to_slower_side": t.ratio(),
            },
            "totals": {
                "selected": self.selected,
                "agreed": self.agreed,
                "differed": self.differences.len(),
                "skipped": self.skipped,
                "unanswered": self.unanswered,
                "unanswered_cases": self.unanswered_cases.iter().map(|(c, a)| json!({
                    "id": c.id,
                    "base": crate::review::show::answer_text(a),
                })).collect::<Vec<_>>(),
                "kinds": self.groups.len(),
                "causes": self.causes.iter().filter(|c| !c.is_fault()).count(),
                "faults": self.causes.iter().filter(|c| c.is_fault()).count(),
                "explained_by_structs": {
                    "cases": self.explained().0,
                    "generated": self.explained().1,
                },
            },
            "one_sided": {
                "ops": one_sided(&self.one_sided_ops),
                "features": one_sided(&self.one_sided_features),
            },
            "causes": causes,
            "kinds": kinds,
            "fuzz": fuzz,
            "learned_option_names": self.learned.as_ref().map(|l| json!({
                "words": l.words,
                "base_atoms": l.base,
                "head_atoms": l.head,
            })),
            "faults": self.faults,
        })
    }
}

/// A trigger as data: what it is and what it names.
fn trigger_json(t: &Trigger, labels: crate::review::kinds::Labels) -> serde_json::Value {
    use serde_json::json;
    let side = |s: &Side| match s {
        Side::Expected => labels.0,
        Side::Actual => labels.1,
    };
    match t {
        Trigger::Field { module, field } => {
            json!({"struct_field": {"module": module, "field": field}})
        }
        Trigger::Struct { module } => json!({"struct": module}),
        Trigger::Option { op, path, key } => json!({"option": key, "op": op, "path": path}),
        Trigger::Impl {
            protocol,
            modules,
            lacking,
        } => {
            json!({"protocol_impl": {"protocol": protocol, "modules": modules, "lacking": side(lacking)}})
        }
        Trigger::MapKey { class } => json!({"map_key_class": class}),
        Trigger::Pairs { op, path } => json!({"map_pairs": {"op": op, "path": path}}),
        Trigger::Nested { op, path } => json!({"nested": {"op": op, "path": path}}),
        Trigger::Value {
            op,
            path,
            of,
            value,
        } => json!({"value": {"op": op, "path": path, "type": of, "value": value}}),
        Trigger::Refusal { side: s, reason } => {
            json!({"refusal": {"side": side(s), "reason": reason}})
        }
        Trigger::Ops { names, side: s } => json!({"ops": {"names": names, "declared_by": side(s)}}),
        Trigger::Char { c, within } => json!({"character": {
            "char": c.to_string(),
            "within": trigger_json(within, labels),
        }}),
        Trigger::Default {
            op,
            key,
            base,
            head,
        } => json!({"default": {
            "op": op, "key": key, "base": base, "head": head,
        }}),
        Trigger::Message { class, parting } => json!({"message": {
            "class": class,
            "after": parting.after,
            "base": parting.base,
            "head": parting.head,
        }}),
        Trigger::Output { op, depth, what } => {
            json!({"output": {"op": op, "depth": depth, "what": what}})
        }
        Trigger::Alone(kind) => json!({"none": kind.title(labels)}),
        Trigger::Fault { side: s } => json!({"fault": side(s)}),
    }
}

/// A cause's output change as data: the op, where, how, and each side's part.
fn change_json(
    c: &crate::review::causes::what::Change,
    labels: crate::review::kinds::Labels,
) -> serde_json::Value {
    use crate::review::causes::what::Delta;
    use serde_json::json;
    let side = |s: &Side| match s {
        Side::Expected => labels.0,
        Side::Actual => labels.1,
    };
    let how = match &c.delta {
        Delta::Raises {
            side: s,
            class,
            message,
        } => json!({"raises": {"side": side(s), "class": class, "message": message}}),
        Delta::Class { base, head } => json!({"class": {"base": base, "head": head}}),
        Delta::Text { base, head, .. } => json!({"text": {"base": base, "head": head}}),
        Delta::Key {
            side: s,
            key,
            value,
        } => json!({"key": {"only_in": side(s), "key": key, "value": value}}),
        Delta::Renamed { base, head } => json!({"renamed": {"base": base, "head": head}}),
        Delta::Value { base, head, .. } => json!({"value": {"base": base, "head": head}}),
        Delta::Order => json!("order"),
        Delta::Other(what) => json!({"other": what}),
    };
    json!({"op": c.op, "at": c.at, "how": how, "phrase": c.phrase(labels)})
}
