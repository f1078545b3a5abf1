//! One cause per change, titled by what changed and when: the reference
//! (base) against the reference with one change planted (head), for kinds
//! of change no earlier mechanism was written for, and for the kinds a
//! review of three planted builds met (a renamed payload key, a changed
//! error tuple, a renamed sentinel, a new key, a formatter escape seen
//! through three ops, a reworded sentence, a mode's default, an inspected
//! term's text quoted by the messages of several exceptions).

use super::changes::Change;
use super::tests::run_titles;
use crate::subject::reference::{Altered, Reference};
use crate::subject::{Answer, Request};
use ptc_conformance::raised::Raised;
use ptc_conformance::term::Term;

/// The causes' whole titles between the reference and `change`.
fn titles_of(change: Change, per_op: usize) -> Vec<String> {
    let ops = change.ops;
    run_titles(&mut Reference::default(), &mut Altered(change), ops, per_op)
}

/// One cause, whose title holds every fragment, names the op and says when.
fn one_cause(titles: &[String], fragments: &[&str]) {
    assert_eq!(titles.len(), 1, "one cause expected: {titles:#?}");
    eprintln!("title: {}", titles[0]);
    let t = &titles[0];
    for f in fragments {
        assert!(t.contains(f), "{f:?} not in {t:?}");
    }
    assert!(
        t.contains(" — when ") || t.contains(" — always"),
        "says when: {t:?}"
    );
}

/// `a` with every string (the answer, or an exception's message) rewritten by `f`.
fn texts(a: Answer, f: impl Fn(&str) -> String) -> Answer {
    fn go(t: &Term, f: &dyn Fn(&str) -> String) -> Term {
        match t {
            Term::Str(s) => Term::Str(f(s)),
            Term::List(xs) => Term::List(xs.iter().map(|x| go(x, f)).collect()),
            Term::Tuple(xs) => Term::Tuple(xs.iter().map(|x| go(x, f)).collect()),
            Term::Map(m) => Term::map(m.iter().map(|(k, v)| (k.clone(), go(v, f))).collect()),
            other => other.clone(),
        }
    }
    match a {
        Answer::Ok(t) => Answer::Ok(go(&t, &f)),
        Answer::Raised(r) => Answer::Raised(Raised {
            message: f(&r.message),
            class: r.class,
        }),
        other => other,
    }
}

// ---- Kinds of change no mechanism was written for --------------------------

#[test]
fn an_exception_class_changed_is_named_by_both_classes() {
    // Head raises KeyError where base raised ArgumentError over `expose:`.
    let change = Change {
        atoms: &[],
        ops: &["tool.validate"],
        alter: |_, a| match a {
            Answer::Raised(r) if r.class == "ArgumentError" && r.message.contains("expose") => {
                Answer::Raised(Raised {
                    class: "KeyError".into(),
                    message: r.message,
                })
            }
            other => other,
        },
    };
    one_cause(
        &titles_of(change, 1500),
        &["tool.validate: ArgumentError became KeyError"],
    );
}

#[test]
fn a_list_returned_in_another_order_is_named_as_an_order() {
    let change = Change {
        atoms: &[],
        ops: &["exposure.filter_by_expose"],
        alter: |_, a| match a {
            Answer::Ok(Term::List(mut xs)) => {
                xs.reverse();
                Answer::Ok(Term::List(xs))
            }
            other => other,
        },
    };
    one_cause(
        &titles_of(change, 800),
        &["exposure.filter_by_expose: the order of the elements changed"],
    );
}

#[test]
fn a_count_off_by_one_is_named_by_both_numbers() {
    // Head's metadata preview counts one row more.
    let change = Change {
        atoms: &[],
        ops: &["native_preview.build"],
        alter: |_, a| {
            let Answer::Ok(Term::Tuple(xs)) = &a else {
                return a;
            };
            let [tag, Term::Map(m)] = &xs[..] else {
                return a;
            };
            let Some(Term::Int(n)) = m.get_str("result_count") else {
                return a;
            };
            let mut m = m.clone();
            let n: num_bigint::BigInt = n.to_bigint() + 1;
            m.insert(Term::str("result_count"), Term::Int(n.into()));
            Answer::Ok(Term::tuple(vec![tag.clone(), Term::Map(m)]))
        },
    };
    let titles = titles_of(change, 1500);
    one_cause(
        &titles,
        &["native_preview.build: ", " became ", "\"result_count\""],
    );
}

