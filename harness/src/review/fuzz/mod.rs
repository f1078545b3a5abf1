//! `ptc-conformance fuzz`: differential fuzzing of a subject against the
//! reference (or, for `ptc-conformance compare`, against another subject).
//! Arguments are generated per op ([`args_for`]), a budget per op, run
//! through both, and each disagreement is put in a kind
//! ([`crate::review::kinds`]); the run stops at the first or, keeping
//! going, counts every kind, and the smallest input of each kind is shrunk
//! (proptest's shrinking) to a small one, which becomes a ready-to-review
//! case file.
//!
//! [`disagreement`] decides whether two answers differ, [`shrink`] makes a
//! disagreeing input small, [`emit`] writes it as a case file, and
//! [`known_kinds`] are the kinds a campaign steps over.

mod alone;
mod between;
pub mod disagreement;
pub mod emit;
pub mod known_kinds;
pub mod refusal;
pub mod shrink;
mod sides;

pub use crate::review::kinds::{mask_vm_text, size};
pub use disagreement::{describe, disagreement, expectation};
pub use emit::{hash_of, write_case, NewCase};
pub use shrink::{generate, rng, shrink_with, Finding};

use crate::review::attribution::{Explanation, Shapes};

use crate::corpus::Case;
use crate::judging::judge::Reading;
use crate::review::gen;
use crate::subject::reference::Reference;
use crate::subject::Subject;
use known_kinds::Known;
use proptest::prelude::*;
use ptc_conformance::ops::{self, Op};
use ptc_conformance::term::Term;
use std::path::PathBuf;
use std::time::Duration;

/// Argument generators, by op ([`gen::ops`]): well-formed arguments, any
/// term in any position, and mutations of the op's cases in `corpus`.
/// Ops without one are not fuzzed. `words` are option names learned from
/// the subjects (AP-19, [`FuzzConfig::words`]), sent besides the kit's own.
pub fn args_for(op: &str, corpus: &[Case], words: &[String]) -> Option<BoxedStrategy<Vec<Term>>> {
    args_aimed(op, corpus, words, &[])
}

/// [`args_for`], a share of the inputs aimed at `dictionary` (the
/// constants of a diff, [`FuzzConfig::dictionary`]).
pub fn args_aimed(
    op: &str,
    corpus: &[Case],
    words: &[String],
    dictionary: &[Term],
) -> Option<BoxedStrategy<Vec<Term>>> {
    gen::ops::args_for(
        op,
        corpus
            .iter()
            .filter(|c| c.op.name == op)
            .map(|c| c.args.as_slice()),
        words,
        dictionary,
    )
}

/// [`args_aimed`] with the rest of what `cfg` aims at: its dictionary,
/// and the inputs that reached a changed function ([`FuzzConfig::reached`]),
/// which half of the op's inputs mutate.
pub fn args_reaching(
    op: &str,
    corpus: &[Case],
    cfg: &FuzzConfig,
) -> Option<BoxedStrategy<Vec<Term>>> {
    let reached = cfg.reached.get(op).map_or(&[][..], Vec::as_slice);
    gen::ops::args_for_reaching(
        op,
        corpus
            .iter()
            .filter(|c| c.op.name == op)
            .map(|c| c.args.as_slice()),
        &cfg.words,
        &cfg.dictionary,
        reached,
    )
}

/// Generated inputs each op gets by default: enough to find a change of
/// rare shape in one op (what `fuzz --op X` found within 40,000 inputs).
pub const CASES_PER_OP: usize = 40_000;

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Ops to fuzz (empty: every op with a generator that the subject declares).
    pub ops: Vec<String>,
    /// Generated inputs per op.
    pub cases_per_op: usize,
    /// Generated inputs in all at most (taken from the ops in turn).
    pub cases: Option<usize>,
    /// Seed of the generator.
    pub seed: u64,
    /// Stop generating after this long.
    pub time_limit: Option<Duration>,
    /// Stop generating for an op after this long spent on it.
    pub time_per_op: Option<Duration>,
    /// Inputs generated and sent together.
    pub batch: usize,
    /// Write the smallest disagreement of each kind as a case file under this directory.
    pub emit: Option<PathBuf>,
    /// Go on after a disagreement, counting every one by kind (`compare`);
    /// otherwise stop at the first.
    pub keep_going: bool,
    /// Kinds of disagreement to step over (`PTC_FUZZ_KNOWN`).
    pub known: std::sync::Arc<Known>,
    /// Spec rules marked **Quirk.** (an emitted case citing one is `pinned`).
    pub quirks: std::collections::BTreeSet<String>,
    /// What reports call the expected side and the subject.
    pub labels: crate::review::kinds::Labels,
    /// Attribute differences to struct shape changes (`compare`), starting
    /// from these (found in the corpus); `None`: every difference is a kind.
    pub attribution: Option<Shapes>,
    /// An input one side declines and the other answers is a difference
    /// (two builds compared); otherwise only counted as declined.
    pub one_sided_refusals: bool,
    /// The release the reference answers as (`fuzz --release`); the
    /// subject is fuzzed against `Reference::at(release)`.
    pub release: ptc_conformance::Release,
    /// Option names learned from the two builds' atoms (AP-19, `compare`):
    /// the generators send them as option keys, well-formed and malformed,
    /// besides the kit's word list. Empty: the word list alone.
    pub words: Vec<String>,
    /// Terms a share of the inputs is aimed at: the constants of the diff
    /// under review (`compare` with sources); empty: none.
    pub dictionary: Vec<Term>,
    /// Generated inputs of an op, where not [`FuzzConfig::cases_per_op`]:
    /// `compare` with sources gives the ops that reach a changed function
    /// most of the budget ([`crate::review::reach::weights`]).
    pub weights: std::collections::BTreeMap<String, usize>,
    /// Per op, the argument lists of the corpus cases that reached a
    /// changed function (the `reach` extension): half of that op's
    /// generated inputs mutate them. Empty: none.
    pub reached: std::collections::BTreeMap<String, Vec<Vec<Term>>>,
}

