//! Which corpus inputs reach the functions a diff touches, measured by the
//! `reach` extension (AP-19): each side that lists it is asked, for every
//! corpus case of the ops both declare, which of the diff's functions the
//! call reached. `compare` with sources gives the ops that reach a
//! changed function most of the generated inputs, mutates the inputs that
//! reached one first, and reports how many inputs reached each function,
//! so that a reviewer sees which changed functions no input met.

use crate::corpus::case::Case;
use crate::subject::{Answer, Request, Subject};
use ptc_conformance::term::Term;
use std::collections::{BTreeMap, BTreeSet};

/// What the trace saw.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// The functions asked about (the diff's, `Module.name`).
    pub functions: Vec<String>,
    /// The sides that listed the extension and were asked.
    pub sides: Vec<&'static str>,
    /// The sides whose answers were used (no fault).
    pub counted: Vec<&'static str>,
    /// For each function, the ops whose inputs reached it and how many.
    pub reached: BTreeMap<String, BTreeMap<String, usize>>,
    /// The corpus cases (indices into the cases asked) that reached a function.
    pub reaching: BTreeSet<usize>,
    /// Inputs asked, per side.
    pub asked: usize,
    /// Why a side's answers were not used (a fault of that side), if any.
    pub faults: Vec<String>,
}

impl Reach {
    /// How many inputs reached `function` (on either side).
    pub fn count(&self, function: &str) -> usize {
        self.reached
            .get(function)
            .map_or(0, |ops| ops.values().sum())
    }

    /// The ops whose inputs reached some changed function.
    pub fn ops(&self) -> BTreeSet<String> {
        self.reached
            .values()
            .flat_map(|m| m.keys().cloned())
            .collect()
    }

    /// Whether some side's answers were used: without, no count means
    /// anything.
    pub fn measured(&self) -> bool {
        !self.counted.is_empty()
    }

    /// The report's lines.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        if !self.measured() {
            let _ = writeln!(
                s,
                "reach: not measured ({} listed the extension, but no answers could be used): every op gets an even share",
                self.sides.join(" and ")
            );
            for why in &self.faults {
                let _ = writeln!(s, "  not used: {why}");
            }
            return s;
        }
        let _ = writeln!(
            s,
            "reach: {} corpus input(s) traced by {} for the {} function(s) the diff touches ({} reached one):",
            self.asked,
            self.counted.join(" and "),
            self.functions.len(),
            self.reaching.len()
        );
        for f in &self.functions {
            match self.reached.get(f) {
                Some(ops) => {
                    let by_op: Vec<String> = ops.iter().map(|(o, n)| format!("{o} {n}")).collect();
                    let _ = writeln!(
                        s,
                        "  {f}: {} input(s) ({})",
                        self.count(f),
                        by_op.join(", ")
                    );
                }
                None => {
                    let _ = writeln!(s, "  {f}: no input reached it");
                }
            }
        }
        for why in &self.faults {
            let _ = writeln!(s, "  not used: {why}");
        }
        s
    }

    /// The same as data.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "sides": self.sides,
            "counted": self.counted,
            "measured": self.measured(),
            "asked": self.asked,
            "functions": self.functions.iter().map(|f| serde_json::json!({
                "function": f,
                "inputs": self.count(f),
                "by_op": self.reached.get(f).cloned().unwrap_or_default(),
            })).collect::<Vec<_>>(),
            "reaching_cases": self.reaching.len(),
            "faults": self.faults,
        })
    }
}

/// One side's answer to a `reach` request: the functions named that the
/// call reached, or why the answer is not one.
pub fn read(answer: Answer, asked: &BTreeSet<&str>) -> Result<Vec<String>, String> {
    let items = match answer {
        Answer::Ok(Term::List(items)) => items,
        Answer::Ok(other) => {
            return Err(format!(
                "the answer to `reach` must be a list of strings, got {}",
                crate::quote::line(&ptc_conformance::tagged::encode(&other))
            ))
        }
        Answer::Raised(r) => {
            return Err(format!(
                "`reach` raised {}",
                crate::quote::line(&format!("{}: {}", r.class, r.message))
            ))
        }
        Answer::Unsupported(why) | Answer::Error(why) => {
            return Err(format!("`reach` failed: {}", crate::quote::line(&why)))
        }
    };
    items
        .into_iter()
        .map(|t| match t {
            Term::Str(s) if asked.contains(s.as_str()) => Ok(s),
            Term::Str(s) => Err(format!(
                "the answer to `reach` names {} which was not asked about",
                crate::quote::line(&s)
            )),
            other => Err(format!(
                "the answer to `reach` must list strings; it holds {}",
                crate::quote::line(&ptc_conformance::tagged::encode(&other))
            )),
        })
        .collect()
}

