//! `PtcRunner.SubAgent.Loop.TurnFeedback.execution_feedback/3`: the
//! execution map a `lisp_eval` success payload is rendered from: the
//! LLM-facing feedback text, the result preview, the memory previews and
//! the truncation flags (`spec/ptc_tool_protocol_from_step.md`, PP-101..112).

use crate::elixir::enumerable;
use crate::keyword::{self, dot_at};
use crate::lisp_format::to_clojure;
use crate::term::{map_view, term_cmp, Int, Map, Term};
use crate::untrusted_renderer::{wrap, PREAMBLE};
use crate::{chars, elixir_string};
use crate::{Raised, Release};
use std::cmp::Ordering;

/// Collections in previews show at most this many items.
const PREVIEW_ITEMS: usize = 50;

/// What `execution_feedback/3` reads of the agent: its `format_options`
/// keyword list and its `max_turns`.
pub struct Agent<'a> {
    /// `agent.format_options`, a keyword list.
    pub format_options: &'a Term,
    /// `agent.max_turns`: 1 for one-shot rendering, 2 for stateful.
    pub max_turns: i64,
}

/// `execution_feedback(rel, agent, %{memory: prior_memory}, lisp_step)`: the map
/// with atom keys `feedback`, `prints`, `result`, `memory` (`changed`,
/// `stored_keys`, `truncated`), `result_truncated`, `visible_truncated`
/// and `truncated`. The step's fields are read with `step.field` (a
/// `PtcRunner.Step` or any map with those atom keys), in v0.13.0's order.
pub fn execution_feedback(
    rel: Release,
    agent: &Agent,
    prior_memory: &Term,
    lisp_step: &Term,
) -> Result<Term, Raised> {
    let max_chars = limit_option(rel, agent.format_options, "feedback_max_chars", 512)?;
    let preview_max = limit_option(rel, agent.format_options, "preview_max_chars", 250)?;

    // PP-117: the step's fields read with `step.field`, in the order prints, return, memory.
    let step_prints = dot_at(rel, lisp_step, "prints")?;
    let (prints_output, prints_truncated) = format_prints(rel, step_prints, &max_chars)?;
    let (result_preview, result_truncated) =
        result_preview(rel, dot_at(rel, lisp_step, "return")?, &preview_max)?;
    let step_memory = dot_at(rel, lisp_step, "memory")?;
    let memory = memory_section(rel, prior_memory, step_memory, &preview_max)?;

    // The feedback text keeps the historical suppression rules (PP-104):
    // the result preview only for multi-turn agents and turns without
    // prints, the memory hint only for multi-turn agents.
    let multi_turn = agent.max_turns > 1;
    let result_for_feedback = match prints_output {
        None if multi_turn => result_preview.as_deref(),
        _ => None,
    };
    let memory_for_feedback = match step_memory {
        m if m.is_map() && multi_turn => memory.hint.as_deref(),
        _ => None,
    };
    let prints_with_hint = match prints_output {
        // PP-102: the cut println text gets its truncation hint.
        Some(mut p) if prints_truncated => {
            p.extend_from_slice(b"\n... (truncated at ");
            p.extend(max_chars.text(rel)?);
            p.extend_from_slice(b" chars; print specific fields instead)");
            Some(p)
        }
        other => other,
    };
    // PP-112: the result, println and memory blocks, in that order, those that exist.
    let parts: Vec<Vec<u8>> = [
        wrap(result_for_feedback, "result"),
        wrap(prints_with_hint.as_deref(), "println"),
        wrap(memory_for_feedback, "memory"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let feedback = if parts.is_empty() {
        Vec::new()
    } else {
        let mut text = format!("{PREAMBLE}\n\n").into_bytes();
        text.extend(parts.join(&b"\n\n"[..]));
        text
    };

    let visible_truncated = prints_truncated || result_truncated;
    let prints = match step_prints {
        Term::Nil | Term::Bool(false) => Term::List(vec![]),
        other => other.clone(),
    };
    let atom = Term::atom;
    let mut pairs = vec![
        (atom("feedback"), Term::binary(feedback)),
        (atom("prints"), prints),
        (
            atom("result"),
            result_preview.map_or(Term::Nil, Term::binary),
        ),
        (
            atom("memory"),
            Term::map(vec![
                (atom("changed"), Term::Map(memory.changed)),
                (atom("stored_keys"), stored_keys(rel, step_memory)?),
                (atom("truncated"), Term::Bool(memory.truncated)),
            ]),
        ),
        (atom("visible_truncated"), Term::Bool(visible_truncated)),
        (
            atom("truncated"),
            Term::Bool(visible_truncated || memory.truncated),
        ),
    ];
    // REL-9: the map's `result_truncated` came in v0.13.0.
    if rel.since(Release::V0_13_0) {
        pairs.push((atom("result_truncated"), Term::Bool(result_truncated)));
    }
    Ok(Term::map(pairs))
}

/// A character limit as the options give it: any term. Elixir compares it
/// with a length by term order (so a non-number never truncates) and
/// slices with it (so only a non-negative integer can) (PP-105).
struct Limit(Term);

impl Limit {
    /// `"#{limit}"` in a hint: the limit's `String.Chars` text (any term
    /// that protocol refuses raises, e.g. a tuple limit once a preview was
    /// cut by the printer's own item limit).
    /// (PP-102, PP-106, PP-108: the `N` of the truncation hints.)
    fn text(&self, rel: Release) -> Result<Vec<u8>, Raised> {
        chars::to_string(rel, &self.0)
    }

    /// `if String.length(s) > limit, do: {String.slice(s, 0, limit), true}`
    /// of any binary (invalid bytes count one each).
    /// (PP-105: lengths in grapheme clusters; the limit compared by term order.)
    fn cut_bytes<'s>(&self, s: &'s [u8]) -> Result<Option<&'s [u8]>, Raised> {
        let len = Term::Int(Int::Small(elixir_string::length_bytes(s) as i64));
        if term_cmp(&len, &self.0) != Ordering::Greater {
            return Ok(None);
        }
        match &self.0 {
            Term::Int(Int::Small(n)) if *n >= 0 => {
                Ok(Some(elixir_string::take_bytes(s, *n as usize)))
            }
            _ => Err(Raised::function_clause("String", "slice", 3)),
        }
    }
}

