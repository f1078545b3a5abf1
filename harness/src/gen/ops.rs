//! Argument generators for every op of the registry (`src/ops.rs`), the
//! fuzzer's input. Each op draws from three sources, mixed so that most
//! inputs still reach the op's interesting paths:
//!
//! - **well-formed** arguments shaped as the op expects ([`well_formed`]),
//!   built from realistic terms ([`super::term`]) with the corners of each
//!   argument's own domain (option keys and values the spec names);
//! - **anywhere**: the well-formed arguments with any one position, or an
//!   option's value, replaced by a term from the whole domain
//!   ([`super::domain::hostile_term`]): the guards' and error paths;
//! - **corpus mutations** of the op's golden cases ([`super::mutate`]).
//!
//! All shrink towards the well-formed source and small terms.

use super::domain::{self, hostile_term};
use super::mutate;
use proptest::prelude::*;
use ptc_conformance::ops::OPS;
use ptc_conformance::term::{FunSpec, OpaqueKind, Term};

/// The generator for `op`, given the argument lists of its corpus cases
/// (the seeds of mutation); `None` for an op the registry does not have.
pub fn args_for<'a>(
    op: &str,
    corpus: impl IntoIterator<Item = &'a [Term]>,
) -> Option<BoxedStrategy<Vec<Term>>> {
    let base = well_formed(op)?;
    let anywhere = anywhere(base.clone());
    let mix = match mutate::mutations(mutate::seeds(op, corpus)) {
        Some(m) => prop_oneof![5 => base, 3 => anywhere, 3 => m].boxed(),
        None => prop_oneof![5 => base, 3 => anywhere].boxed(),
    };
    Some(
        mix.prop_filter("the VM orders these map keys (LOOSE-3)", |args| {
            !args.iter().any(vm_ordered_keys)
        })
        .prop_filter("an atom names a module the VM can load (LOOSE-5)", |args| {
            !args.iter().any(names_a_module)
        })
        .boxed(),
    )
}

/// Modules of OTP 25 and Elixir 1.18.4 whose names the generators can
/// spell (short lower-case names, common aliases). Where PtcRunner uses the
/// dot syntax on a term (`execution.truncated`, `step.prints`), such an
/// atom makes Elixir load and call that module, which depends on the VM's
/// code path, not on PtcRunner (`spec/README.md` LOOSE-5).
const LOADABLE_MODULES: &[&str] = &[
    "c",
    "io",
    "os",
    "re",
    "rb",
    "ct",
    "et",
    "pg",
    "dbg",
    "erl_eval",
    "ets",
    "gen",
    "net",
    "rpc",
    "sys",
    "zip",
    "lists",
    "maps",
    "erlang",
    "string",
    "unicode",
    "code",
    "file",
    "math",
    "timer",
    "Elixir.String",
    "Elixir.Map",
    "Elixir.List",
    "Elixir.Enum",
    "Elixir.Kernel",
    "Elixir.IO",
];

/// Whether `t` holds an atom that names a module the VM can load
/// ([`LOADABLE_MODULES`]).
pub fn names_a_module(t: &Term) -> bool {
    match t {
        Term::Atom(a) => LOADABLE_MODULES.contains(&a.as_str()),
        Term::List(items) | Term::Tuple(items) => items.iter().any(names_a_module),
        Term::Map(m) => m
            .iter()
            .any(|(k, v)| names_a_module(k) || names_a_module(v)),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| names_a_module(v)),
        _ => false,
    }
}

