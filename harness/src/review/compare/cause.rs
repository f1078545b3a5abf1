//! The causes of a comparison: each kind's trigger found
//! ([`crate::review::causes`]), kinds with the same trigger put under one
//! cause, and an op only one side declares a cause too.

use super::{Comparison, Group, OneSided};
use crate::judging::judge::Reading;
use crate::review::attribution::Shapes;
use crate::review::causes::default::OptionsSeen;
use crate::review::causes::join::{self, Link, Member};
use crate::review::causes::what::Change;
use crate::review::causes::{in_list, Found, Search, Trigger};
use crate::review::kinds::{weight, Side};
use crate::subject::Subject;
use std::collections::{BTreeMap, BTreeSet};

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
    /// What changed in the answers of its example, base → head (none for
    /// an op one side declares).
    pub change: Option<Change>,
    /// The kind whose example shows the change (an index into
    /// [`Comparison::groups`]).
    pub example: Option<usize>,
    /// Causes found apart and joined to it by test, each its trigger's
    /// title and the test that joined it.
    pub joined: Vec<(String, &'static str)>,
}

/// Finds each kind's trigger and groups the kinds by it; the ops only one
/// side declares are causes too. Struct fields first, then ops, then by
/// count; the kinds without a single trigger last.
pub fn causes(
    (base, head): (&mut dyn Subject, &mut dyn Subject),
    groups: &[Group<'_>],
    one_sided_ops: &[OneSided],
    shapes: &Shapes,
    seen: &OptionsSeen,
) -> Vec<Cause> {
    let mut search = Search {
        base,
        head,
        shapes,
        reading: Reading::AsAnswered,
        labels: ("base", "head"),
        seen,
    };
    let mut out: Vec<Cause> = Vec::new();
    // Each searched kind's trigger, so that a cause is titled by the
    // trigger of the kind whose example it shows.
    let mut found_of: BTreeMap<usize, Found> = BTreeMap::new();
    for (i, g) in groups.iter().enumerate() {
        // A kind an existing cause already explains (its change undone, or
        // its trigger taken out, the two agree) is that cause's: no search.
        if let Some((j, test)) = explained_by(&mut search, groups, &out, g) {
            let c = &mut out[j];
            c.kinds.push(i);
            c.kinds.sort_unstable();
            c.joined.push((g.kind.title(("base", "head")), test));
            continue;
        }
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
        found_of.insert(i, found.clone());
        // Every cause this trigger is one with, merged into the first.
        let joined: Vec<usize> = (0..out.len())
            .filter(|&j| {
                out[j].triggers.iter().any(|t| {
                    t.same_cause(&found.trigger) || one_shape_change(t, &found.trigger, shapes)
                })
            })
            .collect();
        match joined.split_first() {
            None => out.push(Cause {
                triggers: vec![found.trigger.clone()],
                trigger: found.trigger,
                how: found.how,
                kinds: vec![i],
                cases_not_run: 0,
                change: None,
                example: None,
                joined: Vec::new(),
            }),
            Some((&first, rest)) => {
                for &j in rest.iter().rev() {
                    let other = out.remove(j);
                    out[first].kinds.extend(other.kinds);
                    for t in other.triggers {
                        if !out[first].triggers.contains(&t) {
                            out[first].triggers.push(t);
                        }
                    }
                }
                let c = &mut out[first];
                c.kinds.push(i);
                c.kinds.sort_unstable();
                if !c.triggers.contains(&found.trigger) {
                    c.triggers.push(found.trigger);
                }
            }
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
            change: None,
            example: None,
            joined: Vec::new(),
        });
    }
    let mut out = joined(&mut search, groups, &mut found_of, out);
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

/// The first cause of `out` that explains the kind `g` by test
/// ([`join::links`]), with the test.
fn explained_by(
    search: &mut Search<'_>,
    groups: &[Group<'_>],
    out: &[Cause],
    g: &Group<'_>,
) -> Option<(usize, &'static str)> {
    let op = ptc_conformance::ops::find(g.kind.op)?;
    if g.kind.one_sided()
        || crate::review::causes::named(&g.kind).is_some()
        || !matches!(
            (&g.example.base, &g.example.head),
            (
                crate::subject::Answer::Ok(_) | crate::subject::Answer::Raised(_),
                crate::subject::Answer::Ok(_) | crate::subject::Answer::Raised(_)
            )
        )
    {
        return None;
    }
    let candidates: Vec<(usize, Change)> = out
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            !matches!(
                c.trigger,
                Trigger::Fault { .. } | Trigger::Ops { .. } | Trigger::Refusal { .. }
            ) && !c.kinds.iter().any(|&k| groups[k].kind.one_sided())
        })
        .filter_map(|(j, c)| Some((j, shown_by(groups, &c.kinds)?.2)))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let change = Change::of(op, &g.example.base, &g.example.head);
    let mut members = vec![Member {
        trigger: &Trigger::Fault {
            side: crate::review::kinds::Side::Expected,
        },
        also: &[],
        op,
        args: &g.example.args,
        base: &g.example.base,
        head: &g.example.head,
        change: &change,
    }];
    for (j, c) in &candidates {
        let k = out[*j].kinds[0];
        let e = &groups[k].example;
        members.push(Member {
            trigger: &out[*j].trigger,
            also: &out[*j].triggers,
            op: ptc_conformance::ops::find(groups[k].kind.op).unwrap_or(op),
            args: &e.args,
            base: &e.base,
            head: &e.head,
            change: c,
        });
    }
    let links = join::links_to(search, &members, 0);
    links.first().map(|l| (candidates[l.by - 1].0, l.test))
}

