//! Grouping differences into kinds: each kind once, with its cases, its
//! generated count and its smallest example.

use super::{AlsoSeen, CaseDifference, Example, Group};
use crate::review::fuzz::FuzzReport;
use crate::review::kinds::weight;
use crate::subject::Answer;

/// The kinds of `differences` and of the fuzzer's findings, each once: its
/// cases, its generated count and its smallest example (the shrunk
/// generated input when there is one, else the smallest case). Struct
/// fields only one side has come first, then by op, then by count.
pub fn group<'c>(differences: &[CaseDifference<'c>], fuzz: Option<&FuzzReport>) -> Vec<Group<'c>> {
    let mut groups: Vec<Group<'c>> = Vec::new();
    for d in differences.iter().filter(|d| d.explained.is_none()) {
        let example = || Example {
            case: Some(d.case.id.clone()),
            args: d.case.args.clone(),
            base: d.base.clone(),
            head: d.head.clone(),
            diff: d.diff.clone(),
            shrink_steps: None,
        };
        match groups.iter_mut().find(|g| g.kind == d.kind.cause()) {
            Some(g) => {
                g.ops.insert(d.case.op.name);
                g.cases.push(d.case);
                if weight(&d.case.args) < weight(&g.example.args) {
                    g.example = example();
                }
            }
            None => groups.push(Group {
                kind: d.kind.cause(),
                cases: vec![d.case],
                generated: 0,
                example: example(),
                emitted: None,
                also: Vec::new(),
                ops: [d.case.op.name].into_iter().collect(),
            }),
        }
    }
    for f in fuzz.map_or(&[][..], |f| &f.findings[..]) {
        let example = Example {
            case: None,
            args: f.args.clone(),
            base: f.expected.clone(),
            head: f.actual.clone(),
            diff: f.diff.clone(),
            shrink_steps: Some(f.shrink_steps),
        };
        match groups.iter_mut().find(|g| g.kind == f.kind.cause()) {
            Some(g) => {
                g.ops.insert(f.op.name);
                g.generated += f.count;
                if weight(&f.args) < weight(&g.example.args) {
                    g.example = example;
                }
            }
            None => groups.push(Group {
                kind: f.kind.cause(),
                cases: Vec::new(),
                generated: f.count,
                example,
                emitted: None,
                also: Vec::new(),
                ops: [f.op.name].into_iter().collect(),
            }),
        }
    }
    // Explained differences, under each shape change that explains them.
    let explained = differences
        .iter()
        .filter_map(|d| Some((d.case.op.name, d.explained.as_ref()?, Some(d.case), 1)))
        .chain(
            fuzz.iter()
                .flat_map(|f| &f.explained)
                .map(|((op, why), n)| (*op, why, None, *n)),
        );
    for (op, why, case, n) in explained {
        for change in &why.changes {
            // A change learned from refusals alone, met in no answer as a
            // struct: its kind, with no instance of its own.
            if !groups.iter().any(|g| g.kind == change.kind()) {
                let (args, base, head) = case.map_or_else(
                    || {
                        (
                            Vec::new(),
                            Answer::Error("(generated)".into()),
                            Answer::Error("(generated)".into()),
                        )
                    },
                    |c| {
                        let d = differences.iter().find(|d| d.case.id == c.id);
                        (
                            c.args.clone(),
                            d.map_or(Answer::Error(String::new()), |d| d.base.clone()),
                            d.map_or(Answer::Error(String::new()), |d| d.head.clone()),
                        )
                    },
                );
                groups.push(Group {
                    kind: change.kind(),
                    cases: Vec::new(),
                    generated: 0,
                    example: Example {
                        case: case.map(|c| c.id.clone()),
                        args,
                        base,
                        head,
                        diff: format!(
                            "{}.{} is a field only one side's struct has (learned from refusals)",
                            change.module, change.field
                        ),
                        shrink_steps: None,
                    },
                    emitted: None,
                    also: Vec::new(),
                    ops: Default::default(),
                });
            }
            let Some(g) = groups.iter_mut().find(|g| g.kind == change.kind()) else {
                continue;
            };
            let i = match g
                .also
                .iter()
                .position(|a| a.op == op && a.refused == why.refused)
            {
                Some(i) => i,
                None => {
                    g.also.push(AlsoSeen {
                        op,
                        refused: why.refused,
                        cases: Vec::new(),
                        generated: 0,
                    });
                    g.also.len() - 1
                }
            };
            match case {
                Some(c) => g.also[i].cases.push(c),
                None => g.also[i].generated += n,
            }
        }
    }
    for g in &mut groups {
        g.also
            .sort_by(|a, b| a.refused.cmp(&b.refused).then(a.op.cmp(b.op)));
    }
    groups.sort_by(|a, b| {
        b.kind
            .one_sided()
            .cmp(&a.kind.one_sided())
            .then(a.kind.op.cmp(b.kind.op))
            .then(b.count().cmp(&a.count()))
            .then(a.kind.cmp(&b.kind))
    });
    groups
}
