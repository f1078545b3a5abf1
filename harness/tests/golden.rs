//! The golden corpus as tests: one libtest-mimic trial per case, named by
//! its id, so `cargo test -- canonical` and `--exact` work.
//!
//! By default each case runs against the reference at the strict level
//! (pinned cases and byte-exact JSON included). With `PTC_ADAPTER` set to a
//! command line (e.g. `PTC_ADAPTER="python3 harness/adapters/python/adapter.py"`)
//! the selected cases run against that adapter instead, pipelined through
//! one process, at the level `PTC_LEVEL` (`default` unless `strict`), with
//! `PTC_KNOWN_FAILURES` naming an optional known-failures file. Cases the
//! adapter cannot run are reported as ignored. A trial fails exactly when its
//! result fails the run, and the trial `run/verdict` carries the verdict of
//! `ptc-conformance run` on the same cases (`Summary::verdict`).

use libtest_mimic::{Arguments, Failed, Trial};
use ptc_conformance::tagged::encode;
use ptc_conformance_harness::corpus::{self, Case, Expect, Sources};
use ptc_conformance_harness::judging::known::KnownFailures;
use ptc_conformance_harness::judging::outcome::CaseResult;
use ptc_conformance_harness::judging::outcome::{Outcome, Strictness};
use ptc_conformance_harness::judging::runner::{self, RunOptions};
use ptc_conformance_harness::subject::adapter::{Adapter, AdapterConfig};
use ptc_conformance_harness::subject::reference::Reference;
use ptc_conformance_harness::subject::Subject;

fn explain(case: &Case, why: &str) -> String {
    let args: Vec<String> = case.args.iter().map(encode).collect();
    let expected = match &case.expect {
        Expect::Ok(t) => format!("ok {}", encode(t)),
        Expect::Raised { class, message } => format!(
            "raised {class} {}",
            message.as_deref().unwrap_or("(any message)")
        ),
    };
    format!(
        "case {} ({})\n  {}\n  op: {}\n  spec: {}\n  args: [{}]\n  expected: {expected}\n{}\n  hint: if the implementation is right and the case is wrong, fix `expect` in {} \
         after checking PtcRunner v0.13.0 (`ptc-conformance bless`, harness/adapters/elixir/README.md)",
        case.id,
        case.file.display(),
        case.description,
        case.op.name,
        case.spec.join(", "),
        args.join(", "),
        why.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n"),
        case.file.display(),
    )
}

/// The trial's result: it fails exactly when the result fails the run
/// (`CaseResult::fails_run`, the rule `ptc-conformance run` applies).
fn trial_result(r: &CaseResult<'_>) -> Result<(), Failed> {
    if !r.fails_run(false) {
        return Ok(());
    }
    let why = match &r.outcome {
        Outcome::Fail(d) => d.clone(),
        Outcome::Error(e) => format!("error: {e}"),
        Outcome::UnexpectedPass => "listed as a known failure, but passes".to_owned(),
        Outcome::UnexpectedSkip(why) => {
            format!("skipped ({why}), and the known-failures file lists no expected skip for it")
        }
        other => other.name().to_owned(),
    };
    Err(explain(r.case, &why).into())
}

/// A subject, the level to judge at, and the known-failures file.
type Setup = (Box<dyn Subject>, Strictness, Option<KnownFailures>);

/// The subject the trials run against: the reference in process, or the
/// adapter `PTC_ADAPTER` names, with `PTC_LEVEL` and `PTC_KNOWN_FAILURES`.
fn subject() -> Result<Setup, String> {
    let Ok(command) = std::env::var("PTC_ADAPTER") else {
        return Ok((Box::new(Reference::default()), Strictness::Strict, None));
    };
    let argv =
        shlex::split(&command).ok_or_else(|| format!("PTC_ADAPTER: cannot split {command:?}"))?;
    let known = match std::env::var_os("PTC_KNOWN_FAILURES") {
        Some(p) => Some(KnownFailures::load(std::path::Path::new(&p))?),
        None => None,
    };
    let strictness = match std::env::var("PTC_LEVEL").as_deref() {
        Ok("strict") => Strictness::Strict,
        _ => Strictness::Default,
    };
    let mut cfg = AdapterConfig::new(argv);
    // Relative paths in PTC_ADAPTER are relative to the repository root.
    cfg.cwd = Some(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    Ok((Box::new(Adapter::start(cfg)?), strictness, known))
}

fn main() -> std::process::ExitCode {
    let mut args = Arguments::from_args();
    // One line per case is 1,400 lines of `cargo test`: terse (a dot per
    // case, failures in full) unless a format is asked for
    // (`-- --format pretty` lists every case).
    if args.format.is_none() && !args.list {
        args.quiet = true;
    }
    let corpus = corpus::load(&Sources::embedded());
    let mut trials = Vec::new();
    if !corpus.errors.is_empty() {
        let msg: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
        trials.push(Trial::test("corpus/load", move || {
            Err(Failed::from(msg.join("\n")))
        }));
    }
    // Run what the filter selects in one batch (pipelined through an adapter).
    let selected: Vec<&Case> = corpus
        .cases
        .iter()
        .filter(|c| match &args.filter {
            Some(f) if args.exact => c.id == *f,
            Some(f) => c.id.contains(f.as_str()),
            None => true,
        })
        .collect();
    match subject() {
        Err(e) => trials.push(Trial::test("adapter/start", move || Err(Failed::from(e)))),
        Ok((mut subject, strictness, known)) => {
            let opts = RunOptions {
                strictness,
                max_fail: None,
                known: known.as_ref(),
                release: ptc_conformance::Release::default(),
            };
            let summary = runner::session(subject.as_mut(), &corpus, &selected, opts);
            for r in &summary.results {
                let result = trial_result(r);
                let ignored = matches!(r.outcome, Outcome::Skip(_));
                let trial = Trial::test(r.case.id.clone(), move || result);
                trials.push(trial.with_ignored_flag(ignored));
            }
            // The run as a whole: faults, stale entries, nothing executed.
            let verdict = summary.verdict();
            trials.push(Trial::test("run/verdict", move || {
                if verdict.passed() {
                    Ok(())
                } else {
                    Err(Failed::from(format!(
                        "the run fails:\n  - {}",
                        verdict.reasons.join("\n  - ")
                    )))
                }
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit_code()
}
