//! Kinds of difference: classification, generalized paths, weights.

use super::*;
use ptc_conformance::tagged::decode_str;

fn ok(json: &str) -> Answer {
    Answer::Ok(decode_str(json, "").unwrap())
}

fn op(name: &str) -> &'static Op {
    ptc_conformance::ops::find(name).unwrap()
}

#[test]
fn a_struct_field_on_one_side_is_its_own_kind() {
    // Built by hand: the decoder fills a known struct's missing fields
    // with defaults, which answers will not once structs travel as written.
    let tool = |fields: Vec<(&str, Term)>| {
        Answer::Ok(Term::List(vec![Term::Struct(Box::new(
            ptc_conformance::term::Struct {
                module: "PtcRunner.Tool".into(),
                fields: fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            },
        ))]))
    };
    let base = tool(vec![("name", Term::Str("t".into()))]);
    let head = tool(vec![
        ("name", Term::Str("t".into())),
        ("visibility", Term::Atom("public".into())),
    ]);
    let k = classify(op("tool.new"), &[], &base, &head, Reading::AsAnswered);
    assert_eq!(k.path, "/.visibility");
    assert!(k.one_sided());
    assert_eq!(
        k.title(("base", "head")),
        "tool.new: struct PtcRunner.Tool: field visibility only in head"
    );
}

#[test]
fn indices_and_input_keys_are_generalized_op_keys_kept() {
    let args = [decode_str(r#"{"user-id": 1}"#, "").unwrap()];
    let e = ok(r#"[{"user_id": 0, "fixed": 1}]"#);
    let a = ok(r#"[{"user_id": {"$float": -0.0}, "fixed": 1}]"#);
    let o = op("key_normalizer.normalize_keys");
    let k = classify(o, &args, &e, &a, Reading::AsAnswered);
    // "user_id" is the input's "user-id", normalized: it varies with the input.
    assert_eq!(k.path, "/");
    // "fixed" is not in the input: the op's own key.
    let k = classify(
        o,
        &args,
        &ok(r#"[{"fixed": 0}]"#),
        &ok(r#"[{"fixed": 1}]"#),
        Reading::AsAnswered,
    );
    assert_eq!(k.path, "/*/\"fixed\"");
    let k = classify(o, &args, &e, &a, Reading::AsAnswered);
    assert_eq!(
        k.how,
        How::Type {
            expected: "integer".into(),
            actual: "float".into()
        }
    );
    let args = [decode_str(r#"{"user_id": 1}"#, "").unwrap()];
    assert_eq!(classify(o, &args, &e, &a, Reading::AsAnswered).path, "/");
    // Same cause at another depth: the same kind.
    let deeper = classify(
        o,
        &args,
        &ok(r#"[[[{"user_id": 0}]]]"#),
        &ok(r#"[[[{"user_id": {"$float": -0.0}}]]]"#),
        Reading::AsAnswered,
    );
    assert_eq!(deeper, classify(o, &args, &e, &a, Reading::AsAnswered));
}

#[test]
fn a_short_insertion_into_a_text_is_its_own_kind() {
    let o = op("term.inspect");
    let text = |s: &str| Answer::Ok(Term::Str(s.into()));
    let k = classify(
        o,
        &[],
        &text("%T{name: nil, cache: false}"),
        &text("%T{name: nil, visibility: :public, cache: false}"),
        Reading::AsAnswered,
    );
    assert_eq!(
        k.title(("base", "head")),
        "term.inspect at /: text \"visibility::public,\" only in head"
    );
    // Two changes, or a long insertion: the value changed.
    let k = classify(o, &[], &text("abc"), &text("xbz"), Reading::AsAnswered);
    assert_eq!(
        k.how,
        How::Value {
            of: "binary".into()
        }
    );
}

#[test]
fn raises_classes_and_messages() {
    let raised = |c: &str, m: &str| {
        Answer::Raised(ptc_conformance::raised::Raised {
            class: c.into(),
            message: m.into(),
        })
    };
    let o = op("tool.validate");
    let k = classify(
        o,
        &[],
        &ok("1"),
        &raised("ArgumentError", "x"),
        Reading::AsAnswered,
    );
    assert_eq!(
        k.title(("base", "head")),
        "tool.validate at /: head raises ArgumentError, base returns"
    );
    let k = classify(
        o,
        &[],
        &raised("KeyError", "x"),
        &raised("ArgumentError", "x"),
        Reading::AsAnswered,
    );
    assert_eq!(
        k.how,
        How::Class {
            expected: "KeyError".into(),
            actual: "ArgumentError".into()
        }
    );
    let k = classify(
        o,
        &[],
        &raised("KeyError", "x"),
        &raised("KeyError", "y"),
        Reading::AsAnswered,
    );
    assert_eq!(
        k.how,
        How::Message {
            class: "KeyError".into()
        }
    );
}
