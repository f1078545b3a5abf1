//! The harness against misbehaving adapters (`harness/tests/adapters/misbehave.py`):
//! every case gets the outcome it deserves, innocent cases still pass, and
//! every run ends in bounded time.
//!
//! No test here rests on a wall-clock margin. Each checks the property
//! itself: a flood was drained (the adapter could only answer once the
//! harness had read it, and the harness counted every line), a hang was
//! cut (its case timed out, the adapter was restarted once, and every case
//! after it was answered). Timeouts are many times what a loaded 2-core
//! machine needs: [`patient`] (60 s) where no timeout should fire, so a
//! blocked harness still fails the test, only later; [`cutting`] (5 s)
//! where a hang must be cut, against answers that take milliseconds.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use ptc_conformance::ops;
use ptc_conformance::Term;
use ptc_conformance_harness::corpus::{Case, Expect, Level};
use ptc_conformance_harness::judging::outcome::{Outcome, Strictness};
use ptc_conformance_harness::judging::runner::{self, RunOptions};
use ptc_conformance_harness::quote;
use ptc_conformance_harness::subject::adapter::{Adapter, AdapterConfig};
use std::path::PathBuf;
use std::time::Duration;

fn script() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("harness/tests/adapters/misbehave.py")
        .display()
        .to_string()
}

fn case(arg: &str) -> Case {
    Case {
        id: format!("faults/{arg}"),
        file: PathBuf::from("(generated)"),
        source: "".into(),
        op: ops::find("key_normalizer.normalize_key").expect("registered op"),
        args: vec![Term::str(arg)],
        args_json: ptc_conformance_harness::subject::wire::encode_args(&[Term::str(arg)]),
        expect: Expect::Ok(Term::str(arg.replace('-', "_"))),
        description: "fault test".into(),
        spec: vec![],
        features: vec![],
        level: Level::Required,
        releases: Default::default(),
    }
}

/// For runs where no request should time out: an adapter the harness
/// blocked would never answer, and fails the test after this long.
fn patient() -> AdapterConfig {
    let mut cfg = AdapterConfig::new(vec!["python3".into(), script()]);
    cfg.timeout = Duration::from_secs(60);
    cfg.startup_timeout = Duration::from_secs(60);
    cfg
}

/// For runs where a hang must be cut: each hang costs this long, while
/// the innocent answers around it take milliseconds.
const CUT: Duration = Duration::from_secs(5);

fn cutting() -> AdapterConfig {
    AdapterConfig {
        timeout: CUT,
        ..patient()
    }
}

/// Runs `args` (faults among innocent cases) and returns (outcome name per case, adapter faults, restarts).
fn run_with(cfg: AdapterConfig, args: &[&str]) -> (Vec<(String, Outcome)>, Vec<String>, usize) {
    let cases: Vec<Case> = args.iter().map(|a| case(a)).collect();
    let refs: Vec<&Case> = cases.iter().collect();
    let mut adapter = Adapter::start(cfg).expect("handshake");
    let results = runner::run(&mut adapter, &refs, RunOptions::new(Strictness::Default));
    let out = results
        .iter()
        .map(|r| {
            (
                r.case.id.trim_start_matches("faults/").to_owned(),
                r.outcome.clone(),
            )
        })
        .collect();
    (out, adapter.faults.clone(), adapter.restarts)
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
    let (results, _faults, restarts) = run_with(patient(), &strs(&args));
    assert_only(
        &results,
        "crash",
        |o| matches!(o, Outcome::Error(m) if m.contains("crashed") && m.contains("exit status: 3")),
    );
    // Crashed, retried alone, crashed again: two restarts, no more.
    assert_eq!(restarts, 2);
}

