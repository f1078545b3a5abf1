//! Insta snapshots of the wire format: every string the reference sends
//! across the `lisp_eval` tool boundary, one snapshot per representative
//! input, so that a change to a rendered byte shows up as a reviewable diff.
//!
//! Each input mirrors a golden case (certified against PtcRunner v0.13.0)
//! and [`reference`] checks that it still equals that case's `args`, so the
//! snapshots show certified behaviour. The profile descriptions and cache
//! hints are snapshotted as the raw text. JSON payloads are snapshotted
//! indented by [`pretty`], which only inserts line breaks and indentation
//! outside strings and a space after each `:`: the wire bytes are the
//! snapshot with that whitespace removed, and a byte change shows as a line
//! change. Previews (terms, not text) are the status atom then the preview
//! map as `Jason.encode` writes it, indented the same way.
//!
//! Update snapshots with `cargo insta review` (or `INSTA_UPDATE=always`
//! locally, then review every `.snap`); CI runs with `CI=true`, in which
//! insta never writes them.

use ptc_conformance::tagged::decode_args;
use ptc_conformance::{jason, ops, Term};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::PathBuf;

/// The `args` of a golden case file.
#[derive(Deserialize)]
struct GoldenArgs<'a> {
    #[serde(borrow)]
    args: &'a RawValue,
}

/// Calls `op` on the reference with `args` (tagged term JSON), after
/// checking that `args` are those of the golden case `golden_id`.
fn reference(golden_id: &str, op: &str, args: &str) -> Term {
    let args = decode_args(args, "").unwrap_or_else(|e| panic!("{golden_id}: bad args: {e}"));
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(format!("{golden_id}.json"));
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    let case: GoldenArgs =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    let golden = decode_args(case.args.get(), "/args")
        .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    assert_eq!(
        args,
        golden,
        "the snapshot input no longer mirrors the golden case {}",
        file.display()
    );
    let op = ops::find(op).unwrap_or_else(|| panic!("no op {op}"));
    let args = ptc_conformance::structs::complete_args(&args, "/args")
        .unwrap_or_else(|e| panic!("{golden_id}: {e}"));
    op.invoke(ptc_conformance::Release::default(), &args)
        .unwrap_or_else(|e| panic!("{golden_id}: {op:?} raised {e}"))
}

/// Runs `assert` with the snapshot described as mirroring golden case `id`
/// (shown in the `.snap` header and by `cargo insta review`).
fn described(id: &str, assert: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_description(format!("mirrors golden/{id}.json"));
    settings.set_omit_expression(true);
    settings.bind(assert);
}

/// The text of a string result.
fn text(t: &Term) -> String {
    match t {
        Term::Str(s) => s.clone(),
        other => panic!("expected a UTF-8 string, got {other:?}"),
    }
}

/// JSON text indented for review (`bless::pretty`, the corpus's own
/// indentation): line breaks and indentation outside strings and a space
/// after `:`; nothing is removed or reordered, so keys keep their wire order
/// and numbers their wire text.
fn pretty(json: &str) -> String {
    ptc_conformance_harness::review::bless::pretty(json, 0)
        .unwrap_or_else(|e| panic!("not JSON: {e}: {json}"))
}

/// A rendered JSON payload (a string result), indented by [`pretty`].
fn payload(t: &Term) -> String {
    pretty(&text(t))
}

/// A `build/3` result `{status, preview}`: `:status` on the first line,
/// then the preview as `Jason.encode` writes it, indented by [`pretty`].
fn preview(t: &Term) -> String {
    match t {
        Term::Tuple(pair) if pair.len() == 2 => {
            let status = pair[0].as_atom().unwrap_or_else(|| panic!("status {t:?}"));
            let json = jason::encode(ptc_conformance::Release::default(), &pair[1])
                .unwrap_or_else(|e| panic!("preview is not Jason-encodable: {e}"));
            format!(":{status}\n{}", pretty(&json))
        }
        other => panic!("expected {{status, preview}}, got {other:?}"),
    }
}

