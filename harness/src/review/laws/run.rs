//! Checking the laws a run asks for: generating inputs per law and op,
//! batching them through the subject, shrinking the first breach and
//! writing it as two cases.

use super::{check_batch, select, Breach, Input, Kind, Law, Outcome, Rewrite};
use crate::corpus::Case;
use crate::review::fuzz;
use crate::review::gen;
use crate::subject::{Answer, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use ptc_conformance::ops::{self, Op};
use ptc_conformance::term::Term;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A generated input: the op's arguments and the mask that picks where
/// the rewrite applies.
pub type Generated = (Vec<Term>, u64);

/// How to check laws.
#[derive(Clone, Debug)]
pub struct LawsConfig {
    /// The laws to check (ids; empty: all).
    pub laws: Vec<String>,
    /// Only these ops of each law (names; empty: all of them). A law over
    /// none of them is left out.
    pub ops: Vec<String>,
    /// Generated inputs per law, shared out among its ops in turn.
    pub cases: usize,
    /// Stop generating for a law after this long.
    pub time_limit: Option<Duration>,
    /// Seed of the generator.
    pub seed: u64,
    /// Inputs generated and sent together.
    pub batch: usize,
    /// Write a broken law's shrunk pair as two case files under this directory.
    pub emit: Option<PathBuf>,
}

/// A broken law, shrunk.
#[derive(Clone, Debug)]
pub struct Broken {
    /// The op it broke on.
    pub op: &'static Op,
    /// The smallest pair found.
    pub breach: Breach,
    /// Shrinking steps that kept the breach.
    pub shrink_steps: usize,
    /// The two case files written, if any.
    pub emitted: Vec<PathBuf>,
}

/// What checking one law did.
#[derive(Clone, Debug)]
pub struct LawReport {
    /// The law.
    pub law: &'static Law,
    /// Its ops the subject declares (with what they need), checked in turn.
    pub ops: Vec<&'static str>,
    /// Its ops left out, and why.
    pub skipped_ops: Vec<(&'static str, String)>,
    /// Inputs generated, per op.
    pub inputs: BTreeMap<&'static str, usize>,
    /// Pairs the subject answered, per op.
    pub compared: BTreeMap<&'static str, usize>,
    /// Inputs the law says nothing of.
    pub outside: usize,
    /// Inputs the subject declined.
    pub unanswered: usize,
    /// The reason the subject gave for the first input it declined.
    pub unanswered_first: Option<String>,
    /// Requests without a valid answer, with the first such error.
    pub errors: (usize, Option<String>),
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The first breach, shrunk.
    pub broken: Option<Broken>,
}

impl LawReport {
    /// Inputs generated in all.
    pub fn total_inputs(&self) -> usize {
        self.inputs.values().sum()
    }
    /// Pairs compared in all.
    pub fn total_compared(&self) -> usize {
        self.compared.values().sum()
    }
}

/// What a `laws` run did.
#[derive(Clone, Debug, Default)]
pub struct LawsReport {
    /// The laws checked.
    pub laws: Vec<LawReport>,
    /// The laws not checked, and why.
    pub skipped: Vec<(&'static Law, String)>,
}

impl LawsReport {
    /// Whether every checked law held and every request was answered.
    pub fn passed(&self) -> bool {
        self.laws
            .iter()
            .all(|l| l.broken.is_none() && l.errors.0 == 0)
    }
}

/// The seed of batch `b` of `law`: each law draws its own inputs.
fn law_seed(seed: u64, law: &Law) -> u64 {
    seed ^ u64::from(fuzz::hash_of(law.id)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Checks the laws `cfg` asks for against `subject`; `progress(done)` is
/// called after each batch with the inputs generated so far in all.
pub fn run(
    subject: &mut dyn Subject,
    cfg: &LawsConfig,
    corpus: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<LawsReport, String> {
    let laws = select(&cfg.laws)?;
    let declared = subject.ops();
    let mut report = LawsReport::default();
    let mut done = 0usize;
    for law in laws {
        let asked: Vec<&'static str> = law
            .ops
            .iter()
            .copied()
            .filter(|o| cfg.ops.is_empty() || cfg.ops.iter().any(|a| a == o))
            .collect();
        if asked.is_empty() {
            continue;
        }
        let mut ops_run = Vec::new();
        let mut skipped_ops = Vec::new();
        for name in asked {
            let missing: Vec<&str> = law
                .needs(name)
                .into_iter()
                .filter(|n| !declared.contains(*n))
                .collect();
            if missing.is_empty() {
                ops_run.push(name);
            } else {
                let why = if missing == [name] {
                    format!("{name}: not declared")
                } else {
                    format!("{name}: needs {}, not declared", missing.join(", "))
                };
                skipped_ops.push((name, why));
            }
        }
        if ops_run.is_empty() {
            let needs: Vec<String> = law.ops.iter().map(|o| law.needs(o).join(" + ")).collect();
            report.skipped.push((
                law,
                format!(
                    "the subject declares none of its ops ({})",
                    needs.join(", ")
                ),
            ));
            continue;
        }
        let mut lr = LawReport {
            law,
            ops: ops_run.clone(),
            skipped_ops,
            inputs: BTreeMap::new(),
            compared: BTreeMap::new(),
            outside: 0,
            unanswered: 0,
            unanswered_first: None,
            errors: (0, None),
            elapsed: Duration::ZERO,
            broken: None,
        };
        let started = Instant::now();
        let strategies: Vec<(&'static Op, BoxedStrategy<Generated>)> = ops_run
            .iter()
            .map(|name| {
                let op = ops::find(name).ok_or_else(|| format!("no op {name}"))?;
                let args = fuzz::args_for(name, corpus, &[])
                    .ok_or_else(|| format!("no generator for {name}"))?;
                Ok((op, (args, any::<u64>()).boxed()))
            })
            .collect::<Result<_, String>>()?;
        // Batches small enough that every op gets its share of a small budget.
        let batch = cfg.batch.min(cfg.cases.div_ceil(strategies.len())).max(1);
        let seed = law_seed(cfg.seed, law);
        for b in 0..cfg.cases.div_ceil(batch) {
            if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            let (op, strategy) = &strategies[b % strategies.len()];
            let n = batch.min(cfg.cases - b * batch);
            let mut trees = fuzz::generate(strategy, seed, b, n)?;
            let inputs: Vec<(Vec<Term>, u64)> = trees.iter().map(|t| t.current()).collect();
            let outcomes = check_batch(subject, law, op, &inputs);
            *lr.inputs.entry(op.name).or_default() += n;
            done += n;
            let mut broken_at = None;
            for (i, o) in outcomes.iter().enumerate() {
                match o {
                    Outcome::Outside => lr.outside += 1,
                    Outcome::Unanswered(why) => {
                        lr.unanswered += 1;
                        lr.unanswered_first.get_or_insert_with(|| why.clone());
                    }
                    Outcome::Errored(e) => {
                        lr.errors.0 += 1;
                        lr.errors.1.get_or_insert_with(|| e.clone());
                    }
                    Outcome::Holds => *lr.compared.entry(op.name).or_default() += 1,
                    Outcome::Broken(_) => {
                        *lr.compared.entry(op.name).or_default() += 1;
                        broken_at.get_or_insert(i);
                    }
                }
            }
            progress(done);
            if let Some(i) = broken_at {
                let tree = trees.swap_remove(i);
                let mut broken = shrink(subject, law, op, tree);
                if let Some(dir) = &cfg.emit {
                    broken.emitted = emit(dir, law, &broken, cfg.seed, &subject.name())?;
                }
                lr.broken = Some(broken);
                break;
            }
        }
        lr.elapsed = started.elapsed();
        report.laws.push(lr);
    }
    Ok(report)
}

/// Shrinks a breach with the fuzzer's loop: the arguments and the mask
/// both simplify; then items and map pairs are left out, and nested parts
/// hoisted out, while the law stays broken.
fn shrink(
    subject: &mut dyn Subject,
    law: &Law,
    op: &'static Op,
    tree: Box<dyn ValueTree<Value = Generated>>,
) -> Broken {
    let check =
        |input: &(Vec<Term>, u64)| match check_batch(subject, law, op, std::slice::from_ref(input))
            .pop()
        {
            Some(Outcome::Broken(b)) => Some(*b),
            _ => None,
        };
    let hoists = |(args, mask): &(Vec<Term>, u64)| {
        gen::mutate::removals(args)
            .into_iter()
            .chain(gen::mutate::hoists(args))
            .map(|a| (a, *mask))
            .collect()
    };
    let (input, found, steps) = fuzz::shrink_with(tree, check, hoists);
    let breach = found.unwrap_or_else(|| {
        let why = Answer::Error("the breach did not reproduce when sent alone".into());
        Breach {
            first: Input {
                args: input.0.clone(),
                json: None,
            },
            second: Input {
                args: input.0.clone(),
                json: None,
            },
            first_answer: why.clone(),
            second_answer: why,
            diff: "the breach did not reproduce when sent alone".into(),
        }
    });
    Broken {
        op,
        breach,
        shrink_steps: steps,
        emitted: Vec::new(),
    }
}

/// Writes a broken law's pair under `dir` as two case files that cite the
/// law and each other, each expecting the subject's own answer: at most
/// one of the two expectations is right, and a reviewer checks both
/// against v0.13.0 before either goes into `golden/`.
fn emit(
    dir: &Path,
    law: &Law,
    broken: &Broken,
    seed: u64,
    subject: &str,
) -> Result<Vec<PathBuf>, String> {
    let b = &broken.breach;
    let (first_json, second_json) = (b.first.wire(), b.second.wire());
    let hash = fuzz::hash_of(&format!("{first_json}\n{second_json}"));
    let base = format!(
        "{}/{}-{hash:08x}",
        broken.op.name.replace('.', "/"),
        law.id.to_ascii_lowercase()
    );
    let ids = [format!("{base}-first"), format!("{base}-second")];
    let how = match law.kind {
        Kind::Idempotent => "the second's args are the subject's answer to the first (its normal form)",
        Kind::ThroughCanonical => "the second's args are the subject's canonical args of the first",
        Kind::Rewrite(Rewrite::MapOrder) => "the second's args are the first's with map pairs written in another order; the corpus runner sends args re-encoded canonically, so run as cases the two cannot differ: replay the pair with that command",
        Kind::Rewrite(_) => "the second's args are a rewrite of the first's",
        Kind::RoundTrip => "the second is protocol.to_json_value of the subject's answer to the first, which must be {:ok, the first's value}",
    };
    let spec = [law.id.to_owned()];
    let mut written = Vec::new();
    for (k, (input, answer)) in [(&b.first, &b.first_answer), (&b.second, &b.second_answer)]
        .into_iter()
        .enumerate()
    {
        let (which, other) = if k == 0 {
            ("first", &ids[1])
        } else {
            ("second", &ids[0])
        };
        let description = format!(
            "{} ({}): the {which} of a pair with {other}, which must answer alike",
            law.id, law.title
        );
        let notes = format!(
            "Found by `ptc-conformance laws --law {} --seed {seed}` on {subject}; shrunk in {} steps. {} (spec/laws.md) says this case and {other} answer alike ({how}); the subject answered them differently, and each case expects the subject's own answer, so at most one of the two expectations is right. Check both against PtcRunner v0.13.0 (the Elixir adapter) before adding either to golden/.",
            law.id, broken.shrink_steps, law.id
        );
        written.push(fuzz::write_case(
            dir,
            &fuzz::NewCase {
                id: &ids[k],
                op: match (k, law.kind) {
                    (1, Kind::RoundTrip) => {
                        ptc_conformance::ops::find(super::TO_JSON).unwrap_or(broken.op)
                    }
                    _ => broken.op,
                },
                description: &description,
                spec: &spec,
                level: crate::corpus::Level::Required,
                args: &input.args,
                args_json: &input.wire(),
                answer,
                notes: &notes,
            },
        )?);
    }
    Ok(written)
}