/// Asks each side that lists `reach` which of `functions` each case of
/// `cases` (of the ops both sides declare) reaches. `None` when no side
/// lists the extension or the diff names no function.
pub fn measure(
    sides: [(&'static str, &mut dyn Subject); 2],
    functions: &[String],
    cases: &[&Case],
) -> Option<Reach> {
    if functions.is_empty() {
        return None;
    }
    let [(l0, s0), (l1, s1)] = sides;
    let both: BTreeSet<String> = s0.ops().intersection(&s1.ops()).cloned().collect();
    let asked: Vec<&Case> = cases
        .iter()
        .copied()
        .filter(|c| both.contains(c.op.name))
        .collect();
    let mut reach = Reach {
        functions: functions.to_vec(),
        asked: asked.len(),
        ..Reach::default()
    };
    let names = ptc_conformance::tagged::encode(&Term::List(
        functions.iter().map(|f| Term::Str(f.clone())).collect(),
    ));
    let known: BTreeSet<&str> = functions.iter().map(String::as_str).collect();
    // ARGS travels as the case's own JSON array (a list of terms written
    // as a term could read as a keyword list, `$kw`).
    let lines: Vec<String> = asked
        .iter()
        .map(|c| {
            format!(
                "[{names},{},{}]",
                serde_json::Value::String(c.op.name.to_owned()),
                c.args_json
            )
        })
        .collect();
    let requests: Vec<Request<'_>> = lines
        .iter()
        .map(|j| Request {
            op: "reach",
            args: &[],
            args_json: Some(j),
        })
        .collect();
    // Per input, the functions either side reached (an input is counted
    // once however many sides saw it reach a function).
    let mut union: Vec<BTreeSet<String>> = vec![BTreeSet::new(); asked.len()];
    for (label, side) in [(l0, s0), (l1, s1)] {
        if !side.extensions().contains("reach") {
            continue;
        }
        reach.sides.push(label);
        let answers = side.call_setup(&requests);
        let mut seen: Vec<Vec<String>> = Vec::new();
        let mut fault = None;
        for (i, a) in answers.into_iter().enumerate() {
            match read(a, &known) {
                Ok(fs) => seen.push(fs),
                Err(why) => {
                    fault = Some(format!("{label}'s answer for case {}: {why}", asked[i].id));
                    break;
                }
            }
        }
        match fault {
            Some(why) => reach.faults.push(why),
            None => {
                reach.counted.push(label);
                for (u, fs) in union.iter_mut().zip(seen) {
                    u.extend(fs);
                }
            }
        }
    }
    for (i, fs) in union.into_iter().enumerate() {
        if fs.is_empty() {
            continue;
        }
        reach.reaching.insert(i);
        for f in fs {
            *reach
                .reached
                .entry(f)
                .or_default()
                .entry(asked[i].op.name.to_owned())
                .or_default() += 1;
        }
    }
    if reach.sides.is_empty() {
        return None;
    }
    // `reaching` holds indices into `asked`; turn them into the cases'
    // own indices in `cases` for the caller.
    let index: BTreeMap<*const Case, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (*c as *const Case, i))
        .collect();
    reach.reaching = reach
        .reaching
        .iter()
        .filter_map(|&i| index.get(&(asked[i] as *const Case)).copied())
        .collect();
    Some(reach)
}

/// The generated inputs' share of each op given what reached: the ops
/// that reach a changed function share three quarters of `total`, the
/// others a quarter (each at least one batch of `floor`). `None` when
/// every op or none reached one (the budget stays even).
pub fn weights(
    ops: &[String],
    reaching: &BTreeSet<String>,
    total: usize,
    floor: usize,
) -> Option<BTreeMap<String, usize>> {
    let hot: Vec<&String> = ops.iter().filter(|o| reaching.contains(*o)).collect();
    let cold: Vec<&String> = ops.iter().filter(|o| !reaching.contains(*o)).collect();
    if hot.is_empty() || cold.is_empty() {
        return None;
    }
    let hot_each = (total * 3 / 4 / hot.len()).max(floor);
    let cold_each = (total / 4 / cold.len()).max(floor.min(total / ops.len().max(1)));
    let mut out = BTreeMap::new();
    for o in hot {
        out.insert(o.clone(), hot_each);
    }
    for o in cold {
        out.insert(o.clone(), cold_each);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reaching_ops_get_three_quarters() {
        let ops: Vec<String> = ["a", "b", "c", "d"].map(str::to_owned).to_vec();
        let hot = BTreeSet::from(["b".to_owned()]);
        let w = weights(&ops, &hot, 4000, 10).expect("weighted");
        assert_eq!(w["b"], 3000);
        assert_eq!(w["a"], 333);
        assert_eq!(w.values().sum::<usize>(), 3999);
        assert!(weights(&ops, &BTreeSet::new(), 4000, 10).is_none());
        let all: BTreeSet<String> = ops.iter().cloned().collect();
        assert!(weights(&ops, &all, 4000, 10).is_none());
    }

    #[test]
    fn a_trace_whose_answers_were_all_faults_counts_nothing() {
        let r = Reach {
            functions: vec!["M.f".into()],
            sides: vec!["base", "head"],
            faults: vec!["base's answer for case c: `reach` failed: x".into()],
            ..Reach::default()
        };
        assert!(!r.measured());
        let text = r.render();
        assert!(text.starts_with("reach: not measured"), "{text}");
        assert!(!text.contains("no input reached it"), "{text}");
    }

    #[test]
    fn an_answer_naming_a_function_not_asked_is_a_fault() {
        let asked = BTreeSet::from(["M.f"]);
        let ok = Answer::Ok(Term::List(vec![Term::Str("M.f".into())]));
        assert_eq!(read(ok, &asked).expect("read"), vec!["M.f".to_owned()]);
        let other = Answer::Ok(Term::List(vec![Term::Str("M.g".into())]));
        assert!(read(other, &asked).unwrap_err().contains("not asked about"));
        let not_list = Answer::Ok(Term::Nil);
        assert!(read(not_list, &asked)
            .unwrap_err()
            .contains("list of strings"));
    }
}
