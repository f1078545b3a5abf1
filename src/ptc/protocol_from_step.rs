//! `PtcRunner.PtcToolProtocol.render_success_from_step/2`: the `lisp_eval`
//! success payload built straight from an execution step
//! (`spec/ptc_tool_protocol_from_step.md`, PP-100 and up). It builds the execution
//! map with [`turn_feedback::execution_feedback`] for a synthetic agent and
//! renders it through [`protocol::render_success`], as each release does:
//! v0.11.0 reads no option but `validated` (REL-8).

use crate::keyword;
use crate::protocol::{self, truthy};
use crate::term::Term;
use crate::turn_feedback::{self, Agent};
use crate::{Raised, Release};

/// `render_success_from_step(lisp_step, opts)`: the JSON payload as a
/// binary. `opts` is a keyword list (`include_memory`, default `false`;
/// `prior_memory`, default `%{}`; `format_options`, default the agent
/// defaults; `validated`); other keys are ignored. v0.11.0 reads none of
/// the first three (REL-8): its one-shot rendering always leaves memory
/// out, with no prior memory and the default format options.
pub fn render_success_from_step(
    rel: Release,
    lisp_step: &Term,
    opts: &Term,
) -> Result<Term, Raised> {
    let reads_options = rel.since(Release::V0_12_0);
    let option = |key: &str| -> Result<Option<&Term>, Raised> {
        if reads_options {
            keyword::get(rel, opts, key)
        } else {
            Ok(None)
        }
    };
    let include_memory = option("include_memory")?.unwrap_or(&Term::Bool(false));
    // v0.11.0's state is `%{memory: %{}}`; from v0.12.0 `Keyword.get/3`
    // with a `%{}` default, which a `nil` given explicitly overrides (the
    // memory section reads `nil` as it reads `%{}`, PP-107).
    let empty = Term::map(vec![]);
    let prior_memory = option("prior_memory")?.unwrap_or(&empty);
    let format_options = match option("format_options")? {
        None | Some(Term::Nil | Term::Bool(false)) => default_format_options(),
        Some(given) => given.clone(),
    };
    let stateful = truthy(include_memory);
    let agent = Agent {
        format_options: &format_options,
        max_turns: if stateful { 2 } else { 1 },
    };
    let execution = turn_feedback::execution_feedback(rel, &agent, prior_memory, lisp_step)?;

    // PP-113: `render_success(step, [execution: ..., include_memory: ...] ++ validated)`;
    // PP-114: its result elision, PP-115: its truncated flag (PP-13), PP-116: `validated`.
    let mut forwarded = vec![
        kw("execution", execution),
        kw("include_memory", include_memory.clone()),
    ];
    forwarded.extend(keyword::take(opts, "validated")?);
    protocol::render_success(rel, lisp_step, &Term::List(forwarded))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::decode_str;

    fn render(rel: Release, step: &str, opts: &str) -> String {
        let step = decode_str(step, "").expect("decodes");
        let step = crate::structs::complete_term_at(rel, &step, "")
            .expect("completes")
            .into_owned();
        let opts = decode_str(opts, "").expect("decodes");
        let out = render_success_from_step(rel, &step, &opts).expect("renders");
        String::from_utf8(out.as_binary().expect("a binary").to_vec()).expect("UTF-8")
    }

    const STEP: &str = r#"{"$struct": {"module": "PtcRunner.Step", "fields": {"return": 1, "memory": {"a": 1, "b": 2}, "prints": []}}}"#;
    const LONG: &str = r#"{"$struct": {"module": "PtcRunner.Step", "fields": {"return": [1,2,3,4,5,6,7,8,9,10,11,12], "memory": {}, "prints": []}}}"#;

    /// REL-8, as each build answers: v0.11.0 reads neither
    /// `include_memory`, `prior_memory` nor `format_options`.
    #[test]
    fn options_are_read_from_0_12_0() {
        let opts = r#"{"$kw": [["include_memory", true], ["prior_memory", {"a": 1}]]}"#;
        assert_eq!(
            render(Release::V0_11_0, STEP, opts),
            r#"{"feedback":"","prints":[],"result":"user=> 1","status":"ok","truncated":false}"#
        );
        for rel in [Release::V0_12_0, Release::V0_13_0] {
            let out = render(rel, STEP, opts);
            assert!(
                out.contains(r#""memory":{"changed":{"b":"2"},"stored_keys":["a","b"]"#),
                "{rel}: {out}"
            );
            assert!(
                out.starts_with(r#"{"feedback":"The following quoted blocks"#),
                "{rel}: {out}"
            );
        }
        let short = r#"{"$kw": [["format_options", {"$kw": [["preview_max_chars", 5]]}]]}"#;
        assert_eq!(
            render(Release::V0_11_0, LONG, short),
            r#"{"feedback":"","prints":[],"result":"user=> [1 2 3 4 5 6 7 8 9 10 11 12]","status":"ok","truncated":false}"#
        );
        assert_eq!(
            render(Release::V0_12_0, LONG, short),
            r#"{"feedback":"","prints":[],"result":"user=> [1 2  ... (truncated at 5 chars; use println on specific fields)","status":"ok","truncated":true}"#
        );
    }
}
