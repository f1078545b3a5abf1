//! Causes found between the reference and planted-bug wrappers of it: two
//! bugs with one trigger across ops are one cause, two triggers two, and
//! a struct field one side lacks one cause whatever ops it reaches.

use super::*;
use crate::corpus::{Case, Sources};
use crate::judging::judge::Reading;
use crate::review::attribution::tests::WithoutVisibility;
use crate::review::attribution::Shapes;
use crate::review::compare::{compare, CompareConfig, Comparison};
use crate::review::fuzz::FuzzConfig;
use crate::subject::reference::{Alteration, Altered, Reference};
use crate::subject::{Request, Subject};
use ptc_conformance::raised::Raised;
use std::collections::BTreeSet;

/// The reference with bugs planted: each rewrites the answer to a request
/// whose op it names and whose args hold an option with its key.
struct Planted {
    bugs: Vec<Bug>,
}

/// A planted bug: the op, the option key that triggers it, what it does to the answer.
type Bug = (&'static str, &'static str, fn(Answer) -> Answer);

/// Whether a list of options of `op` (where the op reads them) in `args`
/// holds an entry with `key`.
fn has_option(op: &str, args: &[Term], key: &str) -> bool {
    parts::option_lists(op, args).iter().any(|xs| {
        xs.iter()
            .any(|x| matches!(x, Term::Tuple(kv) if kv.len() >= 2 && kv[0].as_atom() == Some(key)))
    })
}

fn raises(_: Answer) -> Answer {
    Answer::Raised(Raised {
        class: "ArgumentError".into(),
        message: "planted".into(),
    })
}

fn errors(a: Answer) -> Answer {
    match a {
        Answer::Ok(_) => Answer::Ok(Term::tuple(vec![
            Term::atom("error"),
            Term::atom("planted"),
        ])),
        other => other,
    }
}

impl Alteration for Planted {
    fn name(&self) -> String {
        "reference with planted bugs".into()
    }
    fn alter(&mut self, r: Request<'_>, mut answer: Answer) -> Answer {
        for (op, key, bug) in &self.bugs {
            if r.op == *op && has_option(r.op, r.args, key) {
                answer = bug(answer);
            }
        }
        answer
    }
}

pub(super) fn run(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
    ops: &[&str],
    per_op: usize,
) -> Vec<(Trigger, BTreeSet<&'static str>, usize)> {
    compared(base, head, ops, per_op, |c| {
        c.causes
            .iter()
            .map(|x| (x.trigger.clone(), c.cause_ops(x), x.kinds.len()))
            .collect()
    })
}

/// The whole titles of the causes between `base` and `head` over `ops`
/// (what changed, then when), in the report's order.
pub(super) fn run_titles(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
    ops: &[&str],
    per_op: usize,
) -> Vec<String> {
    compared(base, head, ops, per_op, |c| {
        c.causes.iter().map(|x| x.title(("base", "head"))).collect()
    })
}

