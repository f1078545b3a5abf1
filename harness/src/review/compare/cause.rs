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
        match out.iter_mut().find(|c| c.trigger == found.trigger) {
            Some(c) => c.kinds.push(i),
            None => out.push(Cause {
                trigger: found.trigger,
                how: found.how,
                kinds: vec![i],
                cases_not_run: 0,
            }),
        }
    }
    for o in one_sided_ops {
        out.push(Cause {
            trigger: Trigger::Op {
                name: o.name.clone(),
                side: if o.declared_by == "base" {
                    Side::Expected
                } else {
                    Side::Actual
                },
            },
            how: "declared by one side only".into(),
            kinds: Vec::new(),
            cases_not_run: o.cases,
        });
    }
    let order = |c: &Cause| match &c.trigger {
        Trigger::Field { .. } if groups[c.kinds[0]].kind.one_sided() => 0,
        Trigger::Op { .. } => 1,
        Trigger::Alone(_) => 3,
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
