//! The exception texts the boundary raises, as templates: the one home of
//! each text. The reference builds its messages from these constants
//! ([`Template::render`]), and `spec/data/messages.json`, which ports read,
//! is rendered from [`ALL`] by `tests/porter_data.rs`, so the two cannot
//! drift apart.
//!
//! A placeholder is `{` + a lower-case name + `}`; any other brace is
//! literal text (`@derive {Jason.Encoder, only: [....]}`). What each
//! placeholder holds is said in the template's `placeholders`.

/// One message text with named placeholders.
#[derive(Clone, Copy, Debug)]
pub struct Template {
    /// A stable id (`key_error`), which the spec cites.
    pub id: &'static str,
    /// The exception's class, or `None` for a fragment that other
    /// templates embed (a hint, a description, a list).
    pub class: Option<&'static str>,
    /// The text, with `{name}` placeholders.
    pub text: &'static str,
    /// Each placeholder's name and what it holds.
    pub placeholders: &'static [(&'static str, &'static str)],
    /// Where Elixir, OTP, Jason or PtcRunner raises it.
    pub source: &'static str,
}

impl Template {
    /// The text with each `{name}` replaced by its value in `values`; a
    /// placeholder without a value is left as it is.
    pub fn render(&self, values: &[(&str, &str)]) -> String {
        let values: Vec<(&str, &[u8])> = values.iter().map(|(k, v)| (*k, v.as_bytes())).collect();
        // Text and values are all UTF-8, so nothing is replaced here.
        String::from_utf8_lossy(&self.render_bytes(&values)).into_owned()
    }

    /// [`Template::render`] with values that are binaries, kept byte for
    /// byte: an `Inspect.Error` can embed a display struct's text, which
    /// need not be UTF-8 (IN-15).
    pub fn render_bytes(&self, values: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.text.len() + 32);
        let mut rest = self.text;
        while let Some(open) = rest.find('{') {
            out.extend_from_slice(&rest.as_bytes()[..open]);
            let after = &rest[open + 1..];
            let name_len = after
                .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                .unwrap_or(after.len());
            let value = (name_len > 0 && after[name_len..].starts_with('}'))
                .then(|| values.iter().find(|(k, _)| *k == &after[..name_len]))
                .flatten();
            match value {
                Some((_, v)) => {
                    out.extend_from_slice(v);
                    rest = &after[name_len + 1..];
                }
                None => {
                    out.push(b'{');
                    rest = after;
                }
            }
        }
        out.extend_from_slice(rest.as_bytes());
        out
    }
}

const TERM_PRETTY: &str = "inspect(term, pretty: true, limit: :infinity) (spec/inspect.md IN-19)";

/// `KeyError` of `Keyword.fetch!/2` or `map.field` on a map.
pub const KEY_ERROR: Template = Template {
    id: "key_error",
    class: Some("KeyError"),
    text: "key {key} not found in: {term}",
    placeholders: &[
        ("key", "inspect/1 of the atom key (:result)"),
        ("term", TERM_PRETTY),
    ],
    source: "Elixir 1.18.4 KeyError.message/1",
};

/// `KeyError` of `term.field` on a term that is no map.
pub const KEY_ERROR_NOT_A_MAP: Template = Template {
    id: "key_error_not_a_map",
    class: Some("KeyError"),
    text: "key {key} not found in: {term}\n\nIf you are using the dot syntax, such as \
           map.field, make sure the left-hand side of the dot is a map",
    placeholders: &[("key", "inspect/1 of the atom key"), ("term", TERM_PRETTY)],
    source: "Elixir 1.18.4 KeyError.message/1 for {:badkey, key, term} of a non-map",
};

/// `UndefinedFunctionError` for a module the VM cannot load.
pub const UNDEFINED_FUNCTION_MODULE_NOT_AVAILABLE: Template = Template {
    id: "undefined_function_module_not_available",
    class: Some("UndefinedFunctionError"),
    text: "function {module}.{function}/{arity} is undefined (module {module} is not available){hint}",
    placeholders: &[
        ("module", "inspect/1 of the module atom (Missing, :nope; spec/inspect.md IN-3)"),
        ("function", "the function name as Macro.inspect_atom(:remote_call, name) prints it"),
        ("arity", "the arity in decimal"),
        ("hint", "undefined_function_alias_hint when the module is Elixir.X with no further dot, else empty"),
    ],
    source: "Elixir 1.18.4 UndefinedFunctionError.message/1 (module could not be loaded)",
};

