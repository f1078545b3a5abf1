//! One cause per change, whatever its kind: the reference (base) against
//! the reference with one change of a kind real releases make planted in
//! its answers (head), each compared as `compare` does.

use super::tests::{run, titles};
use super::*;
use crate::subject::reference::{Alteration, Altered, Reference};
use crate::subject::Request;

use ptc_conformance::raised::Raised;

/// A change planted in the reference's answers to the ops it names.
pub(super) struct Change {
    pub(super) ops: &'static [&'static str],
    pub(super) alter: fn(Request<'_>, Answer) -> Answer,
    /// Atoms head's code holds that base's lacks (AP-19): the names a
    /// change brings, as a build's code would hold them.
    pub(super) atoms: &'static [&'static str],
}

impl Alteration for Change {
    fn name(&self) -> String {
        "reference with a planted change".into()
    }
    fn atoms(&self) -> Vec<String> {
        self.atoms.iter().map(|a| (*a).to_owned()).collect()
    }
    fn alter(&mut self, r: Request<'_>, answer: Answer) -> Answer {
        if self.ops.contains(&r.op) {
            (self.alter)(r, answer)
        } else {
            answer
        }
    }
}

/// The causes between the reference and `change`, over its ops.
fn causes_of(
    change: Change,
    per_op: usize,
) -> Vec<(Trigger, std::collections::BTreeSet<&'static str>, usize)> {
    let ops = change.ops;
    run(&mut Reference::default(), &mut Altered(change), ops, per_op)
}

/// Whether a text (a string, an atom, a map key) anywhere in `t` holds `c`.
fn holds_char(t: &Term, c: char) -> bool {
    match t {
        Term::Str(s) | Term::Atom(s) => s.contains(c),
        Term::List(xs) | Term::Tuple(xs) => xs.iter().any(|x| holds_char(x, c)),
        Term::Map(m) => m.iter().any(|(k, v)| holds_char(k, c) || holds_char(v, c)),
        Term::Struct(s) => s.fields.iter().any(|(_, v)| holds_char(v, c)),
        _ => false,
    }
}