/// A cause's trigger made the one of the kind whose example it shows
/// (titles say what changed in that example, then when it shows): the
/// kind's own, or, for a kind joined without a search of its own, found
/// now. Kept as it was when that search names no part of the input.
fn shown_when(
    search: &mut Search<'_>,
    groups: &[Group<'_>],
    found_of: &mut BTreeMap<usize, Found>,
    c: &mut Cause,
) {
    let Some(k) = c.example else { return };
    if c.kinds.len() < 2
        || matches!(
            c.trigger,
            Trigger::Field { .. }
                | Trigger::Impl { .. }
                | Trigger::Ops { .. }
                | Trigger::Fault { .. }
                | Trigger::Refusal { .. }
        )
    {
        return;
    }
    let found = match found_of.entry(k) {
        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::btree_map::Entry::Vacant(e) => {
            let g = &groups[k];
            let Some(op) = ptc_conformance::ops::find(g.kind.op) else {
                return;
            };
            e.insert(search.trigger(
                &g.kind,
                op,
                &g.example.args,
                (&g.example.base, &g.example.head),
            ))
        }
    };
    if found.trigger.is_always()
        || found.trigger == c.trigger
        || matches!(found.trigger, Trigger::Field { .. } | Trigger::Impl { .. })
    {
        return;
    }
    if !c.triggers.contains(&found.trigger) {
        c.triggers.insert(0, found.trigger.clone());
    }
    c.trigger = found.trigger.clone();
    c.how = found.how.clone();
}

/// The kind of a cause whose example shows its change most plainly
/// ([`Change::plainness`]), the shallowest, then the smallest input. With
/// its op and change.
fn shown_by(
    groups: &[Group<'_>],
    kinds: &[usize],
) -> Option<(usize, &'static ptc_conformance::ops::Op, Change)> {
    kinds
        .iter()
        .filter_map(|&k| {
            let g = &groups[k];
            let op = ptc_conformance::ops::find(g.kind.op).or_else(|| {
                g.ops
                    .iter()
                    .next()
                    .and_then(|o| ptc_conformance::ops::find(o))
            })?;
            Some((k, op, Change::of(op, &g.example.base, &g.example.head)))
        })
        .min_by_key(|(k, _, c)| (c.plainness(), c.depth, weight(&groups[*k].example.args)))
}

/// The causes with those a test links joined ([`join`]), each with the
/// change its example shows.
fn joined(
    search: &mut Search<'_>,
    groups: &[Group<'_>],
    found_of: &mut BTreeMap<usize, Found>,
    mut out: Vec<Cause>,
) -> Vec<Cause> {
    for c in &mut out {
        if let Some((k, _, change)) = shown_by(groups, &c.kinds) {
            c.example = Some(k);
            c.change = Some(change);
        }
        // The tests below take out the trigger found on the example.
        shown_when(search, groups, found_of, c);
    }
    // Causes of behaviour only: not faults, not ops one side declares, not
    // a field one side's struct lacks (attribution joined its echoes).
    let eligible: Vec<usize> = (0..out.len())
        .filter(|&i| {
            out[i].change.is_some()
                && !matches!(
                    out[i].trigger,
                    Trigger::Fault { .. } | Trigger::Ops { .. } | Trigger::Refusal { .. }
                )
                && !out[i].kinds.iter().any(|&k| groups[k].kind.one_sided())
        })
        .collect();
    let links: Vec<Link> = {
        let members: Vec<Member<'_>> = eligible
            .iter()
            .filter_map(|&i| {
                let c = &out[i];
                let k = c.example?;
                let g = &groups[k];
                let op = ptc_conformance::ops::find(g.kind.op)?;
                Some(Member {
                    trigger: &c.trigger,
                    also: &c.triggers,
                    op,
                    args: &g.example.args,
                    base: &g.example.base,
                    head: &g.example.head,
                    change: c.change.as_ref()?,
                })
            })
            .collect();
        if members.len() != eligible.len() {
            return out;
        }
        join::links(search, &members)
    };
    // The plainest example first: a value before an exception, the
    // shallowest, the most instances, the smallest input.
    let plain = |i: usize| {
        let c = &out[eligible[i]];
        let change = c.change.as_ref();
        (
            change.map_or(u8::MAX, Change::plainness),
            change.map_or(usize::MAX, |x| x.depth),
            std::cmp::Reverse(c.kinds.iter().map(|&k| groups[k].count()).sum::<usize>()),
            c.example.map(|k| weight(&groups[k].example.args)),
        )
    };
    let mut order: Vec<usize> = (0..eligible.len()).collect();
    order.sort_by_key(|&i| plain(i));
    let sets = join::groups(&order, &links);
    let mut gone = vec![false; out.len()];
    for set in sets.iter().filter(|s| s.len() > 1) {
        let idx: Vec<usize> = set.iter().map(|&m| eligible[m]).collect();
        let all_kinds: Vec<usize> = idx.iter().flat_map(|&i| out[i].kinds.clone()).collect();
        // The cause whose example shows the change most plainly names it.
        let Some((k, _, change)) = shown_by(groups, &all_kinds) else {
            continue;
        };
        let keep = *idx
            .iter()
            .find(|&&i| out[i].kinds.contains(&k))
            .unwrap_or(&idx[0]);
        for &i in &idx {
            if i == keep {
                continue;
            }
            let other = std::mem::replace(
                &mut out[i],
                Cause {
                    trigger: Trigger::Fault {
                        side: crate::review::kinds::Side::Expected,
                    },
                    how: String::new(),
                    triggers: Vec::new(),
                    kinds: Vec::new(),
                    cases_not_run: 0,
                    change: None,
                    example: None,
                    joined: Vec::new(),
                },
            );
            gone[i] = true;
            let m = eligible.iter().position(|&e| e == i).unwrap_or(0);
            let test = links
                .iter()
                .find(|l| l.explained == m || l.by == m)
                .map_or("", |l| l.test);
            let target = &mut out[keep];
            target
                .joined
                .push((other.trigger.title(("base", "head")), test));
            target.joined.extend(other.joined);
            target.kinds.extend(other.kinds);
            for t in other.triggers {
                if !target.triggers.contains(&t) {
                    target.triggers.push(t);
                }
            }
        }
        let target = &mut out[keep];
        target.kinds.sort_unstable();
        target.kinds.dedup();
        target.example = Some(k);
        target.change = Some(change);
        shown_when(search, groups, found_of, target);
    }
    out.into_iter()
        .zip(gone)
        .filter_map(|(c, g)| (!g).then_some(c))
        .collect()
}

/// Whether two triggers are fields one side's struct lacks of one module:
/// one change of that struct's definition (its `defstruct` gained or
/// lost them).
fn one_shape_change(a: &Trigger, b: &Trigger, shapes: &Shapes) -> bool {
    let (
        Trigger::Field { module, field },
        Trigger::Field {
            module: module2,
            field: field2,
        },
    ) = (a, b)
    else {
        return false;
    };
    let changed = |m: &str, f: &str| shapes.iter().any(|c| c.module == m && c.field == f);
    module == module2 && changed(module, field) && changed(module2, field2)
}

impl Cause {
    /// Whether it is no difference of behaviour at all: one side gave no
    /// valid answer (a timeout, a crash), its adapter's fault.
    pub fn is_fault(&self) -> bool {
        matches!(self.trigger, Trigger::Fault { .. })
    }

    /// One line naming the cause: what changed in the answers, base →
    /// head, then when it shows (`tool.new: {:error, :x} became {:error,
    /// :y} — when an option list holds :visibility`). An op one side
    /// declares, a refusal and a fault are named by what they are.
    pub fn title(&self, labels: crate::review::kinds::Labels) -> String {
        let Some(change) = &self.change else {
            return self.trigger_title(labels);
        };
        match &self.trigger {
            Trigger::Refusal { .. } | Trigger::Fault { .. } | Trigger::Ops { .. } => {
                return self.trigger_title(labels)
            }
            // A struct's definition is what changed: its fields name it.
            Trigger::Field { .. }
                if matches!(change.delta, crate::review::causes::what::Delta::Key { .. })
                    && self
                        .triggers
                        .iter()
                        .all(|t| matches!(t, Trigger::Field { .. })) =>
            {
                return format!(
                    "{} — always, e.g. {}: {}",
                    self.trigger_title(labels),
                    change.op,
                    change.phrase(labels)
                );
            }
            _ => {}
        }
        // A protocol one side implements for more structs: the
        // implementations are what changed, whatever shows it.
        if self
            .triggers
            .iter()
            .any(|t| matches!(t, Trigger::Impl { .. }))
        {
            return format!(
                "{} — when the input holds one of those structs, e.g. {}: {}",
                self.trigger_title(labels),
                change.op,
                change.phrase(labels)
            );
        }
        format!(
            "{}: {} — {}",
            change.op,
            change.phrase(labels),
            self.when(labels)
        )
    }

    /// When the cause's change shows: its trigger's [`Trigger::when`];
    /// for triggers one rule joined (the options of one list, values at
    /// one place), what they share; for causes joined by test, the
    /// characters they name together, or the first trigger and how many
    /// more were joined.
    pub fn when(&self, labels: crate::review::kinds::Labels) -> String {
        let chars: Vec<String> = self
            .triggers
            .iter()
            .filter_map(|t| match t {
                Trigger::Char { c, .. } => Some(crate::review::causes::shown_char(*c)),
                _ => None,
            })
            .collect();
        if chars.len() > 1 && chars.len() == self.triggers.len() {
            let (last, rest) = chars.split_last().unwrap_or((&chars[0], &[]));
            return format!(
                "when a map key or string holds {} or {last}",
                rest.join(", ")
            );
        }
        if self.triggers.len() < 2 {
            return self.trigger.when(labels);
        }
        let nested: Vec<String> = self
            .triggers
            .iter()
            .filter_map(|t| match t {
                Trigger::Nested { op, path } => Some(format!("{op} args{path}")),
                _ => None,
            })
            .collect();
        if nested.len() == self.triggers.len() {
            return format!(
                "when a map, list or tuple sits inside a list ({})",
                nested.join(", ")
            );
        }
        if self.joined.is_empty() {
            return format!("when the input holds {}", self.trigger_title(labels));
        }
        format!(
            "{} (and {} more trigger(s) of causes joined by test)",
            self.trigger.when(labels),
            self.triggers.len() - 1
        )
    }

    /// What the cause's triggers name (the second half of the title, as
    /// compare named causes before it named the change): its trigger, or
    /// what its triggers share (the options of one op's list, the
    /// implementations of protocols one side lacks, a value met at one
    /// place or one value met at several).
    pub fn trigger_title(&self, labels: crate::review::kinds::Labels) -> String {
        if self.triggers.len() < 2 {
            return self.trigger.title(labels);
        }
        let mut phrases = Vec::new();
        let (options, rest) = options_title(&self.triggers);
        phrases.extend(options);
        // Implementations, by protocol.
        let mut impls: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        let mut has = "";
        for t in &self.triggers {
            if let Trigger::Impl {
                protocol,
                modules,
                lacking,
            } = t
            {
                impls
                    .entry(protocol.as_str())
                    .or_default()
                    .extend(modules.iter().map(String::as_str));
                has = match lacking {
                    Side::Expected => labels.1,
                    Side::Actual => labels.0,
                };
            }
        }
        if !impls.is_empty() {
            let all: Vec<String> = impls
                .iter()
                .map(|(p, ms)| format!("{p} for {}", shown(ms.iter().copied())))
                .collect();
            phrases.push(format!("implemented in {has} only: {}", all.join("; ")));
        }
        let mut fields: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for t in &self.triggers {
            if let Trigger::Field { module, field } = t {
                fields.entry(module).or_default().push(field);
            }
        }
        for (module, fs) in &fields {
            let all: Vec<String> = fs.iter().map(|f| format!("{module}.{f}")).collect();
            phrases.push(if all.len() == 1 {
                format!("struct field {}", all[0])
            } else {
                format!("struct fields {}", all.join(", "))
            });
        }
        let named: BTreeSet<&str> = impls.values().flatten().copied().collect();
        for t in &self.triggers {
            match t {
                Trigger::Struct { module } if !named.contains(module.as_str()) => {
                    phrases.push(t.title(labels));
                }
                Trigger::Option { .. }
                | Trigger::Impl { .. }
                | Trigger::Value { .. }
                | Trigger::Field { .. } => {}
                // Values in no list of options are in `rest`, titled below.
                Trigger::Struct { .. } => {}
                // One phrase for triggers that are one cause by what they
                // name (a character, a rewording, an output difference).
                other => {
                    let named = matches!(
                        other,
                        Trigger::Char { .. } | Trigger::Message { .. } | Trigger::Output { .. }
                    );
                    let earlier = self
                        .triggers
                        .iter()
                        .take_while(|t| !std::ptr::eq(*t, other));
                    if named
                        && earlier.into_iter().any(|e| {
                            std::mem::discriminant(e) == std::mem::discriminant(other)
                                && e.same_cause(other)
                        })
                    {
                        continue;
                    }
                    phrases.push(other.title(labels));
                }
            }
        }
        if let Some(v) = values_title(&rest) {
            phrases.push(v);
        }
        if let Some(o) = output_title(&self.triggers, labels) {
            phrases.retain(|p| !p.starts_with("no part of the input"));
            phrases.push(o);
        }
        let mut seen = BTreeSet::new();
        phrases.retain(|p| seen.insert(p.clone()));
        phrases.join("; ")
    }
}

/// The options among `triggers`, by the list of options they are in (the
/// outermost of one op), each with the values found standing for that
/// list or inside it: `option :k` when there is one key and no such value,
/// else `options of OP argsP: :a, :b (and the list itself: nil)`. Also
/// the value triggers that are in no such list.
fn options_title(triggers: &[Trigger]) -> (Vec<String>, Vec<Trigger>) {
    type Place<'a> = (&'a str, &'a str);
    let mut lists: BTreeMap<Place<'_>, (BTreeSet<&str>, BTreeSet<&str>)> = BTreeMap::new();
    for t in triggers {
        if let Trigger::Option { op, path, key } = t {
            lists.entry((op, path)).or_default().0.insert(key);
        }
    }
    // A value inside an option names that option's list too.
    for t in triggers {
        if let Trigger::Value { op, path, .. } = t {
            if let Some(at) = path.find("/[") {
                let list = &path[..at];
                if !lists
                    .keys()
                    .any(|(o, p)| o == op && (*p == list || in_list(list, p)))
                {
                    lists.entry((op, list)).or_default();
                }
            }
        }
    }
    // A list inside another (an option's own options) counts as that option.
    let places: Vec<Place<'_>> = lists.keys().copied().collect();
    for &(op, path) in &places {
        let outer = places
            .iter()
            .filter(|&&(o, p)| o == op && in_list(path, p))
            .min_by_key(|(_, p)| p.len());
        if let Some(&(o, p)) = outer {
            if let (Some(key), Some(_)) = (option_at(path, p), lists.remove(&(op, path))) {
                lists.entry((o, p)).or_default().0.insert(key);
            }
        }
    }
    let mut rest = Vec::new();
    for t in triggers {
        let Trigger::Value {
            op, path, value, ..
        } = t
        else {
            continue;
        };
        // A bare atom naming an option (a malformed entry) is that option.
        let known: BTreeSet<&str> = lists
            .values()
            .flat_map(|(k, _)| k.iter().copied())
            .collect();
        if known
            .iter()
            .any(|k| crate::review::causes::bare_option(path, value, k))
        {
            continue;
        }
        let home = lists
            .iter_mut()
            .find(|((o, p), _)| o == op && (path == p || in_list(path, p)));
        match home {
            Some(((_, p), (keys, values))) => match option_at(path, p) {
                Some(key) => {
                    keys.insert(key);
                }
                None => {
                    values.insert(value);
                }
            },
            None => rest.push(t.clone()),
        }
    }
    let keys: BTreeSet<&str> = lists
        .values()
        .flat_map(|(k, _)| k.iter().copied())
        .collect();
    let no_values = lists.values().all(|(_, v)| v.is_empty());
    if keys.len() == 1 && no_values {
        let key = keys.into_iter().next().unwrap_or_default();
        return (vec![format!("option :{key}")], rest);
    }
    let phrases = lists
        .iter()
        .map(|((op, path), (keys, values))| {
            let keys: Vec<String> = keys.iter().map(|k| format!(":{k}")).collect();
            let mut s = format!("options of {op} args{path}: {}", keys.join(", "));
            if !values.is_empty() {
                s.push_str(&format!(
                    " (and values for the list or in it: {})",
                    shown(values.iter().copied())
                ));
            }
            s
        })
        .collect();
    (phrases, rest)
}

/// The output differences among `triggers` met in more than one op,
/// titled where they start: the op where the difference is shallowest
/// (the shared function whose answer the other ops embed).
fn output_title(triggers: &[Trigger], labels: crate::review::kinds::Labels) -> Option<String> {
    let outputs: Vec<(&str, usize, &Trigger)> = triggers
        .iter()
        .filter_map(|t| match t {
            Trigger::Output { op, depth, .. } => Some((*op, *depth, t)),
            _ => None,
        })
        .collect();
    let ops: BTreeSet<&str> = outputs.iter().map(|o| o.0).collect();
    if ops.len() < 2 {
        return None;
    }
    let (op, _, t) = outputs.iter().min_by_key(|o| (o.1, o.0))?;
    Some(format!("{}, starting in {op}", t.title(labels)))
}

/// Values a title names at most (`--format json` has every trigger).
const VALUES_SHOWN: usize = 3;

/// Names joined by `, `, at most [`VALUES_SHOWN`] of them and how many more.
fn shown<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let n = names.len();
    let mut v: Vec<String> = names.take(VALUES_SHOWN).map(str::to_owned).collect();
    if n > VALUES_SHOWN {
        v.push(format!("+{} more", n - VALUES_SHOWN));
    }
    v.join(", ")
}

/// The option a place inside a list of options is in (`/1/[a]/1` in `/1`: `a`).
fn option_at<'p>(path: &'p str, list: &str) -> Option<&'p str> {
    let seg = path.strip_prefix(list)?.strip_prefix("/[")?;
    seg.split_once(']').map(|(key, _)| key)
}

