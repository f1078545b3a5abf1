//! `PtcRunner.Tool`: normalizing the formats a tool may be given in into a
//! `%PtcRunner.Tool{}` struct (`spec/tool.md`, `TL-`), and the per-tool
//! checks agent construction makes (`PtcRunner.SubAgent.Validator`,
//! `spec/tool_validate.md`, `TV-`).

use crate::elixir::messages as m;
use crate::errors::raise;
use crate::inspect::inspect_at;
use crate::keyword;
use crate::structs;
use crate::term::{FunSpec, Struct, Term};
use crate::{Raised, Release};

const MODULE: &str = "PtcRunner.Tool";

/// `new/2`: `{:ok, tool}` for every accepted format, `{:error, reason}`
/// otherwise. Raises `FunctionClauseError` when `name` is not a binary.
/// otherwise, as release `rel` normalizes. Raises `FunctionClauseError`
/// when `name` is not a binary.
pub fn new(rel: Release, name: &Term, format: &Term) -> Result<Term, Raised> {
    // TL-1: any binary name; anything else raises.
    if !name.is_binary() {
        return Err(Raised::function_clause(MODULE, "new", 2));
    }
    normalize_format(rel, name, format)
}

/// `private?/1` (v0.13.0 on, REL-3; TL-14): whether a tool's `visibility` is
/// `:private`.
pub fn private_q(tool: &Term) -> Result<Term, Raised> {
    match tool_struct(tool) {
        // TL-14: private exactly when `visibility` is the atom `:private`; else raises.
        Some(t) => Ok(Term::Bool(
            t.field("visibility").and_then(Term::as_atom) == Some("private"),
        )),
        None => Err(Raised::function_clause(MODULE, "private?", 1)),
    }
}

/// The `PtcRunner.Tool` struct inside `t`, if it is one.
pub fn tool_struct(t: &Term) -> Option<&Struct> {
    match t {
        Term::Struct(s) if s.module == MODULE => Some(s),
        _ => None,
    }
}

/// A `%Tool{}` of release `rel` with `fields` set.
fn tool(rel: Release, fields: Vec<(&str, Term)>) -> Term {
    Term::Struct(Box::new(structs::build_at(rel, MODULE, fields)))
}

fn invalid_visibility(v: &Term) -> Term {
    Term::error(Term::tuple(vec![
        Term::atom("invalid_visibility"),
        v.clone(),
    ]))
}

fn is_visibility(v: &Term) -> bool {
    matches!(v.as_atom(), Some("public" | "private"))
}

