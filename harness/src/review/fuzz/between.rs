//! The fuzzing loop between two sides: generator threads make each op's
//! batches from its own seed, this thread sends them to both sides in
//! order and counts each kind of difference ([`check_batch`]); once every
//! struct shape change is known the differences they explain are set
//! apart ([`settle`]), and each kind's smallest instance is shrunk
//! ([`shrink_kinds`]).

use super::emit::{self, emit};
use super::refusal::{self, learn_fields, needs_undeclared, retry_refused};
use super::shrink::{generate, op_seed, shrink};
use super::sides::{Inputs, Sides, Ticket};
use super::{plan, FuzzConfig, FuzzReport};
use crate::corpus::Case;
use crate::judging::judge::Reading;
use crate::review::attribution::{explain, ShapeChange, Shapes};
use crate::review::kinds::{weight, Kind, Side};
use crate::subject::{Answer, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A kind's smallest instance so far: its weight, batch and index there,
/// and whether it was met retried without the fields a side lacks.
type Smallest = ((usize, usize), usize, usize, bool);

/// Checks shrinking gets in all at least, however few inputs were fuzzed.
const SHRINK_CHECKS: usize = 20_000;
/// Checks each kind gets at least.
const SHRINK_LEAST: usize = 50;

/// A batch of generated inputs, or why the generator failed.
type Batch = (usize, Result<Vec<Vec<Term>>, String>);

/// What the loop counts as it goes.
#[derive(Default)]
struct Tally {
    /// Each kind, its count and smallest instance.
    kinds: Vec<(Kind, usize, Smallest)>,
    /// With attribution: differences that are not shape changes, with both
    /// answers, until every shape change is known.
    pending: Vec<(Kind, Smallest, Answer, Answer)>,
    /// With attribution: the shape changes known so far.
    shapes: Option<Shapes>,
}

/// The schedule: the ops' batches taken in turn (with an even budget,
/// batch `b` is op `b % ops`, its `b / ops`-th batch), each generated
/// from the op's own seed ([`op_seed`]), so runs replay exactly whatever
/// the number of threads, a total cap only cuts the schedule short, and
/// an op's inputs do not depend on the other ops fuzzed.
struct Schedule<'a> {
    ops: Vec<&'static Op>,
    names: Vec<&'static str>,
    /// Batch `b` is `order[b]`: its op (an index), its chunk of that op's
    /// inputs and how many inputs it holds.
    order: Vec<(usize, usize, usize)>,
    batches: usize,
    cfg: &'a FuzzConfig,
}