/// `t` with every `from` in its texts (strings, atoms, map keys) written `to`.
fn replaced(t: &Term, from: char, to: char) -> Term {
    let all = |xs: &[Term]| xs.iter().map(|x| replaced(x, from, to)).collect();
    match t {
        Term::Str(s) => Term::Str(s.replace(from, &to.to_string())),
        Term::Atom(s) => Term::atom(&s.replace(from, &to.to_string())),
        Term::List(xs) => Term::List(all(xs)),
        Term::Tuple(xs) => Term::Tuple(all(xs)),
        Term::Map(m) => Term::map(
            m.iter()
                .map(|(k, v)| (replaced(k, from, to), replaced(v, from, to)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn a_key_rule_extended_to_one_more_character_is_one_cause_titled_by_it() {
    // Head's key rule writes a space as `_`, as it writes `-`: every op
    // that normalizes keys shows it, wherever the space is.
    let change = Change {
        atoms: &[],
        ops: &[
            "key_normalizer.normalize_key",
            "key_normalizer.normalize_keys",
            "key_normalizer.canonical_cache_key",
        ],
        alter: |r, a| match a {
            Answer::Ok(t) if r.args.iter().any(|x| holds_char(x, ' ')) => {
                Answer::Ok(replaced(&t, ' ', '_'))
            }
            other => other,
        },
    };
    let causes = causes_of(change, 400);
    assert_eq!(
        titles(&causes),
        ["a \" \" in a map key or string"],
        "{causes:?}"
    );
    assert!(causes[0].1.len() >= 2, "{causes:?}");
}

/// The entries of `op`'s option lists in `args` (where the op reads
/// options) that name `key`: well-formed (`{:key, v}`) or not (`{:key}`,
/// `{:key, a, b}`, a bare `:key`).
fn entries(op: &str, args: &[Term], key: &str) -> (bool, bool) {
    let (mut good, mut bad) = (false, false);
    for xs in parts::option_lists(op, args) {
        for x in xs {
            match x {
                Term::Tuple(kv) if kv.first().and_then(Term::as_atom) == Some(key) => {
                    if kv.len() == 2 {
                        good = true;
                    } else {
                        bad = true;
                    }
                }
                Term::Atom(a) if a == key => bad = true,
                _ => {}
            }
        }
    }
    (good, bad)
}

/// Head newly reads option `key`: a well-formed entry turns the tool down,
/// a malformed one raises.
fn reads_option(r: Request<'_>, a: Answer, key: &str) -> Answer {
    let (good, bad) = entries(r.op, r.args, key);
    match a {
        _ if bad => Answer::Raised(Raised {
            class: "ArgumentError".into(),
            message: format!("invalid option :{key}"),
        }),
        Answer::Ok(_) if good => {
            Answer::Ok(Term::tuple(vec![Term::atom("error"), Term::atom(key)]))
        }
        other => other,
    }
}

#[test]
fn a_new_option_no_word_list_names_is_learned_from_the_builds_atoms() {
    // `:retries` is in no word list of the kit: without head's atoms
    // (AP-19) no input names it and the change goes unseen; with them it
    // is met well-formed and malformed, and is one cause.
    let change = |atoms| Change {
        atoms,
        ops: &["tool.new", "tool.validate"],
        alter: |r, a| reads_option(r, a, "retries"),
    };
    assert!(!crate::review::gen::ops::listed_option_word("retries"));
    assert_eq!(causes_of(change(&[]), 2000), [], "unseen without the atoms");
    let causes = causes_of(change(&["retries", "Elixir.PtcRunner.Retry"]), 2000);
    assert_eq!(titles(&causes), ["option :retries"], "{causes:?}");
    assert!(causes[0].2 >= 2, "well-formed and malformed: {causes:?}");
}

/// 180 names besides `retries`, as a release's code brings (v0.13.0's
/// literal atoms that v0.12.0's lack, option-shaped: 177).
fn decoys() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        (0..180)
            .map(|i| &*Box::leak(format!("decoy_{i:03}").into_boxed_str()))
            .chain(["retries"])
            .collect()
    })
}

#[test]
#[ignore = "campaign size (40,000 inputs for each of two ops): .ci/run runs it, or cargo test -p ptc-conformance-harness --lib causes::changes -- --ignored"]
fn a_new_option_among_a_releases_new_atoms_is_met_at_the_default_budget() {
    let change = Change {
        atoms: decoys(),
        ops: &["tool.new", "tool.validate"],
        alter: |r, a| reads_option(r, a, "retries"),
    };
    let causes = causes_of(change, crate::review::fuzz::CASES_PER_OP);
    assert_eq!(titles(&causes), ["option :retries"], "{causes:?}");
    assert!(causes[0].2 >= 2, "well-formed and malformed: {causes:?}");
}

#[test]
fn a_new_option_met_well_formed_and_malformed_is_one_cause() {
    // Head newly reads `:strict`: a well-formed entry turns the tool
    // down, a malformed one raises.
    let change = Change {
        atoms: &[],
        ops: &["tool.new", "tool.validate"],
        alter: |r, a| reads_option(r, a, "strict"),
    };
    let causes = causes_of(change, 2000);
    assert_eq!(titles(&causes), ["option :strict"], "{causes:?}");
    assert!(
        causes[0].2 >= 2,
        "both the well-formed and malformed kinds: {causes:?}"
    );
}

#[test]
fn a_reworded_exception_message_is_one_cause_titled_as_a_message_change() {
    let change = Change {
        atoms: &[],
        ops: &["tool.new", "tool.validate"],
        alter: |_, a| match a {
            Answer::Raised(r)
                if r.class == "ArgumentError" && r.message.contains("accepted values are") =>
            {
                Answer::Raised(Raised {
                    class: r.class,
                    message: r.message.replace("accepted values are", "expected one of"),
                })
            }
            other => other,
        },
    };
    let causes = causes_of(change, 800);
    assert_eq!(causes.len(), 1, "{causes:?}");
    let Trigger::Message { class, parting } = &causes[0].0 else {
        panic!("{causes:?}")
    };
    assert_eq!(class, "ArgumentError");
    assert_eq!(
        (parting.base.as_str(), parting.head.as_str()),
        ("accepted values are", "expected one of")
    );
    assert!(
        titles(&causes)[0].starts_with("the message of ArgumentError changed"),
        "{causes:?}"
    );
}

#[test]
fn a_changed_default_is_one_cause() {
    // Head caches a tool unless told otherwise: `{f, opts}` without
    // `:cache` answers as `{f, opts ++ [cache: true]}` does.
    let change = Change {
        atoms: &[],
        ops: &["tool.new"],
        alter: |r, a| {
            let Some(Term::Tuple(format)) = r.args.get(1) else {
                return a;
            };
            let [f, Term::List(opts)] = &format[..] else {
                return a;
            };
            if opts.iter().any(|o| matches!(o, Term::Tuple(kv) if kv.first().and_then(Term::as_atom) == Some("cache"))) {
                return a;
            }
            let mut opts = opts.clone();
            opts.push(Term::tuple(vec![Term::atom("cache"), Term::Bool(true)]));
            let args = vec![
                r.args[0].clone(),
                Term::tuple(vec![f.clone(), Term::List(opts)]),
            ];
            Reference::default().answer(Request::new(r.op, &args))
        },
    };
    let causes = causes_of(change, 800);
    assert_eq!(
        titles(&causes),
        ["the default of option :cache: false in base, true in head"],
        "{causes:?}"
    );
}

#[test]
fn a_change_every_input_shows_is_one_cause_named_by_the_output() {
    // Head's texts end in a version mark: no part of any input matters.
    let change = Change {
        atoms: &[],
        ops: &["protocol.tool_description", "lisp_formatter.format"],
        alter: |_, a| match a {
            Answer::Ok(Term::Str(s)) => Answer::Ok(Term::Str(format!("{s} (v2)"))),
            other => other,
        },
    };
    let causes = causes_of(change, 300);
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(matches!(causes[0].0, Trigger::Output { .. }), "{causes:?}");
    assert_eq!(causes[0].1.len(), 2, "{causes:?}");
    let title = &titles(&causes)[0];
    assert!(title.contains("(v2)"), "{title}");
}

#[test]
fn a_change_in_a_function_several_ops_share_is_one_cause() {
    // The payload encoder the render ops share writes one more key.
    let change = Change {
        atoms: &[],
        ops: &[
            "protocol.render_success",
            "protocol.render_success_from_step",
            "protocol.render_error",
        ],
        alter: |_, a| match a {
            Answer::Ok(Term::Str(s)) => match serde_json::from_str::<serde_json::Value>(&s) {
                Ok(serde_json::Value::Object(mut m)) => {
                    m.insert("schema".into(), serde_json::json!(2));
                    Answer::Ok(Term::Str(serde_json::Value::Object(m).to_string()))
                }
                _ => Answer::Ok(Term::Str(s)),
            },
            other => other,
        },
    };
    let causes = causes_of(change, 300);
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert!(causes[0].1.len() >= 2, "{causes:?}");
    let title = &titles(&causes)[0];
    assert!(title.contains("\"schema\""), "{title}");
}

#[test]
fn a_separator_changed_in_an_error_text_is_one_cause_titled_as_a_message_change() {
    // Head writes the path in `to_json_value`'s `{:error, text}` with `/`
    // before a struct's tag: the struct (any struct) is what makes the op
    // fail, not what changed; every such input is one rewording.
    let change = Change {
        atoms: &[],
        ops: &["protocol.to_json_value"],
        alter: |_, a| match a {
            Answer::Ok(Term::Tuple(xs)) if matches!(&xs[..], [e, Term::Str(t)] if e.as_atom() == Some("error") && t.contains(".<")) =>
            {
                let Term::Str(t) = &xs[1] else { unreachable!() };
                Answer::Ok(Term::tuple(vec![
                    xs[0].clone(),
                    Term::Str(t.replace(".<", "/<")),
                ]))
            }
            other => other,
        },
    };
    let causes = causes_of(change, 2000);
    assert_eq!(causes.len(), 1, "{causes:?}");
    let Trigger::Message { class, parting } = &causes[0].0 else {
        panic!("{causes:?}")
    };
    assert_eq!(class, "{:error, _}");
    assert_eq!((parting.base.as_str(), parting.head.as_str()), (".", "/"));
    assert_eq!(parting.after, "non-JSON-encodable value at");
}
