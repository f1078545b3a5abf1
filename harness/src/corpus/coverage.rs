//! `ptc-conformance lint --coverage`: which classes of input the corpus
//! holds at each place of each op. The places are the generators' own
//! ([`crate::review::gen::places`]) and so are the classes
//! ([`crate::review::gen::classes`]): one table, which the fuzzer draws from
//! and this report classifies by. A class no case holds is *open*, unless
//! `coverage.unreachable.txt` lists it with the reason no release can reach
//! it there; a line of that file that names a class a case holds, or no
//! class of any place, is a problem too, so the file cannot rot.

use super::Corpus;
use crate::review::gen::classes::Class;
use crate::review::gen::places::{self, Place};
use std::collections::BTreeMap;

/// The classes no case can hold, one a line: `OP PLACE CLASS — reason`.
pub const UNREACHABLE: &str = include_str!("../../../coverage.unreachable.txt");

/// One class at one place: the cases that hold it, or why none can.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Cell {
    /// The class's name ([`Class::name`]).
    pub class: String,
    /// The ids of the cases whose arguments hold a term of the class there.
    pub cases: Vec<String>,
    /// The reason `coverage.unreachable.txt` gives, when it lists the class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<String>,
}

impl Cell {
    /// Neither held nor listed as unreachable.
    pub fn is_open(&self) -> bool {
        self.cases.is_empty() && self.unreachable.is_none()
    }
}

/// One place of one op and its classes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlaceCoverage {
    /// The op.
    pub op: &'static str,
    /// The place's name ([`Place::name`]).
    pub place: String,
    /// The kinds its generator draws well-formed (split finely).
    pub kinds: Vec<&'static str>,
    /// Every class of its domain.
    pub classes: Vec<Cell>,
    /// The place itself, for `--emit`.
    #[serde(skip)]
    pub at: Option<&'static Place>,
}

/// The report: every place, and the problems with the unreachable list.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Coverage {
    /// Every place of every op, in op order.
    pub places: Vec<PlaceCoverage>,
    /// Lines of `coverage.unreachable.txt` that do not hold: malformed,
    /// naming no class of any place, or naming one a case holds.
    pub problems: Vec<String>,
}

/// The counts a report ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Ops with places.
    pub ops: usize,
    /// Places.
    pub places: usize,
    /// Classes over all places.
    pub classes: usize,
    /// Held by at least one case.
    pub held: usize,
    /// Listed as unreachable.
    pub unreachable: usize,
    /// Neither.
    pub open: usize,
}

impl Coverage {
    /// The counts.
    pub fn summary(&self) -> Summary {
        let mut ops: Vec<&str> = self.places.iter().map(|p| p.op).collect();
        ops.dedup();
        let cells = || self.places.iter().flat_map(|p| &p.classes);
        Summary {
            ops: ops.len(),
            places: self.places.len(),
            classes: cells().count(),
            held: cells().filter(|c| !c.cases.is_empty()).count(),
            unreachable: cells()
                .filter(|c| c.cases.is_empty() && c.unreachable.is_some())
                .count(),
            open: cells().filter(|c| c.is_open()).count(),
        }
    }

    /// The open classes: (op, place, class).
    pub fn open(&self) -> Vec<(&PlaceCoverage, &Cell)> {
        self.places
            .iter()
            .flat_map(|p| {
                p.classes
                    .iter()
                    .filter(|c| c.is_open())
                    .map(move |c| (p, c))
            })
            .collect()
    }
}

/// One line of the unreachable list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreachable {
    /// Line number, from 1.
    pub line: usize,
    /// The op.
    pub op: String,
    /// The place's name.
    pub place: String,
    /// The class's name.
    pub class: String,
    /// Why no release can reach it.
    pub reason: String,
}

/// Reads the unreachable list: `OP PLACE CLASS — reason` a line, `#`
/// comments and blank lines skipped; malformed lines are problems.
pub fn parse_unreachable(text: &str) -> (Vec<Unreachable>, Vec<String>) {
    let (mut out, mut problems) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let Some((head, reason)) = t.split_once(" — ") else {
            problems.push(format!(
                "coverage.unreachable.txt:{line_no}: no ` — reason` after the class"
            ));
            continue;
        };
        let parts: Vec<&str> = head.split_whitespace().collect();
        match (parts.as_slice(), reason.trim()) {
            ([op, place, class], reason) if !reason.is_empty() => out.push(Unreachable {
                line: line_no,
                op: (*op).to_owned(),
                place: (*place).to_owned(),
                class: (*class).to_owned(),
                reason: reason.to_owned(),
            }),
            _ => problems.push(format!(
                "coverage.unreachable.txt:{line_no}: expected `OP PLACE CLASS — reason`"
            )),
        }
    }
    (out, problems)
}