/// The batches of each op in turn: op `i` gets `cases(i)` inputs in
/// batches of `batch`; an op whose batches are spent drops out of the turn.
fn order(ops: usize, batch: usize, cases: impl Fn(usize) -> usize) -> Vec<(usize, usize, usize)> {
    let counts: Vec<usize> = (0..ops).map(&cases).collect();
    let chunks: Vec<usize> = counts.iter().map(|n| n.div_ceil(batch)).collect();
    let rounds = chunks.iter().copied().max().unwrap_or(0);
    let mut out = Vec::with_capacity(chunks.iter().sum());
    for chunk in 0..rounds {
        for op in 0..ops {
            if chunk < chunks[op] {
                out.push((op, chunk, batch.min(counts[op] - chunk * batch)));
            }
        }
    }
    out
}

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
    let declared: BTreeSet<String> = subject
        .ops()
        .into_iter()
        .filter(|o| expected_ops.contains(o))
        .collect();
    let ops = plan(&cfg.ops, &declared)?;
    let names: Vec<&'static str> = ops.iter().map(|o| o.name).collect();
    let batch = cfg.batch.max(1);
    let order = order(names.len(), batch, |i| {
        cfg.weights
            .get(names[i])
            .copied()
            .unwrap_or(cfg.cases_per_op)
    });
    let schedule = Schedule {
        batches: order.len(),
        order,
        ops,
        names,
        cfg,
    };
    let started = Instant::now();
    let mut report = FuzzReport {
        ops: schedule.names.clone(),
        labels: cfg.labels,
        ..FuzzReport::default()
    };
    learn_fields(
        expected,
        subject,
        schedule.names[0],
        cfg.labels,
        &mut report,
    );
    let mut tally = Tally {
        shapes: shapes_with_lacking(cfg, &report),
        ..Tally::default()
    };
    let stop = AtomicBool::new(false);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    // Workers generate, this thread checks in order.
    let outcome: Result<(), String> = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(workers * 2);
        for w in 0..workers {
            let tx = tx.clone();
            let (schedule, stop) = (&schedule, &stop);
            scope.spawn(move || generate_batches(schedule, corpus, (w, workers), stop, &tx));
        }
        drop(tx);
        let result = check_all(
            (&mut *expected, &mut *subject),
            &schedule,
            &rx,
            (started, reading),
            (&mut report, &mut tally),
            progress,
        );
        stop.store(true, Ordering::Relaxed);
        drop(rx);
        result
    });
    outcome?;
    let shapes = settle(&schedule.ops, &mut tally, reading, &mut report);
    let shrinking = Instant::now();
    shrink_kinds(
        (expected, subject),
        &schedule,
        corpus,
        tally.kinds,
        (&shapes, reading),
        &mut report,
    )?;
    report.shrinking = shrinking.elapsed();
    for (pattern, n) in cfg.known.counts() {
        eprintln!("known disagreement stepped over {n} times: {pattern}");
    }
    report.elapsed = started.elapsed();
    report.shapes = shapes;
    Ok(report)
}

/// The shape changes given, and each field one side's build lacks
/// (learned by the probe): a shape change whether or not an answer shows
/// the struct. `None` without attribution.
fn shapes_with_lacking(cfg: &FuzzConfig, report: &FuzzReport) -> Option<Shapes> {
    let mut shapes = cfg.attribution.clone()?;
    for (label, fields) in &report.lacking {
        let side = if *label == cfg.labels.0 {
            Side::Actual
        } else {
            Side::Expected
        };
        shapes.extend(fields.iter().map(|(module, field)| ShapeChange {
            module: module.clone(),
            field: field.clone(),
            side,
        }));
    }
    Some(shapes)
}

/// A generator thread's part of the schedule: batches `w`, `w + workers`,
/// ... each sent as it is made, until the receiver is gone or `stop`.
fn generate_batches(
    s: &Schedule<'_>,
    corpus: &[Case],
    (w, workers): (usize, usize),
    stop: &AtomicBool,
    tx: &std::sync::mpsc::SyncSender<Batch>,
) {
    let strategies: Vec<BoxedStrategy<Vec<Term>>> = s
        .names
        .iter()
        .filter_map(|n| super::args_reaching(n, corpus, s.cfg))
        .collect();
    for b in (w..s.batches).step_by(workers) {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let (op, chunk, n) = s.order[b];
        let inputs = generate(&strategies[op], op_seed(s.cfg.seed, s.names[op]), chunk, n)
            .map(|trees| trees.iter().map(ValueTree::current).collect());
        if tx.send((b, inputs)).is_err() {
            return;
        }
    }
}

/// Takes the batches in schedule order (reordering what the threads
/// send) and checks each, until the schedule, the total cap or the time
/// is spent, or (not keeping going) the first difference. The sides
/// answer on threads of their own ([`Sides`]), one batch ahead: while the
/// answers to one batch are judged, both builds answer the next.
fn check_all(
    sides: (&mut dyn Subject, &mut dyn Subject),
    s: &Schedule<'_>,
    rx: &std::sync::mpsc::Receiver<Batch>,
    (started, reading): (Instant, Reading),
    (report, tally): (&mut FuzzReport, &mut Tally),
    progress: &mut dyn FnMut(usize),
) -> Result<(), String> {
    let (expected, subject) = sides;
    let features = (expected.features(), subject.features());
    std::thread::scope(|scope| {
        let mut sides = Sides::start(scope, expected, subject);
        check_in_turn(
            &mut sides,
            s,
            rx,
            (started, reading, &features),
            (report, tally),
            progress,
        )
    })
}

