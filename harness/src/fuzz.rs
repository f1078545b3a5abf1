//! `ptc-conformance fuzz`: differential fuzzing of a subject against the
//! reference (or, for `ptc-conformance compare`, against another subject).
//! Arguments are generated per op ([`args_for`]), run through both, and on
//! the first disagreement the input is shrunk (proptest's shrinking) to a
//! small one, which becomes a ready-to-review case file.

use crate::corpus::{Case, Expect, Level};
use crate::gen;
use crate::judge::{judge_read, Outcome, Reading, Strictness};
use crate::subject::{Answer, Reference, Request, Subject};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use ptc_conformance::loose;
use ptc_conformance::ops::{self, Op};
use ptc_conformance::tagged;
use ptc_conformance::term::Term;
use std::path::{Path, PathBuf};
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

/// How to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// Ops to fuzz (empty: every op with a generator that the subject declares).
    pub ops: Vec<String>,
    /// Generated inputs at most.
    pub cases: usize,
    /// Seed of the generator.
    pub seed: u64,
    /// Stop generating after this long.
    pub time_limit: Option<Duration>,
    /// Inputs generated and sent together.
    pub batch: usize,
    /// Write the minimal disagreement as a case file under this directory.
    pub emit: Option<PathBuf>,
    /// Go on after a disagreement: shrink the first one of each op and stop
    /// fuzzing that op only (`compare`); otherwise stop at the first.
    pub one_per_op: bool,
}

/// A disagreement, shrunk.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The op.
    pub op: &'static Op,
    /// The minimal arguments found.
    pub args: Vec<Term>,
    /// What the expected side (the reference) answered.
    pub expected: Answer,
    /// What the subject answered.
    pub actual: Answer,
    /// How they differ.
    pub diff: String,
    /// Shrinking steps that kept the disagreement.
    pub shrink_steps: usize,
    /// The case file written, if any.
    pub emitted: Option<PathBuf>,
}

/// What a fuzzing run did.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Inputs generated and checked.
    pub checked: usize,
    /// Inputs the subject declined (`unsupported`).
    pub declined: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The ops fuzzed, in the order their batches are scheduled.
    pub ops: Vec<&'static str>,
    /// Inputs checked per op.
    pub checked_per_op: std::collections::BTreeMap<&'static str, usize>,
    /// Inputs the expected side could not answer (`unsupported` or no valid
    /// answer): nothing to compare with, so never a disagreement.
    pub unanswered: usize,
    /// The disagreements, shrunk: the first only, or the first of each op
    /// with [`FuzzConfig::one_per_op`].
    pub findings: Vec<Finding>,
}

/// The expectation an answer sets, if it sets one: a value, or an exception
/// with its message (except `Protocol.UndefinedError`'s, which lists the
/// protocol's implementations loaded in the VM: platform noise).
pub fn expectation(answer: &Answer) -> Option<Expect> {
    match answer {
        Answer::Ok(t) => Some(Expect::Ok(t.clone())),
        Answer::Raised(r) => Some(Expect::Raised {
            class: r.class.clone(),
            message: (r.class != "Protocol.UndefinedError").then(|| r.message.clone()),
        }),
        Answer::Unsupported(_) | Answer::Error(_) => None,
    }
}

/// A case expecting `expected` for `args`, to judge an answer with.
fn probe(op: &'static Op, args: Vec<Term>, expected: &Answer) -> Option<Case> {
    let expect = expectation(expected)?;
    Some(Case {
        args_json: String::new(),
        id: format!("fuzz/{}", op.name),
        file: PathBuf::from("(generated)"),
        op,
        args,
        expect,
        description: String::new(),
        spec: Vec::new(),
        features: Vec::new(),
        level: Level::Required,
    })
}

