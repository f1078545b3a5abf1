//! The attribution in words and as data: each cause titled where (file,
//! function, commit), what changed and when (the comparison's own title of
//! its first kind), its hunks and how they were tested; then the hunks
//! without wire effect found, what could not be attributed, and the builds.

use super::{Attribution, Culprit};
use crate::review::compare::Comparison;
use std::fmt::Write;

const LABELS: (&str, &str) = ("base", "head");

/// Where a culprit is: its first hunk's file, line and function, how many
/// more hunks, and the commit.
pub fn place(c: &Culprit) -> String {
    let mut s = String::new();
    if let Some(h) = c.hunks.first() {
        s.push_str(&h.place());
        if let Some(f) = &h.function {
            let _ = write!(s, " in {f}");
        }
        let files: std::collections::BTreeSet<&str> =
            c.hunks.iter().map(|h| h.path.as_str()).collect();
        if c.hunks.len() > 1 {
            let _ = write!(
                s,
                " (+{} more hunk(s){})",
                c.hunks.len() - 1,
                if files.len() > 1 {
                    format!(" in {} file(s)", files.len())
                } else {
                    String::new()
                }
            );
        }
    }
    match c.commits.as_slice() {
        [] => {}
        [one] => {
            let _ = write!(s, ", commit {} {:?}", one.short(), one.subject);
        }
        [first, .., last] => {
            let _ = write!(
                s,
                ", one of the {} commits {}..{} (those between could not be built)",
                c.commits.len(),
                first.short(),
                last.short()
            );
        }
    }
    s
}

/// What changed and when: the change of its first kind's example, base →
/// head, and when it shows: the comparison's own "when" of the
/// black-box cause holding that kind, where that cause's kinds are all
/// this culprit's (a cause named from the answers alone that joined kinds
/// of two culprits says nothing true of either); else the kind itself.
pub fn what(c: &Culprit, cmp: &Comparison<'_>) -> String {
    let Some(&k) = c.kinds.first() else {
        return format!("op(s) declared by one side only: {}", c.ops.join(", "));
    };
    let g = &cmp.groups[k];
    let Some(op) = ptc_conformance::ops::find(g.kind.op) else {
        return g.kind.title(LABELS);
    };
    let change = crate::review::causes::what::Change::of(op, &g.example.base, &g.example.head);
    let when = match cmp.causes.iter().find(|x| x.kinds.contains(&k)) {
        Some(cause) if cause.kinds.iter().all(|j| c.kinds.contains(j)) => cause.when(LABELS),
        _ => format!("shows as {}", g.kind.title(LABELS)),
    };
    format!("{}: {} — {when}", change.op, change.phrase(LABELS))
}