fn compared<T>(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
    ops: &[&str],
    per_op: usize,
    read: impl Fn(&Comparison<'_>) -> T,
) -> T {
    let corpus = crate::corpus::load_clean(&Sources::embedded()).unwrap();
    let cases: Vec<&Case> = corpus
        .cases
        .iter()
        .filter(|c| ops.contains(&c.op.name))
        .collect();
    let mut fuzz = FuzzConfig::new(7);
    fuzz.ops = ops.iter().map(|o| (*o).to_owned()).collect();
    fuzz.cases_per_op = per_op;
    let cfg = CompareConfig {
        strictness: crate::judging::outcome::Strictness::Default,
        emit: None,
        fuzz: Some(fuzz),
        alone: false,
    };
    let c: Comparison<'_> = compare(base, head, &cases, &corpus.cases, &cfg, &mut |_| {}).unwrap();
    read(&c)
}

/// The causes between the reference (base) and the reference with `bugs`
/// planted (head), over `ops`.
fn planted(
    bugs: Vec<Bug>,
    ops: &[&str],
    per_op: usize,
) -> Vec<(Trigger, BTreeSet<&'static str>, usize)> {
    run(
        &mut Reference::default(),
        &mut Altered(Planted { bugs }),
        ops,
        per_op,
    )
}

/// The causes' titles, sorted.
pub(super) fn titles(causes: &[(Trigger, BTreeSet<&'static str>, usize)]) -> Vec<String> {
    let mut out: Vec<String> = causes.iter().map(|c| c.0.title(("base", "head"))).collect();
    out.sort();
    out
}

#[test]
fn two_bugs_with_one_trigger_across_ops_are_one_cause() {
    let causes = planted(
        vec![
            ("tool.new", "timeout", errors),
            ("tool.validate", "timeout", raises),
        ],
        &["tool.new", "tool.validate"],
        600,
    );
    let titles = titles(&causes);
    assert_eq!(titles, ["option :timeout"], "{causes:?}");
    let (_, ops, kinds) = &causes[0];
    assert!(
        ops.contains("tool.new") && ops.contains("tool.validate"),
        "{ops:?}"
    );
    assert!(*kinds >= 2, "{causes:?}");
}

#[test]
fn two_bugs_with_different_triggers_are_two_causes() {
    let causes = planted(
        vec![
            ("tool.new", "timeout", errors),
            ("tool.validate", "description", raises),
        ],
        &["tool.new", "tool.validate"],
        600,
    );
    let titles = titles(&causes);
    assert_eq!(
        titles,
        ["option :description", "option :timeout"],
        "{causes:?}"
    );
}

#[test]
fn a_struct_field_one_side_lacks_is_one_cause_whatever_ops_it_reaches() {
    let ops = [
        "term.inspect",
        "tool.new",
        "protocol.validate_program",
        "exposure.filter_by_expose",
    ];
    let causes = run(
        &mut Altered(WithoutVisibility { planted: false }),
        &mut Reference::default(),
        &ops,
        300,
    );
    let titles = titles(&causes);
    assert_eq!(
        titles,
        ["struct field PtcRunner.Tool.visibility"],
        "{causes:?}"
    );
    assert!(causes[0].1.len() >= 3, "{causes:?}");
}

#[test]
fn the_smallest_part_that_makes_both_answer_alike_is_the_trigger() {
    let op = ptc_conformance::ops::find("tool.validate").unwrap();
    let args = vec![
        Term::str("t"),
        Term::tuple(vec![
            Term::Fun(Box::new(ptc_conformance::term::FunSpec::Returns {
                arity: 1,
                returns: Term::Nil,
            })),
            Term::List(vec![
                Term::tuple(vec![Term::atom("cache"), Term::Bool(true)]),
                Term::tuple(vec![Term::atom("description"), Term::str("d")]),
            ]),
        ]),
    ];
    let mut head = Altered(Planted {
        bugs: vec![("tool.validate", "description", raises)],
    });
    let (b, h) = (
        Reference::default().answer(Request::new(op.name, &args)),
        head.call(Request::new(op.name, &args)),
    );
    let kind = crate::review::kinds::classify(op, &args, &b, &h, Reading::AsAnswered);
    let shapes = Shapes::new();
    let mut search = Search {
        base: &mut Reference::default(),
        head: &mut head,
        shapes: &shapes,
        reading: Reading::AsAnswered,
        labels: ("base", "head"),
        seen: &super::default::OptionsSeen::default(),
    };
    let found = search.trigger(&kind, op, &args, (&b, &h));
    assert_eq!(
        found.trigger,
        Trigger::Option {
            op: "tool.validate",
            path: "/1/1".into(),
            key: "description".into()
        },
        "{found:?}"
    );
    assert!(found.how.contains("as base did"), "{found:?}");
}

/// The reference as a build that lacks a protocol's implementation for
/// some structs: any request whose args hold one raises as Elixir does.
struct LacksProtocol {
    protocol: &'static str,
    modules: &'static [&'static str],
}

impl Alteration for LacksProtocol {
    fn name(&self) -> String {
        "reference lacking a protocol".into()
    }
    fn alter(&mut self, r: Request<'_>, answer: Answer) -> Answer {
        let hit = self
            .modules
            .iter()
            .find(|m| r.args.iter().any(|a| holds_struct(a, m)));
        match hit {
            Some(_) if matches!(answer, Answer::Unsupported(_)) => answer,
            Some(m) => Answer::Raised(Raised {
                class: "Protocol.UndefinedError".into(),
                message: format!(
                    "protocol {} not implemented for type {m} (a struct). This protocol is implemented for the following type(s): Atom, List\n\nGot value:\n\n    %{m}{{}}\n",
                    self.protocol
                ),
            }),
            None => answer,
        }
    }
}

#[test]
fn a_protocol_one_side_lacks_for_several_structs_is_one_cause_across_ops() {
    let mut base = Altered(LacksProtocol {
        protocol: "String.Chars",
        modules: &["PtcRunner.Lisp.Format.Fn", "PtcRunner.Lisp.Format.Var"],
    });
    let causes = run(
        &mut base,
        &mut Reference::default(),
        &[
            "term.inspect",
            "lisp_formatter.format",
            "native_preview.cache_hint",
        ],
        1500,
    );
    assert_eq!(causes.len(), 1, "{causes:?}");
    let Trigger::Impl {
        protocol, lacking, ..
    } = &causes[0].0
    else {
        panic!("{causes:?}")
    };
    assert_eq!(
        (protocol.as_str(), *lacking),
        ("String.Chars", Side::Expected)
    );
    assert!(causes[0].1.len() >= 2, "{causes:?}");
}

fn option(op: &'static str, path: &str, key: &str) -> Trigger {
    Trigger::Option {
        op,
        path: path.into(),
        key: key.into(),
    }
}

fn value(op: &'static str, path: &str, value: &str) -> Trigger {
    Trigger::Value {
        op,
        path: path.into(),
        of: "map".into(),
        value: value.into(),
    }
}

#[test]
fn options_are_one_cause_by_key_or_through_a_value_standing_for_their_list() {
    let op = "protocol.render_success_from_step";
    let (a, b) = (
        option(op, "/1", "include_memory"),
        option(op, "/1", "prior_memory"),
    );
    // Two options that merely share a list are two causes (two planted bugs).
    assert!(!a.same_cause(&b));
    // One key is one cause in any op.
    assert!(option("tool.new", "/1/1", "visibility").same_cause(&option(
        "tool.validate",
        "/1/1",
        "visibility"
    )));
    // A value standing for the list (a map where a list is read) joins
    // every option of that list, and a value inside an option joins it.
    let list = value(op, "/1", "{}");
    assert!(list.same_cause(&a) && list.same_cause(&b));
    let inside = value(op, "/1/[format_options]/1", "{\"$atom\":\"a\"}");
    assert!(inside.same_cause(&list));
    assert!(inside.same_cause(&option(op, "/1", "format_options")));
    assert!(!inside.same_cause(&a));
    // A nested option is in the outer list too; a value elsewhere is not.
    assert!(option(op, "/1/[format_options]/1", "feedback_max_chars").same_cause(&list));
    assert!(!value(op, "/0/.return", "{}").same_cause(&list));
    // `/:a` is a map's atom key, not an option.
    assert!(!value(op, "/1/:a", "{}").same_cause(&list));
}

#[test]
fn implementations_one_side_lacks_join_by_protocol_or_struct() {
    let imp = |p: &str, m: &str, lacking| Trigger::Impl {
        protocol: p.into(),
        modules: vec![m.into()],
        lacking,
    };
    let fn_chars = imp("String.Chars", "F", Side::Expected);
    assert!(fn_chars.same_cause(&imp("String.Chars", "V", Side::Expected)));
    assert!(fn_chars.same_cause(&imp("Jason.Encoder", "F", Side::Expected)));
    assert!(!fn_chars.same_cause(&imp("Jason.Encoder", "V", Side::Expected)));
    assert!(!fn_chars.same_cause(&imp("String.Chars", "V", Side::Actual)));
    assert!(fn_chars.same_cause(&Trigger::Struct { module: "F".into() }));
    assert!(!fn_chars.same_cause(&Trigger::Struct { module: "V".into() }));
}

#[test]
fn two_bugs_on_two_options_of_one_op_are_two_causes() {
    let causes = planted(
        vec![
            ("tool.validate", "timeout", errors),
            ("tool.validate", "description", raises),
        ],
        &["tool.validate"],
        800,
    );
    let titles = titles(&causes);
    assert_eq!(
        titles,
        ["option :description", "option :timeout"],
        "{causes:?}"
    );
}