/// [`check_all`]'s loop: each batch handed to the sides as soon as it is
/// ready, then the one before it judged.
fn check_in_turn(
    sides: &mut Sides,
    s: &Schedule<'_>,
    rx: &std::sync::mpsc::Receiver<Batch>,
    (started, reading, features): (Instant, Reading, &(BTreeSet<String>, BTreeSet<String>)),
    (report, tally): (&mut FuzzReport, &mut Tally),
    progress: &mut dyn FnMut(usize),
) -> Result<(), String> {
    let cfg = s.cfg;
    let cap = cfg.cases.unwrap_or(usize::MAX);
    let mut waiting: BTreeMap<usize, Result<Vec<Vec<Term>>, String>> = BTreeMap::new();
    let mut done: BTreeSet<&'static str> = BTreeSet::new();
    let mut spent: BTreeMap<&'static str, Duration> = BTreeMap::new();
    // Batches handed to the sides and not yet judged, and how many inputs
    // they hold together with those judged (for the cap).
    let mut ahead: std::collections::VecDeque<(usize, Inputs, Ticket)> = Default::default();
    let mut handed = 0usize;
    let mut next = 0usize;
    loop {
        let more = next < s.batches
            && handed < cap
            && cfg.time_limit.is_none_or(|t| started.elapsed() < t);
        if more && ahead.len() < 2 {
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
            next += 1;
            let op = s.ops[s.order[b].0];
            if done.contains(op.name) {
                continue;
            }
            inputs.truncate(cap - handed);
            for a in inputs.iter_mut() {
                if let Some(stripped) = refusal::stripped(a, &report.unknown_fields) {
                    *a = stripped;
                    report.stripped += 1;
                }
            }
            handed += inputs.len();
            let inputs = std::sync::Arc::new(inputs);
            let ticket = sides.send(op.name, &inputs);
            ahead.push_back((b, inputs, ticket));
            continue;
        }
        let Some((b, inputs, ticket)) = ahead.pop_front() else {
            return Ok(());
        };
        let op = s.ops[s.order[b].0];
        let op_started = Instant::now();
        let answers = sides.take(ticket);
        let stopped = check_batch(
            sides,
            (op, b, &inputs, answers),
            (cfg, features, reading),
            (&mut *report, &mut *tally),
            progress,
        );
        if stopped {
            return Ok(());
        }
        let t = spent.entry(op.name).or_default();
        *t += op_started.elapsed();
        if cfg.time_per_op.is_some_and(|limit| *t >= limit) {
            done.insert(op.name);
        }
    }
}