/// Whether some map in `t` (a MapSet's too) has keys whose order the VM
/// decides (`spec/README.md` LOOSE-3): two functions, or two references
/// (pids, ports), anywhere inside its keys. Generators leave such inputs
/// out, since a port cannot know that order.
pub fn vm_ordered_keys(t: &Term) -> bool {
    fn count(t: &Term, n: &mut [usize; 4]) {
        match t {
            Term::Fun(_) => n[0] += 1,
            Term::Opaque(OpaqueKind::Ref, _) => n[1] += 1,
            Term::Opaque(OpaqueKind::Pid, _) => n[2] += 1,
            Term::Opaque(OpaqueKind::Port, _) => n[3] += 1,
            Term::List(items) | Term::Tuple(items) => items.iter().for_each(|i| count(i, n)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                count(k, n);
                count(v, n);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| count(v, n)),
            _ => {}
        }
    }
    match t {
        Term::Map(m) => {
            let mut n = [0; 4];
            m.iter().for_each(|(k, _)| count(k, &mut n));
            n.iter().any(|&c| c > 1)
                || m.iter()
                    .any(|(k, v)| vm_ordered_keys(k) || vm_ordered_keys(v))
        }
        Term::List(items) | Term::Tuple(items) => items.iter().any(vm_ordered_keys),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| vm_ordered_keys(v)),
        _ => false,
    }
}

/// Every op of the registry has a generator (a test checks it).
pub fn ops_with_generators() -> impl Iterator<Item = &'static str> {
    OPS.iter()
        .map(|o| o.name)
        .filter(|n| well_formed(n).is_some())
}

/// `base` with one argument, or one element or option of an argument that
/// is a list, replaced by a [`hostile_term`].
pub fn anywhere(base: BoxedStrategy<Vec<Term>>) -> BoxedStrategy<Vec<Term>> {
    (base, any::<usize>(), any::<bool>(), hostile_term())
        .prop_map(|(mut args, at, inner, new)| {
            if args.is_empty() {
                return args;
            }
            let (i, rest) = (at % args.len(), at / args.len());
            match &mut args[i] {
                // An option's value (`[key: hostile]`) or a list element.
                Term::List(items) if inner && !items.is_empty() => {
                    let j = rest % items.len();
                    match &mut items[j] {
                        Term::Tuple(kv) if kv.len() == 2 => kv[1] = new,
                        other => *other = new,
                    }
                }
                slot => *slot = new,
            }
            args
        })
        .boxed()
}

fn one(t: impl Strategy<Value = Term> + 'static) -> BoxedStrategy<Vec<Term>> {
    t.prop_map(|t| vec![t]).boxed()
}

