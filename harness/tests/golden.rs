//! The golden corpus as tests: one libtest-mimic trial per case, named by
//! its id, run against the reference at the strict level (pinned cases and
//! byte-exact JSON included). `cargo test -- canonical` filters by id.

use libtest_mimic::{Arguments, Failed, Trial};
use ptc_conformance::tagged::encode;
use ptc_conformance_harness::corpus::{self, Case, Expect, Sources};
use ptc_conformance_harness::judge::{judge, Outcome, Strictness};
use ptc_conformance_harness::subject::{Reference, Request};

fn explain(case: &Case, why: &str) -> String {
    let args: Vec<String> = case.args.iter().map(encode).collect();
    let expected = match &case.expect {
        Expect::Ok(t) => format!("ok {}", encode(t)),
        Expect::Raised { class, message } => format!("raised {class} {}", message.as_deref().unwrap_or("(any message)")),
    };
    format!(
        "case {} ({})\n  {}\n  op: {}\n  spec: {}\n  args: [{}]\n  expected: {expected}\n{}\n  hint: if the reference is right and the case is wrong, fix `expect` in {} \
         after checking PtcRunner v0.13.0 (see harness/adapters/elixir/README.md)",
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

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let corpus = corpus::load(&Sources::default_for_repo());
    let mut trials = Vec::new();
    if !corpus.errors.is_empty() {
        let msg: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
        trials.push(Trial::test("corpus/load", move || Err(Failed::from(msg.join("\n")))));
    }
    for case in corpus.cases {
        trials.push(Trial::test(case.id.clone(), move || {
            let answer = Reference::answer(Request { op: case.op.name, args: &case.args });
            match judge(&case, &answer, Strictness::Strict) {
                Outcome::Pass => Ok(()),
                Outcome::Fail(d) => Err(explain(&case, &d).into()),
                other => Err(explain(&case, &format!("{other:?}")).into()),
            }
        }));
    }
    libtest_mimic::run(&args, trials).exit_code()
}