/// Whether `actual` disagrees with the reference's `expected`, and how.
fn disagreement(
    op: &'static Op,
    args: &[Term],
    expected: &Answer,
    actual: &Answer,
    reading: Reading,
) -> Option<String> {
    let (expected, actual) = (&mask_vm_text(expected), &mask_vm_text(actual));
    if truncation_moved_by_vm_text(expected) || truncation_moved_by_vm_text(actual) {
        return None;
    }
    let case = probe(op, args.to_vec(), expected)?;
    let diff = match judge_read(&case, actual, Strictness::Default, reading) {
        Outcome::Pass | Outcome::Skip(_) => return None,
        Outcome::Fail(d) => d,
        Outcome::Error(e) => format!("error: {e}"),
        other => format!("{other:?}"),
    };
    let known = known_disagreements();
    if !known.is_empty() {
        let text = format!("{}\n{}\n{}", op.name, describe(expected), describe(actual));
        if let Some(i) = known.iter().position(|(re, _)| re.is_match(&text)) {
            known[i]
                .1
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return None;
        }
    }
    Some(diff)
}

/// Known kinds of disagreement to step over, from the file named by the
/// environment variable `PTC_FUZZ_KNOWN`: one regex per line (`#` starts a
/// comment line), matched against `op`, the reference's answer and the
/// subject's answer on three lines (as [`describe`] writes them). For a
/// campaign that must run past kinds already being fixed elsewhere; each
/// kind's count is printed to stderr at the end.
fn known_disagreements() -> &'static [(regex::Regex, std::sync::atomic::AtomicUsize)] {
    static KNOWN: std::sync::OnceLock<Vec<(regex::Regex, std::sync::atomic::AtomicUsize)>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(|| {
        let Some(path) = std::env::var_os("PTC_FUZZ_KNOWN") else {
            return Vec::new();
        };
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("PTC_FUZZ_KNOWN={}: {e}", path.to_string_lossy()));
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let re =
                    regex::Regex::new(l).unwrap_or_else(|e| panic!("PTC_FUZZ_KNOWN: {l}: {e}"));
                (re, std::sync::atomic::AtomicUsize::new(0))
            })
            .collect()
    })
}

/// Prints how often each `PTC_FUZZ_KNOWN` kind was stepped over.
fn print_known_counts() {
    for (re, n) in known_disagreements() {
        eprintln!(
            "known disagreement stepped over {} times: {}",
            n.load(std::sync::atomic::Ordering::Relaxed),
            re.as_str()
        );
    }
}

/// Whether `answer` is a text that holds the VM's text for an opaque term
/// and was cut at a character count: the length of that text decides
/// whether and where the cut falls (`spec/README.md` LOOSE-2), so such an
/// input says nothing about PtcRunner and is not compared.
fn truncation_moved_by_vm_text(answer: &Answer) -> bool {
    let Answer::Ok(Term::Str(s)) = answer else {
        return false;
    };
    s.contains("(truncatedat") && loose::holds_vm_text(s)
}

/// `answer` with the text the VM makes up for references, pids, ports and
/// anonymous functions (`#Reference<0.1.2.3>`, `#Function<0.1/1 in M.f/2>`)
/// masked, in every string and message ([`loose::mask_vm_text`]); a text
/// that holds one is compared without white space, as its length may move
/// `inspect`'s line breaks (LOOSE-2).
fn mask_vm_text(answer: &Answer) -> Answer {
    let needs = |s: &str| s.contains('#') || s.contains("Stacktrace:");
    match answer {
        Answer::Ok(t) => Answer::Ok(loose::map_strings(t, &|s| {
            needs(s).then(|| {
                let masked = loose::mask_vm_text(s);
                if loose::holds_vm_text(&masked) {
                    masked.split_whitespace().collect()
                } else {
                    masked
                }
            })
        })),
        Answer::Raised(r) if needs(&r.message) => {
            let mut r = r.clone();
            r.message = loose::mask_vm_text(&r.message);
            Answer::Raised(r)
        }
        other => other.clone(),
    }
}

