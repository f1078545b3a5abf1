//! The harness against misbehaving adapters (`tests/adapters/misbehave.py`):
//! every case gets the outcome it deserves, innocent cases still pass, and
//! every run ends in bounded time.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance::ops;
use ptc_conformance::Term;
use ptc_conformance_harness::corpus::{Case, Expect, Level};
use ptc_conformance_harness::judging::outcome::{Outcome, Strictness};
use ptc_conformance_harness::judging::runner::{self, RunOptions};
use ptc_conformance_harness::subject::adapter::{Adapter, AdapterConfig};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn script() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/adapters/misbehave.py")
        .display()
        .to_string()
}

fn case(arg: &str) -> Case {
    Case {
        id: format!("faults/{arg}"),
        file: PathBuf::from("(generated)"),
        op: ops::find("key_normalizer.normalize_key").expect("registered op"),
        args: vec![Term::str(arg)],
        args_json: ptc_conformance_harness::subject::wire::encode_args(&[Term::str(arg)]),
        expect: Expect::Ok(Term::str(arg.replace('-', "_"))),
        description: "fault test".into(),
        spec: vec![],
        features: vec![],
        level: Level::Required,
    }
}

fn config() -> AdapterConfig {
    let mut cfg = AdapterConfig::new(vec!["python3".into(), script()]);
    // Generous: the machine may be busy, and only the hang waits this long.
    cfg.timeout = Duration::from_secs(3);
    cfg.startup_timeout = Duration::from_secs(10);
    cfg
}

/// Runs `args` (faults among innocent cases) and returns (outcome name per case, adapter faults, restarts, elapsed).
fn run_with(
    cfg: AdapterConfig,
    args: &[&str],
) -> (Vec<(String, Outcome)>, Vec<String>, usize, Duration) {
    let cases: Vec<Case> = args.iter().map(|a| case(a)).collect();
    let refs: Vec<&Case> = cases.iter().collect();
    let started = Instant::now();
    let mut adapter = Adapter::start(cfg).expect("handshake");
    let results = runner::run(&mut adapter, &refs, RunOptions::new(Strictness::Default));
    let elapsed = started.elapsed();
    let out = results
        .iter()
        .map(|r| {
            (
                r.case.id.trim_start_matches("faults/").to_owned(),
                r.outcome.clone(),
            )
        })
        .collect();
    (out, adapter.faults.clone(), adapter.restarts, elapsed)
}

fn innocents(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("ok-{i}-x")).collect()
}

fn with_fault(fault: &str) -> Vec<String> {
    let mut args = innocents(30);
    args.insert(10, fault.to_owned());
    args
}

