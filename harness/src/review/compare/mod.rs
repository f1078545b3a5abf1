//! `ptc-conformance compare`: two builds side by side. The corpus and the
//! fuzzer run against two subjects (typically two adapters of PtcRunner:
//! the released build, *base*, and a branch, *head*); every difference is
//! put in a [`Kind`] (op, where, how), and each kind is reported once with
//! its count, its cases and its smallest example (a generated one shrunk),
//! and can be written as one case file whose expectation is base's answer.
//! Ops and features that only one side declares are counted and named. The
//! Rust reference is not involved, and answers are compared as answered: a
//! struct field one build has and the other lacks is a difference (its own
//! kind, `spec/terms.md` TJ-7), where judging against the corpus would read
//! the missing field as v0.13.0's default. A difference such a struct
//! change explains (the field inside another answer, its text in a message,
//! a refusal of an input naming it: [`crate::review::attribution`]) is
//! counted under the struct's kind, not as a kind of its own.

use crate::corpus::{Case, Expect, Level};
use crate::judging::judge::{judge_read, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::judging::runner::skip_reason;
use crate::review::attribution::{explain, Explanation, ShapeChange, Shapes};
use crate::review::fuzz::{self, FuzzConfig, FuzzReport};
use crate::review::kinds::{classify, Kind};
use crate::subject::{self, Answer, Request, Subject};
use ptc_conformance::term::Term;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

mod cause;
mod group;
mod json;
mod learn;
mod text;
pub use cause::{causes, Cause};
pub use group::group;
pub use learn::{learn, Learned};
pub use text::{counts, cut, wrapped};
/// How to compare.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// `strict` compares rendered JSON byte for byte, `default` as JSON.
    pub strictness: Strictness,
    /// Write each difference as a case file under this directory.
    pub emit: Option<PathBuf>,
    /// The fuzzing part; `None` runs the corpus only.
    pub fuzz: Option<FuzzConfig>,
    /// Afterwards, each side alone answers the generated inputs again,
    /// timed, so that the report gives its time as a ratio of theirs.
    pub alone: bool,
}

/// A corpus case on which the two sides answer differently.
#[derive(Clone, Debug)]
pub struct CaseDifference<'c> {
    /// The case.
    pub case: &'c Case,
    /// Base's answer.
    pub base: Answer,
    /// Head's answer.
    pub head: Answer,
    /// How head's answer differs from base's.
    pub diff: String,
    /// Its kind.
    pub kind: Kind,
    /// The struct shape changes that explain it, if they do (it is then
    /// counted under them, not as a kind of its own).
    pub explained: Option<Explanation>,
}

/// A kind of difference, once: its count and its smallest example.
#[derive(Clone, Debug)]
pub struct Group<'c> {
    /// The kind.
    pub kind: Kind,
    /// Corpus cases of this kind, in corpus order.
    pub cases: Vec<&'c Case>,
    /// Generated inputs of this kind.
    pub generated: usize,
    /// The smallest example: the shrunk generated input, or the smallest case.
    pub example: Example,
    /// The case file written for this kind, if any.
    pub emitted: Option<PathBuf>,
    /// For a struct shape change: the differences it explains elsewhere,
    /// by op (refusals of inputs naming the field apart).
    pub also: Vec<AlsoSeen<'c>>,
    /// The ops its instances were met in.
    pub ops: BTreeSet<&'static str>,
}

/// Differences of one op explained by a struct shape change.
#[derive(Clone, Debug)]
pub struct AlsoSeen<'c> {
    /// The op.
    pub op: &'static str,
    /// Refusals by the side lacking the field of inputs that name it
    /// (rather than answers that hold or render the field).
    pub refused: bool,
    /// Corpus cases.
    pub cases: Vec<&'c Case>,
    /// Generated inputs.
    pub generated: usize,
}

/// One instance of a kind.
#[derive(Clone, Debug)]
pub struct Example {
    /// The corpus case, when the example is one.
    pub case: Option<String>,
    /// Its arguments.
    pub args: Vec<Term>,
    /// Base's answer.
    pub base: Answer,
    /// Head's answer.
    pub head: Answer,
    /// How they differ.
    pub diff: String,
    /// Shrinking steps, for a generated example.
    pub shrink_steps: Option<usize>,
}

