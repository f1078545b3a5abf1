//! `PtcRunner.PtcToolProtocol.render_success_from_step/2`: the `lisp_eval`
//! success payload built straight from an execution step
//! (`spec/protocol_from_step.md`, PP-100 and up). It builds the execution
//! map with [`turn_feedback::execution_feedback`] for a synthetic agent and
//! renders it through `render_success/2`, as v0.13.0 does.

use crate::term::Term;
use crate::turn_feedback::{self, Agent, Step};
use crate::Raised;

/// `render_success_from_step(lisp_step, opts)`: the JSON payload as a
/// binary. `opts` is a keyword list (`include_memory`, default `false`;
/// `prior_memory`, default `%{}`; `format_options`, default the agent
/// defaults; `validated`); other keys are ignored.
pub fn render_success_from_step(lisp_step: &Term, opts: &Term) -> Result<Term, Raised> {
    let include_memory = keyword_get(opts, "include_memory")?.unwrap_or(&Term::Bool(false));
    let prior_memory = keyword_get(opts, "prior_memory")?.unwrap_or(&Term::Nil);
    let format_options = match keyword_get(opts, "format_options")? {
        None | Some(Term::Nil | Term::Bool(false)) => default_format_options(),
        Some(given) => given.clone(),
    };
    let stateful = truthy(include_memory);
    let agent = Agent {
        format_options: &format_options,
        max_turns: if stateful { 2 } else { 1 },
    };
    let step = Step {
        ret: step_field(lisp_step, "return")?,
        prints: step_field(lisp_step, "prints")?,
        memory: step_field(lisp_step, "memory")?,
    };
    let execution = turn_feedback::execution_feedback(&agent, prior_memory, &step)?;

    let mut forwarded = vec![
        kw("execution", execution),
        kw("include_memory", include_memory.clone()),
    ];
    if let Term::List(items) = opts {
        forwarded.extend(
            items
                .iter()
                .filter(|i| matches!(i.as_kw_pair(), Some(("validated", _))))
                .cloned(),
        );
    }
    render_success(lisp_step, &Term::List(forwarded))
}

/// `Definition.default_format_options/0`: the options a `nil`
/// `format_options` stands for (PP-101).
pub fn default_format_options() -> Term {
    Term::List(vec![
        kw("feedback_limit", Term::int(10)),
        kw("feedback_max_chars", Term::int(512)),
        kw("history_max_bytes", Term::int(512)),
        kw("result_limit", Term::int(50)),
        kw("result_max_chars", Term::int(500)),
        kw("max_print_length", Term::int(2000)),
    ])
}

/// `lisp_step.field`: a struct's or an atom-keyed map's field.
fn step_field<'a>(step: &'a Term, field: &str) -> Result<&'a Term, Raised> {
    let found = match step {
        Term::Struct(s) => s.field(field),
        Term::Map(m) => m.get_atom(field),
        _ => return Err(Raised::new("BadMapError", "expected a map")),
    };
    found.ok_or_else(|| Raised::new("KeyError", format!("key :{field} not found")))
}

/// `Keyword.get(opts, key)`; raises unless `opts` is a list.
fn keyword_get<'a>(opts: &'a Term, key: &str) -> Result<Option<&'a Term>, Raised> {
    match opts {
        Term::List(_) => Ok(opts.kw_get(key)),
        _ => Err(Raised::function_clause("Keyword", "get", 3)),
    }
}

fn truthy(t: &Term) -> bool {
    !matches!(t, Term::Nil | Term::Bool(false))
}

fn kw(key: &str, value: Term) -> Term {
    Term::Tuple(vec![Term::atom(key), value])
}

/// Stand-in for `PtcToolProtocol.render_success/2` until the shared one lands.
fn render_success(lisp_step: &Term, opts: &Term) -> Result<Term, Raised> {
    use crate::term::Map;
    let execution = match opts.kw_get("execution") {
        Some(Term::Map(m)) => m,
        _ => return Err(Raised::new("KeyError", "key :execution not found")),
    };
    let get = |k: &str| execution.get_atom(k).cloned().unwrap_or(Term::Nil);
    let include_memory = opts.kw_get("include_memory").map_or(true, truthy);
    let truncated = if include_memory {
        get("truncated")
    } else {
        execution
            .get_atom("visible_truncated")
            .cloned()
            .unwrap_or_else(|| get("truncated"))
    };
    let mut payload = Map::new();
    payload.insert(Term::str("status"), Term::str("ok"));
    payload.insert(Term::str("result"), get("result"));
    payload.insert(Term::str("prints"), get("prints"));
    payload.insert(Term::str("feedback"), get("feedback"));
    payload.insert(Term::str("truncated"), truncated);
    if include_memory {
        let memory = match get("memory") {
            Term::Map(m) => m,
            _ => Map::new(),
        };
        let field = |k: &str| memory.get_atom(k).cloned().unwrap_or(Term::Nil);
        payload.insert(
            Term::str("memory"),
            Term::map(vec![
                (Term::str("changed"), field("changed")),
                (Term::str("stored_keys"), field("stored_keys")),
                (Term::str("truncated"), field("truncated")),
            ]),
        );
    }
    let step_return = match lisp_step {
        Term::Struct(s) => s.field("return").cloned().unwrap_or(Term::Nil),
        Term::Map(m) => m.get_atom("return").cloned().unwrap_or(Term::Nil),
        _ => Term::Nil,
    };
    if get("result") == Term::Nil && step_return == Term::Nil {
        payload = Map::from_pairs(
            payload
                .into_pairs()
                .into_iter()
                .filter(|(k, _)| k != &Term::str("result"))
                .collect(),
        );
    }
    if let Some(v) = opts.kw_get("validated") {
        payload.insert(Term::str("validated"), v.clone());
    }
    crate::jason::encode(&Term::Map(payload)).map(Term::Str)
}