/// Seeds the generator from `seed` (the same seed, the same inputs).
pub fn rng(seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(
            &(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_le_bytes(),
        );
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
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
    let batches = cfg.cases.div_ceil(batch);
    let started = Instant::now();
    let mut report = FuzzReport {
        ops: names.clone(),
        ..FuzzReport::default()
    };
    let mut done: std::collections::BTreeSet<&'static str> = std::collections::BTreeSet::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    // Batch `b` is op `b % ops` generated from its own seed, so runs replay
    // exactly whatever the number of threads; workers generate, this thread checks in order.
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
                    let n = batch.min(cfg.cases - b * batch);
                    let inputs = generate(&strategies[b % names.len()], cfg.seed, b, n)
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
            while next < batches {
                if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
                    return Ok(());
                }
                let inputs = match waiting.remove(&next) {
                    Some(i) => i,
                    None => match rx.recv() {
                        Ok((b, i)) => {
                            waiting.insert(b, i);
                            continue;
                        }
                        Err(_) => return Err("the generator threads stopped".to_owned()),
                    },
                }?;
                let op = ops[next % ops.len()];
                next += 1;
                if done.contains(op.name) {
                    continue;
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
                if let Some(i) = (0..inputs.len()).find(|&i| {
                    disagreement(op, &inputs[i], &expected_answers[i], &actual[i], reading)
                        .is_some()
                }) {
                    // Regenerate the batch's trees from its seed to shrink input `i`.
                    let strategy = args_for(op.name, corpus).ok_or("generator vanished")?;
                    let tree = generate(&strategy, cfg.seed, next - 1, i + 1)?.swap_remove(i);
                    let mut finding = shrink(expected, subject, op, tree, reading);
                    if let Some(dir) = &cfg.emit {
                        finding.emitted = Some(emit(
                            dir,
                            &finding,
                            cfg.seed,
                            &expected.name(),
                            &subject.name(),
                            corpus,
                        )?);
                    }
                    report.findings.push(finding);
                    done.insert(op.name);
                    if !cfg.one_per_op || done.len() == ops.len() {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        drop(rx);
        result
    });
    outcome?;
    print_known_counts();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The first `n` inputs of batch `b` for `seed`, as value trees.
fn generate(
    strategy: &BoxedStrategy<Vec<Term>>,
    seed: u64,
    b: usize,
    n: usize,
) -> Result<Vec<BoxedTree>, String> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        rng(seed ^ (b as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)),
    );
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).map_err(|e| e.to_string()))
        .collect()
}

type BoxedTree = Box<dyn ValueTree<Value = Vec<Term>>>;

/// Shrinks a disagreeing input: simplify while the disagreement stays,
/// complicate when it goes (proptest's shrinking loop), 5000 steps at most.
fn shrink(
    expected_side: &mut dyn Subject,
    subject: &mut dyn Subject,
    op: &'static Op,
    mut tree: impl ValueTree<Value = Vec<Term>>,
    reading: Reading,
) -> Finding {
    let mut check = |args: &[Term]| {
        let expected = expected_side.call(Request::new(op.name, args));
        let actual = subject.call(Request::new(op.name, args));
        disagreement(op, args, &expected, &actual, reading).map(|d| (expected, actual, d))
    };
    let first = tree.current();
    let (mut expected, mut actual, mut diff) = check(&first).unwrap_or((
        Answer::Error("the disagreement did not reproduce".into()),
        Answer::Error("the disagreement did not reproduce".into()),
        "the disagreement did not reproduce when sent alone".into(),
    ));
    let mut best = first;
    let mut steps = 0;
    let mut budget = 5000;
    if tree.simplify() {
        while budget > 0 {
            budget -= 1;
            let candidate = tree.current();
            match check(&candidate) {
                Some((e, a, d)) => {
                    (expected, actual, diff) = (e, a, d);
                    best = candidate;
                    steps += 1;
                    if !tree.simplify() {
                        break;
                    }
                }
                None => {
                    if !tree.complicate() {
                        break;
                    }
                }
            }
        }
    }
    // Then hoist nested parts out of their containers while the
    // disagreement stays (value trees cannot), within the same budget.
    let mut improved = true;
    while improved && budget > 0 {
        improved = false;
        for candidate in gen::mutate::hoists(&best) {
            if budget == 0 {
                break;
            }
            budget -= 1;
            if let Some((e, a, d)) = check(&candidate) {
                (expected, actual, diff) = (e, a, d);
                best = candidate;
                steps += 1;
                improved = true;
                break;
            }
        }
    }
    Finding {
        op,
        args: best,
        expected,
        actual,
        diff,
        shrink_steps: steps,
        emitted: None,
    }
}