fn normalize_format(rel: Release, name: &Term, format: &Term) -> Result<Term, Raised> {
    let native = |function: &Term, signature: Term, description: Term| {
        Term::ok(tool(
            rel,
            vec![
                ("name", name.clone()),
                ("function", function.clone()),
                ("signature", signature),
                ("description", description),
                ("type", Term::atom("native")),
            ],
        ))
    };
    let field = |s: &Struct, f: &str| s.field(f).cloned().unwrap_or(Term::Nil);
    // REL-4: a `%Tool{}` is a format, and `visibility:` an option, from
    // v0.13.0 on; before, a `%Tool{}` is an invalid format and the option
    // is not read.
    let has_visibility = rel.since(Release::V0_13_0);
    let result = match format {
        Term::Struct(s) if s.module == MODULE && has_visibility => {
            // TL-9: a `%Tool{}` as given, visibility checked first (TL-7), a nil/false name filled.
            let visibility = field(s, "visibility");
            if !is_visibility(&visibility) {
                return Ok(invalid_visibility(&visibility));
            }
            let mut t = (**s).clone();
            if matches!(field(s, "name"), Term::Nil | Term::Bool(false)) {
                set_field(&mut t, "name", name.clone());
            }
            Term::ok(Term::Struct(Box::new(t)))
        }
        // A bare function: signature and description would come from the
        // @spec and @doc of a named capture's module; this model knows no
        // module docs, so both are nil (as for anonymous functions and
        // modules that are not loaded).
        // TL-2: a bare function of any arity.
        Term::Fun(_) => native(format, Term::Nil, Term::Nil),
        Term::Tuple(items) if items.len() == 2 && matches!(items[0], Term::Fun(_)) => {
            let (function, second) = (&items[0], &items[1]);
            match second {
                // TL-3: a binary signature as given, not parsed.
                s if s.is_binary() => native(function, s.clone(), Term::Nil),
                // TL-4: `:skip`.
                Term::Atom(a) if a == "skip" => native(function, Term::Nil, Term::Nil),
                Term::List(options) => {
                    // TL-5: the six options read with `Keyword.get/3` in this order (TL-6: its quirks).
                    let signature = keyword_get(rel, options, "signature", Term::Nil)?;
                    let description = keyword_get(rel, options, "description", Term::Nil)?;
                    let cache = keyword_get(rel, options, "cache", Term::Bool(false))?;
                    let expose = keyword_get(rel, options, "expose", Term::Nil)?;
                    let native_result = keyword_get(rel, options, "native_result", Term::Nil)?;
                    let mut fields = vec![
                        ("name", name.clone()),
                        ("function", function.clone()),
                        ("signature", signature),
                        ("description", description),
                        ("type", Term::atom("native")),
                        ("cache", cache),
                        ("expose", expose),
                        ("native_result", native_result),
                    ];
                    if has_visibility {
                        let visibility =
                            keyword_get(rel, options, "visibility", Term::atom("public"))?;
                        // TL-7: an invalid visibility is an error tuple.
                        if !is_visibility(&visibility) {
                            return Ok(invalid_visibility(&visibility));
                        }
                        fields.push(("visibility", visibility));
                    }
                    Term::ok(tool(rel, fields))
                }
                // TL-8: every other second element.
                _ => invalid_format(),
            }
        }
        // TL-10: an LLM tool.
        Term::Struct(s) if s.module == "PtcRunner.SubAgent.LLMTool" => Term::ok(tool(
            rel,
            vec![
                ("name", name.clone()),
                ("signature", field(s, "signature")),
                ("description", field(s, "description")),
                ("type", Term::atom("llm")),
            ],
        )),
        // TL-11: a sub-agent tool.
        Term::Struct(s) if s.module == "PtcRunner.SubAgent.SubAgentTool" => Term::ok(tool(
            rel,
            vec![
                ("name", name.clone()),
                ("signature", field(s, "signature")),
                ("description", field(s, "description")),
                ("type", Term::atom("subagent")),
                ("cache", field(s, "cache")),
            ],
        )),
        // TL-12, TL-13: the builtin atoms and `:self`.
        Term::Atom(a) => match builtin(a) {
            Some((function, signature, description, kind)) => Term::ok(tool(
                rel,
                vec![
                    ("name", name.clone()),
                    (
                        "function",
                        function.map_or(Term::Nil, |f| {
                            Term::Fun(Box::new(FunSpec::Named(f.to_owned())))
                        }),
                    ),
                    ("signature", signature.map_or(Term::Nil, Term::str)),
                    ("description", Term::str(description)),
                    ("type", Term::atom(kind)),
                ],
            )),
            None => invalid_format(),
        },
        // TL-8: every other format.
        _ => invalid_format(),
    };
    Ok(result)
}

fn invalid_format() -> Term {
    Term::error(Term::atom("invalid_tool_format"))
}

fn set_field(s: &mut Struct, name: &str, value: Term) {
    if let Some(slot) = s.fields.iter_mut().find(|(k, _)| k == name) {
        slot.1 = value;
    }
}

type Builtin = (
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
    &'static str,
);

/// The builtin tool atoms: function capture, signature, description, type.
fn builtin(atom: &str) -> Option<Builtin> {
    Some(match atom {
        "builtin_grep" => (
            Some("&PtcRunner.Lisp.Runtime.String.grep/2"),
            Some("(pattern :string, text :string) -> [:string]"),
            "Return lines matching pattern from text string, not a filename (case-insensitive regex)",
            "native",
        ),
        "builtin_grep_n" => (
            Some("&PtcRunner.Lisp.Runtime.String.grep_n/3"),
            Some("(pattern :string, text :string, context :int?) -> [{line :int, text :string, match :bool}]"),
            "Return matching lines with 1-based line numbers from text string, not a filename (case-insensitive regex). Optional context param includes N surrounding lines (like grep -C).",
            "native",
        ),
        "builtin_llm_query" => (
            None,
            None,
            "Ad-hoc LLM call. Pass :prompt (required) and any template args. Optional: :signature (default \":string\"), :llm, :response_template",
            "llm",
        ),
        "self" => (None, None, "Recursive self-invocation (resolved at runtime)", "subagent"),
        _ => return None,
    })
}