/// `Keyword.get(options, key, default)`.
fn limit_option(rel: Release, options: &Term, key: &str, default: i64) -> Result<Limit, Raised> {
    let found = keyword::get(rel, options, key)?;
    Ok(Limit(found.cloned().unwrap_or(Term::int(default))))
}

/// Prints joined by line feeds and cut at `max_chars` (PP-102); `None`
/// unless `prints` is a non-empty list.
fn format_prints(
    rel: Release,
    prints: &Term,
    max_chars: &Limit,
) -> Result<(Option<Vec<u8>>, bool), Raised> {
    let items = match prints {
        Term::List(items) if !items.is_empty() => items,
        _ => return Ok((None, false)),
    };
    // PP-102: each print converted as interpolation does, joined by line feeds.
    let joined = items
        .iter()
        .map(|p| chars::to_string(rel, p))
        .collect::<Result<Vec<_>, _>>()?
        .join(&b'\n');
    Ok(match max_chars.cut_bytes(&joined)? {
        Some(cut) => (Some(cut.to_vec()), true),
        None => (Some(joined), false),
    })
}

/// `user=> <preview>` of the return value, unless it is `nil` or a var
/// struct (PP-103).
fn result_preview(
    rel: Release,
    ret: &Term,
    preview_max: &Limit,
) -> Result<(Option<Vec<u8>>, bool), Raised> {
    let is_var = matches!(ret, Term::Struct(s) if s.module.ends_with("Var"));
    if *ret == Term::Nil || is_var {
        return Ok((None, false));
    }
    let (text, cut) = truncate_value(rel, ret, preview_max)?;
    let mut line = b"user=> ".to_vec();
    line.extend(text);
    Ok((Some(line), cut))
}

/// A value's Clojure-style preview, cut at `max_len` (PP-106); a binary,
/// as names in it keep their bytes.
fn truncate_value(rel: Release, value: &Term, max_len: &Limit) -> Result<(Vec<u8>, bool), Raised> {
    let (text, format_cut) = to_clojure(rel, value, Some(PREVIEW_ITEMS))?;
    Ok(match max_len.cut_bytes(&text)? {
        Some(cut) => {
            let mut out = cut.to_vec();
            out.extend_from_slice(b" ... (truncated at ");
            out.extend(max_len.text(rel)?);
            out.extend_from_slice(b" chars; use println on specific fields)");
            (out, true)
        }
        None => (text, format_cut),
    })
}

struct MemorySection {
    hint: Option<Vec<u8>>,
    changed: Map,
    truncated: bool,
}

