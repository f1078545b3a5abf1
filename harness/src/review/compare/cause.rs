//! The causes of a comparison: each kind's trigger found
//! ([`crate::review::causes`]), kinds with the same trigger put under one
//! cause, and an op only one side declares a cause too.

use super::{Comparison, Group, OneSided};
use crate::judging::judge::Reading;
use crate::review::attribution::Shapes;
use crate::review::causes::{Found, Search, Trigger};
use crate::review::kinds::{weight, Side};
use crate::subject::Subject;
use std::collections::BTreeSet;

/// A cause: its trigger, how it was found, and the kinds it explains.
#[derive(Clone, Debug)]
pub struct Cause {
    /// What triggers it.
    pub trigger: Trigger,
    /// How the trigger was found (for the first of its kinds).
    pub how: String,
    /// Every trigger found for its kinds ([`Trigger::same_cause`] as the first).
    pub triggers: Vec<Trigger>,
    /// Its kinds, as indices into [`Comparison::groups`].
    pub kinds: Vec<usize>,
    /// For an op one side declares: the selected cases run on neither side.
    pub cases_not_run: usize,
}

/// Finds each kind's trigger and groups the kinds by it; the ops only one
/// side declares are causes too. Struct fields first, then ops, then by
/// count; the kinds without a single trigger last.
pub fn causes(
    (base, head): (&mut dyn Subject, &mut dyn Subject),
    groups: &[Group<'_>],
    one_sided_ops: &[OneSided],
    shapes: &Shapes,
) -> Vec<Cause> {
    let mut search = Search {
        base,
        head,
        shapes,
        reading: Reading::AsAnswered,
        labels: ("base", "head"),
    };
    let mut out: Vec<Cause> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let found = match ptc_conformance::ops::find(g.kind.op) {
            Some(op) => search.trigger(
                &g.kind,
                op,
                &g.example.args,
                (&g.example.base, &g.example.head),
            ),
            None => crate::review::causes::named(&g.kind).unwrap_or(Found {
                trigger: Trigger::Alone(g.kind.clone()),
                how: "no op to search with".into(),
            }),
        };
        match out
            .iter_mut()
            .find(|c| c.triggers.iter().any(|t| t.same_cause(&found.trigger)))
        {
            Some(c) => {
                c.kinds.push(i);
                if !c.triggers.contains(&found.trigger) {
                    c.triggers.push(found.trigger);
                }
            }
            None => out.push(Cause {
                triggers: vec![found.trigger.clone()],
                trigger: found.trigger,
                how: found.how,
                kinds: vec![i],
                cases_not_run: 0,
            }),
        }
    }
    for (label, side) in [("base", Side::Expected), ("head", Side::Actual)] {
        let ops: Vec<&OneSided> = one_sided_ops
            .iter()
            .filter(|o| o.declared_by == label)
            .collect();
        if ops.is_empty() {
            continue;
        }
        out.push(Cause {
            trigger: Trigger::Ops {
                names: ops.iter().map(|o| o.name.clone()).collect(),
                side,
            },
            how: "declared by one side only".into(),
            triggers: Vec::new(),
            kinds: Vec::new(),
            cases_not_run: ops.iter().map(|o| o.cases).sum(),
        });
    }
    let order = |c: &Cause| match &c.trigger {
        Trigger::Field { .. } if groups[c.kinds[0]].kind.one_sided() => 0,
        Trigger::Ops { .. } => 1,
        Trigger::Alone(_) => 3,
        Trigger::Fault { .. } => 4,
        _ => 2,
    };
    let count = |c: &Cause| -> usize {
        c.kinds
            .iter()
            .map(|&k| {
                let g = &groups[k];
                g.count()
                    + g.also
                        .iter()
                        .map(|a| a.cases.len() + a.generated)
                        .sum::<usize>()
            })
            .sum()
    };
    out.sort_by(|a, b| {
        order(a)
            .cmp(&order(b))
            .then(count(b).cmp(&count(a)))
            .then(a.trigger.cmp(&b.trigger))
    });
    out
}

impl Cause {
    /// One line naming the cause: its trigger, and for values met at one
    /// place or as one value, every value or place.
    pub fn title(&self, labels: crate::review::kinds::Labels) -> String {
        let values: Vec<(&str, &str, &str, &str)> = self
            .triggers
            .iter()
            .filter_map(|t| match t {
                Trigger::Value {
                    op,
                    path,
                    of,
                    value,
                } => Some((*op, path.as_str(), of.as_str(), value.as_str())),
                _ => None,
            })
            .collect();
        if values.len() < 2 || values.len() != self.triggers.len() {
            return self.trigger.title(labels);
        }
        let (op, path, of, value) = values[0];
        if values.iter().all(|v| (v.0, v.1) == (op, path)) {
            let all: BTreeSet<&str> = values.iter().map(|v| v.3).collect();
            let all: Vec<&str> = all.into_iter().collect();
            return format!("the value at {op} args{path}: {}", all.join(", "));
        }
        let places: BTreeSet<String> = values
            .iter()
            .map(|v| format!("{} args{}", v.0, v.1))
            .collect();
        let places: Vec<String> = places.into_iter().collect();
        format!("the {of} {value} at {}", places.join(", "))
    }
}

impl Comparison<'_> {
    /// A cause's corpus cases and generated inputs: its kinds' and the
    /// echoes counted under them.
    pub fn cause_counts(&self, c: &Cause) -> (usize, usize) {
        c.kinds.iter().fold((0, 0), |(cases, gen), &k| {
            let g = &self.groups[k];
            let (ac, ag) = g
                .also
                .iter()
                .fold((0, 0), |(x, y), a| (x + a.cases.len(), y + a.generated));
            (cases + g.cases.len() + ac, gen + g.generated + ag)
        })
    }

    /// The ops a cause reaches: its kinds' ops and where its echoes were.
    pub fn cause_ops(&self, c: &Cause) -> BTreeSet<&'static str> {
        let mut ops = BTreeSet::new();
        for &k in &c.kinds {
            let g = &self.groups[k];
            ops.extend(g.ops.iter().copied());
            ops.extend(g.also.iter().map(|a| a.op));
        }
        ops
    }

    /// The kind whose example is the cause's (the smallest).
    pub fn cause_example(&self, c: &Cause) -> Option<usize> {
        c.kinds
            .iter()
            .copied()
            .min_by_key(|&k| weight(&self.groups[k].example.args))
    }
}