#[test]
fn an_exception_instead_of_an_error_tuple_is_named_by_the_exception() {
    // Head raises where base returns {:error, :args_error, text} for a program that is no string.
    let change = Change {
        atoms: &[],
        ops: &["protocol.validate_program"],
        alter: |r, a| match (&r.args[0], a) {
            (Term::Nil | Term::Str(_) | Term::Bytes(_), a) => a,
            (_, Answer::Ok(Term::Tuple(xs))) if xs.len() == 3 => Answer::Raised(Raised {
                class: "ArgumentError".into(),
                message: "program must be a string".into(),
            }),
            (_, a) => a,
        },
    };
    one_cause(
        &titles_of(change, 600),
        &["protocol.validate_program: head raises ArgumentError (program must be a string) where base returns"],
    );
}

#[test]
fn atoms_kept_as_atoms_are_named_by_the_value_each_side_gives() {
    // Head's to_json_value leaves a top-level atom an atom.
    let change = Change {
        atoms: &[],
        ops: &["protocol.to_json_value"],
        alter: |r, a| match (&r.args[0], a) {
            (Term::Atom(name), Answer::Ok(Term::Tuple(xs))) if xs.len() == 2 => {
                Answer::Ok(Term::tuple(vec![xs[0].clone(), Term::atom(name)]))
            }
            (_, a) => a,
        },
    };
    let titles = titles_of(change, 1500);
    one_cause(&titles, &["protocol.to_json_value: \"", " became :"]);
}

#[test]
fn a_struct_fields_value_changed_is_named_at_that_field() {
    // Head's tools are of type :function.
    let change = Change {
        atoms: &[],
        ops: &["tool.new"],
        alter: |_, a| {
            let Answer::Ok(Term::Tuple(xs)) = &a else {
                return a;
            };
            let [tag, Term::Struct(s)] = &xs[..] else {
                return a;
            };
            let mut s = (**s).clone();
            for (f, v) in &mut s.fields {
                if f == "type" && v.as_atom() == Some("native") {
                    *v = Term::atom("function");
                }
            }
            Answer::Ok(Term::tuple(vec![tag.clone(), Term::Struct(Box::new(s))]))
        },
    };
    one_cause(
        &titles_of(change, 800),
        &["tool.new: :native at PtcRunner.Tool.type became :function"],
    );
}

// ---- Kinds a review of three planted builds met -----------------------------

#[test]
fn a_renamed_payload_key_is_named_by_both_names() {
    let change = Change {
        atoms: &[],
        ops: &["protocol.render_error"],
        alter: |_, a| texts(a, |s| s.replace("\"feedback\":", "\"hint\":")),
    };
    one_cause(
        &titles_of(change, 600),
        &["protocol.render_error: key \"feedback\" became \"hint\""],
    );
}

#[test]
fn a_changed_error_tuple_is_named_by_both_tuples() {
    let change = Change {
        atoms: &[],
        ops: &["tool.new"],
        alter: |_, a| match a {
            Answer::Ok(Term::Tuple(xs)) if matches!(&xs[..], [e, Term::Tuple(r)] if e.as_atom() == Some("error") && r.len() == 2 && r[0].as_atom() == Some("invalid_visibility")) =>
            {
                let Term::Tuple(r) = &xs[1] else {
                    unreachable!()
                };
                Answer::Ok(Term::tuple(vec![
                    xs[0].clone(),
                    Term::tuple(vec![
                        Term::atom("invalid_option"),
                        Term::atom("visibility"),
                        r[1].clone(),
                    ]),
                ]))
            }
            other => other,
        },
    };
    one_cause(
        &titles_of(change, 2000),
        &[
            "tool.new: {:invalid_visibility, ",
            " became {:invalid_option, :visibility, ",
        ],
    );
}

#[test]
fn a_renamed_sentinel_is_named_by_both_atoms() {
    let change = Change {
        atoms: &[],
        ops: &["key_normalizer.canonical_cache_key"],
        alter: |_, a| match a {
            Answer::Ok(Term::Tuple(xs)) => Answer::Ok(Term::Tuple(
                xs.into_iter()
                    .map(|x| match x {
                        Term::Tuple(mut t)
                            if t.first().and_then(Term::as_atom) == Some("non_map") =>
                        {
                            t[0] = Term::atom("not_map");
                            Term::Tuple(t)
                        }
                        x => x,
                    })
                    .collect(),
            )),
            other => other,
        },
    };
    one_cause(
        &titles_of(change, 600),
        &[
            "key_normalizer.canonical_cache_key: :non_map",
            " became :not_map",
        ],
    );
}

#[test]
fn a_new_key_for_map_results_is_named_by_the_key() {
    // Head's preview of a map result says its shape.
    let change = Change {
        atoms: &[],
        ops: &["native_preview.build"],
        alter: |r, a| {
            if !matches!(r.args.get(1), Some(Term::Map(_))) {
                return a;
            }
            let Answer::Ok(Term::Tuple(xs)) = &a else {
                return a;
            };
            let [tag, Term::Map(m)] = &xs[..] else {
                return a;
            };
            let mut m = m.clone();
            m.insert(Term::str("shape"), Term::str("map"));
            Answer::Ok(Term::tuple(vec![tag.clone(), Term::Map(m)]))
        },
    };
    one_cause(
        &titles_of(change, 1500),
        &[
            "native_preview.build: key \"shape\"",
            " added (\"map\" in head)",
        ],
    );
}