/// How many nodes a term has (its size, for reports and tests).
pub fn size(t: &Term) -> usize {
    1 + match t {
        Term::List(items) | Term::Tuple(items) => items.iter().map(size).sum(),
        Term::Map(m) => m.iter().map(|(k, v)| size(k) + size(v)).sum(),
        Term::Struct(s) => s.fields.iter().map(|(_, v)| size(v)).sum(),
        _ => 0,
    }
}

/// Writes `finding` as a case file under `dir`, citing the rule the corpus
/// cites most for its op; returns the path.
fn emit(
    dir: &Path,
    finding: &Finding,
    seed: u64,
    expected: &str,
    subject: &str,
    corpus: &[Case],
) -> Result<PathBuf, String> {
    let op = finding.op;
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for c in corpus.iter().filter(|c| c.op.name == op.name) {
        for r in &c.spec {
            *counts.entry(r.as_str()).or_default() += 1;
        }
    }
    let rule = counts
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(r, _)| (*r).to_owned())
        .unwrap_or_else(|| format!("{}-1", op.spec_prefix));
    let args_json = crate::wire::encode_args(&finding.args);
    let hash = args_json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let rel = format!("{}/fuzz-{:08x}", op.name.replace('.', "/"), hash as u32);
    let expect = crate::bless::new_expect(&finding.expected)
        .map_err(|e| format!("the expected side gave no expectation: {e}"))?;
    let mut used = std::collections::BTreeSet::new();
    finding
        .args
        .iter()
        .for_each(|a| ptc_conformance::features::used_by(a, &mut used));
    if let Answer::Ok(t) = &finding.expected {
        ptc_conformance::features::used_by(t, &mut used);
    }
    let first_line = finding.diff.lines().next().unwrap_or("").to_owned();
    let q = |s: &str| {
        let mut out = String::new();
        tagged::push_json_str(s, &mut out);
        out
    };
    let features: Vec<String> = used.iter().map(|f| q(f)).collect();
    let notes = format!(
        "Found by fuzzing (seed {seed}) {subject} against {expected}; shrunk in {} steps. The expectation is the answer of {expected}: check it against PtcRunner v0.13.0 (the Elixir adapter) and the cited rule before adding the case to golden/.",
        finding.shrink_steps
    );
    // Fields in the corpus's order, indented as the corpus is written.
    let text = format!(
        "{{\n  \"id\": {},\n  \"op\": {},\n  \"description\": {},\n  \"spec\": [\n    {}\n  ],\n  \"features\": [{}],\n  \"level\": \"required\",\n  \"args\": {},\n  \"expect\": {},\n  \"notes\": {}\n}}",
        q(&rel),
        q(op.name),
        q(&format!("Found by fuzzing (seed {seed}): {first_line}")),
        q(&rule),
        if features.is_empty() { String::new() } else { format!("\n    {}\n  ", features.join(",\n    ")) },
        crate::bless::pretty(&args_json, 2)?,
        crate::bless::pretty(&expect, 2)?,
        q(&notes),
    );
    let path = dir.join(format!("{rel}.json"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// One line saying what an answer was.
pub fn describe(a: &Answer) -> String {
    match a {
        Answer::Ok(t) => format!("ok {}", tagged::encode(t)),
        Answer::Raised(r) => format!("raised {}: {:?}", r.class, r.message),
        Answer::Unsupported(w) => format!("unsupported: {w}"),
        Answer::Error(e) => format!("error: {e}"),
    }
}