/// AP-10: requests in flight during a crash are retried one at a time.
#[test]
fn a_case_that_crashes_once_is_retried_alone_and_passes() {
    let dir = std::env::temp_dir().join(format!("misbehave-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::fs::remove_file(dir.join("crashed"));
    std::env::set_var("MISBEHAVE_STATE", &dir);
    let args = with_fault("crash-once");
    let (results, _faults, restarts) = run_with(patient(), &strs(&args));
    assert_only(&results, "crash-once", |o| *o == Outcome::Pass);
    assert_eq!(restarts, 1);
}

/// AP-9, AP-10: a hang is cut: its case times out, the adapter is
/// restarted once, and every case after it is answered.
#[test]
fn a_hang_times_out_and_the_rest_pass() {
    let args = with_fault("hang");
    let (results, _faults, restarts) = run_with(cutting(), &strs(&args));
    let cut = format!("timed out after {CUT:?}; the adapter was restarted (it was killed;");
    assert_only(
        &results,
        "hang",
        |o| matches!(o, Outcome::Error(m) if m.starts_with(&cut)),
    );
    assert_eq!(restarts, 1);
}

/// AP-9: an answer slower than the timeout is cut, and only it: the
/// requests queued behind it in the pipeline passed their deadlines
/// because it held them up, and are sent again, not blamed.
#[test]
fn a_slow_answer_is_cut_alone_not_the_requests_queued_behind_it() {
    let slow = format!("slow:{}", CUT.as_secs() + 3);
    let args = with_fault(&slow);
    let (results, _faults, restarts) = run_with(cutting(), &strs(&args));
    assert_only(
        &results,
        &slow,
        |o| matches!(o, Outcome::Error(m) if m.starts_with("timed out")),
    );
    assert_eq!(restarts, 1);
}

/// AP-1, AP-11: stdout carries answers only; anything else is a fault.
#[test]
fn a_garbage_line_is_a_fault_and_its_case_errs() {
    let args = with_fault("garbage");
    let (results, faults, _) = run_with(cutting(), &strs(&args));
    // The line carries no id: its case is answered by nothing, and times out.
    assert_only(
        &results,
        "garbage",
        |o| matches!(o, Outcome::Error(m) if m.starts_with("timed out")),
    );
    assert!(
        faults.iter().any(|f| f.contains("unreadable line")),
        "{faults:?}"
    );
}

/// AP-4, AP-11: answers carry the request's id.
#[test]
fn a_wrong_id_is_a_fault_and_its_case_errs() {
    let args = with_fault("wrong-id");
    let (results, faults, _) = run_with(cutting(), &strs(&args));
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
    let (results, faults, _) = run_with(patient(), &strs(&args));
    assert_only(&results, "twice", |o| *o == Outcome::Pass);
    assert!(faults.iter().any(|f| f.contains("twice")), "{faults:?}");
}

/// AP-10: closing stdout is a crash.
#[test]
fn an_early_exit_errs_its_case_and_the_run_goes_on() {
    let args = with_fault("exit");
    let (results, _, restarts) = run_with(patient(), &strs(&args));
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
    let (results, faults, restarts) = run_with(patient(), &strs(&args));
    // 100 MiB and the line's few bytes of JSON around it, refused at 16 MiB.
    let limit = format!("bytes is over the {} byte limit", 16 << 20);
    assert_only(
        &results,
        "huge",
        |o| matches!(o, Outcome::Error(m) if m.starts_with("answer line of 1048576") && m.ends_with(&limit)),
    );
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(restarts, 0);
}

/// AP-1: stderr is drained: the flooding adapter (50 MB) can only answer
/// once the harness has read its stderr, and the cases queued behind it
/// are answered too.
#[test]
fn a_stderr_flood_does_not_block_the_run() {
    let args = with_fault("flood");
    let (results, faults, restarts) = run_with(patient(), &strs(&args));
    assert_only(&results, "flood", |o| *o == Outcome::Pass);
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(restarts, 0);
}

/// AP-1, AP-9: a flood is drained whole (every one of its 51,200 lines is
/// counted) and quoted capped: the error of a hang in the same process
/// quotes the last lines of stderr within the total, saying what it left
/// out. The adapter floods before its handshake, under the start-up
/// timeout, so only the hang is held to the cutting one.
#[test]
fn a_flood_is_drained_whole_and_quoted_capped() {
    let mut args = innocents(10);
    args.push("hang".into());
    let mut cfg = cutting();
    cfg.command = vec![
        "env".into(),
        "MISBEHAVE_FLOOD=50".into(),
        "python3".into(),
        script(),
    ];
    let (results, _, restarts) = run_with(cfg, &strs(&args));
    assert_eq!(restarts, 1);
    let Some((_, Outcome::Error(m))) = results.iter().find(|(a, _)| a == "hang") else {
        panic!("the hang must err: {results:?}")
    };
    assert_only(&results, "hang", |o| matches!(o, Outcome::Error(_)));
    let (_, tail) = m.split_once("last lines of stderr:\n").expect(m);
    let tail = tail.strip_suffix(')').expect(m);
    // 50 x 1024 lines of 1,023 characters; the last lines that fit are shown.
    let shown = quote::TOTAL_CHARS / (quote::LINE_CHARS + "…(+723 chars)".chars().count());
    let left_out = 51_200 - shown;
    assert_eq!(
        tail.lines().next().unwrap(),
        format!(
            "  | …({} earlier line(s), {} chars, left out)",
            quote::thousands(left_out),
            quote::thousands(left_out * 1023)
        )
    );
    let line = format!("  | {}…(+723 chars)", "e".repeat(quote::LINE_CHARS));
    assert!(tail.lines().skip(1).all(|l| l == line), "{tail}");
    assert_eq!(tail.lines().count(), shown + 1);
    assert!(m.chars().count() < quote::TOTAL_CHARS + 300, "{}", m.len());
}

/// AP-6, AP-10: pipelined runs survive every fault in bounded time.
#[test]
fn every_fault_in_one_run_ends_in_bounded_time() {
    let dir = std::env::temp_dir().join(format!("misbehave-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = innocents(200);
    // A smaller flood and line than their own tests use (2 MB, still 32
    // times the pipe's buffer; a 2 MB line against a 1 MiB limit), so the
    // cases queued behind them are answered well within the timeout.
    for (i, f) in [
        "crash", "hang", "garbage", "wrong-id", "exit", "huge:2", "flood:2", "twice",
    ]
    .iter()
    .enumerate()
    {
        args.insert(20 * i + 5, (*f).to_owned());
    }
    let cfg = AdapterConfig {
        max_line: 1 << 20,
        ..cutting()
    };
    let (results, _, _) = run_with(cfg, &strs(&args));
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
}

/// AP-2: the handshake must speak protocol 1.
#[test]
fn a_bad_handshake_is_refused_with_its_reason() {
    let mut cfg = patient();
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
    let mut cfg = patient();
    cfg.command = vec!["/no/such/adapter".into()];
    let err = Adapter::start(cfg).err().expect("must fail");
    assert!(
        err.contains("cannot start adapter \"/no/such/adapter\""),
        "{err}"
    );
}