impl Group<'_> {
    /// Instances of the kind: corpus cases and generated inputs.
    pub fn count(&self) -> usize {
        self.cases.len() + self.generated
    }
}

/// Something declared by one side only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneSided {
    /// The op or feature.
    pub name: String,
    /// `base` or `head`: the side that declares it.
    pub declared_by: &'static str,
    /// Selected cases that therefore ran on neither side.
    pub cases: usize,
}

/// What a comparison found.
#[derive(Debug)]
pub struct Comparison<'c> {
    /// Base's name.
    pub base: String,
    /// Head's name.
    pub head: String,
    /// Selected cases.
    pub selected: usize,
    /// Cases both answered alike.
    pub agreed: usize,
    /// Cases neither side answered (both `unsupported` or both without a valid answer).
    pub unanswered: usize,
    /// Those cases, each with base's answer (why it was not answered).
    pub unanswered_cases: Vec<(&'c Case, Answer)>,
    /// Cases one side cannot run (an op or feature the other side declares).
    pub skipped: usize,
    /// Cases answered differently, in corpus order (those the struct shape
    /// changes explain included).
    pub differences: Vec<CaseDifference<'c>>,
    /// The kinds of difference of the corpus and the fuzzer: struct fields
    /// one side only has first, then by op and count.
    pub groups: Vec<Group<'c>>,
    /// Ops only one side declares.
    pub one_sided_ops: Vec<OneSided>,
    /// Features only one side declares.
    pub one_sided_features: Vec<OneSided>,
    /// Faults of either side, prefixed with the side.
    pub faults: Vec<String>,
    /// The fuzzing part, if it ran.
    pub fuzz: Option<FuzzReport>,
    /// The option names learned from the two sides' atoms before fuzzing
    /// (AP-19); `None` when nothing was fuzzed.
    pub learned: Option<Learned>,
    /// What triggers the differences: each kind under its cause, and the
    /// ops one side declares ([`crate::review::causes`]).
    pub causes: Vec<Cause>,
    /// Where the time went.
    pub timing: Timing,
}

/// Where a comparison's time went: each phase's wall time, and how long
/// each side took to answer the corpus and the generated inputs (the two
/// answering at once, so that the slower side's time is what the two
/// builds alone need; the rest is the harness's).
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// Running the corpus on both sides.
    pub corpus: std::time::Duration,
    /// Fuzzing: generating, answering, judging, then shrinking each kind.
    pub fuzz: std::time::Duration,
    /// Of that, shrinking each kind's smallest instance.
    pub shrinking: std::time::Duration,
    /// Finding and joining the causes.
    pub causes: std::time::Duration,
    /// Base's and head's time answering the corpus and the generated inputs.
    pub answering: (std::time::Duration, std::time::Duration),
    /// With `--alone`: the generated inputs, and base's and head's time
    /// answering them alone, one side after the other, afterwards.
    pub alone: Option<(usize, std::time::Duration, std::time::Duration)>,
}

impl Timing {
    /// The whole comparison's wall time.
    pub fn total(&self) -> std::time::Duration {
        self.corpus + self.fuzz + self.causes
    }

    /// The whole time over the slower side's answering time.
    pub fn ratio(&self) -> f64 {
        let slower = self.answering.0.max(self.answering.1).as_secs_f64();
        self.total().as_secs_f64() / slower.max(1e-9)
    }

    /// One line: `in 120.3 s (corpus 1.2 s, fuzzing 100.1 s, causes 19.0
    /// s); base answered in 70.2 s, head in 71.0 s: 1.69 × the slower side`.
    pub fn describe(&self) -> String {
        let s = |d: std::time::Duration| format!("{:.1} s", d.as_secs_f64());
        format!(
            "time: {} (corpus {}, fuzzing {}, shrinking {}, causes {}); the corpus and generated inputs answered by base in {}, by head in {} (each side's own time, the two answering at once): {:.2} × the slower side",
            s(self.total()),
            s(self.corpus),
            s(self.fuzz.saturating_sub(self.shrinking)),
            s(self.shrinking),
            s(self.causes),
            s(self.answering.0),
            s(self.answering.1),
            self.ratio()
        ) + &self.alone_line()
    }

