//! `PtcRunner.PtcToolProtocol.render_success_from_step/2`: the `lisp_eval`
//! success payload built straight from an execution step
//! (`spec/ptc_tool_protocol_from_step.md`, PP-100 and up). It builds the execution
//! map with [`turn_feedback::execution_feedback`] for a synthetic agent and
//! renders it through [`protocol::render_success`], as v0.13.0 does.

use crate::keyword;
use crate::protocol::{self, truthy};
use crate::term::Term;
use crate::turn_feedback::{self, Agent};
use crate::Raised;

/// `render_success_from_step(lisp_step, opts)`: the JSON payload as a
/// binary. `opts` is a keyword list (`include_memory`, default `false`;
/// `prior_memory`, default `%{}`; `format_options`, default the agent
/// defaults; `validated`); other keys are ignored.
pub fn render_success_from_step(lisp_step: &Term, opts: &Term) -> Result<Term, Raised> {
    let include_memory = keyword::get(opts, "include_memory")?.unwrap_or(&Term::Bool(false));
    let prior_memory = keyword::get(opts, "prior_memory")?.unwrap_or(&Term::Nil);
    let format_options = match keyword::get(opts, "format_options")? {
        None | Some(Term::Nil | Term::Bool(false)) => default_format_options(),
        Some(given) => given.clone(),
    };
    let stateful = truthy(include_memory);
    let agent = Agent {
        format_options: &format_options,
        max_turns: if stateful { 2 } else { 1 },
    };
    let execution = turn_feedback::execution_feedback(&agent, prior_memory, lisp_step)?;

    // PP-113: `render_success(step, [execution: ..., include_memory: ...] ++ validated)`;
    // PP-114: its result elision, PP-115: its truncated flag (PP-13), PP-116: `validated`.
    let mut forwarded = vec![
        kw("execution", execution),
        kw("include_memory", include_memory.clone()),
    ];
    forwarded.extend(keyword::take(opts, "validated")?);
    protocol::render_success(lisp_step, &Term::List(forwarded))
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

fn kw(key: &str, value: Term) -> Term {
    Term::Tuple(vec![Term::atom(key), value])
}