/// The answers of both sides to batch `b` of `op` (inputs naming a field
/// neither build has were sent without it), judged: refusals for a field
/// one side lacks are retried without it, and each difference is counted
/// by kind; whether the run stops here (a difference, not keeping going).
#[allow(clippy::type_complexity)]
fn check_batch(
    sides: &mut Sides,
    (op, b, inputs, answers): (
        &'static Op,
        usize,
        &[Vec<Term>],
        ((Vec<Answer>, Vec<Answer>), (Duration, Duration)),
    ),
    (cfg, features, reading): (&FuzzConfig, &(BTreeSet<String>, BTreeSet<String>), Reading),
    (report, tally): (&mut FuzzReport, &mut Tally),
    progress: &mut dyn FnMut(usize),
) -> bool {
    let ((expected_answers, actual), (te, ta)) = answers;
    report.answering.0 += te;
    report.answering.1 += ta;
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
        sides,
        op,
        inputs,
        (&expected_answers, &actual),
        cfg.labels,
        report,
    );
    let checks = (0..inputs.len())
        .map(|i| (&inputs[i], &expected_answers[i], &actual[i], i, false))
        .chain(retries.iter().map(|(i, args, e, a)| (args, e, a, *i, true)));
    for (args, e, a, i, retried) in checks {
        let refusals = cfg.one_sided_refusals && !needs_undeclared(args, (e, a), features);
        let Some((_, kind)) =
            super::disagreement::difference_of_kind(op, args, e, a, &cfg.known, reading, refusals)
        else {
            continue;
        };
        let at = (weight(args), b, i, retried);
        if let Some(shapes) = &mut tally.shapes {
            // A shape change is counted as itself; what it may explain is
            // decided once all of them are known.
            if let Some(change) = ShapeChange::of(&kind) {
                shapes.insert(change);
            } else {
                tally.pending.push((kind, at, e.clone(), a.clone()));
                continue;
            }
        }
        count_kind(&mut tally.kinds, kind, at);
        if !cfg.keep_going {
            return true;
        }
    }
    false
}

/// Every shape change now known: each pending difference is either
/// explained by them (counted by op and explanation) or a kind of its
/// own. The shape changes.
fn settle(
    ops: &[&'static Op],
    tally: &mut Tally,
    reading: Reading,
    report: &mut FuzzReport,
) -> Shapes {
    let shapes = tally.shapes.take().unwrap_or_default();
    for (kind, at, e, a) in std::mem::take(&mut tally.pending) {
        let op = ops[at.1 % ops.len()];
        match explain(op, &e, &a, &shapes, reading) {
            Some(why) => *report.explained.entry((op.name, why)).or_default() += 1,
            None => count_kind(&mut tally.kinds, kind, at),
        }
    }
    shapes
}

/// Shrinks the smallest instance of each kind, regenerated from its
/// batch's seed, into a finding (written as a case with `--emit`).
fn shrink_kinds(
    (expected, subject): (&mut dyn Subject, &mut dyn Subject),
    s: &Schedule<'_>,
    corpus: &[Case],
    kinds: Vec<(Kind, usize, Smallest)>,
    (shapes, reading): (&Shapes, Reading),
    report: &mut FuzzReport,
) -> Result<(), String> {
    let cfg = s.cfg;
    let retry_fields: BTreeSet<refusal::Field> =
        report.lacking.values().flatten().cloned().collect();
    // Shrinking is one request at a time: many kinds (a change met in a
    // text that quotes the input varies with it) would take longer than
    // the fuzzing itself. The kinds share SHRINK_CHECKS checks, or one for
    // every eight inputs checked if that is more, each at most an equal
    // share of what is left (counted in checks, not time, so that a seed
    // replays the same examples).
    let total = kinds.len();
    let mut left = SHRINK_CHECKS.max(report.checked / 8);
    for (n, (kind, count, (_, b, i, retried))) in kinds.into_iter().enumerate() {
        let share = (left / (total - n).max(1)).max(SHRINK_LEAST);
        let (op_index, chunk, _) = s.order[b];
        let op = s.ops[op_index];
        let strategy = super::args_reaching(op.name, corpus, cfg).ok_or("generator vanished")?;
        let tree = generate(&strategy, op_seed(cfg.seed, op.name), chunk, i + 1)?.swap_remove(i);
        let mut leave_out = report.unknown_fields.clone();
        if retried {
            leave_out.extend(retry_fields.iter().cloned());
        }
        let mut finding = shrink(
            expected,
            subject,
            op,
            (&kind, shapes),
            (&cfg.known, cfg.one_sided_refusals, &leave_out),
            tree,
            (reading, share),
        );
        left = left.saturating_sub(share);
        finding.count = count;
        if let Some(dir) = &cfg.emit {
            let evidence = emit::evidence(expected, subject, op, corpus, &cfg.known, reading);
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
    Ok(())
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
