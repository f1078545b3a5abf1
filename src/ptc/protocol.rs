//! `PtcRunner.PtcToolProtocol`: the `lisp_eval` tool surface — the three
//! capability-profile descriptions, the error and success payloads as
//! Jason renders them, and `to_json_value/1` (`spec/ptc_tool_protocol.md`, `PP-`).
//!
//! The renderers take Elixir keyword lists and read them with `Keyword`'s
//! semantics (first entry wins, unknown keys ignored, malformed entries
//! raise as `Keyword` does), and read the `:execution` map with Elixir's
//! `map.field` semantics, so that every way v0.13.0 raises is reproduced.

use crate::keyword::{self, dot_at, map_get};
use crate::term::{Map, Term};
use crate::{errors, jason, Raised, Release};

const MODULE: &str = "PtcRunner.PtcToolProtocol";

const IN_PROCESS_WITH_APP_TOOLS: &str = "Execute a PTC-Lisp program in PtcRunner's sandbox. \
Use this for deterministic computation and tool orchestration. Call app tools as \
`(tool/name ...)` from inside the program — do not attempt to call app tools as native \
function calls; only `lisp_eval` is available natively.";

const IN_PROCESS_TEXT_MODE: &str = "Execute a PTC-Lisp program in PtcRunner's sandbox. \
Use this for deterministic computation, filtering, aggregation, or multi-step data \
transformation. Call `:both`-exposed app tools as `(tool/name ...)` from inside the \
program. The same tools are also callable natively in this assistant turn, but not in \
the same turn as `lisp_eval`.";

const MCP_NO_TOOLS: &str = "Execute a PTC-Lisp program in PtcRunner's sandbox. Use this \
for deterministic computation, filtering, aggregation, or multi-step data transformation. \
No app tools are available inside the program. Pass external data via the `context` \
argument; each invocation is independent — there is no memory of prior calls.";

/// The three capability profiles and their description strings, in the
/// order `spec/data/profiles.json` lists them (PP-1).
pub const PROFILES: [(&str, &str); 3] = [
    ("in_process_with_app_tools", IN_PROCESS_WITH_APP_TOOLS),
    ("in_process_text_mode", IN_PROCESS_TEXT_MODE),
    ("mcp_no_tools", MCP_NO_TOOLS),
];

/// `tool_description/1`: the description string of a capability profile.
/// Any other term raises `FunctionClauseError`.
pub fn tool_description(profile: &Term) -> Result<Term, Raised> {
    PROFILES
        .iter()
        .find(|(name, _)| profile.as_atom() == Some(name))
        .map(|(_, text)| Term::str(*text))
        // PP-2: any other argument raises.
        .ok_or_else(|| Raised::function_clause(MODULE, "tool_description", 1))
}

/// `render_error/3` (and `/2`, with `opts` `[]`): the error payload as JSON
/// text. The reason may be any atom; `"result"` appears for `:fail` only.
/// A non-atom reason or non-binary message raises `FunctionClauseError`
/// (named `/3` for both arities, as the default-argument clause delegates).
pub fn render_error(
    rel: Release,
    reason: &Term,
    message: &Term,
    opts: &Term,
) -> Result<Term, Raised> {
    // PP-3: an atom reason and a binary message, checked before `opts`.
    let reason_name = match reason.as_atom() {
        Some(name) if message.is_binary() => name,
        _ => return Err(Raised::function_clause(MODULE, "render_error", 3)),
    };
    // PP-6: the `:feedback` option when present (PP-8: `Keyword.get/3`), else the message.
    let feedback = keyword::get(rel, opts, "feedback")?.unwrap_or(message);
    // PP-4: status, reason (the atom's name; PP-5: any atom), message, feedback.
    let mut payload = vec![
        (Term::str("status"), Term::str("error")),
        (Term::str("reason"), Term::str(reason_name)),
        (Term::str("message"), message.clone()),
        (Term::str("feedback"), feedback.clone()),
    ];
    // PP-7: `:result` is read for `:fail` only.
    if reason_name == "fail" {
        let result = keyword::get(rel, opts, "result")?.unwrap_or(&Term::Nil);
        payload.push((Term::str("result"), result.clone()));
    }
    // PP-9: rendered by Jason (PP-40 to PP-47), keys in sorted order.
    render(rel, payload)
}