fn atoms(names: &[&'static str]) -> BoxedStrategy<Term> {
    prop::sample::select(names.to_vec())
        .prop_map(Term::atom)
        .boxed()
}

/// A keyword list of options: names from `names`, values from `value`,
/// sometimes a name repeated (`Keyword.get/3` takes the first) or an entry
/// that is not a 2-tuple.
fn options(names: &[&'static str], value: BoxedStrategy<Term>) -> BoxedStrategy<Term> {
    let entry = prop_oneof![
        8 => (prop::sample::select(names.to_vec()), value.clone())
            .prop_map(|(k, v)| Term::tuple(vec![Term::atom(k), v])),
        1 => (super::key_name(), value.clone()).prop_map(|(k, v)| Term::tuple(vec![Term::atom(&k), v])),
        1 => (prop::sample::select(names.to_vec()), value.clone(), value)
            .prop_map(|(k, a, b)| Term::tuple(vec![Term::atom(k), a, b])),
    ];
    prop::collection::vec(entry, 0..4)
        .prop_map(Term::List)
        .boxed()
}

fn tool_name() -> BoxedStrategy<Term> {
    prop_oneof![
        4 => super::key_name().prop_map(Term::Str),
        1 => Just(Term::str("lisp_eval")),
        1 => domain::hostile_string().prop_map(Term::Str),
        1 => domain::bad_utf8(),
    ]
    .boxed()
}

/// A struct with only the fields named (TJ-7): a build whose struct lacks a
/// field the generator does not name can still decode it.
fn written(module: &str, fields: Vec<(&str, Term)>) -> ptc_conformance::term::Struct {
    ptc_conformance::structs::written(module, fields)
        .unwrap_or_else(|e| panic!("bad struct literal in a generator: {e}"))
}

fn fun(arity: u32, returns: Term) -> Term {
    Term::Fun(Box::new(FunSpec::Returns { arity, returns }))
}

/// A `%PtcRunner.Tool{}` with `name`, `expose`, `cache` and `native_result`
/// drawn from their legal values and a few illegal ones, and `visibility`
/// (a field v0.12.0's struct lacks) written only now and then.
fn tool_struct() -> BoxedStrategy<Term> {
    (
        tool_name(),
        prop_oneof![3 => Just(Term::Nil), 3 => atoms(&["native", "ptc_lisp", "both"]), 1 => atoms(&["bogus", "text"])],
        prop_oneof![3 => Just(None), 2 => atoms(&["public"]).prop_map(Some), 2 => atoms(&["private"]).prop_map(Some), 1 => atoms(&["secret"]).prop_map(Some)],
        any::<bool>(),
        native_result(),
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
fn expose_mode() -> BoxedStrategy<Term> {
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
fn tool_format() -> BoxedStrategy<Term> {
    let f = prop_oneof![
        3 => (0u32..4).prop_map(|a| fun(a, Term::Nil)),
        1 => domain::function(super::scalar()),
    ]
    .boxed();
    let opt_value = prop_oneof![
        4 => atoms(&["native", "ptc_lisp", "both", "public", "private", "metadata", "rows", "secret"]),
        2 => any::<bool>().prop_map(Term::Bool),
        1 => Just(Term::Nil),
        2 => native_result(),
        1 => signature().prop_map(Term::Str),
        1 => super::text().prop_map(Term::Str),
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
    );
    prop_oneof![
        2 => f.clone(),
        1 => (f.clone(), signature()).prop_map(|(f, s)| Term::tuple(vec![f, Term::Str(s)])),
        1 => f.clone().prop_map(|f| Term::tuple(vec![f, Term::atom("skip")])),
        5 => (f, opts).prop_map(|(f, o)| Term::tuple(vec![f, o])),
        2 => tool_struct(),
        1 => atoms(&["builtin_grep", "builtin_grep_n", "builtin_sed", "builtin_llm_query", "self", "builtin_nope"]),
        1 => (super::text(), signature()).prop_map(|(d, s)| Term::Struct(Box::new(
            written("PtcRunner.SubAgent.LLMTool", vec![("prompt", Term::Str(d)), ("signature", Term::Str(s))])
        ))),
        1 => (super::text(), any::<bool>()).prop_map(|(d, c)| Term::Struct(Box::new(
            written("PtcRunner.SubAgent.SubAgentTool", vec![("description", Term::Str(d)), ("cache", Term::Bool(c))])
        ))),
    ]
    .boxed()
}

/// A `%PtcRunner.Step{}` as `render_success` and `render_success_from_step`
/// take it: a return value (realistic or from the whole domain), prints,
/// memory (changed and unchanged) and sometimes a failure.
fn step() -> BoxedStrategy<Term> {
    let value =
        prop_oneof![3 => super::term(), 1 => hostile_term(), 1 => domain::large_map()].boxed();
    let prints = prop::collection::vec(
        prop_oneof![4 => super::text().prop_map(Term::Str), 1 => domain::hostile_string().prop_map(Term::Str)],
        0..3,
    )
    .prop_map(Term::List);
    let memory = prop_oneof![
        2 => Just(Term::Nil),
        3 => prop::collection::vec((prop_oneof![super::key_name().prop_map(|k| Term::atom(&k)), super::key_name().prop_map(Term::Str)], value.clone()), 0..4)
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
fn success_opts() -> BoxedStrategy<Term> {
    let execution = (super::text(), any::<bool>(), super::term()).prop_map(|(fb, t, r)| {
        Term::map(vec![
            (Term::atom("feedback"), Term::Str(fb)),
            (Term::atom("truncated"), Term::Bool(t)),
            (Term::atom("result"), r),
            (Term::atom("prints"), Term::List(vec![])),
        ])
    });
    let value = prop_oneof![3 => execution, 2 => super::term(), 1 => hostile_term()].boxed();
    options(
        &[
            "execution",
            "validated",
            "include_memory",
            "format_options",
            "prior_memory",
        ],
        value,
    )
}

/// Options of `render_success_from_step`: `include_memory`,
/// `format_options` (with the limits), `prior_memory`, `validated`.
fn from_step_opts() -> BoxedStrategy<Term> {
    let limits = options(
        &[
            "feedback_max_chars",
            "preview_max_chars",
            "feedback_limit",
            "result_max_chars",
            "max_print_length",
        ],
        prop_oneof![4 => (0i64..80).prop_map(Term::int), 1 => hostile_term()].boxed(),
    );
    let prior = prop::collection::vec(
        (
            super::key_name().prop_map(|k| Term::atom(&k)),
            super::term(),
        ),
        0..3,
    )
    .prop_map(Term::map);
    let value = prop_oneof![
        2 => any::<bool>().prop_map(Term::Bool),
        2 => limits,
        2 => prior,
        1 => super::term(),
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
    )
}

/// The well-formed generator of `op`.
pub fn well_formed(op: &str) -> Option<BoxedStrategy<Vec<Term>>> {
    let name = || prop_oneof![3 => super::key_name(), 1 => super::text()].prop_map(Term::Str);
    Some(match op {
        "key_normalizer.normalize_key" => one(prop_oneof![3 => super::key(), 1 => super::term(), 1 => domain::hostile_scalar()]),
        "key_normalizer.normalize_keys" => one(prop_oneof![4 => super::term(), 1 => domain::large_map()]),
        "key_normalizer.canonical_cache_key" => (name(), prop_oneof![5 => super::args_map(), 1 => super::term(), 1 => domain::large_map()])
            .prop_map(|(n, a)| vec![n, a])
            .boxed(),
        "native_preview.cache_hint" => (name(), super::args_map()).prop_map(|(n, a)| vec![n, a]).boxed(),
        "native_preview.build" => (name(), native_result(), result_value(), super::args_map())
            .prop_map(|(n, nr, r, a)| {
                let tool = written(
                    "PtcRunner.Tool",
                    vec![("name", n), ("expose", Term::atom("both")), ("cache", Term::Bool(true)), ("native_result", nr)],
                );
                vec![Term::Struct(Box::new(tool)), r, a]
            })
            .boxed(),
        "lisp_formatter.format" => one(lisp_ast()),
        "protocol.to_json_value" => one(prop_oneof![4 => super::term(), 1 => domain::large_map()]),
        "protocol.render_error" => (error_reason(), super::text(), error_opts())
            .prop_map(|(r, m, o)| vec![r, Term::Str(m), o])
            .boxed(),
        "protocol.render_success" => (step(), success_opts()).prop_map(|(s, o)| vec![s, o]).boxed(),
        "protocol.render_success_from_step" => prop_oneof![
            4 => (step(), from_step_opts()).prop_map(|(s, o)| vec![s, o]),
            1 => step().prop_map(|s| vec![s]),
        ]
        .boxed(),
        "protocol.tool_description" => one(prop_oneof![
            4 => atoms(&["in_process", "in_process_text_mode", "in_process_with_app_tools", "mcp_no_tools"]),
            1 => atoms(&["mcp", "text", "In_process"]),
        ]),
        "protocol.validate_program" => one(prop_oneof![
            2 => "[ \t\n(+ 1 2)a-z]{0,8}".prop_map(Term::Str),
            1 => prop::sample::select(vec!["\u{a0}", "\u{2028}", "\u{3000}", "\u{200b}", "\u{feff}", " \u{85} "]).prop_map(Term::str),
            1 => super::term(),
        ]),
        "protocol.parse_signature" => one(signature().prop_map(Term::Str)),
        "term.inspect" => one(prop_oneof![2 => super::term(), 3 => hostile_term()]),
        "exposure.effective_expose" => (tool_struct(), expose_mode()).prop_map(|(t, m)| vec![t, m]).boxed(),
        "exposure.filter_by_expose" => {
            let tools = prop_oneof![
                3 => prop::collection::vec(tool_struct(), 0..4).prop_map(Term::List),
                1 => prop::collection::vec((super::key_name().prop_map(Term::Str), tool_struct()), 0..4).prop_map(Term::map),
            ];
            let allowed = prop_oneof![
                2 => prop::collection::vec(atoms(&["native", "ptc_lisp", "both"]), 0..3).prop_map(Term::List),
                1 => prop::collection::vec(atoms(&["native", "ptc_lisp", "both"]), 0..3).prop_map(|v| Term::Struct(Box::new(
                    written("MapSet", vec![("map", Term::map(v.into_iter().map(|a| (a, Term::List(vec![]))).collect()))])
                ))),
                1 => atoms(&["native", "ptc_lisp"]).prop_map(|a| Term::tuple(vec![a])),
            ];
            (tools, expose_mode(), allowed).prop_map(|(t, m, a)| vec![t, m, a]).boxed()
        }
        "tool.new" => (tool_name(), tool_format()).prop_map(|(n, f)| vec![n, f]).boxed(),
        "tool.private?" => one(prop_oneof![4 => tool_struct(), 1 => tool_format()]),
        "tool.validate" => (
            prop_oneof![5 => tool_name(), 1 => Just(Term::atom("lisp_eval")), 1 => super::key_name().prop_map(|k| Term::atom(&k))],
            tool_format(),
        )
            .prop_map(|(n, f)| vec![n, f])
            .boxed(),
        _ => return None,
    })
}

fn native_result() -> impl Strategy<Value = Term> {
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
        (1i64..30).prop_map(move |n| kw(vec![
            ("preview", Term::atom("rows")),
            ("limit", Term::int(n))
        ])),
    ]
}

fn result_value() -> impl Strategy<Value = Term> {
    let row = prop::collection::vec((super::key_name(), super::scalar()), 0..5)
        .prop_map(|kv| Term::map(kv.into_iter().map(|(k, v)| (Term::Str(k), v)).collect()));
    prop_oneof![
        3 => prop::collection::vec(row, 0..8).prop_map(Term::List),
        1 => prop::collection::vec(super::scalar(), 0..6).prop_map(Term::List),
        1 => super::term(),
    ]
}

fn error_reason() -> impl Strategy<Value = Term> {
    prop_oneof![
        4 => prop::sample::select(vec!["parse_error", "runtime_error", "timeout", "memory_limit", "args_error", "fail", "validation_error"])
            .prop_map(Term::atom),
        1 => super::key_name().prop_map(|n| Term::atom(&n)),
    ]
}

fn error_opts() -> impl Strategy<Value = Term> {
    let pair = prop_oneof![
        super::text().prop_map(|t| Term::tuple(vec![Term::atom("feedback"), Term::Str(t)])),
        super::term().prop_map(|t| Term::tuple(vec![Term::atom("result"), t])),
        super::scalar().prop_map(|t| Term::tuple(vec![Term::atom("unknown_opt"), t])),
    ];
    prop::collection::vec(pair, 0..3).prop_map(Term::List)
}

fn lisp_ast() -> impl Strategy<Value = Term> {
    let tag = |t: &str, v: Term| Term::tuple(vec![Term::atom(t), v]);
    let leaf = prop_oneof![
        Just(Term::Nil),
        any::<bool>().prop_map(Term::Bool),
        super::int(),
        super::float()
            .prop_filter("printable", |x| x.abs() < 1.0e200)
            .prop_map(Term::Float),
        super::text().prop_map(move |s| tag("string", Term::Str(s))),
        super::key_name().prop_map(move |k| tag("keyword", Term::Str(k))),
        super::key_name().prop_map(move |k| tag("symbol", Term::Str(k))),
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

fn signature() -> impl Strategy<Value = String> {
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
