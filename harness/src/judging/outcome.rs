//! What happened to a case: the run's strictness, each case's outcome
//! and why it was skipped, and its result in a run. The leaf the rest of
//! `judging` shares, so that the judge, the runner, known failures and the
//! reports need not import one another.

use crate::corpus::{Case, Level};
use ptc_conformance::Release;
use std::fmt;

/// How strictly to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Strictness {
    /// Required cases must pass; rendered JSON is compared as JSON.
    Default,
    /// Pinned cases are required too; rendered JSON must match byte for byte.
    Strict,
}

/// The outcome of one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The answer matches.
    Pass,
    /// The answer differs; the text explains where.
    Fail(String),
    /// Not run: the reason.
    Skip(Skip),
    /// Not run, and the known-failures file does not list it as an expected
    /// skip: the port's coverage shrank.
    UnexpectedSkip(Skip),
    /// Failed, and listed in the known-failures file with this reason.
    ExpectedFailure(String),
    /// Passed, but listed in the known-failures file.
    UnexpectedPass,
    /// No valid answer.
    Error(String),
}

impl Outcome {
    /// Every outcome's name in reports.
    pub const NAMES: [&'static str; 7] = [
        "pass",
        "fail",
        "skip",
        "expected_failure",
        "unexpected_pass",
        "unexpected_skip",
        "error",
    ];

    /// Its name in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::Skip(_) => "skip",
            Outcome::ExpectedFailure(_) => "expected_failure",
            Outcome::UnexpectedPass => "unexpected_pass",
            Outcome::UnexpectedSkip(_) => "unexpected_skip",
            Outcome::Error(_) => "error",
        }
    }

    /// Whether the case was answered (not skipped, expected or not).
    pub fn executed(&self) -> bool {
        !matches!(self, Outcome::Skip(_) | Outcome::UnexpectedSkip(_))
    }
}

/// Why a case was not run.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// The subject does not declare the case's op.
    Op(String),
    /// The subject does not declare these features the case needs.
    Features(Vec<String>),
    /// The subject answered `unsupported`, saying why.
    Unsupported(String),
    /// The run stopped early (`--fail-fast`, `--max-fail`) before sending it.
    Stopped,
    /// The case does not hold at the release judged (its input does not
    /// exist there); it holds for these releases.
    Release(Release, Vec<Release>),
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Op(op) => write!(f, "op {op} not declared by the subject"),
            Skip::Features(fs) => write!(
                f,
                "needs features the subject does not declare: {}",
                fs.join(", ")
            ),
            Skip::Unsupported(why) => write!(f, "unsupported: {why}"),
            Skip::Stopped => {
                f.write_str("not run: the run stopped early (--fail-fast / --max-fail)")
            }
            Skip::Release(at, holds) => write!(
                f,
                "not in release {at}: the case holds for {}",
                holds
                    .iter()
                    .map(|r| r.version())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// Whether a failure of `case` fails the run at `strictness`.
pub fn is_required(case: &Case, strictness: Strictness) -> bool {
    case.level == Level::Required || strictness == Strictness::Strict
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseResult<'c> {
    /// The case.
    pub case: &'c Case,
    /// What happened.
    pub outcome: Outcome,
    /// Whether a failure of it fails the run.
    pub required: bool,
}

impl CaseResult<'_> {
    /// Whether this result alone fails the run: a required failure, an
    /// error, an unexpected skip, or an unexpected pass (unless allowed).
    pub fn fails_run(&self, allow_unexpected_pass: bool) -> bool {
        match &self.outcome {
            Outcome::Fail(_) => self.required,
            Outcome::Error(_) | Outcome::UnexpectedSkip(_) => true,
            Outcome::UnexpectedPass => !allow_unexpected_pass,
            Outcome::Pass | Outcome::Skip(_) | Outcome::ExpectedFailure(_) => false,
        }
    }
}