/// A snapshot test named `$name` (test and snapshot alike): calls `$op` on
/// the reference with `$args`, which must equal golden case `$id`'s args,
/// and snapshots `$render` of the result.
macro_rules! snapshot {
    ($name:ident, $render:ident, $id:literal, $op:literal, $args:literal) => {
        #[test]
        fn $name() {
            let t = reference($id, $op, $args);
            described($id, || {
                insta::assert_snapshot!(stringify!($name), $render(&t))
            });
        }
    };
}

// --- protocol.tool_description: the three capability profiles (PP-1) ---

snapshot!(
    profile_in_process_with_app_tools,
    text,
    "protocol/tool_description/in-process-with-app-tools",
    "protocol.tool_description",
    r#"[{"$atom":"in_process_with_app_tools"}]"#
);

snapshot!(
    profile_in_process_text_mode,
    text,
    "protocol/tool_description/in-process-text-mode",
    "protocol.tool_description",
    r#"[{"$atom":"in_process_text_mode"}]"#
);

snapshot!(
    profile_mcp_no_tools,
    text,
    "protocol/tool_description/mcp-no-tools",
    "protocol.tool_description",
    r#"[{"$atom":"mcp_no_tools"}]"#
);

// --- protocol.render_error: each reason of the closed union (PP-4..PP-9) ---

snapshot!(
    error_parse_error,
    payload,
    "protocol/render_error/parse-error",
    "protocol.render_error",
    r#"[{"$atom":"parse_error"},"Program failed: boom",[]]"#
);

snapshot!(
    error_runtime_error,
    payload,
    "protocol/render_error/runtime-error",
    "protocol.render_error",
    r#"[{"$atom":"runtime_error"},"Program failed: boom",[]]"#
);

snapshot!(
    error_timeout,
    payload,
    "protocol/render_error/timeout",
    "protocol.render_error",
    r#"[{"$atom":"timeout"},"Program failed: boom",[]]"#
);

snapshot!(
    error_memory_limit,
    payload,
    "protocol/render_error/memory-limit",
    "protocol.render_error",
    r#"[{"$atom":"memory_limit"},"Program failed: boom",[]]"#
);

snapshot!(
    error_args_error,
    payload,
    "protocol/render_error/args-error",
    "protocol.render_error",
    r#"[{"$atom":"args_error"},"Program failed: boom",[]]"#
);

snapshot!(
    error_fail_with_result,
    payload,
    "protocol/render_error/fail-with-result",
    "protocol.render_error",
    r#"[{"$atom":"fail"},"Program called fail",{"$kw":[["result","{:error \"nope\"}"]]}]"#
);

snapshot!(
    error_validation_error,
    payload,
    "protocol/render_error/validation-error",
    "protocol.render_error",
    r#"[{"$atom":"validation_error"},"Program failed: boom",[]]"#
);

snapshot!(
    error_feedback_override,
    payload,
    "protocol/render_error/feedback-override",
    "protocol.render_error",
    r#"[{"$atom":"runtime_error"},"boom",{"$kw":[["feedback","Try (count xs) instead"]]}]"#
);

// --- protocol.render_success (PP-10..PP-19) ---

snapshot!(
    success_with_memory,
    payload,
    "protocol/render_success/full-payload-with-memory",
    "protocol.render_success",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":3,"prints":[]}}},
            {"$kw":[["execution",{"$map":[
              [{"$atom":"result"},"user=> 3"],[{"$atom":"prints"},[]],
              [{"$atom":"feedback"},"user=> 3"],[{"$atom":"truncated"},false],
              [{"$atom":"memory"},{"$map":[[{"$atom":"changed"},{}],
                [{"$atom":"stored_keys"},[]],[{"$atom":"truncated"},false]]}]]}]]}]"#
);

snapshot!(
    success_without_memory,
    payload,
    "protocol/render_success/include-memory-false",
    "protocol.render_success",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":3,"prints":[]}}},
            {"$kw":[["execution",{"$map":[
              [{"$atom":"result"},"user=> 3"],[{"$atom":"prints"},[]],
              [{"$atom":"feedback"},"user=> 3"],[{"$atom":"truncated"},false],
              [{"$atom":"memory"},{"$map":[[{"$atom":"changed"},{}],
                [{"$atom":"stored_keys"},[]],[{"$atom":"truncated"},false]]}]]}],
              ["include_memory",false]]}]"#
);