/// The hint Elixir adds for a missing module that is a one-segment alias.
pub const UNDEFINED_FUNCTION_ALIAS_HINT: Template = Template {
    id: "undefined_function_alias_hint",
    class: None,
    text: ". Make sure the module name is correct and has been specified in full \
           (or that an alias has been defined)",
    placeholders: &[],
    source: "Elixir 1.18.4 UndefinedFunctionError hint_for_missing_alias/1",
};

/// `UndefinedFunctionError` for a function the module does not export.
pub const UNDEFINED_FUNCTION_OR_PRIVATE: Template = Template {
    id: "undefined_function_or_private",
    class: Some("UndefinedFunctionError"),
    text: "function {module}.{function}/{arity} is undefined or private",
    placeholders: &[
        ("module", "the module as IN-3 prints it"),
        ("function", "the function name"),
        ("arity", "the arity called, in decimal"),
    ],
    source: "Elixir 1.18.4 UndefinedFunctionError.message/1 (function not exported); an op called with the wrong number of arguments",
};

/// `BadMapError`.
pub const BAD_MAP: Template = Template {
    id: "bad_map",
    class: Some("BadMapError"),
    text: "expected a map, got: {term}",
    placeholders: &[("term", "inspect/1 of the term")],
    source: "Elixir 1.18.4 BadMapError.message/1",
};

/// `CaseClauseError`.
pub const CASE_CLAUSE: Template = Template {
    id: "case_clause",
    class: Some("CaseClauseError"),
    text: "no case clause matching: {term}",
    placeholders: &[("term", "inspect/1 of the term")],
    source: "Elixir 1.18.4 CaseClauseError.message/1",
};

/// `MatchError`.
pub const MATCH_ERROR: Template = Template {
    id: "match_error",
    class: Some("MatchError"),
    text: "no match of right hand side value: {term}",
    placeholders: &[("term", "inspect/1 of the term")],
    source: "Elixir 1.18.4 MatchError.message/1",
};

/// `FunctionClauseError`.
pub const FUNCTION_CLAUSE: Template = Template {
    id: "function_clause",
    class: Some("FunctionClauseError"),
    text: "no function clause matching in {function}",
    placeholders: &[(
        "function",
        "Module.fun/arity (PtcRunner.Tool.new/2, :lists.reverse/1), or anonymous fn/1 in Module.fun/arity",
    )],
    source: "Elixir 1.18.4 FunctionClauseError.message/1",
};

/// `Protocol.UndefinedError`.
pub const PROTOCOL_UNDEFINED: Template = Template {
    id: "protocol_undefined",
    class: Some("Protocol.UndefinedError"),
    text: "protocol {protocol} not implemented for type {type}{description}. \
           This protocol is implemented for the following type(s): {implementations}\
           \n\nGot value:\n\n{value}\n",
    placeholders: &[
        ("protocol", "String.Chars, Jason.Encoder or Enumerable"),
        ("type", "the value's type: Atom, BitString, Float, Function, Integer, List, Map, PID, Port, Reference, Tuple, or protocol_undefined_struct_type"),
        ("description", "empty, or \", \" + jason_encoder_description, jason_encoder_struct_description (Jason.Encoder of a struct) or enumerable_function_description (Enumerable of a function of another arity than 2)"),
        ("implementations", "the protocol's consolidated implementations, compared loosely (spec/README.md LOOSE-1): protocol_implementations_* as the reference platform lists them"),
        ("value", "inspect(value, pretty: true) with its limit of 50, each non-empty line indented by four spaces"),
    ],
    source: "Elixir 1.18.4 Protocol.UndefinedError.message/1",
};

/// The type of a struct in a `Protocol.UndefinedError`.
pub const PROTOCOL_UNDEFINED_STRUCT_TYPE: Template = Template {
    id: "protocol_undefined_struct_type",
    class: None,
    text: "{module} (a struct)",
    placeholders: &[(
        "module",
        "the struct's module as IN-3 prints it (Range, PtcRunner.Tool, Date)",
    )],
    source: "Elixir 1.18.4 Protocol.UndefinedError.message/1",
};