/// Measures `corpus` against every place and class, with the classes
/// listed in `unreachable` (the text of `coverage.unreachable.txt`).
pub fn measure(corpus: &Corpus, unreachable: &str) -> Coverage {
    let (listed, mut problems) = parse_unreachable(unreachable);
    let mut by_cell: BTreeMap<(&str, &str, &str), &Unreachable> = BTreeMap::new();
    for u in &listed {
        if by_cell
            .insert((u.op.as_str(), u.place.as_str(), u.class.as_str()), u)
            .is_some()
        {
            problems.push(format!(
                "coverage.unreachable.txt:{}: {} {} {} is listed twice",
                u.line, u.op, u.place, u.class
            ));
        }
    }
    let mut used: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for place in places::all() {
        let name = place.name();
        let cases: Vec<&super::Case> = corpus
            .cases
            .iter()
            .filter(|c| c.op.name == place.op)
            .collect();
        let values: Vec<(&str, Vec<&ptc_conformance::Term>)> = cases
            .iter()
            .map(|c| (c.id.as_str(), place.values(&c.args)))
            .collect();
        let cells = place
            .classes()
            .into_iter()
            .map(|class: Class| {
                let class_name = class.name();
                let holding: Vec<String> = values
                    .iter()
                    .filter(|(_, vs)| vs.iter().any(|v| class.holds(v)))
                    .map(|(id, _)| (*id).to_owned())
                    .collect();
                let listed = by_cell
                    .get(&(place.op, name.as_str(), class_name.as_str()))
                    .copied();
                if let Some(u) = listed {
                    used.push(u.line);
                    if !holding.is_empty() {
                        problems.push(format!(
                            "coverage.unreachable.txt:{}: {} {} {} is held by {} case(s) ({}): remove the line",
                            u.line,
                            u.op,
                            u.place,
                            u.class,
                            holding.len(),
                            holding[0]
                        ));
                    }
                }
                Cell {
                    class: class_name,
                    cases: holding,
                    unreachable: listed.map(|u| u.reason.clone()),
                }
            })
            .collect();
        out.push(PlaceCoverage {
            op: place.op,
            place: name,
            kinds: place.kinds.iter().map(|k| k.name()).collect(),
            classes: cells,
            at: Some(place),
        });
    }
    for u in &listed {
        if !used.contains(&u.line) {
            problems.push(format!(
                "coverage.unreachable.txt:{}: {} {} {} names no class of a place",
                u.line, u.op, u.place, u.class
            ));
        }
    }
    Coverage {
        places: out,
        problems,
    }
}

/// The report as text: a line per place with its counts, a line per
/// class (the cases holding it, `OPEN`, or `unreachable` with the reason),
/// and the summary.
pub fn render_text(cov: &Coverage) -> String {
    let mut out = String::new();
    let mut op = "";
    for p in &cov.places {
        if p.op != op {
            op = p.op;
            out.push_str(&format!("\n{op}\n"));
        }
        let held = p.classes.iter().filter(|c| !c.cases.is_empty()).count();
        let open = p.classes.iter().filter(|c| c.is_open()).count();
        out.push_str(&format!(
            "  {}  ({})  {held}/{} held{}\n",
            p.place,
            p.kinds.join(", "),
            p.classes.len(),
            if open > 0 {
                format!(", {open} open")
            } else {
                String::new()
            }
        ));
        for c in &p.classes {
            let what = match (c.cases.as_slice(), &c.unreachable) {
                ([], Some(why)) => format!("unreachable: {why}"),
                ([], None) => "OPEN".to_owned(),
                ([one], _) => one.clone(),
                ([first, rest @ ..], _) => format!("{first} (+{})", rest.len()),
            };
            out.push_str(&format!("    {:<24} {what}\n", c.class));
        }
    }
    let s = cov.summary();
    out.push_str(&format!("\n{}\n", summary_line(&s)));
    out
}

/// `coverage: 21 ops, 150 places, 3000 classes: 2990 held, 10 unreachable, 0 open`.
pub fn summary_line(s: &Summary) -> String {
    format!(
        "coverage: {} ops, {} places, {} classes: {} held, {} unreachable, {} open",
        s.ops, s.places, s.classes, s.held, s.unreachable, s.open
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unreachable_list_reads_and_rejects_malformed_lines() {
        let (ok, problems) = parse_unreachable(
            "# comment\n\nterm.inspect args[0] int:zero — why\nbad line\nterm.inspect args[0] — why\n",
        );
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].line, 3);
        assert_eq!(ok[0].class, "int:zero");
        assert_eq!(problems.len(), 2, "{problems:?}");
    }
}