snapshot!(
    success_validated,
    payload,
    "protocol/render_success/validated-present",
    "protocol.render_success",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":3,"prints":[]}}},
            {"$kw":[["execution",{"$map":[
              [{"$atom":"result"},"user=> 3"],[{"$atom":"prints"},[]],
              [{"$atom":"feedback"},"user=> 3"],[{"$atom":"truncated"},false],
              [{"$atom":"memory"},{"$map":[[{"$atom":"changed"},{}],
                [{"$atom":"stored_keys"},[]],[{"$atom":"truncated"},false]]}]]}],
              ["include_memory",false],["validated",{"count":3}]]}]"#
);

snapshot!(
    success_result_elided,
    payload,
    "protocol/render_success/result-elided-when-both-nil",
    "protocol.render_success",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{}}},
            {"$kw":[["execution",{"$map":[
              [{"$atom":"result"},null],[{"$atom":"prints"},[]],
              [{"$atom":"feedback"},"user=> 3"],[{"$atom":"truncated"},false],
              [{"$atom":"memory"},{"$map":[[{"$atom":"changed"},{}],
                [{"$atom":"stored_keys"},[]],[{"$atom":"truncated"},false]]}]]}],
              ["include_memory",false]]}]"#
);

// --- protocol.render_success_from_step (PP-100 and up) ---

snapshot!(
    from_step_result,
    payload,
    "protocol/render_success_from_step/seed-plus-one-two",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":3,"prints":[],"memory":{}}}}]"#
);

snapshot!(
    from_step_prints,
    payload,
    "protocol/render_success_from_step/prints-joined-with-newlines",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step",
              "fields":{"return":null,"prints":["a","b","c"],"memory":{}}}}]"#
);

snapshot!(
    from_step_prints_truncated,
    payload,
    "protocol/render_success_from_step/prints-one-past-limit",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":null,"prints":["0123456789X"]}}},
            {"$kw":[["format_options",{"$kw":[["feedback_max_chars",10]]}]]}]"#
);

snapshot!(
    from_step_result_truncated,
    payload,
    "protocol/render_success_from_step/result-preview-one-past-limit",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":"xxxxxxxxx"}}},
            {"$kw":[["format_options",{"$kw":[["preview_max_chars",10]]}]]}]"#
);

snapshot!(
    from_step_memory_changed,
    payload,
    "protocol/render_success_from_step/memory-partly-changed",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step",
              "fields":{"return":null,"prints":[],"memory":{"a":1,"b":3,"c":[1]}}}},
            {"$kw":[["include_memory",true],["prior_memory",{"a":1,"b":2}]]}]"#
);

snapshot!(
    from_step_memory_truncated,
    payload,
    "protocol/render_success_from_step/memory-truncated",
    "protocol.render_success_from_step",
    r#"[{"$struct":{"module":"PtcRunner.Step","fields":{"return":null,"prints":[],
              "memory":{"big":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,
                               20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39]}}}},
            {"$kw":[["include_memory",true],["format_options",{"$kw":[["preview_max_chars",15]]}]]}]"#
);

// --- native_preview.cache_hint (NP-1..NP-5) ---

snapshot!(
    cache_hint_nested_map,
    text,
    "native_preview/cache_hint/nested-map",
    "native_preview.cache_hint",
    r#"["t",{"$map":[[{"$atom":"filter"},{"$map":[[{"$atom":"z"},1],["min-price",10]]}]]}]"#
);

snapshot!(
    cache_hint_list_of_maps,
    text,
    "native_preview/cache_hint/list-of-maps",
    "native_preview.cache_hint",
    r#"["t",{"$map":[[{"$atom":"xs"},[{"$map":[[{"$atom":"b"},1],[{"$atom":"a"},2]]},{}]]]}]"#
);

snapshot!(
    cache_hint_tuple_vector,
    text,
    "native_preview/cache_hint/tuple-value-vector",
    "native_preview.cache_hint",
    r#"["t",{"p":{"$tuple":[1,{"$tuple":[2,{"$atom":"x"}]}]}}]"#
);

snapshot!(
    cache_hint_string_escapes,
    text,
    "native_preview/cache_hint/string-escapes",
    "native_preview.cache_hint",
    r#"["t",{"q":"say \"hi\"\n\tC:\\x\r"}]"#
);