/// Jason's description for a value that is no struct.
pub const JASON_ENCODER_DESCRIPTION: Template = Template {
    id: "jason_encoder_description",
    class: None,
    text: "Jason.Encoder protocol must always be explicitly implemented",
    placeholders: &[],
    source: "Jason 1.4 Jason.Encoder fallback (Any)",
};

/// Jason's description for a struct without an encoder.
pub const JASON_ENCODER_STRUCT_DESCRIPTION: Template = Template {
    id: "jason_encoder_struct_description",
    class: None,
    text: concat!(
        "Jason.Encoder protocol must always be explicitly implemented.\n\n",
        "If you own the struct, you can derive the implementation specifying which fields ",
        "should be encoded to JSON:\n\n",
        "    @derive {Jason.Encoder, only: [....]}\n    defstruct ...\n\n",
        "It is also possible to encode all fields, although this should be used carefully ",
        "to avoid accidentally leaking private information when new fields are added:\n\n",
        "    @derive Jason.Encoder\n    defstruct ...\n\n",
        "Finally, if you don't own the struct you want to encode to JSON, you may use ",
        "Protocol.derive/3 placed outside of any module:\n\n",
        "    Protocol.derive(Jason.Encoder, NameOfTheStruct, only: [...])\n",
        "    Protocol.derive(Jason.Encoder, NameOfTheStruct)\n",
    ),
    placeholders: &[],
    source: "Jason 1.4 Jason.Encoder fallback (Any) for a struct",
};

/// `Enumerable.Function`'s description for a function of another arity.
pub const ENUMERABLE_FUNCTION_DESCRIPTION: Template = Template {
    id: "enumerable_function_description",
    class: None,
    text: "only anonymous functions of arity 2 are enumerable",
    placeholders: &[],
    source: "Elixir 1.18.4 Enumerable.Function",
};

/// `String.Chars`'s implementations on the reference platform (LOOSE-1).
pub const PROTOCOL_IMPLEMENTATIONS_STRING_CHARS: Template = Template {
    id: "protocol_implementations_string_chars",
    class: None,
    text: "Atom, BitString, Date, DateTime, Float, Integer, List, NaiveDateTime, \
           PtcRunner.Lisp.Format.Builtin, PtcRunner.Lisp.Format.Fn, \
           PtcRunner.Lisp.Format.RegexLiteral, PtcRunner.Lisp.Format.SymbolRef, \
           PtcRunner.Lisp.Format.Var, Time, URI, Version, Version.Requirement",
    placeholders: &[],
    source: "PtcRunner v0.13.0's consolidated String.Chars (compared loosely, LOOSE-1)",
};

/// `String.Chars`'s implementations in v0.11.0's build, which has none for
/// `PtcRunner.Lisp.Format`'s display structs (REL-7, LOOSE-1).
pub const PROTOCOL_IMPLEMENTATIONS_STRING_CHARS_V0_11: Template = Template {
    id: "protocol_implementations_string_chars_v0_11",
    class: None,
    text: "Atom, BitString, Date, DateTime, Float, Integer, List, NaiveDateTime, \
           Time, URI, Version, Version.Requirement",
    placeholders: &[],
    source: "PtcRunner v0.11.0's consolidated String.Chars (compared loosely, LOOSE-1)",
};

/// `Jason.Encoder`'s implementations in v0.11.0's build, which has none for
/// `PtcRunner.Lisp.Format`'s display structs (REL-7, LOOSE-1).
pub const PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER_V0_11: Template = Template {
    id: "protocol_implementations_jason_encoder_v0_11",
    class: None,
    text: "Any, Atom, BitString, Date, DateTime, Float, Integer, Jason.Fragment, \
           Jason.OrderedObject, List, Map, NaiveDateTime, Time",
    placeholders: &[],
    source: "PtcRunner v0.11.0's consolidated Jason.Encoder (compared loosely, LOOSE-1)",
};

