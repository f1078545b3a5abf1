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
//! - **corpus mutations** of the op's golden cases ([`super::mutate`]);
//! - **every class at every place**: a golden case with a term of one class
//!   ([`super::classes`]) put at one of the op's places
//!   ([`super::places::placed`]), the table `lint --coverage` reads.
//!
//! All shrink towards the well-formed source and small terms.

mod json;
mod shapes;

use super::domain::{self, hostile_term};
use super::mutate;
use proptest::prelude::*;
use ptc_conformance::ops::OPS;
use ptc_conformance::term::{OpaqueKind, Term};
use shapes::{
    atoms, error_opts, error_reason, expose_mode, from_step_opts, lisp_ast, native_result, one,
    result_value, signature, step, success_opts, tool_format, tool_name, tool_struct, written,
};

/// The generator for `op`, given the argument lists of its corpus cases
/// (the seeds of mutation); `None` for an op the registry does not have.
pub fn args_for<'a>(
    op: &str,
    corpus: impl IntoIterator<Item = &'a [Term]>,
    words: &[String],
    dictionary: &[Term],
) -> Option<BoxedStrategy<Vec<Term>>> {
    args_for_reaching(op, corpus, words, dictionary, &[])
}

/// [`args_for`], half of the inputs mutations of `reached` (the inputs
/// that reached a function a diff touches) when there are any.
pub fn args_for_reaching<'a>(
    op: &str,
    corpus: impl IntoIterator<Item = &'a [Term]>,
    words: &[String],
    dictionary: &[Term],
    reached: &[Vec<Term>],
) -> Option<BoxedStrategy<Vec<Term>>> {
    let base = well_formed_with(op, words)?;
    let no_dot_syntax = NO_DOT_SYNTAX.contains(&op);
    let anywhere = anywhere(base.clone());
    let seeds = mutate::seeds(op, corpus);
    let placed = super::places::placed(op, seeds.clone());
    let mut mix = match (mutate::mutations(seeds.clone()), placed) {
        (Some(m), Some(p)) => prop_oneof![5 => base.clone(), 3 => anywhere, 3 => m, 2 => p].boxed(),
        (Some(m), None) => prop_oneof![5 => base.clone(), 3 => anywhere, 3 => m].boxed(),
        (None, _) => prop_oneof![5 => base.clone(), 3 => anywhere].boxed(),
    };
    if let Some(aimed) = mutate::with_dictionary(base.clone(), seeds, dictionary) {
        // A dictionary (the diff's constants) gets a third of the inputs.
        mix = prop_oneof![2 => mix, 1 => aimed].boxed();
    }
    let reaching = mutate::seeds(op, reached.iter().map(Vec::as_slice));
    if let Some(m) = mutate::mutations(reaching.clone()) {
        // Inputs that reached changed code are mutated first: half the
        // inputs, a third of those also aimed at the dictionary.
        let near = match mutate::with_dictionary(base, reaching, dictionary) {
            Some(aimed) => prop_oneof![2 => m, 1 => aimed].boxed(),
            None => m,
        };
        mix = prop_oneof![1 => mix, 1 => near].boxed();
    }
    Some(
        mix.prop_filter("the VM orders these map keys (LOOSE-3)", |args| {
            !args.iter().any(vm_ordered_keys)
        })
        .prop_filter(
            "an atom names a module the VM can load (LOOSE-5)",
            move |args| no_dot_syntax || !args.iter().any(names_a_module),
        )
        .prop_filter(
            "Elixir never answers inspecting this list (IN-11)",
            |args| !args.iter().any(never_inspected),
        )
        .boxed(),
    )
}

/// Ops whose PtcRunner code (read at each release) never uses the dot
/// syntax on a term it is given, so that an atom naming a loadable module
/// is answered as any other atom and LOOSE-5 does not apply: the
/// formatter's `{:string, s}`, the most common node of an AST, is such an
/// atom (Erlang's `:string`), and leaving it out left the formatter's
/// string escaping unfuzzed.
pub const NO_DOT_SYNTAX: &[&str] = &[
    "lisp_formatter.format",
    "key_normalizer.normalize_key",
    "key_normalizer.normalize_keys",
];

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