/// The values among `triggers`, met at one place (`the value at OP
/// argsP: a, b`) or as one value at several places.
fn values_title(triggers: &[Trigger]) -> Option<String> {
    let values: Vec<(&str, &str, &str, &str)> = triggers
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
    let &(op, path, of, value) = values.first()?;
    let places: BTreeSet<String> = values
        .iter()
        .map(|v| format!("{} args{}", v.0, v.1))
        .collect();
    let all: BTreeSet<&str> = values.iter().map(|v| v.3).collect();
    if places.len() == 1 {
        let all: Vec<&str> = all.into_iter().collect();
        return Some(if all.len() == 1 {
            format!("the {of} {value} at {op} args{path}")
        } else {
            format!("the value at {op} args{path}: {}", all.join(", "))
        });
    }
    if all.len() == 1 {
        let places: Vec<String> = places.into_iter().collect();
        return Some(format!("the {of} {value} at {}", places.join(", ")));
    }
    let places: Vec<String> = places.into_iter().collect();
    Some(format!("values at {}", places.join(", ")))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::attribution::ShapeChange;

    fn field(module: &str, field: &str) -> Trigger {
        Trigger::Field {
            module: module.into(),
            field: field.into(),
        }
    }

    #[test]
    fn fields_either_side_lacks_of_one_struct_are_one_shape_change() {
        let change = |m: &str, f: &str, side| ShapeChange {
            module: m.into(),
            field: f.into(),
            side,
        };
        let shapes: Shapes = [
            change("T", "expose", Side::Actual),
            change("T", "native_result", Side::Actual),
            change("T", "old", Side::Expected),
            change("S", "trace", Side::Actual),
        ]
        .into();
        let one = |a, b| one_shape_change(&field("T", a), &field("T", b), &shapes);
        assert!(one("expose", "native_result"));
        // One definition changed, whichever side lacks each field.
        assert!(one("expose", "old"));
        // A field both have, another struct: not one.
        assert!(!one("expose", "name"));
        assert!(!one_shape_change(
            &field("T", "expose"),
            &field("S", "trace"),
            &shapes
        ));
        let cause = Cause {
            trigger: field("T", "expose"),
            how: String::new(),
            triggers: vec![field("T", "expose"), field("T", "native_result")],
            kinds: vec![0, 1],
            cases_not_run: 0,
            change: None,
            example: None,
            joined: Vec::new(),
        };
        assert_eq!(
            cause.title(("base", "head")),
            "struct fields T.expose, T.native_result"
        );
    }
}