/// `Jason.Encoder`'s implementations on the reference platform (LOOSE-1).
pub const PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER: Template = Template {
    id: "protocol_implementations_jason_encoder",
    class: None,
    text: "Any, Atom, BitString, Date, DateTime, Float, Integer, Jason.Fragment, \
           Jason.OrderedObject, List, Map, NaiveDateTime, PtcRunner.Lisp.Format.Builtin, \
           PtcRunner.Lisp.Format.Fn, PtcRunner.Lisp.Format.RegexLiteral, \
           PtcRunner.Lisp.Format.SymbolRef, PtcRunner.Lisp.Format.Var, Time",
    placeholders: &[],
    source: "PtcRunner v0.13.0's consolidated Jason.Encoder (compared loosely, LOOSE-1)",
};

/// `Enumerable`'s implementations on the reference platform (LOOSE-1).
pub const PROTOCOL_IMPLEMENTATIONS_ENUMERABLE: Template = Template {
    id: "protocol_implementations_enumerable",
    class: None,
    text: "Date.Range, File.Stream, Function, GenEvent.Stream, HashDict, HashSet, \
           IO.Stream, Jason.OrderedObject, List, Map, MapSet, Range, Stream",
    placeholders: &[],
    source: "PtcRunner v0.13.0's consolidated Enumerable (compared loosely, LOOSE-1)",
};

/// `Jason.EncodeError` for a binary that is not valid UTF-8.
pub const JASON_INVALID_BYTE: Template = Template {
    id: "jason_invalid_byte",
    class: Some("Jason.EncodeError"),
    text: "invalid byte 0x{byte} in {binary}",
    placeholders: &[
        (
            "byte",
            "the first byte of the first invalid sequence, upper-case hex (FF, C3)",
        ),
        (
            "binary",
            "inspect/1 of the whole binary (spec/ptc_tool_protocol.md PP-44)",
        ),
    ],
    source: "Jason 1.4 Jason.EncodeError",
};

/// `UnicodeConversionError` for an integer that is no code point.
pub const UNICODE_INVALID_CODE_POINT: Template = Template {
    id: "unicode_invalid_code_point",
    class: Some("UnicodeConversionError"),
    text: "invalid code point {n}",
    placeholders: &[("n", "the integer in decimal")],
    source: "Elixir 1.18.4 List.to_string/1 over OTP 25's unicode:characters_to_binary/1",
};

/// `UnicodeConversionError` for bad bytes.
pub const UNICODE_INVALID_ENCODING: Template = Template {
    id: "unicode_invalid_encoding",
    class: Some("UnicodeConversionError"),
    text: "invalid encoding starting at {bytes}",
    placeholders: &[(
        "bytes",
        "inspect/1 of the bytes from the bad one on (spec/lisp_formatter.md LF-13)",
    )],
    source: "Elixir 1.18.4 List.to_string/1 over OTP 25's unicode:characters_to_binary/1",
};

/// `UnicodeConversionError` for a sequence cut short at the end.
pub const UNICODE_INCOMPLETE_ENCODING: Template = Template {
    id: "unicode_incomplete_encoding",
    class: Some("UnicodeConversionError"),
    text: "incomplete encoding starting at {bytes}",
    placeholders: &[(
        "bytes",
        "inspect/1 of the bytes still carried at the end (spec/lisp_formatter.md LF-13)",
    )],
    source: "Elixir 1.18.4 List.to_string/1 over OTP 25's unicode:characters_to_binary/1",
};

/// `ArgumentError` of `List.to_string/1` for a list that is no chardata.
pub const LIST_TO_STRING_NOT_CHARDATA: Template = Template {
    id: "list_to_string_not_chardata",
    class: Some("ArgumentError"),
    text: "cannot convert the given list to a string.\n\n\
           To be converted to a string, a list must either be empty or only\n\
           contain the following elements:\n\n  \
           * strings\n  \
           * integers representing Unicode code points\n  \
           * a list containing one of these three elements\n\n\
           Please check the given list or call inspect/1 to get the list representation, got:\n\n\
           {list}\n",
    placeholders: &[("list", "inspect/1 of the whole list")],
    source: "Elixir 1.18.4 List.to_string/1",
};

/// `ArgumentError` of an Erlang BIF, as Elixir normalizes `badarg`.
pub const ERLANG_BADARG: Template = Template {
    id: "erlang_badarg",
    class: Some("ArgumentError"),
    text: "errors were found at the given arguments:\n\n  * {position} argument: {reason}\n",
    placeholders: &[
        ("position", "1st or 2nd"),
        ("reason", "out of range (element/2 of a short tuple), not a tuple, not an iodata term (IO.iodata_to_binary/1), invalid option in list (float_to_binary/2)"),
    ],
    source: "OTP 25 erl_erts_errors, via Elixir 1.18.4 ErlangError normalization",
};