/// Whether `t` holds a list that Elixir never finishes inspecting
/// (`spec/inspect.md` IN-11): more than 4096 elements, the first 4096
/// printable code points, and after them an element that is no chardata
/// (an atom, a float, a tuple, a map, a function, ...), whose
/// `ArgumentError` message inspects the same list again. A corpus case
/// past the 4096th element, mutated, makes one; v0.13.0 times out on it.
pub fn never_inspected(t: &Term) -> bool {
    fn printable(t: &Term) -> bool {
        matches!(
            t,
            Term::Int(ptc_conformance::term::Int::Small(7..=13 | 27 | 32..=126))
        )
    }
    fn chardata(t: &Term) -> bool {
        match t {
            Term::Int(_) | Term::Str(_) | Term::Bytes(_) => true,
            Term::List(items) => items.iter().all(chardata),
            _ => false,
        }
    }
    match t {
        Term::List(items) => {
            (items.len() > 4096
                && items[..4096].iter().all(printable)
                && !items[4096..].iter().all(chardata))
                || items.iter().any(never_inspected)
        }
        Term::Tuple(items) => items.iter().any(never_inspected),
        Term::Map(m) => m
            .iter()
            .any(|(k, v)| never_inspected(k) || never_inspected(v)),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| never_inspected(v)),
        Term::Fun(f) => {
            matches!(&**f, ptc_conformance::term::FunSpec::Returns { returns, .. } if never_inspected(returns))
        }
        _ => false,
    }
}

/// Whether some map in `t` (a MapSet's too) has keys whose order the VM
/// decides (`spec/README.md` LOOSE-3): two functions, or two references
/// (pids, ports), anywhere inside its keys; or more than 32 keys, one of
/// which holds an atom other than `nil`, `true` and `false` (past 32 keys
/// the order is the keys' hashes', and an atom's depends on the VM's atom
/// table, which differs between two starts of one build). Generators
/// leave such inputs out, since a port cannot know that order.
pub fn vm_ordered_keys(t: &Term) -> bool {
    fn holds_atom(t: &Term) -> bool {
        match t {
            // Structs (temporal ones too) hold their module's atom.
            Term::Atom(_)
            | Term::Struct(_)
            | Term::Temporal(_)
            | Term::Fun(_)
            | Term::Opaque(..) => true,
            Term::List(items) | Term::Tuple(items) => items.iter().any(holds_atom),
            Term::Map(m) => m.iter().any(|(k, v)| holds_atom(k) || holds_atom(v)),
            _ => false,
        }
    }
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
                || (m.iter().count() > 32 && m.iter().any(|(k, _)| holds_atom(k)))
                || m.iter()
                    .any(|(k, v)| vm_ordered_keys(k) || vm_ordered_keys(v))
        }
        Term::List(items) | Term::Tuple(items) => items.iter().any(vm_ordered_keys),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| vm_ordered_keys(v)),
        _ => false,
    }
}

