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

pub mod disagreement;
pub mod emit;
pub mod known_kinds;
pub mod refusal;
pub mod shrink;

pub use crate::review::kinds::{mask_vm_text, size};
pub use disagreement::{describe, disagreement, expectation};
pub use emit::{hash_of, write_case, NewCase};
pub use shrink::{generate, rng, shrink_with, Finding};

use crate::review::attribution::{explain, Explanation, ShapeChange, Shapes};

use crate::corpus::Case;
use crate::judging::judge::Reading;
use crate::review::gen;
use crate::review::kinds::{weight, Kind};
use crate::subject::reference::Reference;
use crate::subject::{Answer, Request, Subject};
use disagreement::difference_of_kind;
use emit::emit;
use known_kinds::Known;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use ptc_conformance::ops::{self, Op};
use ptc_conformance::term::Term;
use refusal::{learn_fields, needs_undeclared, retry_refused};
use shrink::{op_seed, shrink};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Argument generators, by op ([`gen::ops`]): well-formed arguments, any
/// term in any position, and mutations of the op's cases in `corpus`.
/// Ops without one are not fuzzed.
pub fn args_for(op: &str, corpus: &[Case]) -> Option<BoxedStrategy<Vec<Term>>> {
    gen::ops::args_for(
        op,
        corpus
            .iter()
            .filter(|c| c.op.name == op)
            .map(|c| c.args.as_slice()),
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
            .filter(|o| declared.contains(o.name) && args_for(o.name, &[]).is_some())
            .collect()
    } else {
        asked
            .iter()
            .map(|name| {
                let op = ops::find(name).ok_or_else(|| format!("--op {name:?}: no such op"))?;
                if args_for(name, &[]).is_none() {
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

/// Runs the fuzzer against the reference; `progress(checked)` is called
/// after each batch.
pub fn run(
    subject: &mut dyn Subject,
    cfg: &FuzzConfig,
    corpus: &[Case],
    progress: &mut dyn FnMut(usize),
) -> Result<FuzzReport, String> {
    run_between(
        &mut Reference,
        subject,
        cfg,
        corpus,
        Reading::WithDefaults,
        progress,
    )
}

/// A kind's smallest instance so far: its weight, batch and index there,
/// and whether it was met retried without the fields a side lacks.
type Smallest = ((usize, usize), usize, usize, bool);

/// Runs the fuzzer with `expected`'s answers as the expectation (the
/// reference, or the first of two builds being compared, whose answers are
/// compared as answered: `reading`); only ops both declare are fuzzed.
/// Both sides get the same input, its structs as the generator wrote them;
/// the reference completes them itself.
pub fn run_between(
    expected: &mut dyn Subject,
    subject: &mut dyn Subject,
    cfg: &FuzzConfig,
    corpus: &[Case],
    reading: Reading,
    progress: &mut dyn FnMut(usize),
) -> Result<FuzzReport, String> {
    let expected_ops = expected.ops();
    let declared: std::collections::BTreeSet<String> = subject
        .ops()
        .into_iter()
        .filter(|o| expected_ops.contains(o))
        .collect();
    let ops = plan(&cfg.ops, &declared)?;
    let names: Vec<&'static str> = ops.iter().map(|o| o.name).collect();
    let batch = cfg.batch.max(1);
    // Batch `b` is op `b % ops`, its `b / ops`-th batch, generated from the
    // op's own seed ([`op_seed`]), so runs replay exactly whatever the
    // number of threads, a total cap only cuts the schedule short, and an
    // op's inputs do not depend on the other ops fuzzed.
    let per_op = cfg.cases_per_op;
    let batches = names.len() * per_op.div_ceil(batch);
    let cap = cfg.cases.unwrap_or(usize::MAX);
    let started = Instant::now();
    let mut report = FuzzReport {
        ops: names.clone(),
        labels: cfg.labels,
        ..FuzzReport::default()
    };
    learn_fields(expected, subject, names[0], cfg.labels, &mut report);
    let mut done: std::collections::BTreeSet<&'static str> = std::collections::BTreeSet::new();
    let mut spent: std::collections::BTreeMap<&'static str, Duration> = Default::default();
    let mut kinds: Vec<(Kind, usize, Smallest)> = Vec::new();
    let features = (expected.features(), subject.features());
    let mut shapes = cfg.attribution.clone();
    // A field one side's build lacks (learned above) is a shape change,
    // whether or not an answer shows the struct.
    if let Some(shapes) = &mut shapes {
        for (label, fields) in &report.lacking {
            let side = if *label == cfg.labels.0 {
                crate::review::kinds::Side::Actual
            } else {
                crate::review::kinds::Side::Expected
            };
            shapes.extend(fields.iter().map(|(module, field)| ShapeChange {
                module: module.clone(),
                field: field.clone(),
                side,
            }));
        }
    }
    // With attribution: differences that are not shape changes, with both
    // answers, until every shape change is known.
    let mut pending: Vec<(Kind, Smallest, Answer, Answer)> = Vec::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let known = &*cfg.known;
    // Workers generate, this thread checks in order.
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        let (tx, rx) =
            std::sync::mpsc::sync_channel::<(usize, Result<Vec<Vec<Term>>, String>)>(workers * 2);
        for w in 0..workers {
            let tx = tx.clone();
            let (names, stop) = (&names, &stop);
            scope.spawn(move || {
                let strategies: Vec<BoxedStrategy<Vec<Term>>> =
                    names.iter().filter_map(|n| args_for(n, corpus)).collect();
                for b in (w..batches).step_by(workers) {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    let (op, chunk) = (b % names.len(), b / names.len());
                    let n = batch.min(per_op - chunk * batch);
                    let inputs = generate(&strategies[op], op_seed(cfg.seed, names[op]), chunk, n)
                        .map(|trees| trees.iter().map(ValueTree::current).collect());
                    if tx.send((b, inputs)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting: std::collections::BTreeMap<usize, Result<Vec<Vec<Term>>, String>> =
            std::collections::BTreeMap::new();
        let mut next = 0usize;
        let result = (|| {
            while next < batches && report.checked < cap {
                if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
                    return Ok(());
                }
                let mut inputs = match waiting.remove(&next) {
                    Some(i) => i,
                    None => match rx.recv() {
                        Ok((b, i)) => {
                            waiting.insert(b, i);
                            continue;
                        }
                        Err(_) => return Err("the generator threads stopped".to_owned()),
                    },
                }?;
                let b = next;
                let op = ops[b % ops.len()];
                next += 1;
                if done.contains(op.name) {
                    continue;
                }
                inputs.truncate(cap - report.checked);
                let op_started = Instant::now();
                for a in inputs.iter_mut() {
                    if let Some(s) = refusal::stripped(a, &report.unknown_fields) {
                        *a = s;
                        report.stripped += 1;
                    }
                }
                let requests: Vec<Request<'_>> =
                    inputs.iter().map(|a| Request::new(op.name, a)).collect();
                let expected_answers = expected.call_many(&requests);
                let actual = subject.call_many(&requests);
                report.checked += inputs.len();
                *report.checked_per_op.entry(op.name).or_default() += inputs.len();
                report.declined += actual
                    .iter()
                    .filter(|a| matches!(a, Answer::Unsupported(_)))
                    .count();
                report.unanswered += expected_answers
                    .iter()
                    .filter(|a| matches!(a, Answer::Unsupported(_) | Answer::Error(_)))
                    .count();
                progress(report.checked);
                let retries = retry_refused(
                    (&mut *expected, &mut *subject),
                    op,
                    &inputs,
                    (&expected_answers, &actual),
                    cfg.labels,
                    &mut report,
                );
                let checks = (0..inputs.len())
                    .map(|i| (&inputs[i], &expected_answers[i], &actual[i], i, false))
                    .chain(retries.iter().map(|(i, args, e, a)| (args, e, a, *i, true)));
                for (args, e, a, i, retried) in checks {
                    let refusals =
                        cfg.one_sided_refusals && !needs_undeclared(args, (e, a), &features);
                    let Some((_, kind)) =
                        difference_of_kind(op, args, e, a, known, reading, refusals)
                    else {
                        continue;
                    };
                    let w = weight(args);
                    let (expected_answer, actual_answer) = (e, a);
                    if let Some(shapes) = &mut shapes {
                        // A shape change is counted as itself; what it may
                        // explain is decided once all of them are known.
                        if let Some(change) = ShapeChange::of(&kind) {
                            shapes.insert(change);
                        } else {
                            pending.push((
                                kind,
                                (w, b, i, retried),
                                expected_answer.clone(),
                                actual_answer.clone(),
                            ));
                            continue;
                        }
                    }
                    count_kind(&mut kinds, kind, (w, b, i, retried));
                    if !cfg.keep_going {
                        return Ok(());
                    }
                }
                let t = spent.entry(op.name).or_default();
                *t += op_started.elapsed();
                if cfg.time_per_op.is_some_and(|limit| *t >= limit) {
                    done.insert(op.name);
                }
            }
            Ok(())
        })();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        drop(rx);
        result
    });
    outcome?;
    let shapes = shapes.unwrap_or_default();
    for (kind, at, e, a) in pending {
        let op = ops[at.1 % ops.len()];
        match explain(op, &e, &a, &shapes, reading) {
            Some(why) => *report.explained.entry((op.name, why)).or_default() += 1,
            None => count_kind(&mut kinds, kind, at),
        }
    }
    // Shrink the smallest instance of each kind, regenerated from its batch's seed.
    let retry_fields: std::collections::BTreeSet<refusal::Field> =
        report.lacking.values().flatten().cloned().collect();
    for (kind, count, (_, b, i, retried)) in kinds {
        let op = ops[b % ops.len()];
        let strategy = args_for(op.name, corpus).ok_or("generator vanished")?;
        let tree =
            generate(&strategy, op_seed(cfg.seed, op.name), b / ops.len(), i + 1)?.swap_remove(i);
        let mut leave_out = report.unknown_fields.clone();
        if retried {
            leave_out.extend(retry_fields.iter().cloned());
        }
        let mut finding = shrink(
            expected,
            subject,
            op,
            (&kind, &shapes),
            (known, cfg.one_sided_refusals, &leave_out),
            tree,
            reading,
        );
        finding.count = count;
        if let Some(dir) = &cfg.emit {
            let evidence = emit::evidence(expected, subject, op, corpus, known, reading);
            finding.emitted = Some(emit(
                dir,
                &finding,
                cfg.seed,
                (&expected.name(), &subject.name()),
                cfg.labels,
                &evidence,
                &cfg.quirks,
            )?);
        }
        report.findings.push(finding);
    }
    for (pattern, n) in known.counts() {
        eprintln!("known disagreement stepped over {n} times: {pattern}");
    }
    report.elapsed = started.elapsed();
    report.shapes = shapes;
    Ok(report)
}

/// Counts an instance of `kind` at `at`, keeping the smallest.
fn count_kind(kinds: &mut Vec<(Kind, usize, Smallest)>, kind: Kind, at: Smallest) {
    match kinds.iter_mut().find(|(k, _, _)| *k == kind) {
        Some((_, n, best)) => {
            *n += 1;
            if at.0 < best.0 {
                *best = at;
            }
        }
        None => kinds.push((kind, 1, at)),
    }
}

/// The seed given, or one from the clock (printed by the caller, for replay).
pub fn seed_or_now(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    })
}
