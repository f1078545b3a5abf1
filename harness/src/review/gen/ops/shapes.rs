//! The parts the well-formed generators are built from: tool structs and
//! their formats, expose modes, steps and render options, native results,
//! error reasons, Lisp ASTs and signatures, each shaped as its op expects.

use crate::review::gen::{
    self,
    domain::{self, hostile_term},
};
use proptest::prelude::*;
use ptc_conformance::term::{FunSpec, Term};

pub(super) fn one(t: impl Strategy<Value = Term> + 'static) -> BoxedStrategy<Vec<Term>> {
    t.prop_map(|t| vec![t]).boxed()
}

pub(super) fn atoms(names: &[&'static str]) -> BoxedStrategy<Term> {
    prop::sample::select(names.to_vec())
        .prop_map(Term::atom)
        .boxed()
}

/// A keyword list of options: names from `names`, values from `value`,
/// sometimes a name repeated (`Keyword.get/3` takes the first); unknown
/// names ([`option_word`]: an option a build may newly read, from the
/// kit's word list and from `words`, the names learned from two builds'
/// atoms, AP-19); and malformed entries naming either (`{:k}`,
/// `{:k, a, b}`, a bare `:k`), so that an option one build newly reads is
/// met both well-formed and malformed, more than once per default run.
pub(super) fn options(
    names: &[&'static str],
    value: BoxedStrategy<Term>,
    words: &[String],
) -> BoxedStrategy<Term> {
    let known = prop::sample::select(names.to_vec()).prop_map(str::to_owned);
    let any_name = prop_oneof![3 => known.clone(), 2 => option_word(words)].boxed();
    let well_formed = |name: BoxedStrategy<String>| {
        (name, value.clone()).prop_map(|(k, v)| Term::tuple(vec![Term::atom(&k), v]))
    };
    let mut entries = vec![
        (8, well_formed(known.boxed()).boxed()),
        (2, well_formed(option_word(words)).boxed()),
        (
            1,
            (any_name.clone(), value.clone(), value.clone())
                .prop_map(|(k, a, b)| Term::tuple(vec![Term::atom(&k), a, b]))
                .boxed(),
        ),
        (
            1,
            any_name
                .clone()
                .prop_map(|k| Term::tuple(vec![Term::atom(&k)]))
                .boxed(),
        ),
        (1, any_name.prop_map(|k| Term::atom(&k)).boxed()),
    ];
    if !words.is_empty() {
        // A learned name, well-formed as often as a word of the list, so
        // that each of a few hundred is met more than once per default run.
        entries.push((3, well_formed(learned(words)).boxed()));
    }
    prop::collection::vec(prop::strategy::Union::new_weighted(entries), 0..4)
        .prop_map(Term::List)
        .boxed()
}

/// One of `words`, the option names learned from two builds (AP-19).
fn learned(words: &[String]) -> BoxedStrategy<String> {
    prop::sample::select(words.to_vec()).boxed()
}

/// Option names no op of the registry is known to read: every option any
/// op's generator names (one op's option is often another's next), the
/// words Elixir libraries name options with, and any key name.
pub(super) const OPTION_WORDS: &[&str] = &[
    // Options of the ops of the registry.
    "expose",
    "cache",
    "native_result",
    "visibility",
    "signature",
    "description",
    "timeout",
    "execution",
    "validated",
    "include_memory",
    "format_options",
    "prior_memory",
    "feedback_max_chars",
    "preview_max_chars",
    "feedback_limit",
    "result_max_chars",
    "max_print_length",
    "preview",
    "limit",
    "feedback",
    "result",
    // Words options are named with.
    "mode",
    "format",
    "strict",
    "pretty",
    "max",
    "max_chars",
    "max_length",
    "depth",
    "width",
    "default",
    "name",
    "type",
    "keys",
    "sort",
    "escape",
    "trim",
    "style",
    "label",
    "prefix",
    "truncate",
    "verbose",
    "meta",
    "tags",
    "level",
    "on_error",
    "fallback",
    "encoding",
    "private",
];

/// An option name from [`OPTION_WORDS`], from `words` (learned from two
/// builds, AP-19), or any key name.
pub(super) fn option_word(words: &[String]) -> BoxedStrategy<String> {
    let listed = prop::sample::select(OPTION_WORDS.to_vec()).prop_map(str::to_owned);
    if words.is_empty() {
        return prop_oneof![3 => listed, 1 => gen::key_name()].boxed();
    }
    prop_oneof![3 => listed, 2 => learned(words), 1 => gen::key_name()].boxed()
}

pub(super) fn tool_name() -> BoxedStrategy<Term> {
    prop_oneof![
        4 => gen::key_name().prop_map(Term::Str),
        1 => Just(Term::str("lisp_eval")),
        1 => domain::hostile_string().prop_map(Term::Str),
        1 => domain::bad_utf8(),
    ]
    .boxed()
}

/// A struct with only the fields named (TJ-7): a build whose struct lacks a
/// field the generator does not name can still decode it.
pub(super) fn written(module: &str, fields: Vec<(&str, Term)>) -> ptc_conformance::term::Struct {
    ptc_conformance::structs::written(module, fields)
        .unwrap_or_else(|e| panic!("bad struct literal in a generator: {e}"))
}

pub(super) fn fun(arity: u32, returns: Term) -> Term {
    Term::Fun(Box::new(FunSpec::Returns { arity, returns }))
}

/// A `%PtcRunner.Tool{}` with `name`, `expose`, `cache` and `native_result`
/// drawn from their legal values and a few illegal ones, and `visibility`
/// (a field v0.12.0's struct lacks) written only now and then.
pub(super) fn tool_struct() -> BoxedStrategy<Term> {
    (
        tool_name(),
        prop_oneof![3 => Just(Term::Nil), 3 => atoms(&["native", "ptc_lisp", "both"]), 1 => atoms(&["bogus", "text"])],
        prop_oneof![3 => Just(None), 2 => atoms(&["public"]).prop_map(Some), 2 => atoms(&["private"]).prop_map(Some), 1 => atoms(&["secret"]).prop_map(Some)],
        any::<bool>(),
        native_result(&[]),
    )
        .prop_map(|(name, expose, visibility, cache, nr)| {
            let mut fields = vec![
                ("name", name),
                ("expose", expose),
                ("cache", Term::Bool(cache)),
                ("native_result", nr),
                ("function", fun(1, Term::Nil)),
                ("type", Term::atom("native")),
            ];
            fields.extend(visibility.map(|v| ("visibility", v)));
            Term::Struct(Box::new(written("PtcRunner.Tool", fields)))
        })
        .boxed()
}

/// A mode for `Exposure`: the output modes, a `SubAgent.Definition` with
/// `output` and `ptc_transport`, a map with those keys, and odd atoms.
pub(super) fn expose_mode() -> BoxedStrategy<Term> {
    let def = (
        atoms(&["ptc_lisp", "text", "json"]),
        atoms(&["content", "tool_call", "bogus"]),
    )
        .prop_map(|(output, transport)| {
            Term::Struct(Box::new(written(
                "PtcRunner.SubAgent.Definition",
                vec![("output", output), ("ptc_transport", transport)],
            )))
        });
    let map = (
        atoms(&["ptc_lisp", "text"]),
        atoms(&["content", "tool_call"]),
    )
        .prop_map(|(o, t)| {
            Term::map(vec![
                (Term::atom("output"), o),
                (Term::atom("ptc_transport"), t),
            ])
        });
    prop_oneof![
        4 => atoms(&["ptc_lisp", "text", "tool_call", "content", "native", "json"]),
        2 => def,
        1 => map,
        1 => Just(Term::Nil),
    ]
    .boxed()
}

/// A tool format as `Tool.new/2` and the validator take it: a function,
/// `{function, signature}`, `{function, :skip}`, `{function, options}`
/// with every option the spec names, tool structs, the builtin atoms.
pub(super) fn tool_format(words: &[String]) -> BoxedStrategy<Term> {
    let f = prop_oneof![
        3 => (0u32..4).prop_map(|a| fun(a, Term::Nil)),
        1 => domain::function(gen::scalar()),
    ]
    .boxed();
    let opt_value = prop_oneof![
        4 => atoms(&["native", "ptc_lisp", "both", "public", "private", "metadata", "rows", "secret"]),
        2 => any::<bool>().prop_map(Term::Bool),
        1 => Just(Term::Nil),
        2 => native_result(words),
        1 => signature().prop_map(Term::Str),
        1 => gen::text().prop_map(Term::Str),
        1 => (-2i64..30).prop_map(Term::int),
    ]
    .boxed();
    let opts = options(
        &[
            "expose",
            "cache",
            "native_result",
            "visibility",
            "signature",
            "description",
            "timeout",
        ],
        opt_value,
        words,
    );
    prop_oneof![
        2 => f.clone(),
        1 => (f.clone(), signature()).prop_map(|(f, s)| Term::tuple(vec![f, Term::Str(s)])),
        1 => f.clone().prop_map(|f| Term::tuple(vec![f, Term::atom("skip")])),
        5 => (f, opts).prop_map(|(f, o)| Term::tuple(vec![f, o])),
        2 => tool_struct(),
        1 => atoms(&["builtin_grep", "builtin_grep_n", "builtin_sed", "builtin_llm_query", "self", "builtin_nope"]),
        1 => (gen::text(), signature()).prop_map(|(d, s)| Term::Struct(Box::new(
            written("PtcRunner.SubAgent.LLMTool", vec![("prompt", Term::Str(d)), ("signature", Term::Str(s))])
        ))),
        1 => (gen::text(), any::<bool>()).prop_map(|(d, c)| Term::Struct(Box::new(
            written("PtcRunner.SubAgent.SubAgentTool", vec![("description", Term::Str(d)), ("cache", Term::Bool(c))])
        ))),
    ]
    .boxed()
}

/// A `%PtcRunner.Step{}` as `render_success` and `render_success_from_step`
/// take it: a return value (realistic or from the whole domain, or a text
/// at the preview's limit), prints (now and then one at the feedback's
/// limit: `spec/ptc_tool_protocol_from_step.md`, 512 and 250 characters
/// by default), memory (changed and unchanged) and sometimes a failure.
pub(super) fn step() -> BoxedStrategy<Term> {
    let value = prop_oneof![
        3 => gen::term(),
        1 => hostile_term(),
        1 => domain::large_map(),
        1 => domain::text_near(250),
    ]
    .boxed();
    let prints = prop::collection::vec(
        prop_oneof![
            4 => gen::text().prop_map(Term::Str),
            1 => domain::hostile_string().prop_map(Term::Str),
            1 => domain::text_near(512),
        ],
        0..3,
    )
    .prop_map(Term::List);
    let memory = prop_oneof![
        2 => Just(Term::Nil),
        3 => prop::collection::vec((prop_oneof![gen::key_name().prop_map(|k| Term::atom(&k)), gen::key_name().prop_map(Term::Str)], value.clone()), 0..4)
            .prop_map(Term::map),
    ];
    (value, prints, memory)
        .prop_map(|(r, p, m)| {
            Term::Struct(Box::new(written(
                "PtcRunner.Step",
                vec![("return", r), ("prints", p), ("memory", m)],
            )))
        })
        .boxed()
}

/// Options of `render_success`: `execution` maps, `validated`, and
/// unknown ones.
pub(super) fn success_opts(words: &[String]) -> BoxedStrategy<Term> {
    let execution = (gen::text(), any::<bool>(), gen::term()).prop_map(|(fb, t, r)| {
        Term::map(vec![
            (Term::atom("feedback"), Term::Str(fb)),
            (Term::atom("truncated"), Term::Bool(t)),
            (Term::atom("result"), r),
            (Term::atom("prints"), Term::List(vec![])),
        ])
    });
    let value = prop_oneof![3 => execution, 2 => gen::term(), 1 => hostile_term()].boxed();
    options(
        &[
            "execution",
            "validated",
            "include_memory",
            "format_options",
            "prior_memory",
        ],
        value,
        words,
    )
}

/// Options of `render_success_from_step`: `include_memory`,
/// `format_options` (with the limits), `prior_memory`, `validated`.
pub(super) fn from_step_opts(words: &[String]) -> BoxedStrategy<Term> {
    let limits = options(
        &[
            "feedback_max_chars",
            "preview_max_chars",
            "feedback_limit",
            "result_max_chars",
            "max_print_length",
        ],
        prop_oneof![4 => (0i64..80).prop_map(Term::int), 1 => hostile_term()].boxed(),
        words,
    );
    let prior = prop::collection::vec(
        (gen::key_name().prop_map(|k| Term::atom(&k)), gen::term()),
        0..3,
    )
    .prop_map(Term::map);
    let value = prop_oneof![
        2 => any::<bool>().prop_map(Term::Bool),
        2 => limits,
        2 => prior,
        1 => gen::term(),
    ]
    .boxed();
    options(
        &[
            "include_memory",
            "format_options",
            "prior_memory",
            "validated",
        ],
        value,
        words,
    )
}

/// A tool's `native_result:` (NP-7): `nil`, the `:preview` shapes with a
/// `:limit` (on both sides of "a positive integer": -2 to 29), and now
/// and then an option a build may newly read
/// ([`option_word`], with `words` learned from two builds).
pub(super) fn native_result(words: &[String]) -> impl Strategy<Value = Term> {
    let kw = |pairs: Vec<(&str, Term)>| {
        Term::List(
            pairs
                .into_iter()
                .map(|(k, v)| Term::tuple(vec![Term::atom(k), v]))
                .collect(),
        )
    };
    prop_oneof![
        Just(Term::Nil),
        Just(kw(vec![("preview", Term::atom("metadata"))])),
        Just(kw(vec![("preview", Term::atom("rows"))])),
        (-2i64..30).prop_map(move |n| kw(vec![
            ("preview", Term::atom("rows")),
            ("limit", Term::int(n))
        ])),
        (
            option_word(words),
            prop::sample::select(vec!["rows", "metadata"]),
            gen::scalar()
        )
            .prop_map(|(k, preview, v)| Term::List(vec![
                Term::tuple(vec![Term::atom("preview"), Term::atom(preview)]),
                Term::tuple(vec![Term::atom(&k), v]),
            ])),
    ]
}

pub(super) fn result_value() -> impl Strategy<Value = Term> {
    let row = prop::collection::vec((gen::key_name(), gen::scalar()), 0..5)
        .prop_map(|kv| Term::map(kv.into_iter().map(|(k, v)| (Term::Str(k), v)).collect()));
    prop_oneof![
        3 => prop::collection::vec(row, 0..8).prop_map(Term::List),
        1 => prop::collection::vec(gen::scalar(), 0..6).prop_map(Term::List),
        1 => gen::term(),
    ]
}

pub(super) fn error_reason() -> impl Strategy<Value = Term> {
    prop_oneof![
        4 => prop::sample::select(vec!["parse_error", "runtime_error", "timeout", "memory_limit", "args_error", "fail", "validation_error"])
            .prop_map(Term::atom),
        1 => gen::key_name().prop_map(|n| Term::atom(&n)),
    ]
}

/// Options of `render_error/3`: `:feedback`, `:result`, and names a build
/// may newly read ([`option_word`], with `words` learned from two builds).
pub(super) fn error_opts(words: &[String]) -> impl Strategy<Value = Term> {
    let pair = prop_oneof![
        gen::text().prop_map(|t| Term::tuple(vec![Term::atom("feedback"), Term::Str(t)])),
        gen::term().prop_map(|t| Term::tuple(vec![Term::atom("result"), t])),
        (option_word(words), gen::scalar()).prop_map(|(k, t)| Term::tuple(vec![Term::atom(&k), t])),
    ];
    prop::collection::vec(pair, 0..3).prop_map(Term::List)
}

pub(super) fn lisp_ast() -> impl Strategy<Value = Term> {
    let tag = |t: &str, v: Term| Term::tuple(vec![Term::atom(t), v]);
    let leaf = prop_oneof![
        Just(Term::Nil),
        any::<bool>().prop_map(Term::Bool),
        gen::int(),
        gen::float()
            .prop_filter("printable", |x| x.abs() < 1.0e200)
            .prop_map(Term::Float),
        gen::text().prop_map(move |s| tag("string", Term::Str(s))),
        gen::key_name().prop_map(move |k| tag("keyword", Term::Str(k))),
        gen::key_name().prop_map(move |k| tag("symbol", Term::Str(k))),
    ];
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(move |v| tag("vector", Term::List(v))),
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(move |v| tag("list", Term::List(v))),
            prop::collection::vec(inner.clone(), 0..3).prop_map(move |v| tag("set", Term::List(v))),
            prop::collection::vec((inner.clone(), inner), 0..3).prop_map(move |kv| tag(
                "map",
                Term::List(
                    kv.into_iter()
                        .map(|(k, v)| Term::tuple(vec![k, v]))
                        .collect()
                )
            )),
        ]
    })
}

pub(super) fn signature() -> impl Strategy<Value = String> {
    let prim = prop::sample::select(vec![
        ":int", ":string", ":float", ":bool", ":map", ":any", ":keyword", ":int?", ":strin",
    ]);
    let ty = prim
        .prop_map(str::to_owned)
        .prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                inner.clone().prop_map(|t| format!("[{t}]")),
                prop::collection::vec(("[a-z_]{1,5}\\??", inner), 1..3).prop_map(|fs| format!(
                    "{{{}}}",
                    fs.into_iter()
                        .map(|(n, t)| format!("{n} {t}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            ]
        });
    let params = prop::collection::vec(("[a-z_]{1,5}", ty.clone()), 0..3).prop_map(|ps| {
        ps.into_iter()
            .map(|(n, t)| format!("{n} {t}"))
            .collect::<Vec<_>>()
            .join(", ")
    });
    prop_oneof![
        4 => (params, ty.clone()).prop_map(|(p, t)| format!("({p}) -> {t}")),
        1 => ty,
        1 => "[ ()\\[\\]{}:a-z>-]{0,12}",
    ]
}
