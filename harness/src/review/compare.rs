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
use crate::review::kinds::{classify, weight, Kind};
use crate::subject::{self, Answer, Request, Subject};
use ptc_conformance::term::Term;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How to compare.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    /// `strict` compares rendered JSON byte for byte, `default` as JSON.
    pub strictness: Strictness,
    /// Write each difference as a case file under this directory.
    pub emit: Option<PathBuf>,
    /// The fuzzing part; `None` runs the corpus only.
    pub fuzz: Option<FuzzConfig>,
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
    let base_answers = base.call_many(&requests);
    let head_answers = head.call_many(&requests);
    let mut out = Comparison {
        base: base.name(),
        head: head.name(),
        selected: cases.len(),
        agreed: 0,
        unanswered: 0,
        skipped: cases.len() - runnable.len(),
        differences: Vec::new(),
        groups: Vec::new(),
        one_sided_ops,
        one_sided_features,
        faults: Vec::new(),
        fuzz: None,
    };
    for ((case, b), h) in runnable.iter().zip(base_answers).zip(head_answers) {
        match difference(case, &b, &h, cfg.strictness) {
            None if matches!(b, Answer::Unsupported(_) | Answer::Error(_)) => out.unanswered += 1,
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
    let mut shapes: Shapes = out
        .differences
        .iter()
        .filter_map(|d| ShapeChange::of(&d.kind))
        .collect();
    if let Some(fcfg) = &cfg.fuzz {
        let fcfg = FuzzConfig {
            emit: None,
            keep_going: true,
            labels: ("base", "head"),
            attribution: Some(shapes.clone()),
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
    }
    if let Some(f) = &out.fuzz {
        shapes.extend(f.shapes.iter().cloned());
    }
    for d in &mut out.differences {
        if ShapeChange::of(&d.kind).is_none() {
            d.explained = explain(d.case.op, &d.base, &d.head, &shapes, Reading::AsAnswered);
        }
    }
    out.groups = group(&out.differences, out.fuzz.as_ref());
    if let Some(dir) = &cfg.emit {
        let quirks = cfg
            .fuzz
            .as_ref()
            .map(|f| f.quirks.clone())
            .unwrap_or_default();
        let findings = out.fuzz.as_ref().map_or(&[][..], |f| &f.findings[..]);
        for g in &mut out.groups {
            g.emitted = match g.example.case.as_ref() {
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
            };
        }
    }
    for (side, s) in [("base", &*base), ("head", &*head)] {
        let faults = subject::faults_of(s);
        out.faults
            .extend(faults.into_iter().map(|f| format!("{side}: {f}")));
    }
    Ok(out)
}

fn seed_of(cfg: &CompareConfig) -> u64 {
    cfg.fuzz.as_ref().map_or(0, |f| f.seed)
}

/// The kinds of `differences` and of the fuzzer's findings, each once: its
/// cases, its generated count and its smallest example (the shrunk
/// generated input when there is one, else the smallest case). Struct
/// fields only one side has come first, then by op, then by count.
pub fn group<'c>(differences: &[CaseDifference<'c>], fuzz: Option<&FuzzReport>) -> Vec<Group<'c>> {
    let mut groups: Vec<Group<'c>> = Vec::new();
    for d in differences.iter().filter(|d| d.explained.is_none()) {
        let example = || Example {
            case: Some(d.case.id.clone()),
            args: d.case.args.clone(),
            base: d.base.clone(),
            head: d.head.clone(),
            diff: d.diff.clone(),
            shrink_steps: None,
        };
        match groups.iter_mut().find(|g| g.kind == d.kind.cause()) {
            Some(g) => {
                g.cases.push(d.case);
                if weight(&d.case.args) < weight(&g.example.args) {
                    g.example = example();
                }
            }
            None => groups.push(Group {
                kind: d.kind.cause(),
                cases: vec![d.case],
                generated: 0,
                example: example(),
                emitted: None,
                also: Vec::new(),
            }),
        }
    }
    for f in fuzz.map_or(&[][..], |f| &f.findings[..]) {
        let example = Example {
            case: None,
            args: f.args.clone(),
            base: f.expected.clone(),
            head: f.actual.clone(),
            diff: f.diff.clone(),
            shrink_steps: Some(f.shrink_steps),
        };
        match groups.iter_mut().find(|g| g.kind == f.kind.cause()) {
            Some(g) => {
                g.generated += f.count;
                if weight(&f.args) < weight(&g.example.args) {
                    g.example = example;
                }
            }
            None => groups.push(Group {
                kind: f.kind.cause(),
                cases: Vec::new(),
                generated: f.count,
                example,
                emitted: None,
                also: Vec::new(),
            }),
        }
    }
    // Explained differences, under each shape change that explains them.
    let explained = differences
        .iter()
        .filter_map(|d| Some((d.case.op.name, d.explained.as_ref()?, Some(d.case), 1)))
        .chain(
            fuzz.iter()
                .flat_map(|f| &f.explained)
                .map(|((op, why), n)| (*op, why, None, *n)),
        );
    for (op, why, case, n) in explained {
        for change in &why.changes {
            let Some(g) = groups.iter_mut().find(|g| g.kind == change.kind()) else {
                continue;
            };
            let i = match g
                .also
                .iter()
                .position(|a| a.op == op && a.refused == why.refused)
            {
                Some(i) => i,
                None => {
                    g.also.push(AlsoSeen {
                        op,
                        refused: why.refused,
                        cases: Vec::new(),
                        generated: 0,
                    });
                    g.also.len() - 1
                }
            };
            match case {
                Some(c) => g.also[i].cases.push(c),
                None => g.also[i].generated += n,
            }
        }
    }
    for g in &mut groups {
        g.also
            .sort_by(|a, b| a.refused.cmp(&b.refused).then(a.op.cmp(b.op)));
    }
    groups.sort_by(|a, b| {
        b.kind
            .one_sided()
            .cmp(&a.kind.one_sided())
            .then(a.kind.op.cmp(b.kind.op))
            .then(b.count().cmp(&a.count()))
            .then(a.kind.cmp(&b.kind))
    });
    groups
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