/// `Keyword.get(list, key, default)` on the elements of a list.
fn keyword_get(rel: Release, list: &[Term], key: &str, default: Term) -> Result<Term, Raised> {
    Ok(keyword::get_in(rel, list, key)?.unwrap_or(default))
}

/// `Validator.validate!(prompt: "p", tools: %{name => format})`: `:ok`, or
/// the `ArgumentError` agent construction raises for this one tool entry.
/// Checks run in the validator's order: the reserved name `lisp_eval`,
/// then `:self` without an agent signature, then the exposure metadata.
/// then `:self` without an agent signature, then the exposure metadata, as
/// release `rel` checks them.
pub fn validate(rel: Release, name: &Term, format: &Term) -> Result<Term, Raised> {
    // TV-8: `lisp_eval` is reserved, whatever the format, checked first.
    if matches!(name, Term::Str(s) if s == "lisp_eval") || name.as_atom() == Some("lisp_eval") {
        return Err(raise(&m::TOOL_NAME_RESERVED, &[]));
    }
    // TV-9: `:self` needs an agent signature; the minimal agent has none.
    if format.as_atom() == Some("self") {
        return Err(raise(&m::TOOL_SELF_WITHOUT_SIGNATURE, &[]));
    }
    validate_exposure_entry(rel, name, format)?;
    Ok(Term::atom("ok"))
}

/// Only `{function, options}` can carry `expose:` and `native_result:`;
/// from v0.13.0 on, it and a `%Tool{}` can carry `visibility:` (REL-5);
/// other formats pass.
fn validate_exposure_entry(rel: Release, name: &Term, format: &Term) -> Result<(), Raised> {
    let checks_visibility = rel.since(Release::V0_13_0);
    let who = insp(rel, name);
    match format {
        Term::Tuple(items) if items.len() == 2 && matches!(items[0], Term::Fun(_)) => {
            let Term::List(options) = &items[1] else {
                return Ok(());
            };
            // TV-2: read in the order expose, cache, native_result, visibility; checked
            // in the order visibility (TV-3), expose (TV-4), native_result (TV-5, TV-6).
            let expose = keyword_get(rel, options, "expose", Term::Nil)?;
            let cache = keyword_get(rel, options, "cache", Term::Bool(false))?;
            let native_result = keyword_get(rel, options, "native_result", Term::Nil)?;
            if checks_visibility {
                let visibility = keyword_get(rel, options, "visibility", Term::atom("public"))?;
                check_visibility(rel, &who, &visibility)?;
            }
            if !(expose == Term::Nil
                || matches!(expose.as_atom(), Some("native" | "ptc_lisp" | "both")))
            {
                return Err(raise(
                    &m::TOOL_INVALID_EXPOSE,
                    &[("tool", who.as_str()), ("value", &insp(rel, &expose))],
                ));
            }
            check_native_result(rel, &who, &native_result, &expose, &cache)
        }
        Term::Struct(s) if s.module == MODULE && checks_visibility => {
            // TV-7: a `%Tool{}` is checked for its visibility only.
            check_visibility(rel, &who, s.field("visibility").unwrap_or(&Term::Nil))
        }
        // TV-1: every other format carries no exposure metadata and passes.
        _ => Ok(()),
    }
}

/// `inspect/1` as release `rel`'s build prints `t` (REL-7: a display
/// struct nested in another's field prints otherwise before v0.12.0).
fn insp(rel: Release, t: &Term) -> String {
    inspect_at(rel, t)
}

fn check_visibility(rel: Release, who: &str, visibility: &Term) -> Result<(), Raised> {
    if is_visibility(visibility) {
        return Ok(());
    }
    Err(raise(
        &m::TOOL_INVALID_VISIBILITY,
        &[("tool", who), ("value", &insp(rel, visibility))],
    ))
}