    /// The whole time over the slower side's time answering the generated
    /// inputs alone, with `--alone`.
    pub fn ratio_alone(&self) -> Option<f64> {
        let (_, b, h) = self.alone?;
        Some(self.total().as_secs_f64() / b.max(h).as_secs_f64().max(1e-9))
    }

    fn alone_line(&self) -> String {
        let (Some((n, b, h)), Some(r)) = (self.alone, self.ratio_alone()) else {
            return String::new();
        };
        format!(
            "\nalone (--alone, afterwards): the {n} generated inputs answered by base alone in {:.1} s, by head alone in {:.1} s: this comparison took {r:.2} × the slower side alone",
            b.as_secs_f64(),
            h.as_secs_f64()
        )
    }
}

impl Comparison<'_> {
    /// Differences (corpus cases and generated inputs) the struct shape
    /// changes explain, each once.
    pub fn explained(&self) -> (usize, usize) {
        (
            self.differences
                .iter()
                .filter(|d| d.explained.is_some())
                .count(),
            self.fuzz
                .as_ref()
                .map_or(0, |f| f.explained.values().sum::<usize>()),
        )
    }

    /// Cases and generated inputs both sides answered and were compared on.
    pub fn compared(&self) -> usize {
        self.agreed + self.differences.len() + self.fuzz.as_ref().map_or(0, |f| f.checked)
    }

    /// Whether the comparison passes: something was compared, the two sides
    /// answered alike on everything both declare, declare the same ops and
    /// features, and committed no fault.
    pub fn passed(&self) -> bool {
        self.compared() > 0
            && self.differences.is_empty()
            && self.one_sided_ops.is_empty()
            && self.one_sided_features.is_empty()
            && self.faults.is_empty()
            && self.fuzz.as_ref().is_none_or(|f| f.findings.is_empty())
    }
}

/// How `head` answers differently from `base` on `case`, if it does.
pub fn difference(
    case: &Case,
    base: &Answer,
    head: &Answer,
    strictness: Strictness,
) -> Option<String> {
    let Some(mut expect) = fuzz::expectation(base) else {
        return if std::mem::discriminant(base) == std::mem::discriminant(head) {
            None
        } else {
            Some(format!(
                "base gave no answer ({}), head answered {}",
                fuzz::describe(base),
                fuzz::describe(head)
            ))
        };
    };
    // A message the case leaves open is left open here too.
    if let (Expect::Raised { message, .. }, Expect::Raised { message: None, .. }) =
        (&mut expect, &case.expect)
    {
        *message = None;
    }
    let probe = Case {
        expect,
        level: Level::Required,
        ..case.clone()
    };
    match judge_read(&probe, head, strictness, Reading::AsAnswered) {
        Outcome::Pass => None,
        Outcome::Fail(d) => Some(d),
        other => Some(format!(
            "head: {}",
            match other {
                Outcome::Skip(why) => why.to_string(),
                Outcome::Error(e) => format!("error: {e}"),
                o => o.name().to_owned(),
            }
        )),
    }
}

fn one_sided(
    base: &BTreeSet<String>,
    head: &BTreeSet<String>,
    count: impl Fn(&str) -> usize,
) -> Vec<OneSided> {
    base.symmetric_difference(head)
        .map(|name| OneSided {
            name: name.clone(),
            declared_by: if base.contains(name) { "base" } else { "head" },
            cases: count(name),
        })
        .collect()
}

