//! `ptc-conformance lint`: checks across the corpus as a whole, beyond
//! what loading checks file by file.

use super::{Case, Corpus, Expect};
use crate::judging::judge::{judge_expect, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::subject::Answer;
use ptc_conformance::{ops, Release};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One row of the lint table: a rule, how many cases cite it, where it is defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleUse {
    /// The rule id.
    pub rule: String,
    /// The spec file that defines it.
    pub file: PathBuf,
    /// How many cases cite it; `None` when the harness's own tests check it.
    pub cases: Option<usize>,
}

/// What `ptc-conformance lint` found.
#[derive(Clone, Debug, Default)]
pub struct Lint {
    /// Every rule, in id order.
    pub rules: Vec<RuleUse>,
    /// Every problem: the corpus's load errors, then rules cited by no case
    /// (or named by none of the tests that check them), then ops without a case.
    pub problems: Vec<String>,
}

/// Checks the corpus as a whole: every expected exception carries its
/// message, every description agrees with its case ([`super::describe`]),
/// every rule is cited by a case or named by one of the tests its
/// spec file says check it, every op has a case. Those tests are repository
/// files the binary does not carry, so against the embedded spec they are
/// not read (`--spec DIR` in a checkout reads them).
pub fn check(corpus: &Corpus) -> Lint {
    let mut problems: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
    for c in &corpus.cases {
        if let Expect::Raised { message: None, .. } = c.expect {
            problems.push(format!(
                "{} (case {}): expect.raised has no message: messages are always compared; \
                 `ptc-conformance bless --corpus golden --from-adapter --write -- ADAPTER` fills it",
                c.file.display(),
                c.id
            ));
        }
        problems.extend(release_problems(c));
    }
    for c in &corpus.cases {
        problems.extend(super::describe::problems(c, &corpus.rules));
    }
    let mut citations: BTreeMap<&str, usize> =
        corpus.rules.keys().map(|r| (r.as_str(), 0)).collect();
    for c in &corpus.cases {
        for r in &c.spec {
            if let Some(n) = citations.get_mut(r.as_str()) {
                *n += 1;
            }
        }
    }
    let mut rules = Vec::new();
    for (rule, n) in citations {
        let file = corpus.rules.get(rule).cloned().unwrap_or_default();
        match corpus.tested_by.get(rule) {
            Some(tests) => {
                let named = corpus.spec.embedded
                    || tests.iter().any(|t| {
                        std::fs::read_to_string(t).is_ok_and(|text| names_rule(&text, rule))
                    });
                if !named {
                    let list: Vec<String> = tests.iter().map(|t| t.display().to_string()).collect();
                    problems.push(format!(
                        "{}: rule {rule} is named by none of its tests ({})",
                        file.display(),
                        list.join(", ")
                    ));
                }
                rules.push(RuleUse {
                    rule: rule.to_owned(),
                    file,
                    cases: None,
                });
            }
            None => {
                if n == 0 {
                    problems.push(format!(
                        "{}: rule {rule} is cited by no case",
                        file.display()
                    ));
                }
                rules.push(RuleUse {
                    rule: rule.to_owned(),
                    file,
                    cases: Some(n),
                });
            }
        }
    }
    for op in ops::OPS {
        if !corpus.cases.iter().any(|c| c.op.name == op.name) {
            problems.push(format!("op {} has no case", op.name));
        }
    }
    Lint { rules, problems }
}

/// Whether `text` names `rule` (not as the prefix of a longer id: `AP-1` is not named by `AP-12`).
pub fn names_rule(text: &str, rule: &str) -> bool {
    text.match_indices(rule)
        .any(|(i, _)| !text[i + rule.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// What is redundant or incomplete in a case's per-release part: a
/// `releases` listing every release (leave it out), an
/// `expect_by_release` entry the judge holds equal to `expect` (it says
/// nothing; `bless --release R --write` removes it), one without its
/// exception's message.
pub fn release_problems(c: &Case) -> Vec<String> {
    let mut out = Vec::new();
    let at = |path: String, what: String| {
        format!("{} (case {}): {path}: {what}", c.file.display(), c.id)
    };
    if c.releases.only.as_deref() == Some(&Release::ALL[..]) {
        out.push(at(
            "/releases".into(),
            "lists every release: leave it out (a case without `releases` holds for every release)"
                .into(),
        ));
    }
    for (rel, e) in &c.releases.expect {
        let path = format!("/expect_by_release/{rel}");
        let answer = match e {
            Expect::Ok(t) => Answer::Ok(t.clone()),
            Expect::Raised {
                class,
                message: Some(m),
            } => Answer::Raised(ptc_conformance::Raised {
                class: class.clone(),
                message: m.clone(),
            }),
            Expect::Raised { message: None, .. } => {
                out.push(at(
                    path,
                    "raised has no message: messages are always compared".into(),
                ));
                continue;
            }
        };
        if judge_expect(
            c,
            &c.expect,
            &answer,
            Strictness::Strict,
            Reading::WithDefaults(*rel),
        ) == Outcome::Pass
        {
            out.push(at(
                path,
                format!(
                    "equal to `expect` as the judge compares them: redundant; remove it \
                     (`ptc-conformance bless --corpus golden --release {rel} --write` does)"
                ),
            ));
        }
    }
    out
}