#[test]
fn a_formatter_escape_seen_through_three_ops_is_one_cause() {
    // Head's formatter writes `$` in a string as `\$`: format's answer, the
    // cache hint that embeds it, and the preview that embeds the hint.
    let change = Change {
        atoms: &[],
        ops: &[
            "lisp_formatter.format",
            "native_preview.cache_hint",
            "native_preview.build",
        ],
        alter: |_, a| texts(a, |s| s.replace('$', "\\$")),
    };
    let titles = titles_of(change, 1500);
    one_cause(&titles, &["became", "\\$"]);
}

#[test]
fn a_reworded_sentence_shows_the_words_that_differ_whole() {
    let change = Change {
        atoms: &[],
        ops: &["protocol.tool_description"],
        alter: |_, a| {
            texts(a, |s| {
                s.replace("each invocation is independent", "every call starts afresh")
            })
        },
    };
    one_cause(
        &titles_of(change, 200),
        &["\"…each invocation is independent…\" became \"…every call starts afresh…\""],
    );
}

#[test]
fn a_modes_changed_default_is_one_cause_across_the_two_exposure_ops() {
    // In combined mode a tool without `expose:` is exposed on both layers.
    let change = Change {
        atoms: &[],
        ops: &["exposure.effective_expose", "exposure.filter_by_expose"],
        alter: |r, a| {
            let combined = |m: &Term| matches!(m, Term::Tuple(t) if t.len() == 2 && t[0].as_atom() == Some("text") && t[1].as_atom() == Some("tool_call"));
            match r.op {
                "exposure.effective_expose" if r.args.get(1).is_some_and(combined) => {
                    match (&r.args[0], a) {
                        (Term::Struct(s), Answer::Ok(v))
                            if v.as_atom() == Some("native")
                                && s.fields
                                    .iter()
                                    .all(|(f, x)| f != "expose" || *x == Term::Nil) =>
                        {
                            Answer::Ok(Term::atom("both"))
                        }
                        (_, a) => a,
                    }
                }
                "exposure.filter_by_expose" if r.args.get(1).is_some_and(combined) => {
                    let mut args = r.args.to_vec();
                    let with_both = |t: &Term| match t {
                        Term::Struct(s) if s.module == "PtcRunner.Tool" => {
                            let mut s = (**s).clone();
                            for (f, x) in &mut s.fields {
                                if f == "expose" && *x == Term::Nil {
                                    *x = Term::atom("both");
                                }
                            }
                            if !s.fields.iter().any(|(f, _)| f == "expose") {
                                s.fields.push(("expose".into(), Term::atom("both")));
                                s.fields.sort_by(|x, y| x.0.cmp(&y.0));
                            }
                            Term::Struct(Box::new(s))
                        }
                        other => other.clone(),
                    };
                    let Some(Term::List(tools)) = args.first() else {
                        return a;
                    };
                    let original = tools.clone();
                    args[0] = Term::List(tools.iter().map(with_both).collect());
                    // The tools kept are the input's own, not rewritten.
                    match Reference::default().answer(Request::new(r.op, &args)) {
                        Answer::Ok(Term::List(kept)) => Answer::Ok(Term::List(
                            kept.iter()
                                .filter_map(|k| {
                                    let i = args[0].clone();
                                    let Term::List(all) = i else { return None };
                                    all.iter().position(|x| x == k).map(|i| original[i].clone())
                                })
                                .collect(),
                        )),
                        other => other,
                    }
                }
                _ => a,
            }
        },
    };
    let titles = titles_of(change, 1500);
    one_cause(&titles, &[":native"]);
}

#[test]
fn an_inspected_terms_text_quoted_by_many_messages_is_one_cause() {
    // Head's inspect writes a map as `%{ ...}`: term.inspect's answers and
    // every message that quotes a map show it.
    let change = Change {
        atoms: &[],
        ops: &[
            "term.inspect",
            "tool.validate",
            "protocol.render_error",
            "exposure.effective_expose",
            "protocol.validate_return",
        ],
        alter: |r, a| match (r.op, a) {
            ("term.inspect", a @ Answer::Ok(_)) | (_, a @ Answer::Raised(_)) => {
                texts(a, |s| s.replace("%{", "%{ "))
            }
            (_, a) => a,
        },
    };
    let titles = titles_of(change, 800);
    one_cause(&titles, &["\"%{", "\"%{ "]);
}