/// Runs `cases` and (when configured) the fuzzer against both sides.
/// `corpus` lets emitted fuzz cases cite the op's most cited rule.
pub fn compare<'c>(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
    cases: &[&'c Case],
    corpus: &[Case],
    cfg: &CompareConfig,
    progress: &mut dyn FnMut(usize),
) -> Result<Comparison<'c>, String> {
    let started = std::time::Instant::now();
    let (mut out, runnable) = run_corpus(base, head, cases, cfg.strictness);
    out.timing.corpus = started.elapsed();
    let started = std::time::Instant::now();
    let mut shapes: Shapes = out
        .differences
        .iter()
        .filter_map(|d| ShapeChange::of(&d.kind))
        .collect();
    if let Some(fcfg) = &cfg.fuzz {
        let learned = learn(base, head).unwrap_or_else(|(side, why)| {
            out.faults.push(format!("{side}: {why} (AP-19)"));
            Learned::default()
        });
        let fcfg = FuzzConfig {
            words: learned.words.clone(),
            emit: None,
            keep_going: true,
            labels: ("base", "head"),
            attribution: Some(shapes.clone()),
            one_sided_refusals: true,
            ..fcfg.clone()
        };
        out.fuzz = Some(fuzz::run_between(
            base,
            head,
            &fcfg,
            corpus,
            Reading::AsAnswered,
            progress,
        )?);
        out.learned = Some(learned);
    }
    if let Some(f) = &out.fuzz {
        shapes.extend(f.shapes.iter().cloned());
        out.timing.answering.0 += f.answering.0;
        out.timing.answering.1 += f.answering.1;
        out.timing.shrinking = f.shrinking;
    }
    out.timing.fuzz = started.elapsed();
    let started = std::time::Instant::now();
    for d in &mut out.differences {
        if ShapeChange::of(&d.kind).is_none() {
            d.explained = explain(d.case.op, &d.base, &d.head, &shapes, Reading::AsAnswered);
        }
    }
    out.groups = group(&out.differences, out.fuzz.as_ref());
    let seen = crate::review::causes::default::OptionsSeen::from_corpus(corpus);
    out.causes = causes(
        (base, head),
        &out.groups,
        &out.one_sided_ops,
        &shapes,
        &seen,
    );
    out.timing.causes = started.elapsed();
    if let (true, Some(fcfg)) = (cfg.alone, &cfg.fuzz) {
        let fcfg = FuzzConfig {
            words: out
                .learned
                .as_ref()
                .map(|l| l.words.clone())
                .unwrap_or_default(),
            ..fcfg.clone()
        };
        let (n, [b, h]) = fuzz::answer_alone([&mut *base, &mut *head], &fcfg, corpus)?;
        out.timing.alone = Some((n, b, h));
    }
    if let Some(dir) = &cfg.emit {
        emit_groups(&mut out, dir, cfg, &runnable)?;
    }
    for (side, s) in [("base", &*base), ("head", &*head)] {
        let faults = subject::faults_of(s);
        out.faults
            .extend(faults.into_iter().map(|f| format!("{side}: {f}")));
    }
    Ok(out)
}