/// `render_success/2`: the success payload as JSON text, from the
/// `:execution` map in `opts` (required: `Keyword.fetch!`).
///
/// Reads, in Elixir's evaluation order, `execution.truncated` (always, even
/// when `:visible_truncated` replaces it), `.result`, `.prints`,
/// `.feedback`, then `.memory.{changed,stored_keys,truncated}` when
/// `include_memory` is truthy (default `true`). `"result"` is dropped when
/// `execution.result` is `nil` and `Map.get(lisp_step, :return)` is `nil`;
/// `lisp_step` is only consulted (and must only be a map) in that case.
/// `validated:` adds `"validated"` whenever the key is present.
pub fn render_success(rel: Release, lisp_step: &Term, opts: &Term) -> Result<Term, Raised> {
    // PP-10: `Keyword.fetch!/2` of `:execution`; PP-18: the evaluation order below.
    let execution = keyword::fetch_bang_at(rel, opts, "execution")?;
    // PP-12: `include_memory` is tested for truthiness.
    let include_memory = keyword::get(rel, opts, "include_memory")?.map_or(true, truthy);
    // PP-19: `map.field` raises `KeyError` (or the dot-syntax errors) on a missing key.
    let truncated = dot_at(rel, execution, "truncated")?;
    // PP-13 (Quirk): `truncated` read always; `visible_truncated` replaces it without memory.
    let truncated_flag = if include_memory {
        truncated
    } else {
        map_get(execution, "visible_truncated").unwrap_or(truncated)
    };
    // PP-11: result, prints, feedback as they are.
    let result = dot_at(rel, execution, "result")?;
    let mut payload = vec![
        (Term::str("status"), Term::str("ok")),
        (Term::str("result"), result.clone()),
        (
            Term::str("prints"),
            dot_at(rel, execution, "prints")?.clone(),
        ),
        (
            Term::str("feedback"),
            dot_at(rel, execution, "feedback")?.clone(),
        ),
        (Term::str("truncated"), truncated_flag.clone()),
    ];
    // PP-12: memory's changed, stored_keys, truncated.
    if include_memory {
        let mut memory = Vec::with_capacity(3);
        for field in ["changed", "stored_keys", "truncated"] {
            let value = dot_at(rel, dot_at(rel, execution, "memory")?, field)?;
            memory.push((Term::str(field), value.clone()));
        }
        payload.push((Term::str("memory"), Term::map(memory)));
    }
    // PP-14: `"result"` dropped when the result and `Map.get(lisp_step, :return)` are nil;
    // PP-15 (Quirk): `lisp_step` read only then, `BadMapError` when it is no map.
    if matches!(result, Term::Nil) {
        let step_return = match lisp_step {
            Term::Map(_) | Term::Struct(_) | Term::Temporal(_) => map_get(lisp_step, "return"),
            other => return Err(errors::bad_map_at(rel, other)),
        };
        if matches!(step_return, None | Some(Term::Nil)) {
            payload.retain(|(k, _)| k.as_binary() != Some(b"result"));
        }
    }
    // PP-16: `:validated`, when present, whatever its value.
    if let Some(validated) = keyword::fetch(rel, opts, "validated")? {
        payload.push((Term::str("validated"), validated.clone()));
    }
    // PP-17: rendered by Jason, keys in sorted order.
    render(rel, payload)
}

/// `to_json_value/1`: `{:ok, json_value}`, or `{:error, "non-JSON-encodable
/// value at <path>"}` naming the first offending sub-value in iteration
/// order. Never raises.
pub fn to_json_value(value: &Term) -> Term {
    // PP-20: `{:ok, value}` or `{:error, "non-JSON-encodable value at " <> path}`; never raises.
    match to_json(value, &mut Vec::new()) {
        Ok(json) => Term::ok(json),
        Err(path) => {
            let mut text = b"non-JSON-encodable value at ".to_vec();
            text.extend(render_path(&path));
            Term::error(Term::binary(text))
        }
    }
}

