//! Every op of the registry has a generator, a short in-process fuzz of
//! each runs clean, and the generators reach the corners they promise:
//! both outcomes of each op whose corpus has both, and the kinds of term
//! `gen::domain` exists for.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRunner};
use ptc_conformance::ops::OPS;
use ptc_conformance::term::Term;
use ptc_conformance_harness::corpus::{self, Expect, Sources};
use ptc_conformance_harness::review::fuzz::{self, FuzzConfig};
use ptc_conformance_harness::subject::reference::Reference;

#[test]
fn every_op_has_a_generator_and_fuzzes_clean() {
    let corpus = corpus::load(&Sources::embedded());
    assert!(corpus.errors.is_empty(), "{:?}", corpus.errors);
    for op in OPS {
        assert!(
            fuzz::args_for(op.name, &corpus.cases, &[]).is_some(),
            "{}: no generator",
            op.name
        );
        let cfg = FuzzConfig {
            ops: vec![op.name.into()],
            cases_per_op: 150,
            batch: 50,
            ..FuzzConfig::new(11)
        };
        let report = fuzz::run(&mut Reference::default(), &cfg, &corpus.cases, &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", op.name));
        assert_eq!(report.checked, 150, "{}", op.name);
        assert!(
            report.findings.is_empty(),
            "{}: the reference disagrees with itself",
            op.name
        );
    }
}

fn sample(corpus: &corpus::Corpus, op: &str, n: usize) -> Vec<Vec<Term>> {
    let strategy = fuzz::args_for(op, &corpus.cases, &[]).unwrap();
    let mut runner = TestRunner::new_with_rng(Config::default(), fuzz::rng(5));
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

#[test]
fn generators_reach_both_outcomes_where_the_corpus_has_both() {
    let corpus = corpus::load(&Sources::embedded());
    for op in OPS {
        let cases: Vec<_> = corpus
            .cases
            .iter()
            .filter(|c| c.op.name == op.name)
            .collect();
        let corpus_raises = cases
            .iter()
            .any(|c| matches!(c.expect, Expect::Raised { .. }));
        let corpus_returns = cases.iter().any(|c| matches!(c.expect, Expect::Ok(_)));
        let (mut raised, mut returned) = (false, false);
        for args in sample(&corpus, op.name, 200) {
            match op.invoke(ptc_conformance::Release::default(), &args) {
                Ok(_) => returned = true,
                Err(_) => raised = true,
            }
        }
        assert!(
            !corpus_raises || raised,
            "{}: no generated input raises",
            op.name
        );
        assert!(
            !corpus_returns || returned,
            "{}: no generated input returns",
            op.name
        );
    }
}

#[test]
fn term_inspect_inputs_reach_the_corners() {
    fn walk(t: &Term, seen: &mut std::collections::BTreeSet<&'static str>) {
        let kind = match t {
            Term::Bytes(_) => "bytes",
            Term::Temporal(_) => "temporal",
            Term::Struct(_) => "struct",
            Term::Fun(_) => "function",
            Term::Opaque(..) => "opaque",
            Term::Int(ptc_conformance::term::Int::Big(_)) => "bigint",
            Term::Float(x) if *x >= 1.0e15 => "big float",
            Term::Str(s) if s.len() > 4096 => "long string",
            Term::List(items) if items.len() > 50 => "long list",
            Term::Str(s) if !s.is_ascii() => "non-ascii",
            Term::Atom(a) if a.contains(' ') || a.starts_with("Elixir.") || a.is_empty() => {
                "quoted atom"
            }
            _ => "",
        };
        seen.insert(kind);
        match t {
            Term::List(items) | Term::Tuple(items) => items.iter().for_each(|i| walk(i, seen)),
            Term::Map(m) => m.iter().for_each(|(k, v)| {
                walk(k, seen);
                walk(v, seen);
            }),
            Term::Struct(s) => s.fields.iter().for_each(|(_, v)| walk(v, seen)),
            _ => {}
        }
    }
    let corpus = corpus::load(&Sources::embedded());
    let mut seen = std::collections::BTreeSet::new();
    for args in sample(&corpus, "term.inspect", 1500) {
        args.iter().for_each(|a| walk(a, &mut seen));
    }
    for kind in [
        "bytes",
        "temporal",
        "struct",
        "function",
        "opaque",
        "bigint",
        "big float",
        "long string",
        "long list",
        "non-ascii",
        "quoted atom",
    ] {
        assert!(
            seen.contains(kind),
            "term.inspect inputs never hold a {kind}: {seen:?}"
        );
    }
}

/// Every struct in `t`, outermost first.
fn structs_in<'a>(t: &'a Term, out: &mut Vec<&'a ptc_conformance::term::Struct>) {
    match t {
        Term::List(items) | Term::Tuple(items) => items.iter().for_each(|i| structs_in(i, out)),
        Term::Map(m) => m.iter().for_each(|(k, v)| {
            structs_in(k, out);
            structs_in(v, out);
        }),
        Term::Struct(s) => {
            out.push(s);
            s.fields.iter().for_each(|(_, v)| structs_in(v, out));
        }
        _ => {}
    }
}

/// TJ-7, AP-17: generators write only the fields they mean, so a build
/// whose `PtcRunner.Tool` has no `visibility` (v0.12.0) can decode the
/// inputs that do not name it; and no generated `MapSet` is malformed.
#[test]
fn generated_structs_are_written_not_padded() {
    let corpus = corpus::load(&Sources::embedded());
    let (mut tools, mut without_visibility, mut sets) = (0, 0, 0);
    for op in [
        "tool.new",
        "exposure.filter_by_expose",
        "native_preview.build",
        "term.inspect",
    ] {
        for args in sample(&corpus, op, 2000) {
            let mut found = Vec::new();
            args.iter().for_each(|a| structs_in(a, &mut found));
            for s in found {
                match s.module.as_str() {
                    "PtcRunner.Tool" => {
                        tools += 1;
                        without_visibility += usize::from(s.field("visibility").is_none());
                    }
                    "MapSet" => {
                        sets += 1;
                        assert!(
                            ptc_conformance::structs::check_values("MapSet", &s.fields).is_ok(),
                            "{op}: a malformed MapSet was generated: {s:?}"
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(tools > 100 && sets > 10, "{tools} tools, {sets} sets");
    assert!(
        without_visibility * 4 > tools,
        "most generated tools must leave visibility out unless they mean it: {without_visibility} of {tools}"
    );
}