/// The corpus part: what each side declares, the cases both can run
/// (returned), and each case's difference, if any, with its kind.
fn run_corpus<'c>(
    base: &mut dyn Subject,
    head: &mut dyn Subject,
    cases: &[&'c Case],
    strictness: Strictness,
) -> (Comparison<'c>, Vec<&'c Case>) {
    let (base_ops, head_ops) = (base.ops(), head.ops());
    let (base_features, head_features) = (base.features(), head.features());
    let one_sided_ops = one_sided(&base_ops, &head_ops, |op| {
        cases.iter().filter(|c| c.op.name == op).count()
    });
    let one_sided_features = one_sided(&base_features, &head_features, |f| {
        cases
            .iter()
            .filter(|c| c.features.iter().any(|x| x == f))
            .count()
    });
    let both_ops: BTreeSet<String> = base_ops.intersection(&head_ops).cloned().collect();
    let both_features: BTreeSet<String> = base_features
        .intersection(&head_features)
        .cloned()
        .collect();
    let runnable: Vec<&'c Case> = cases
        .iter()
        .copied()
        .filter(|c| skip_reason(c, &both_ops, &both_features).is_none())
        .collect();
    let requests: Vec<Request<'_>> = runnable
        .iter()
        .map(|c| Request {
            op: c.op.name,
            args: &c.args,
            args_json: Some(&c.args_json),
        })
        .collect();
    let ((base_answers, head_answers), answering) =
        crate::subject::call_both(&mut *base, &mut *head, &requests);
    let timing = Timing {
        answering,
        ..Timing::default()
    };
    let mut out = Comparison {
        base: base.name(),
        head: head.name(),
        selected: cases.len(),
        agreed: 0,
        unanswered: 0,
        unanswered_cases: Vec::new(),
        skipped: cases.len() - runnable.len(),
        differences: Vec::new(),
        groups: Vec::new(),
        one_sided_ops,
        one_sided_features,
        faults: Vec::new(),
        fuzz: None,
        learned: None,
        causes: Vec::new(),
        timing,
    };
    for ((case, b), h) in runnable.iter().zip(base_answers).zip(head_answers) {
        match difference(case, &b, &h, strictness) {
            None if matches!(b, Answer::Unsupported(_) | Answer::Error(_)) => {
                out.unanswered += 1;
                out.unanswered_cases.push((case, b));
            }
            None => out.agreed += 1,
            Some(diff) => {
                let kind = classify(case.op, &case.args, &b, &h, Reading::AsAnswered);
                out.differences.push(CaseDifference {
                    case,
                    base: b,
                    head: h,
                    diff,
                    kind,
                    explained: None,
                });
            }
        }
    }
    (out, runnable)
}

/// Writes each kind's smallest example as a case file under `dir`: a
/// corpus case with base's answer as its expectation, or the shrunk
/// generated input citing the rules of the op's cases `runnable` holds.
fn emit_groups(
    out: &mut Comparison<'_>,
    dir: &Path,
    cfg: &CompareConfig,
    runnable: &[&Case],
) -> Result<(), String> {
    let quirks = cfg
        .fuzz
        .as_ref()
        .map(|f| f.quirks.clone())
        .unwrap_or_default();
    let findings = out.fuzz.as_ref().map_or(&[][..], |f| &f.findings[..]);
    let mut emitted = Vec::with_capacity(out.groups.len());
    for g in &out.groups {
        emitted.push(match g.example.case.as_ref() {
            Some(id) => match g.cases.iter().find(|c| &c.id == id) {
                Some(case) => emit_case(dir, case, &g.example.base)?,
                None => None,
            },
            None => match findings
                .iter()
                .find(|f| f.kind.cause() == g.kind && f.args == g.example.args)
            {
                Some(f) => {
                    let evidence: Vec<(&Case, Option<Kind>)> = runnable
                        .iter()
                        .filter(|c| c.op.name == f.op.name)
                        .map(|c| {
                            let k = out.differences.iter().find(|d| d.case.id == c.id);
                            (*c, k.map(|d| d.kind.clone()))
                        })
                        .collect();
                    Some(fuzz::emit::emit(
                        dir,
                        f,
                        seed_of(cfg),
                        (&out.base, &out.head),
                        ("base", "head"),
                        &evidence,
                        &quirks,
                    )?)
                }
                None => None,
            },
        });
    }
    for (g, e) in out.groups.iter_mut().zip(emitted) {
        g.emitted = e;
    }
    Ok(())
}

fn seed_of(cfg: &CompareConfig) -> u64 {
    cfg.fuzz.as_ref().map_or(0, |f| f.seed)
}

/// Writes `case` with base's answer as its expectation to `dir/<id>.json`
/// (every other byte of the case file kept), so that `ptc-conformance run
/// --corpus DIR` replays it; `None` when base's answer gives no expectation.
fn emit_case(dir: &Path, case: &Case, base: &Answer) -> Result<Option<PathBuf>, String> {
    let Ok(expect) = crate::review::bless::new_expect(base) else {
        return Ok(None);
    };
    let new = crate::review::bless::replace_expect(&case.source, &expect)
        .map_err(|e| format!("{}: {e}", case.file.display()))?;
    let path = dir.join(format!("{}.json", case.id));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
    }
    std::fs::write(&path, new).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    Ok(Some(path))
}