fn check_native_result(
    rel: Release,
    who: &str,
    native_result: &Term,
    expose: &Term,
    cache: &Term,
) -> Result<(), Raised> {
    let fields = match native_result {
        // TV-5: nil passes; not a list raises before the expose/cache requirement.
        Term::Nil => return Ok(()),
        Term::List(fields) => fields,
        other => {
            return Err(raise(
                &m::TOOL_NATIVE_RESULT_NOT_KEYWORD,
                &[("tool", who), ("value", &insp(rel, other))],
            ))
        }
    };
    if !(expose.as_atom() == Some("both") && *cache == Term::Bool(true)) {
        return Err(raise(
            &m::TOOL_NATIVE_RESULT_REQUIRES,
            &[
                ("tool", who),
                ("expose", &insp(rel, expose)),
                ("cache", &insp(rel, cache)),
            ],
        ));
    }
    // TV-6: `preview` then `limit`, read and checked in that order.
    let preview = keyword_get(rel, fields, "preview", Term::atom("metadata"))?;
    let limit = keyword_get(rel, fields, "limit", Term::int(20))?;
    let preview_ok = matches!(preview.as_atom(), Some("metadata" | "rows"))
        || matches!(&preview, Term::Fun(f) if f.arity() == Some(1));
    if !preview_ok {
        return Err(raise(
            &m::TOOL_NATIVE_RESULT_PREVIEW,
            &[("tool", who), ("value", &insp(rel, &preview))],
        ));
    }
    let limit_ok = match &limit {
        Term::Int(n) => n.cmp_int(&crate::term::Int::Small(0)).is_gt(),
        _ => false,
    };
    if !limit_ok {
        return Err(raise(
            &m::TOOL_NATIVE_RESULT_LIMIT,
            &[("tool", who), ("value", &insp(rel, &limit))],
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::decode_str;

    fn t(json: &str) -> Term {
        decode_str(json, "").expect("test terms decode")
    }

    const WITH_BOGUS_VISIBILITY: &str = r#"{"$tuple": [{"$fn": {"arity": 1, "returns": 1}}, {"$kw": [["visibility", {"$atom": "bogus"}]]}]}"#;

    /// REL-4, as each build answers: a `%Tool{}` is a format and
    /// `visibility:` an option from v0.13.0 on; v0.12.0 and v0.11.0 call
    /// the struct an invalid format, ignore the option and build a struct
    /// without the field.
    #[test]
    fn tool_structs_and_visibility_came_in_0_13_0() {
        let name = Term::str("t");
        let given = t(r#"{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}"#);
        let given = crate::structs::complete_term(&given, "")
            .expect("completes")
            .into_owned();
        for rel in [Release::V0_11_0, Release::V0_12_0] {
            let given = crate::structs::complete_term_at(
                rel,
                &t(r#"{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}"#),
                "",
            )
            .expect("completes")
            .into_owned();
            assert_eq!(
                new(rel, &name, &given),
                Ok(Term::error(Term::atom("invalid_tool_format"))),
                "{rel}"
            );
            let built = new(rel, &name, &t(WITH_BOGUS_VISIBILITY)).expect("answers");
            let Term::Tuple(items) = &built else {
                panic!("{built:?}")
            };
            assert_eq!(items[0], Term::atom("ok"), "{rel}");
            let Term::Struct(tool) = &items[1] else {
                panic!("{built:?}")
            };
            assert_eq!(tool.fields.len(), 8, "{rel}: {tool:?}");
            assert_eq!(tool.field("visibility"), None, "{rel}");
            assert_eq!(
                validate(rel, &name, &t(WITH_BOGUS_VISIBILITY)),
                Ok(Term::atom("ok")),
                "{rel}"
            );
        }
        let rel = Release::V0_13_0;
        let Ok(Term::Tuple(items)) = new(rel, &name, &given) else {
            panic!("a %Tool{{}} is a format in v0.13.0")
        };
        assert_eq!(items[0], Term::atom("ok"));
        assert_eq!(
            new(rel, &name, &t(WITH_BOGUS_VISIBILITY)),
            Ok(Term::error(Term::tuple(vec![
                Term::atom("invalid_visibility"),
                Term::atom("bogus")
            ])))
        );
        let err = validate(rel, &name, &t(WITH_BOGUS_VISIBILITY)).expect_err("REL-5");
        assert_eq!(
            (err.class.as_str(), err.message.as_str()),
            (
                "ArgumentError",
                "tool \"t\": invalid visibility: :bogus — accepted values are :public, :private"
            )
        );
        let bad_struct = t(
            r#"{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x", "visibility": {"$atom": "bogus"}}}}"#,
        );
        let err = validate(rel, &name, &bad_struct).expect_err("REL-5");
        assert_eq!(err.class, "ArgumentError");
    }
}