/// The attribution as text, after the comparison's report.
pub fn render(a: &Attribution, cmp: &Comparison<'_>) -> String {
    let mut s = String::new();
    let builds = a.trials.iter().filter(|t| !t.cached && !t.in_place).count();
    let in_place = a.trials.iter().filter(|t| !t.cached && t.in_place).count();
    let _ = writeln!(
        s,
        "\nATTRIBUTED BY TEST ({}): {} cause(s), each the smallest set of hunks that makes its inputs answer as head; {} probe input(s) of {} kind(s)",
        a.mode,
        a.causes.len(),
        a.probes.len(),
        cmp.groups.len()
    );
    for (i, c) in a.causes.iter().enumerate() {
        let _ = writeln!(s, "  CAUSE {}. {}: {}", i + 1, place(c), what(c, cmp));
    }
    for (i, c) in a.causes.iter().enumerate() {
        let _ = writeln!(s, "\nCAUSE {}. {}", i + 1, place(c));
        let _ = writeln!(s, "  what changed, and when: {}", what(c, cmp));
        let _ = writeln!(s, "  found: {}", c.how);
        for h in &c.hunks {
            let _ = writeln!(
                s,
                "  hunk {}{}",
                h.place(),
                h.function
                    .as_ref()
                    .map(|f| format!(" in {f}"))
                    .unwrap_or_default()
            );
            for line in h.patch(6) {
                let _ = writeln!(s, "    {}", crate::review::compare::cut(&line));
            }
        }
        let _ = writeln!(
            s,
            "  {} input(s) answered as head with it: {}",
            c.probes.len(),
            c.probes
                .iter()
                .take(3)
                .map(|&p| a.probes[p].describe())
                .collect::<Vec<_>>()
                .join("; ")
        );
        for &k in &c.kinds {
            let _ = writeln!(s, "  kind: {}", cmp.groups[k].kind.title(LABELS));
        }
        for op in &c.ops {
            let _ = writeln!(s, "  op declared by one side only: {op}");
        }
    }
    if !a.no_effect.is_empty() {
        let _ = writeln!(
            s,
            "\nno wire effect found: {} hunk(s) of the diffs tried that no input needs",
            a.no_effect.len()
        );
        for p in &a.no_effect {
            let _ = writeln!(
                s,
                "  {}{}{}{}",
                p.hunk.place(),
                p.hunk
                    .function
                    .as_ref()
                    .map(|f| format!(" in {f}"))
                    .unwrap_or_default(),
                p.commit
                    .as_ref()
                    .map(|c| format!(", commit {} {:?}", c.short(), c.subject))
                    .unwrap_or_default(),
                reached_note(a, &p.hunk)
            );
        }
    }
    if a.quiet_commits > 0 {
        let _ = writeln!(
            s,
            "{} commit(s) of the range made none of the differences found (bisection passed them)",
            a.quiet_commits
        );
    }
    for (p, why) in &a.unattributed {
        let _ = writeln!(s, "NOT ATTRIBUTED: {}: {why}", a.probes[*p].describe());
    }
    let fresh: Vec<&super::lab::Trial> = a.trials.iter().filter(|t| !t.cached).collect();
    if !fresh.is_empty() {
        let _ = writeln!(
            s,
            "\nvariants built or compiled in place, each with its time:"
        );
        for t in &fresh {
            let _ = writeln!(
                s,
                "  {:>6.1} s {}  {}: {}{}",
                t.build_secs,
                if t.in_place { "in place" } else { "built   " },
                t.label,
                match &t.unresolved {
                    Some(why) =>
                        format!("could not be asked ({})", crate::review::compare::cut(why)),
                    None => format!("{} of {} input(s) as head", t.as_head, t.asked),
                },
                t.not_in_place
                    .as_ref()
                    .map(|w| format!(" (not in place: {})", crate::review::compare::cut(w)))
                    .unwrap_or_default()
            );
        }
    }
    let build_secs: f64 = fresh
        .iter()
        .filter(|t| !t.in_place)
        .map(|t| t.build_secs)
        .sum();
    let compile_secs: f64 = fresh
        .iter()
        .filter(|t| t.in_place)
        .map(|t| t.build_secs)
        .sum();
    let failed = a.trials.iter().filter(|t| t.unresolved.is_some()).count();
    let prep: f64 = a.prepare_builds.iter().map(|(_, s)| s).sum();
    if let Some(how) = &a.in_place {
        let _ = writeln!(s, "compiling in place: {how}");
    }
    let _ = writeln!(
        s,
        "attribution: {} variant(s) tried ({builds} built and asked, {in_place} compiled in place, {} from the cache, {failed} could not be asked), builds {build_secs:.1} s, in place {compile_secs:.1} s; {:.1} s in all after the comparison; preparing builds: {}",
        a.trials.len(),
        a.trials.len() - builds - in_place,
        a.secs,
        if a.prepare_builds.is_empty() {
            "none".to_owned()
        } else {
            format!(
                "{} ({prep:.1} s)",
                a.prepare_builds
                    .iter()
                    .map(|(l, t)| format!("{l} {t:.1} s"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    s
}

/// What the trace saw of a hunk's function, when it was traced: no
/// wire effect found where no input reached the code is not the same as
/// where inputs reached it and answered alike.
fn reached_note(a: &Attribution, h: &super::hunks::Hunk) -> String {
    match (a.reach.as_ref().filter(|r| r.measured()), &h.function) {
        (Some(r), Some(f)) => match r.count(f) {
            0 => " (no corpus input reached it)".to_owned(),
            n => format!(" ({n} corpus input(s) reached it)"),
        },
        (Some(_), None) => " (top level: not traced)".to_owned(),
        (None, _) => String::new(),
    }
}

/// The attribution as data.
pub fn to_json(a: &Attribution, cmp: &Comparison<'_>) -> serde_json::Value {
    use serde_json::json;
    let hunk = |h: &super::hunks::Hunk| {
        json!({
            "path": h.path,
            "line": h.new_start + 1,
            "old_lines": [h.old.start + 1, h.old.end],
            "function": h.function,
            "place": h.place(),
            "patch": h.patch(40),
        })
    };
    let commit = |c: &super::tree::Commit| json!({"id": c.id, "subject": c.subject});
    json!({
        "mode": a.mode,
        "probes": a.probes.iter().map(|p| p.describe()).collect::<Vec<_>>(),
        "causes": a.causes.iter().map(|c| json!({
            "title": format!("{}: {}", place(c), what(c, cmp)),
            "where": place(c),
            "what_and_when": what(c, cmp),
            "commits": c.commits.iter().map(commit).collect::<Vec<_>>(),
            "hunks": c.hunks.iter().map(hunk).collect::<Vec<_>>(),
            "how": c.how,
            "kinds": c.kinds.iter().map(|&k| cmp.groups[k].kind.title(LABELS)).collect::<Vec<_>>(),
            "ops": c.ops,
            "probes": c.probes,
        })).collect::<Vec<_>>(),
        "no_wire_effect": a.no_effect.iter().map(|p| json!({
            "hunk": hunk(&p.hunk),
            "commit": p.commit.as_ref().map(commit),
            "reached_by": match (a.reach.as_ref().filter(|r| r.measured()), &p.hunk.function) {
                (Some(r), Some(f)) => json!(r.count(f)),
                _ => serde_json::Value::Null,
            },
        })).collect::<Vec<_>>(),
        "quiet_commits": a.quiet_commits,
        "unattributed": a.unattributed.iter().map(|(p, why)| json!({"probe": a.probes[*p].describe(), "why": why})).collect::<Vec<_>>(),
        "tests": a.trials.iter().map(|t| json!({
            "variant": t.label,
            "build_secs": t.build_secs,
            "cached": t.cached,
            "tested": if t.cached { "cache" } else if t.in_place { "in place" } else { "built" },
            "in_place": t.in_place,
            "not_in_place": t.not_in_place,
            "unresolved": t.unresolved,
            "asked": t.asked,
            "as_head": t.as_head,
        })).collect::<Vec<_>>(),
        "prepare_builds": a.prepare_builds.iter().map(|(l, s)| json!({"side": l, "secs": s})).collect::<Vec<_>>(),
        "secs": a.secs,
        "compiling_in_place": a.in_place,
    })
}