/// `ArgumentError` of `URI.to_string/1` for a relative path with a host.
pub const URI_PATH_NOT_ABSOLUTE: Template = Template {
    id: "uri_path_not_absolute",
    class: Some("ArgumentError"),
    text: ":path in URI must be empty or an absolute path if URL has a :host, got: {uri}",
    placeholders: &[("uri", "inspect/1 of the URI struct")],
    source: "Elixir 1.18.4 String.Chars.URI",
};

/// `#Inspect.Error<...>`: what `inspect/2` prints for a struct whose
/// `Inspect` raised.
pub const INSPECT_ERROR: Template = Template {
    id: "inspect_error",
    class: None,
    text: "#Inspect.Error<\n{body}\n\n  Stacktrace:\n\n{frames}\n>",
    placeholders: &[
        ("body", "inspect_error_body, every non-empty line indented by two spaces, trailing newlines dropped"),
        ("frames", "one or more lines, one per stack frame, each indented by four spaces and ending in a newline (compared loosely, LOOSE-4: at least one line must be present, an empty trace is not masked)"),
    ],
    source: "Elixir 1.18.4 Inspect.Error (spec/inspect.md IN-15)",
};

/// The message of the `Inspect.Error` inside [`INSPECT_ERROR`].
pub const INSPECT_ERROR_BODY: Template = Template {
    id: "inspect_error_body",
    class: None,
    text: "got {class} with message:\n\n    \"\"\"\n{message}\n    \"\"\"\n\nwhile inspecting:\n\n{struct}\n",
    placeholders: &[
        ("class", "the exception's class (ArgumentError)"),
        ("message", "its message without trailing newlines, every non-empty line indented by four spaces"),
        ("struct", "the struct inspected as a map at width 80, every non-empty line indented by four spaces"),
    ],
    source: "Elixir 1.18.4 Inspect.Error",
};