impl FuzzConfig {
    /// The defaults with `seed`: every op, [`CASES_PER_OP`] each, stop at
    /// the first disagreement, nothing written.
    pub fn new(seed: u64) -> FuzzConfig {
        FuzzConfig {
            ops: Vec::new(),
            cases_per_op: CASES_PER_OP,
            cases: None,
            seed,
            time_limit: None,
            time_per_op: None,
            batch: 256,
            emit: None,
            keep_going: false,
            known: std::sync::Arc::default(),
            quirks: std::collections::BTreeSet::new(),
            labels: ("reference", "subject"),
            attribution: None,
            one_sided_refusals: false,
            release: ptc_conformance::Release::default(),
            words: Vec::new(),
            dictionary: Vec::new(),
            weights: std::collections::BTreeMap::new(),
            reached: std::collections::BTreeMap::new(),
        }
    }
}

/// What a fuzzing run did.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Inputs generated and checked.
    pub checked: usize,
    /// Inputs the subject declined (`unsupported`).
    pub declined: usize,
    /// The two sides' labels, as [`FuzzConfig::labels`]: the expected
    /// side's, then the subject's.
    pub labels: crate::review::kinds::Labels,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The ops fuzzed, in the order their batches are scheduled.
    pub ops: Vec<&'static str>,
    /// Inputs checked per op.
    pub checked_per_op: std::collections::BTreeMap<&'static str, usize>,
    /// Inputs the expected side could not answer (`unsupported` or no valid
    /// answer): nothing to compare with, so never a disagreement.
    pub unanswered: usize,
    /// The kinds of disagreement, each with its count and its smallest
    /// instance shrunk, in the order they were first met: the first only
    /// unless [`FuzzConfig::keep_going`].
    pub findings: Vec<Finding>,
    /// With [`FuzzConfig::attribution`]: the struct shape changes found
    /// (those given and those of the findings).
    pub shapes: Shapes,
    /// With [`FuzzConfig::attribution`]: inputs whose difference the shape
    /// changes explain, by op and explanation (not findings).
    pub explained: std::collections::BTreeMap<(&'static str, Explanation), usize>,
    /// Requests declined, by side, op and reason: the inputs either side
    /// could not take, never dropped silently.
    pub declines: refusal::Declines,
    /// Inputs declined for naming a struct field one side's build lacks,
    /// retried without it (and compared as retried).
    pub retried: usize,
    /// Struct fields the generators know that neither side's build has
    /// ([`refusal::probe`]): left out of every input.
    pub unknown_fields: std::collections::BTreeSet<refusal::Field>,
    /// Struct fields one side's build lacks, by side label.
    pub lacking:
        std::collections::BTreeMap<&'static str, std::collections::BTreeSet<refusal::Field>>,
    /// Generated inputs that named an [`Self::unknown_fields`] field, sent without it.
    pub stripped: usize,
    /// How long each side took to answer the generated batches (the
    /// expected side's, then the subject's), the two answering at once.
    pub answering: (Duration, Duration),
    /// How long shrinking each kind's smallest instance took.
    pub shrinking: Duration,
}

/// The ops a run fuzzes: those asked for (each must exist, have a
/// generator and be declared), or every op with a generator in `declared`.
pub fn plan(
    asked: &[String],
    declared: &std::collections::BTreeSet<String>,
) -> Result<Vec<&'static Op>, String> {
    let ops: Vec<&'static Op> = if asked.is_empty() {
        ops::OPS
            .iter()
            .filter(|o| declared.contains(o.name) && args_for(o.name, &[], &[]).is_some())
            .collect()
    } else {
        asked
            .iter()
            .map(|name| {
                let op = ops::find(name).ok_or_else(|| format!("--op {name:?}: no such op"))?;
                if args_for(name, &[], &[]).is_none() {
                    return Err(format!("--op {name:?}: no generator for this op yet"));
                }
                if !declared.contains(name) {
                    return Err(format!("--op {name:?}: the subject does not declare it"));
                }
                Ok(op)
            })
            .collect::<Result<_, _>>()?
    };
    if ops.is_empty() {
        return Err("nothing to fuzz: the subject declares no op that has a generator".into());
    }
    Ok(ops)
}

/// Runs the fuzzer against the reference at `cfg.release`;
/// `progress(checked)` is called after each batch. Answers are read with
/// that release's struct defaults, as the judge reads them at that release
/// (a field the release's struct lacks is then a difference).
pub fn run(
    subject: &mut dyn Subject,
    cfg: &FuzzConfig,
    corpus: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<FuzzReport, String> {
    let reading = Reading::WithDefaults(cfg.release);
    run_between(
        &mut Reference::at(cfg.release),
        subject,
        cfg,
        corpus,
        reading,
        progress,
    )
}

pub use alone::answer_alone;
pub use between::run_between;

/// The seed given, or one from the clock (printed by the caller, for replay).
pub fn seed_or_now(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    })
}