snapshot!(
    cache_hint_float_decimals,
    text,
    "native_preview/cache_hint/float-more-than-10-decimals",
    "native_preview.cache_hint",
    r#"["t",{"x":{"$float":0.30000000000000004},"y":{"$float":0.6666666666666666},
                 "z":{"$float":3.14159265358979}}]"#
);

snapshot!(
    cache_hint_float_huge,
    text,
    "native_preview/cache_hint/float-huge",
    "native_preview.cache_hint",
    r#"["t",{"x":{"$float":1e+20}}]"#
);

snapshot!(
    cache_hint_float_negative_zero,
    text,
    "native_preview/cache_hint/float-negative-zero",
    "native_preview.cache_hint",
    r#"["t",{"x":{"$float":-0.0}}]"#
);

snapshot!(
    cache_hint_atom_values,
    text,
    "native_preview/cache_hint/atom-values-as-keywords",
    "native_preview.cache_hint",
    r#"["t",{"$map":[[{"$atom":"mode"},{"$atom":"fast-path"}]]}]"#
);

snapshot!(
    cache_hint_hyphenated_keys,
    text,
    "native_preview/cache_hint/hyphenated-keys-normalized",
    "native_preview.cache_hint",
    r#"["t",{"$map":[[{"$atom":"min-price"},10],["max-price",20]]}]"#
);

// --- native_preview.build (NP-6..NP-23) ---

snapshot!(
    preview_metadata_list_of_maps,
    preview,
    "native_preview/build/meta-maps-consistent",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search"}}},
            [{"i":1,"f":{"$float":1.5},"s":"x","t":true,"n":null,"l":[1],"m":{"k":1}},
             {"i":2,"f":{"$float":2.5},"s":"y","t":true,"n":1,"l":[],"m":{}}],
            {}]"#
);

snapshot!(
    preview_metadata_canonical_hint,
    preview,
    "native_preview/build/cache-fields-use-canonical-args",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search"}}},
            [],
            {"$map":[[{"$atom":"b-b"},{"$float":1.0}],[{"$atom":"a"},[{"$tuple":[1,2]}]]]}]"#
);

snapshot!(
    preview_rows_limit,
    preview,
    "native_preview/build/rows-limit-cuts",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search",
              "native_result":{"$kw":[["preview",{"$atom":"rows"}],["limit",2]]}}}},
            [{"i":0,"s":"x"},{"i":1,"s":"x"},{"i":2,"s":"x"},{"i":3,"s":"x"},{"i":4,"s":"x"}],
            {}]"#
);

snapshot!(
    preview_rows_temporal,
    preview,
    "native_preview/build/rows-temporal-values",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search",
              "native_result":{"$kw":[["preview",{"$atom":"rows"}]]}}}},
            [{"d":{"$date":"2026-05-03"},"t":{"$time":"09:14:00.120"},
              "n":{"$naive_datetime":"2026-05-03T09:14:00"},"u":{"$datetime":"2026-05-03T09:14:00Z"},
              "o":{"$datetime":"2026-05-03T09:14:00+02:00"}}],
            {}]"#
);

snapshot!(
    preview_custom,
    preview,
    "native_preview/build/custom-map",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search",
              "native_result":{"$kw":[["preview",{"$fn":{"arity":1,"returns":{"summary":"two items"}}}]]}}}},
            [1,2],
            {}]"#
);

snapshot!(
    preview_custom_fallback,
    preview,
    "native_preview/build/custom-raises-falls-back",
    "native_preview.build",
    r#"[{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"search",
              "native_result":{"$kw":[["preview",{"$fn":{"arity":1,"raises":"boom"}}]]}}}},
            [{"a":1},{"a":2}],
            {}]"#
);

/// [`pretty`] only inserts whitespace outside strings: removing it gives
/// the wire bytes back, so the payload snapshots pin the bytes.
#[test]
fn pretty_keeps_the_wire_bytes() {
    let raw = r#"{"a":[],"b":{},"c":[1,{"d":"x, y: {z}\" ["}],"e":-0.0}"#;
    let shown = pretty(raw);
    let mut back = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in shown.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c.is_whitespace() {
            continue;
        }
        back.push(c);
    }
    assert_eq!(back, raw);
}
