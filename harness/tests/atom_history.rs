//! The part of `atomize_value/2` that depends on the VM (`spec/json_handler.md`
//! JH-7, `spec/README.md` LOOSE-6) answers the same in a fresh
//! `ptc-conformance adapter` and in one that has already answered the whole
//! corpus and a fuzz run: decoding `{"$atom": ...}` creates atoms in a VM,
//! but the reference's answers never depend on what it decoded before.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance::atom_table;
use ptc_conformance::term::Term;
use ptc_conformance_harness::corpus::{self, Sources};
use ptc_conformance_harness::review::fuzz::{self, FuzzConfig};
use ptc_conformance_harness::subject::adapter::{Adapter, AdapterConfig};
use ptc_conformance_harness::subject::{Answer, Request, Subject};
use std::collections::BTreeSet;

fn adapter() -> Adapter {
    let bin = env!("CARGO_BIN_EXE_ptc-conformance").to_owned();
    Adapter::start(AdapterConfig::new(vec![bin, "adapter".to_owned()])).unwrap()
}

/// Every atom name the corpus's arguments hold that the VM decides on:
/// each one a VM has after decoding the corpus, and the reference must
/// answer as if it had none of them.
fn decided_names(cases: &[ptc_conformance_harness::corpus::Case]) -> Vec<String> {
    let mut names = BTreeSet::new();
    for c in cases {
        let args: Vec<&Term> = c.args.iter().collect();
        names.extend(atom_table::atoms_of(
            ptc_conformance::Release::default(),
            &args,
        ));
    }
    names.extend(["zq_probe_never_decoded", "year", "n"].map(str::to_owned));
    names
        .into_iter()
        .filter(|n| ptc_conformance::loose::vm_decides(n, &BTreeSet::new()))
        .collect()
}

fn probes(names: &[String]) -> Vec<Vec<Term>> {
    names
        .iter()
        .map(|n| {
            vec![
                Term::map(vec![(Term::str(n.clone()), Term::int(1))]),
                Term::Nil,
            ]
        })
        .collect()
}

fn ask(subject: &mut dyn Subject, probes: &[Vec<Term>]) -> Vec<Answer> {
    let requests: Vec<Request<'_>> = probes
        .iter()
        .map(|a| Request::new("protocol.atomize_value", a))
        .collect();
    subject.call_many(&requests)
}

#[test]
fn the_vm_dependent_part_does_not_depend_on_history() {
    let corpus = corpus::load(&Sources::embedded());
    let names = decided_names(&corpus.cases);
    assert!(
        names.len() > 50,
        "the corpus decodes many such atoms: {}",
        names.len()
    );
    let probes = probes(&names);

    let fresh = ask(&mut adapter(), &probes);

    let mut used = adapter();
    let all: Vec<Request<'_>> = corpus
        .cases
        .iter()
        .map(|c| Request::new(c.op.name, &c.args))
        .collect();
    let answered = used.call_many(&all);
    assert!(answered.iter().all(|a| !matches!(a, Answer::Error(_))));
    let mut cfg = FuzzConfig::new(11);
    cfg.cases_per_op = 300;
    let report = fuzz::run(&mut used, &cfg, &corpus.cases, &mut |_| {}).unwrap();
    assert!(report.findings.is_empty(), "the adapter is the reference");
    assert!(
        report.checked > 1000,
        "a fuzz run over every op: {}",
        report.checked
    );
    let after = ask(&mut used, &probes);

    assert_eq!(fresh, after);
    for (name, answer) in names.iter().zip(&fresh) {
        let kept = Term::map(vec![(Term::str(name.clone()), Term::int(1))]);
        assert_eq!(answer, &Answer::Ok(kept), "{name} stays a binary (JH-7)");
    }
}
