//! The golden corpus as tests: one libtest-mimic trial per case, named by
//! its id, so `cargo test -- canonical` and `--exact` work.
//!
//! By default each case runs against the reference at the strict level
//! (pinned cases and byte-exact JSON included). With `PTC_ADAPTER` set to a
//! command line (e.g. `PTC_ADAPTER="python3 harness/adapters/python/adapter.py"`)
//! the selected cases run against that adapter instead, pipelined through
//! one process, at the level `PTC_LEVEL` (`default` unless `strict`), with
//! `PTC_KNOWN_FAILURES` naming an optional known-failures file. Cases the
//! adapter cannot run are reported as ignored.

use libtest_mimic::{Arguments, Failed, Trial};
use ptc_conformance::tagged::encode;
use ptc_conformance_harness::adapter::{Adapter, AdapterConfig};
use ptc_conformance_harness::corpus::{self, Case, Expect, Sources};
use ptc_conformance_harness::judge::{judge, Outcome, Strictness};
use ptc_conformance_harness::known::KnownFailures;
use ptc_conformance_harness::runner::{self, RunOptions};
use ptc_conformance_harness::subject::{Reference, Request};
use std::collections::HashMap;

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

fn verdict(case: &Case, outcome: &Outcome) -> Result<(), Failed> {
    match outcome {
        Outcome::Pass | Outcome::ExpectedFailure(_) => Ok(()),
        Outcome::Fail(d) => Err(explain(case, d).into()),
        Outcome::Error(e) => Err(explain(case, &format!("error: {e}")).into()),
        Outcome::UnexpectedPass => {
            Err(explain(case, "listed as a known failure, but passes").into())
        }
        Outcome::Skip(why) => Err(explain(case, &format!("skipped: {why}")).into()),
    }
}

/// Runs the selected cases against the adapter; outcome per case id.
fn adapter_outcomes(command: &str, cases: &[&Case]) -> Result<HashMap<String, Outcome>, String> {
    let argv =
        shlex::split(command).ok_or_else(|| format!("PTC_ADAPTER: cannot split {command:?}"))?;
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
    cfg.cwd = Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    let mut adapter = Adapter::start(cfg)?;
    let results = runner::run(
        &mut adapter,
        cases,
        RunOptions {
            strictness,
            max_fail: None,
            known: known.as_ref(),
        },
    );
    if !adapter.faults.is_empty() {
        return Err(format!("adapter faults:\n{}", adapter.faults.join("\n")));
    }
    Ok(results
        .into_iter()
        .map(|r| (r.case.id.clone(), r.outcome))
        .collect())
}

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let corpus = corpus::load(&Sources::default_for_repo());
    let mut trials = Vec::new();
    if !corpus.errors.is_empty() {
        let msg: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
        trials.push(Trial::test("corpus/load", move || {
            Err(Failed::from(msg.join("\n")))
        }));
    }
    match std::env::var("PTC_ADAPTER") {
        Ok(command) => {
            // Run only what the filter selects, in one pipelined batch.
            let selected: Vec<&Case> = corpus
                .cases
                .iter()
                .filter(|c| match &args.filter {
                    Some(f) if args.exact => c.id == *f,
                    Some(f) => c.id.contains(f.as_str()),
                    None => true,
                })
                .collect();
            match adapter_outcomes(&command, &selected) {
                Err(e) => trials.push(Trial::test("adapter/start", move || Err(Failed::from(e)))),
                Ok(mut outcomes) => {
                    for case in corpus.cases.iter().cloned() {
                        let outcome = outcomes.remove(&case.id);
                        let ignored = matches!(outcome, Some(Outcome::Skip(_)));
                        let trial = Trial::test(case.id.clone(), move || match &outcome {
                            Some(o) => verdict(&case, o),
                            None => Err("not run".into()),
                        });
                        trials.push(trial.with_ignored_flag(ignored));
                    }
                }
            }
        }
        Err(_) => {
            for case in corpus.cases {
                trials.push(Trial::test(case.id.clone(), move || {
                    let answer = Reference::answer(Request::new(case.op.name, &case.args));
                    verdict(&case, &judge(&case, &answer, Strictness::Strict))
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit_code()
}