fn assert_only(results: &[(String, Outcome)], culprit: &str, check: impl Fn(&Outcome) -> bool) {
    for (arg, outcome) in results {
        if arg == culprit {
            assert!(check(outcome), "{arg}: unexpected outcome {outcome:?}");
        } else {
            assert_eq!(outcome, &Outcome::Pass, "innocent case {arg} must pass");
        }
    }
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// AP-10: a crash errs the request that caused it; the adapter is restarted.
#[test]
fn crash_mid_run_errs_only_the_culprit_and_restarts() {
    let args = with_fault("crash");
    let (results, _faults, restarts, elapsed) = run_with(config(), &strs(&args));
    assert_only(
        &results,
        "crash",
        |o| matches!(o, Outcome::Error(m) if m.contains("crashed") && m.contains("exit status: 3")),
    );
    assert!(restarts >= 1);
    assert!(elapsed < Duration::from_secs(20), "took {elapsed:?}");
}

/// AP-10: requests in flight during a crash are retried one at a time.
#[test]
fn a_case_that_crashes_once_is_retried_alone_and_passes() {
    let dir = std::env::temp_dir().join(format!("misbehave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(dir.join("crashed"));
    std::env::set_var("MISBEHAVE_STATE", &dir);
    let args = with_fault("crash-once");
    let (results, _faults, restarts, _) = run_with(config(), &strs(&args));
    assert_only(&results, "crash-once", |o| *o == Outcome::Pass);
    assert_eq!(restarts, 1);
}

/// AP-9, AP-10: a timeout errs its case; the rest are sent again.
#[test]
fn a_hang_times_out_and_the_rest_pass() {
    let args = with_fault("hang");
    let (results, _faults, restarts, elapsed) = run_with(config(), &strs(&args));
    assert_only(
        &results,
        "hang",
        |o| matches!(o, Outcome::Error(m) if m.contains("timed out")),
    );
    assert_eq!(restarts, 1);
    assert!(elapsed < Duration::from_secs(15), "took {elapsed:?}");
}

/// AP-1, AP-11: stdout carries answers only; anything else is a fault.
#[test]
fn a_garbage_line_is_a_fault_and_its_case_errs() {
    let args = with_fault("garbage");
    let (results, faults, _, _) = run_with(config(), &strs(&args));
    assert_only(&results, "garbage", |o| matches!(o, Outcome::Error(_)));
    assert!(
        faults.iter().any(|f| f.contains("unreadable line")),
        "{faults:?}"
    );
}

/// AP-4, AP-11: answers carry the request's id.
#[test]
fn a_wrong_id_is_a_fault_and_its_case_errs() {
    let args = with_fault("wrong-id");
    let (results, faults, _, _) = run_with(config(), &strs(&args));
    assert_only(
        &results,
        "wrong-id",
        |o| matches!(o, Outcome::Error(m) if m.contains("timed out")),
    );
    assert!(
        faults.iter().any(|f| f.contains("never asked")),
        "{faults:?}"
    );
}

/// AP-4, AP-11: exactly one answer per request.
#[test]
fn a_repeated_answer_is_a_fault() {
    let args = with_fault("twice");
    let (results, faults, _, _) = run_with(config(), &strs(&args));
    assert_only(&results, "twice", |o| *o == Outcome::Pass);
    assert!(faults.iter().any(|f| f.contains("twice")), "{faults:?}");
}

/// AP-10: closing stdout is a crash.
#[test]
fn an_early_exit_errs_its_case_and_the_run_goes_on() {
    let args = with_fault("exit");
    let (results, _, restarts, _) = run_with(config(), &strs(&args));
    assert_only(
        &results,
        "exit",
        |o| matches!(o, Outcome::Error(m) if m.contains("closed stdout")),
    );
    assert!(restarts >= 1);
}

/// AP-9: answer lines are capped.
#[test]
fn a_100_mb_line_is_refused_without_reading_it_whole() {
    let args = with_fault("huge");
    let (results, _, _, elapsed) = run_with(config(), &strs(&args));
    assert_only(
        &results,
        "huge",
        |o| matches!(o, Outcome::Error(m) if m.contains("over the")),
    );
    assert!(elapsed < Duration::from_secs(30), "took {elapsed:?}");
}

/// AP-1: stderr is drained, its tail kept.
#[test]
fn a_stderr_flood_does_not_block_the_run() {
    let args = with_fault("flood");
    let (results, faults, restarts, _) = run_with(config(), &strs(&args));
    assert_only(&results, "flood", |o| *o == Outcome::Pass);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(restarts, 0);
}

/// AP-6, AP-10: pipelined runs survive every fault in bounded time.
#[test]
fn every_fault_in_one_run_ends_in_bounded_time() {
    let dir = std::env::temp_dir().join(format!("misbehave-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = innocents(200);
    for (i, f) in [
        "crash", "hang", "garbage", "wrong-id", "exit", "huge", "flood", "twice",
    ]
    .iter()
    .enumerate()
    {
        args.insert(20 * i + 5, (*f).to_owned());
    }
    let (results, _, _, elapsed) = run_with(config(), &strs(&args));
    let passed = results.iter().filter(|(_, o)| *o == Outcome::Pass).count();
    assert_eq!(
        passed,
        200 + 2,
        "innocents, flood and twice pass: {results:?}"
    );
    assert_eq!(
        results
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Error(_)))
            .count(),
        6
    );
    assert!(elapsed < Duration::from_secs(60), "took {elapsed:?}");
}

/// AP-2: the handshake must speak protocol 1.
#[test]
fn a_bad_handshake_is_refused_with_its_reason() {
    let mut cfg = config();
    cfg.command = vec![
        "env".into(),
        "MISBEHAVE_HELLO=bad".into(),
        "python3".into(),
        script(),
    ];
    let err = Adapter::start(cfg)
        .err()
        .expect("protocol 99 must be refused");
    assert!(err.contains("protocol 99"), "{err}");
}

#[test]
fn a_missing_program_is_a_clear_error() {
    let mut cfg = config();
    cfg.command = vec!["/no/such/adapter".into()];
    let err = Adapter::start(cfg).err().expect("must fail");
    assert!(
        err.contains("cannot start adapter \"/no/such/adapter\""),
        "{err}"
    );
}