#[test]
fn two_changes_seen_in_one_text_are_two_causes() {
    // Head reads a map without its nil values and with its floats rounded
    // to two places: one cache hint (a text holding the whole map) often
    // shows both, so its example holds two changes and no single part of
    // it makes the builds agree.
    fn altered(t: &Term) -> Term {
        match t {
            Term::Map(m) => Term::map(
                m.iter()
                    .filter(|(_, v)| *v != Term::Nil)
                    .map(|(k, v)| (altered(k), altered(v)))
                    .collect(),
            ),
            Term::List(xs) => Term::List(xs.iter().map(altered).collect()),
            Term::Tuple(xs) => Term::Tuple(xs.iter().map(altered).collect()),
            Term::Float(f) if f.is_finite() => Term::Float((f * 100.0).round() / 100.0),
            other => other.clone(),
        }
    }
    let change = Change {
        atoms: &[],
        ops: &["native_preview.cache_hint"],
        alter: |r, a| {
            let args: Vec<Term> = r.args.iter().map(altered).collect();
            let request = Request::new(r.op, &args);
            match a {
                Answer::Ok(_) => Reference::default().answer(request),
                other => other,
            }
        },
    };
    let titles = titles_of(change, 3000);
    for t in &titles {
        eprintln!("title: {t}");
    }
    assert_eq!(titles.len(), 2, "two causes expected: {titles:#?}");
    assert!(
        titles.iter().any(|t| t.contains("nil")),
        "a cause names the nil values: {titles:#?}"
    );
    assert!(
        titles.iter().any(|t| !t.contains("nil")),
        "the other names the float: {titles:#?}"
    );
}

#[test]
fn a_tuple_written_with_a_tag_is_one_cause_wherever_the_tuple_is() {
    // Head writes every tuple of a cache key as a list tagged "tuple":
    // the trigger search names one tuple at one place per example (an
    // empty one in a mode, one inside another, one inside a list), in
    // two ops; each is the same change.
    fn tagged(t: &Term) -> Term {
        match t {
            Term::Tuple(xs) => Term::List(
                std::iter::once(Term::str("tuple"))
                    .chain(xs.iter().map(tagged))
                    .collect(),
            ),
            Term::List(xs) => Term::List(xs.iter().map(tagged).collect()),
            Term::Map(m) => Term::map(m.iter().map(|(k, v)| (tagged(k), tagged(v))).collect()),
            other => other.clone(),
        }
    }
    let change = Change {
        atoms: &[],
        ops: &[
            "key_normalizer.canonical_cache_key",
            "native_preview.cache_hint",
        ],
        alter: |r, a| {
            let args: Vec<Term> = r.args.iter().map(tagged).collect();
            match a {
                Answer::Ok(_) => Reference::default().answer(Request::new(r.op, &args)),
                other => other,
            }
        },
    };
    let titles = titles_of(change, 3000);
    one_cause(&titles, &["\"tuple\"", " became "]);
}

#[test]
fn a_swapped_pair_is_one_cause_whatever_the_pair_holds() {
    // Head writes each parameter of a parsed signature as {type, name}:
    // every example swaps other values ({"a", :int}, {"b", {:list,
    // :int}}), and no part of an input makes the two agree.
    fn swapped(t: Term) -> Term {
        match t {
            Term::Tuple(xs) if xs.len() == 2 && matches!(xs[0], Term::Str(_)) => {
                Term::tuple(vec![xs[1].clone(), xs[0].clone()])
            }
            Term::Tuple(xs) => Term::Tuple(xs.into_iter().map(swapped).collect()),
            Term::List(xs) => Term::List(xs.into_iter().map(swapped).collect()),
            other => other,
        }
    }
    let change = Change {
        atoms: &[],
        ops: &["protocol.parse_signature"],
        alter: |_, a| match a {
            Answer::Ok(t) => Answer::Ok(swapped(t)),
            other => other,
        },
    };
    one_cause(&titles_of(change, 1500), &["protocol.parse_signature: {"]);
}

#[test]
fn a_new_error_for_an_edge_input_is_named_by_that_input() {
    // Head refuses a tool named "": whatever else the input holds (its
    // format right or wrong), the empty name is the trigger, though
    // taking it out (nil, []) makes both sides fail anew.
    let change = Change {
        atoms: &[],
        ops: &["tool.new"],
        alter: |r, a| match r.args.first() {
            Some(Term::Str(s)) if s.is_empty() => Answer::Ok(Term::tuple(vec![
                Term::atom("error"),
                Term::atom("empty_name"),
            ])),
            _ => a,
        },
    };
    one_cause(
        &titles_of(change, 1500),
        &["became :empty_name", "args/0 is \"\""],
    );
}