/// The memory hint text, the `changed` previews and whether one was cut
/// (PP-107..109).
fn memory_section(
    rel: Release,
    prior_term: &Term,
    memory: &Term,
    preview_max: &Limit,
) -> Result<MemorySection, Raised> {
    let empty = MemorySection {
        hint: None,
        changed: Map::new(),
        truncated: false,
    };
    // `is_map(memory) and map_size(memory) > 0`: a struct is a map with
    // at least its `__struct__` key, so it always goes on.
    if !memory.is_map() || map_view(memory).is_empty() {
        return Ok(empty);
    }
    // `changed_vars/2`: `Enum.filter(memory, fn {k, v} -> Map.get(prior,
    // k) != v end) |> Map.new()`. The filter enumerates the memory (a
    // struct must implement `Enumerable`: a `MapSet` gives its members),
    // matches each element as a pair, then reads the prior memory with
    // `Map.get/2`, which sees a struct's fields (and `:__struct__`).
    // Changed means `!=`: numbers compare by value, a missing key reads as nil.
    let prior = match prior_term {
        Term::Nil | Term::Bool(false) => Some(Map::new()),
        t if t.is_map() => Some(Map::from_pairs(map_view(t).into_owned())),
        _ => None,
    };
    let mut kept = vec![];
    // PP-133: a struct memory is enumerated; a MapSet's members must be pairs.
    for entry in enumerable::to_list(memory)? {
        let Term::Tuple(kv) = &entry else {
            return Err(changed_vars_clause());
        };
        let [k, v] = kv.as_slice() else {
            return Err(changed_vars_clause());
        };
        let Some(prior_map) = &prior else {
            return Err(crate::errors::bad_map_at(rel, prior_term));
        };
        if term_cmp(prior_map.get(k).unwrap_or(&Term::Nil), v) != Ordering::Equal {
            kept.push((k.clone(), v.clone()));
        }
    }
    let changed_map = Map::from_pairs(kept);
    // Names stay binaries: a non-UTF-8 name reaches the feedback text as it
    // is (and Jason refuses it there).
    let mut changed: Vec<(Vec<u8>, &Term)> = vec![];
    for (k, v) in changed_map.iter() {
        changed.push((chars::to_string(rel, k)?, v));
    }
    // PP-109: nothing changed: `Stored: ` and every name.
    if changed.is_empty() {
        let names = sorted_names(rel, memory)?.join(&b", "[..]);
        return Ok(MemorySection {
            hint: Some([&b"Stored: "[..], &names].concat()),
            ..empty
        });
    }
    // PP-108: names through `to_string/1`, sorted stably, one line each.
    changed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut lines = vec![];
    let mut previews = vec![];
    let mut truncated = false;
    for (name, value) in changed {
        let (text, cut) = truncate_value(rel, value, preview_max)?;
        truncated |= cut;
        lines.push([&b";; "[..], &name, b" = ", &text].concat());
        previews.push((Term::binary(name), Term::binary(text)));
    }
    let mut hint = lines.join(&b'\n');
    if truncated {
        hint.extend_from_slice(b"\n;; (truncated at ");
        hint.extend(preview_max.text(rel)?);
        hint.extend_from_slice(b" chars; use println on specific fields)");
    }
    Ok(MemorySection {
        hint: Some(hint),
        changed: Map::from_pairs(previews),
        truncated,
    })
}

/// Every memory name as a string, sorted (PP-110): `Map.keys/1` of a map
/// or of a struct (its field names and `__struct__`).
fn stored_keys(rel: Release, memory: &Term) -> Result<Term, Raised> {
    Ok(match memory {
        m if m.is_map() => Term::List(
            sorted_names(rel, m)?
                .into_iter()
                .map(Term::binary)
                .collect(),
        ),
        _ => Term::List(vec![]),
    })
}

/// `Map.keys(memory) |> Enum.map(&to_string/1) |> Enum.sort()`.
/// (PP-109, PP-110.)
fn sorted_names(rel: Release, memory: &Term) -> Result<Vec<Vec<u8>>, Raised> {
    let mut names = map_view(memory)
        .iter()
        .map(|(k, _)| chars::to_string(rel, k))
        .collect::<Result<Vec<_>, _>>()?;
    names.sort();
    Ok(names)
}

fn changed_vars_clause() -> Raised {
    Raised::function_clause_in(
        "anonymous fn/1 in PtcRunner.SubAgent.Loop.TurnFeedback.changed_vars/2",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// REL-9, as each build's `execution_feedback/3` answers (called on
    /// the build directly: no op shows the map whole): the map has
    /// `result_truncated` from v0.13.0 on.
    #[test]
    fn result_truncated_came_in_0_13_0() {
        let options = crate::protocol_from_step::default_format_options();
        let agent = Agent {
            format_options: &options,
            max_turns: 1,
        };
        let step = Term::map(vec![
            (Term::atom("prints"), Term::List(vec![])),
            (Term::atom("return"), Term::int(1)),
            (Term::atom("memory"), Term::map(vec![])),
        ]);
        let keys = |rel| -> Vec<String> {
            let Ok(Term::Map(m)) = execution_feedback(rel, &agent, &Term::map(vec![]), &step)
            else {
                panic!("a map")
            };
            m.iter()
                .map(|(k, _)| k.as_atom().unwrap_or("?").to_owned())
                .collect()
        };
        let old = [
            "feedback",
            "memory",
            "prints",
            "result",
            "truncated",
            "visible_truncated",
        ];
        assert_eq!(keys(Release::V0_11_0), old);
        assert_eq!(keys(Release::V0_12_0), old);
        assert_eq!(
            keys(Release::V0_13_0),
            [
                "feedback",
                "memory",
                "prints",
                "result",
                "result_truncated",
                "truncated",
                "visible_truncated"
            ]
        );
    }
}