/// Whether `word` is one of the option names the generators always send
/// (the kit's word list).
pub fn listed_option_word(word: &str) -> bool {
    shapes::OPTION_WORDS.contains(&word)
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

/// The well-formed generator of `op`.
pub fn well_formed(op: &str) -> Option<BoxedStrategy<Vec<Term>>> {
    well_formed_with(op, &[])
}

/// The well-formed generator of `op`, its option lists also naming
/// `words` (option names learned from two builds, AP-19).
pub fn well_formed_with(op: &str, words: &[String]) -> Option<BoxedStrategy<Vec<Term>>> {
    let name = || prop_oneof![3 => super::key_name(), 1 => super::text()].prop_map(Term::Str);
    Some(match op {
        "key_normalizer.normalize_key" => one(prop_oneof![3 => super::key(), 1 => super::term(), 1 => domain::hostile_scalar()]),
        "key_normalizer.normalize_keys" => one(prop_oneof![4 => super::term(), 1 => domain::large_map()]),
        "key_normalizer.canonical_cache_key" => (name(), prop_oneof![5 => super::args_map(), 1 => super::term(), 1 => domain::large_map()])
            .prop_map(|(n, a)| vec![n, a])
            .boxed(),
        "native_preview.cache_hint" => (name(), super::args_map()).prop_map(|(n, a)| vec![n, a]).boxed(),
        "native_preview.build" => (name(), native_result(words), result_value(), super::args_map())
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
        "protocol.render_error" => (error_reason(), super::text(), error_opts(words))
            .prop_map(|(r, m, o)| vec![r, Term::Str(m), o])
            .boxed(),
        "protocol.render_success" => (step(), success_opts(words)).prop_map(|(s, o)| vec![s, o]).boxed(),
        "protocol.render_success_from_step" => prop_oneof![
            4 => (step(), from_step_opts(words)).prop_map(|(s, o)| vec![s, o]),
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
        "protocol.atomize_value" => json::atomize_args(),
        "protocol.validate_return" => json::validate_args(),
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
        "tool.new" => (tool_name(), tool_format(words)).prop_map(|(n, f)| vec![n, f]).boxed(),
        "tool.private?" => one(prop_oneof![4 => tool_struct(), 1 => tool_format(words)]),
        "tool.validate" => (
            prop_oneof![5 => tool_name(), 1 => Just(Term::atom("lisp_eval")), 1 => super::key_name().prop_map(|k| Term::atom(&k))],
            tool_format(words),
        )
            .prop_map(|(n, f)| vec![n, f])
            .boxed(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past 32 keys, a map whose keys hold an atom is in the VM's order
    /// (two starts of v0.13.0 printed such a map in different orders; one
    /// of integers and texts in one), and left out; up to 32 keys, or with
    /// no atom among the keys, it is not.
    #[test]
    fn a_map_past_32_keys_holding_an_atom_key_is_vm_ordered() {
        let keys = |n: i64, atom: Option<Term>| {
            let mut pairs: Vec<(Term, Term)> = (0..n)
                .map(|i| (Term::int(1_000_000 + i), Term::int(1)))
                .collect();
            if let Some(a) = atom {
                pairs.push((a, Term::int(2)));
            }
            Term::map(pairs)
        };
        assert!(vm_ordered_keys(&keys(32, Some(Term::atom("a")))));
        assert!(vm_ordered_keys(&keys(
            32,
            Some(Term::tuple(vec![Term::atom("a")]))
        )));
        assert!(vm_ordered_keys(&Term::List(vec![keys(
            40,
            Some(Term::atom("ok"))
        )])));
        assert!(!vm_ordered_keys(&keys(31, Some(Term::atom("a")))));
        assert!(!vm_ordered_keys(&keys(40, Some(Term::str("a")))));
        assert!(!vm_ordered_keys(&keys(40, Some(Term::Nil))));
        // An atom among the values does not order the keys.
        let mut pairs: Vec<(Term, Term)> =
            (0..40).map(|i| (Term::int(i), Term::atom("v"))).collect();
        pairs.push((Term::str("k"), Term::atom("v")));
        assert!(!vm_ordered_keys(&Term::map(pairs)));
    }

    fn charlist_then(tail: Term) -> Term {
        let mut items = vec![Term::int(97); 4096];
        items.push(tail);
        Term::List(items)
    }

    #[test]
    fn a_printable_charlist_past_4096_with_no_chardata_after_is_left_out() {
        assert!(never_inspected(&charlist_then(Term::atom("a"))));
        assert!(never_inspected(&charlist_then(Term::Float(1.0))));
        // Nested anywhere in the args.
        assert!(never_inspected(&Term::tuple(vec![charlist_then(
            Term::map(vec![])
        )])));
        // Chardata after the 4096th element answers (a text, or an exception).
        assert!(!never_inspected(&charlist_then(Term::int(-1))));
        assert!(!never_inspected(&charlist_then(Term::str("é"))));
        assert!(!never_inspected(&charlist_then(Term::List(vec![
            Term::int(98)
        ]))));
        // Not a charlist in its first 4096 elements, or not past them.
        let mut short = vec![Term::int(97); 4095];
        short.push(Term::atom("a"));
        assert!(!never_inspected(&Term::List(short)));
        let mut unprintable = vec![Term::int(97); 4097];
        unprintable[5] = Term::int(0);
        unprintable[4096] = Term::atom("a");
        assert!(!never_inspected(&Term::List(unprintable)));
    }
}