impl Comparison<'_> {
    /// The comparison as data (`compare --format json`): the sides, the
    /// totals, what only one side declares, each kind once with its count,
    /// cases and smallest example, and the faults.
    pub fn to_json(&self) -> serde_json::Value {
        use crate::review::show::answer_text;
        use serde_json::json;
        let labels = ("base", "head");
        let one_sided = |v: &[OneSided]| -> Vec<serde_json::Value> {
            v.iter()
                .map(|o| json!({"name": o.name, "declared_by": o.declared_by, "cases": o.cases}))
                .collect()
        };
        let kinds: Vec<serde_json::Value> = self
            .groups
            .iter()
            .map(|g| {
                let args: Vec<serde_json::Value> = g
                    .example
                    .args
                    .iter()
                    .map(|a| {
                        serde_json::from_str(&ptc_conformance::tagged::encode(a))
                            .unwrap_or(serde_json::Value::Null)
                    })
                    .collect();
                json!({
                    "title": g.kind.title(labels),
                    "op": g.kind.op,
                    "path": g.kind.path,
                    "struct": g.kind.structure,
                    "how": format!("{:?}", g.kind.how),
                    "count": g.count(),
                    "cases": g.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                    "generated": g.generated,
                    "example": {
                        "case": g.example.case,
                        "args": args,
                        "base": answer_text(&g.example.base),
                        "head": answer_text(&g.example.head),
                        "diff": g.example.diff,
                        "shrink_steps": g.example.shrink_steps,
                    },
                    "emitted": g.emitted.as_ref().map(|p| p.display().to_string()),
                    "also_seen_in": g.also.iter().map(|a| json!({
                        "op": a.op,
                        "refused": a.refused,
                        "cases": a.cases.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
                        "generated": a.generated,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let fuzz = self.fuzz.as_ref().map(|f| {
            json!({
                "checked": f.checked,
                "declined": f.declined,
                "unanswered": f.unanswered,
                "elapsed_seconds": f.elapsed.as_secs_f64(),
                "per_op": f.checked_per_op,
                "differed": f.findings.iter().map(|x| x.count).sum::<usize>(),
            })
        });
        json!({
            "base": self.base,
            "head": self.head,
            "passed": self.passed(),
            "totals": {
                "selected": self.selected,
                "agreed": self.agreed,
                "differed": self.differences.len(),
                "skipped": self.skipped,
                "unanswered": self.unanswered,
                "kinds": self.groups.len(),
                "explained_by_structs": {
                    "cases": self.explained().0,
                    "generated": self.explained().1,
                },
            },
            "one_sided": {
                "ops": one_sided(&self.one_sided_ops),
                "features": one_sided(&self.one_sided_features),
            },
            "kinds": kinds,
            "fuzz": fuzz,
            "faults": self.faults,
        })
    }
}