/// One step of the path to an offending value: a map key (as the binary it
/// became) or a list/tuple index.
#[derive(Clone)]
enum Segment {
    Key(Vec<u8>),
    Index(usize),
}

/// Converts `value`; on failure returns the path (outermost first) of the
/// offending value. `path` is the path to `value` itself.
fn to_json(value: &Term, path: &mut Vec<Segment>) -> Result<Term, Vec<Segment>> {
    use crate::term::TemporalKind;
    match value {
        // PP-21 (Quirk): scalars unchanged, a binary that is not UTF-8 too.
        Term::Nil
        | Term::Bool(_)
        | Term::Int(_)
        | Term::Float(_)
        | Term::Str(_)
        | Term::Bytes(_) => Ok(value.clone()),
        // PP-23: DateTime, Date and Time become their ISO 8601 text.
        Term::Temporal(t) if t.kind != TemporalKind::NaiveDateTime => Ok(Term::str(t.iso.clone())),
        // PP-22: other atoms become their names.
        Term::Atom(a) => Ok(Term::str(a.clone())),
        // PP-24: NaiveDateTime and every other struct, at `path` + `<Module>`.
        Term::Temporal(_) | Term::Struct(_) => {
            let module = match value {
                Term::Struct(s) => s.module.as_str(),
                _ => "NaiveDateTime",
            };
            let mut at = path.clone();
            at.push(Segment::Key(format!("<{module}>").into_bytes()));
            Err(at)
        }
        // PP-25: binary keys kept, atom keys their names, a later equal key wins.
        Term::Map(m) => {
            let mut out = Map::new();
            for (k, v) in m.iter() {
                let key = match k {
                    Term::Str(s) => s.as_bytes().to_vec(),
                    Term::Bytes(b) => b.clone(),
                    _ => match k.as_atom() {
                        Some(a) => a.as_bytes().to_vec(),
                        // PP-26: any other key fails at the map's own path.
                        None => return Err(path.clone()),
                    },
                };
                // PP-29: the key checked before its value, pairs in map order.
                path.push(Segment::Key(key.clone()));
                let json = to_json(v, path)?;
                path.pop();
                out.insert(Term::binary(key), json);
            }
            Ok(Term::Map(out))
        }
        // PP-27: lists and tuples become lists.
        Term::List(items) | Term::Tuple(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                out.push(to_json(item, path)?);
                path.pop();
            }
            Ok(Term::List(out))
        }
        // PP-28: functions, references, pids and ports.
        Term::Fun(_) | Term::Opaque(..) => Err(path.clone()),
    }
}

/// PP-29: the path text from the root.
/// Renders a path: keys joined with `.`, indices as `[i]` glued to what
/// precedes them, `<root>` when empty. **Quirk:** a key segment that comes
/// while the text so far is still empty (the first key, or any key after
/// empty-string keys) is written without a `.`, so `""` keys vanish.
fn render_path(path: &[Segment]) -> Vec<u8> {
    let mut acc: Vec<u8> = Vec::new();
    for seg in path {
        match seg {
            Segment::Index(i) => acc.extend(format!("[{i}]").into_bytes()),
            Segment::Key(k) if acc.is_empty() => acc.extend_from_slice(k),
            Segment::Key(k) => {
                acc.push(b'.');
                acc.extend_from_slice(k);
            }
        }
    }
    if acc.is_empty() {
        b"<root>".to_vec()
    } else {
        acc
    }
}

/// Jason-encodes a payload map with string keys.
fn render(rel: Release, pairs: Vec<(Term, Term)>) -> Result<Term, Raised> {
    jason::encode(rel, &Term::map(pairs)).map(Term::Str)
}

/// Elixir truthiness: everything but `nil` and `false`.
pub(crate) fn truthy(t: &Term) -> bool {
    !matches!(t, Term::Nil | Term::Bool(false))
}
