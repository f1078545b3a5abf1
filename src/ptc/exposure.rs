//! `PtcRunner.SubAgent.Exposure`: which layer a tool is exposed on
//! (`:native`, `:ptc_lisp` or `:both`) and filtering a tool collection by
//! it (`spec/exposure.md`, `EX-`).

use crate::term::{term_cmp, Struct, Term};
use crate::Raised;

const MODULE: &str = "PtcRunner.SubAgent.Exposure";
const TOOL: &str = "PtcRunner.Tool";
const LAYERS: [&str; 3] = ["native", "ptc_lisp", "both"];

/// `effective_expose/2`: the tool's explicit `expose:` when it has one
/// (the mode is then not looked at), else the default for the mode.
pub fn effective_expose(tool: &Term, mode: &Term) -> Result<Term, Raised> {
    let clause = || Raised::function_clause(MODULE, "effective_expose", 2);
    let expose = tool_struct(tool).ok_or_else(clause)?.field("expose");
    // EX-5: a first argument that is not a `PtcRunner.Tool` raises.
    match expose {
        // EX-2, EX-9: only a `nil` expose looks at the mode.
        Some(Term::Nil) | None => default_for_mode(mode),
        // EX-1: an explicit layer wins; the mode is not examined.
        Some(e) if e.as_atom().is_some_and(|a| LAYERS.contains(&a)) => Ok(e.clone()),
        // EX-5: any other expose raises.
        Some(_) => Err(clause()),
    }
}

/// The default layer of a mode: `{:ptc_lisp, _}` → `:ptc_lisp`,
/// `{:text, _}` → `:native`; a struct with `output` and `ptc_transport`
/// fields (an agent definition) is read as that tuple.
fn default_for_mode(mode: &Term) -> Result<Term, Raised> {
    match mode {
        // EX-2: `{:ptc_lisp, _}` and `{:text, _}`, whatever the second element.
        Term::Tuple(items) if items.len() == 2 => match items[0].as_atom() {
            Some("ptc_lisp") => Ok(Term::atom("ptc_lisp")),
            Some("text") => Ok(Term::atom("native")),
            _ => Err(Raised::function_clause(MODULE, "default_for_mode", 1)),
        },
        // EX-3: a struct with `output` and `ptc_transport` fields is read as that tuple.
        Term::Struct(s) => match (s.field("output"), s.field("ptc_transport")) {
            (Some(output), Some(transport)) => {
                default_for_mode(&Term::Tuple(vec![output.clone(), transport.clone()]))
            }
            _ => Err(Raised::function_clause(MODULE, "default_for_mode", 1)),
        },
        // EX-4: every other mode raises.
        _ => Err(Raised::function_clause(MODULE, "default_for_mode", 1)),
    }
}

/// `filter_by_expose/3`: the tools whose effective layer is in
/// `allowed_set`, as a list. A list keeps its order; a map is first
/// turned into its values ordered by key.
pub fn filter_by_expose(tools: &Term, mode: &Term, allowed_set: &Term) -> Result<Term, Raised> {
    match tools {
        // EX-6: a list of tools.
        Term::List(items) => filter_list(items, mode, allowed_set),
        // EX-7: a map (a struct too, EX-11) is enumerated and sorted by key first.
        t if t.is_map() => {
            let mut entries = enumerate(t)?;
            let anon = || anonymous_clause();
            // `Enum.sort_by(tools, fn {name, _tool} -> name end)`: stable, term order.
            for e in &entries {
                if !matches!(e, Term::Tuple(p) if p.len() == 2) {
                    return Err(anon());
                }
            }
            entries.sort_by(|a, b| term_cmp(pair(a).0, pair(b).0));
            let values: Vec<Term> = entries.iter().map(|e| pair(e).1.clone()).collect();
            filter_list(&values, mode, allowed_set)
        }
        // EX-11: neither a list nor a map.
        _ => Err(Raised::function_clause(MODULE, "filter_by_expose", 3)),
    }
}

fn filter_list(tools: &[Term], mode: &Term, allowed_set: &Term) -> Result<Term, Raised> {
    // EX-8: `allowed_set` is made a set before any tool is examined.
    let allowed = enumerate(allowed_set)?;
    let mut kept = Vec::new();
    for tool in tools {
        // EX-10: an element that is not a tool raises, in order.
        if tool_struct(tool).is_none() {
            return Err(anonymous_clause());
        }
        let layer = effective_expose(tool, mode)?;
        // EX-6: kept in input order, duplicates too, each as given.
        if allowed.contains(&layer) {
            kept.push(tool.clone());
        }
    }
    Ok(Term::List(kept))
}

/// (EX-5, EX-10: only a `PtcRunner.Tool` struct is a tool.)
fn tool_struct(t: &Term) -> Option<&Struct> {
    match t {
        Term::Struct(s) if s.module == TOOL => Some(s),
        _ => None,
    }
}

/// (EX-7: a map's `{key, tool}` pairs, sorted by key.)
fn pair(t: &Term) -> (&Term, &Term) {
    match t {
        Term::Tuple(p) if p.len() == 2 => (&p[0], &p[1]),
        other => (other, other),
    }
}

fn anonymous_clause() -> Raised {
    Raised::function_clause_in(&format!("anonymous fn/1 in {MODULE}.filter_by_expose/3"))
}

/// The elements `Enum.to_list/1` gives (`MapSet.new/1`, `Enum.sort_by/2`);
/// an arity-2 function is called as a reducer (EX-8).
fn enumerate(t: &Term) -> Result<Vec<Term>, Raised> {
    crate::elixir::enumerable::to_list(t)
}