/// `ArgumentError` of agent construction for the reserved tool name.
pub const TOOL_NAME_RESERVED: Template = Template {
    id: "tool_name_reserved",
    class: Some("ArgumentError"),
    text: "tool name \"lisp_eval\" is reserved by PtcRunner — choose a different name",
    placeholders: &[],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for a `:self` tool without an agent signature.
pub const TOOL_SELF_WITHOUT_SIGNATURE: Template = Template {
    id: "tool_self_without_signature",
    class: Some("ArgumentError"),
    text: "agents with :self tools must have a signature",
    placeholders: &[],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

const WHO: (&str, &str) = ("tool", "inspect/1 of the tool's name (\"search\", :search)");

/// `ArgumentError` for an `expose:` that is no layer.
pub const TOOL_INVALID_EXPOSE: Template = Template {
    id: "tool_invalid_expose",
    class: Some("ArgumentError"),
    text: "tool {tool}: invalid expose: {value} — accepted values are :native, :ptc_lisp, :both",
    placeholders: &[WHO, ("value", "inspect/1 of the expose option")],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for a `visibility:` that is neither public nor private.
pub const TOOL_INVALID_VISIBILITY: Template = Template {
    id: "tool_invalid_visibility",
    class: Some("ArgumentError"),
    text: "tool {tool}: invalid visibility: {value} — accepted values are :public, :private",
    placeholders: &[WHO, ("value", "inspect/1 of the visibility")],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for a `native_result:` that is no keyword list.
pub const TOOL_NATIVE_RESULT_NOT_KEYWORD: Template = Template {
    id: "tool_native_result_not_keyword",
    class: Some("ArgumentError"),
    text: "tool {tool}: native_result: must be a keyword list or nil, got {value}",
    placeholders: &[WHO, ("value", "inspect/1 of the native_result option")],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for `native_result:` without `expose: :both` and `cache: true`.
pub const TOOL_NATIVE_RESULT_REQUIRES: Template = Template {
    id: "tool_native_result_requires",
    class: Some("ArgumentError"),
    text: "tool {tool}: native_result: requires expose: :both AND cache: true (got expose: {expose}, cache: {cache})",
    placeholders: &[
        WHO,
        ("expose", "inspect/1 of the expose option"),
        ("cache", "inspect/1 of the cache option"),
    ],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for a `native_result` preview that is no preview.
pub const TOOL_NATIVE_RESULT_PREVIEW: Template = Template {
    id: "tool_native_result_preview",
    class: Some("ArgumentError"),
    text: "tool {tool}: native_result.preview: must be :metadata, :rows, or a 1-arity function, got {value}",
    placeholders: &[WHO, ("value", "inspect/1 of the preview")],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// `ArgumentError` for a `native_result` limit that is no positive integer.
pub const TOOL_NATIVE_RESULT_LIMIT: Template = Template {
    id: "tool_native_result_limit",
    class: Some("ArgumentError"),
    text: "tool {tool}: native_result.limit: must be a positive integer, got {value}",
    placeholders: &[WHO, ("value", "inspect/1 of the limit")],
    source: "PtcRunner v0.13.0 SubAgent.Validator (spec/tool_validate.md)",
};

/// Every template, in the order `spec/data/messages.json` lists them.
pub const ALL: &[&Template] = &[
    &KEY_ERROR,
    &KEY_ERROR_NOT_A_MAP,
    &UNDEFINED_FUNCTION_MODULE_NOT_AVAILABLE,
    &UNDEFINED_FUNCTION_ALIAS_HINT,
    &UNDEFINED_FUNCTION_OR_PRIVATE,
    &BAD_MAP,
    &CASE_CLAUSE,
    &MATCH_ERROR,
    &FUNCTION_CLAUSE,
    &PROTOCOL_UNDEFINED,
    &PROTOCOL_UNDEFINED_STRUCT_TYPE,
    &JASON_ENCODER_DESCRIPTION,
    &JASON_ENCODER_STRUCT_DESCRIPTION,
    &ENUMERABLE_FUNCTION_DESCRIPTION,
    &PROTOCOL_IMPLEMENTATIONS_STRING_CHARS,
    &PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER,
    &PROTOCOL_IMPLEMENTATIONS_STRING_CHARS_V0_11,
    &PROTOCOL_IMPLEMENTATIONS_JASON_ENCODER_V0_11,
    &PROTOCOL_IMPLEMENTATIONS_ENUMERABLE,
    &JASON_INVALID_BYTE,
    &UNICODE_INVALID_CODE_POINT,
    &UNICODE_INVALID_ENCODING,
    &UNICODE_INCOMPLETE_ENCODING,
    &LIST_TO_STRING_NOT_CHARDATA,
    &ERLANG_BADARG,
    &URI_PATH_NOT_ABSOLUTE,
    &INSPECT_ERROR,
    &INSPECT_ERROR_BODY,
    &TOOL_NAME_RESERVED,
    &TOOL_SELF_WITHOUT_SIGNATURE,
    &TOOL_INVALID_EXPOSE,
    &TOOL_INVALID_VISIBILITY,
    &TOOL_NATIVE_RESULT_NOT_KEYWORD,
    &TOOL_NATIVE_RESULT_REQUIRES,
    &TOOL_NATIVE_RESULT_PREVIEW,
    &TOOL_NATIVE_RESULT_LIMIT,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = ALL.iter().map(|t| t.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), ALL.len());
    }

    #[test]
    fn render_fills_named_placeholders_and_keeps_other_braces() {
        assert_eq!(
            KEY_ERROR.render(&[("key", ":a"), ("term", "%{}")]),
            "key :a not found in: %{}"
        );
        assert!(JASON_ENCODER_STRUCT_DESCRIPTION
            .render(&[])
            .contains("@derive {Jason.Encoder, only: [....]}"));
        assert_eq!(BAD_MAP.render(&[]), "expected a map, got: {term}");
    }

    #[test]
    fn render_keeps_empty_and_unclosed_braces_literal() {
        let t = Template {
            id: "t",
            class: None,
            text: "a {} {key b {key}",
            placeholders: &[],
            source: "",
        };
        assert_eq!(t.render(&[("key", "K"), ("", "E")]), "a {} {key b K");
    }

    #[test]
    fn render_bytes_keeps_invalid_utf8_values() {
        assert_eq!(
            KEY_ERROR.render_bytes(&[("key", b":a"), ("term", b"#'a\xff")]),
            b"key :a not found in: #'a\xff".to_vec()
        );
    }
}
