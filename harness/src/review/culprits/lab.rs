//! The lab: a variant of the sources (a commit, or base with some hunks
//! applied) written into a lane, built with `--build`, started behind the
//! adapter template with `{dir}` for the lane, and asked the probes. A
//! probe's verdict is whether the variant answers it as head did, judged
//! by the kit's one judge at compare's level. Builds and answers are cached
//! in the scratch directory by the variant's sources, the build command
//! and the adapter template, so that a second run rebuilds nothing it has
//! answered.
//!
//! Where the adapter lists the `compile` extension (AP-19), a variant
//! whose sources differ from base's only by changed or added files is
//! first compiled in place: one adapter, started on base's built tree,
//! compiles the lane's changed files and answers with them (milliseconds
//! where a build takes seconds). A variant the adapter will not compile
//! (a file it does not compile in place, a change a build would carry
//! further) is built. In-place answers are cached apart from built ones;
//! [`Lab::try_built`] asks a variant built, to confirm what in place said.

use super::tree::{build, hex, Lane, Snapshot};
use crate::judging::judge::{same_answer, Reading};
use crate::judging::outcome::{Outcome, Strictness};
use crate::subject::adapter::{Adapter, AdapterConfig};
use crate::subject::{wire, Answer, Request, Subject};
use ptc_conformance::ops::Op;
use ptc_conformance::term::Term;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What a variant is asked: one input of a kind, or whether it declares an op.
#[derive(Clone, Debug)]
pub enum Ask {
    /// An op called on arguments.
    Call {
        /// The op.
        op: &'static Op,
        /// Its arguments.
        args: Vec<Term>,
    },
    /// Whether the variant's handshake declares the op.
    Declares(String),
}

/// One probe: an input whose answers differ between base and head, and
/// head's answer to it (what a variant that holds the change answers).
#[derive(Clone, Debug)]
pub struct Probe {
    /// The kind it is an input of (an index into the comparison's groups),
    /// `None` for an op one side declares.
    pub group: Option<usize>,
    /// What is asked.
    pub ask: Ask,
    /// Head's answer (for `Declares`, `Ok(true)` when head declares the op).
    pub head: Answer,
    /// Base's answer.
    pub base: Answer,
    /// A digest of the ask, for the cache.
    pub key: String,
}

impl Probe {
    /// A probe of a call.
    pub fn call(
        group: Option<usize>,
        op: &'static Op,
        args: Vec<Term>,
        (base, head): (Answer, Answer),
    ) -> Probe {
        let key = digest(&format!("call {} {}", op.name, wire::encode_args(&args)));
        Probe {
            group,
            ask: Ask::Call { op, args },
            head,
            base,
            key,
        }
    }

    /// A probe of an op one side declares.
    pub fn declares(op: &str, by_head: bool) -> Probe {
        Probe {
            group: None,
            key: digest(&format!("declares {op}")),
            ask: Ask::Declares(op.to_owned()),
            head: Answer::Ok(Term::Bool(by_head)),
            base: Answer::Ok(Term::Bool(!by_head)),
        }
    }

    /// One line naming the input, for the report.
    pub fn describe(&self) -> String {
        match &self.ask {
            Ask::Call { op, args } => format!(
                "{} {}",
                op.name,
                crate::review::compare::cut(&wire::encode_args(args))
            ),
            Ask::Declares(op) => format!("declares op {op}"),
        }
    }
}

fn digest(s: &str) -> String {
    hex(&Sha256::digest(s.as_bytes()))
}

/// A variant's verdict on one probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It answers as head does.
    Head,
    /// It answers as base does.
    Base,
    /// It answers as neither does.
    Other,
    /// It could not be asked: it does not build, or its adapter does not
    /// start or gives no valid answer (the reason).
    Unresolved(String),
}

/// One variant tried: what it was, its build and what it said.
#[derive(Clone, Debug)]
pub struct Trial {
    /// What the variant is (`commit 1a2b…`, `base + hunks 1, 4`).
    pub label: String,
    /// Build seconds (0 when cached or no `--build`); for a variant
    /// compiled in place, the compile request's.
    pub build_secs: f64,
    /// Answered from the cache.
    pub cached: bool,
    /// Compiled in place (the `compile` extension), not built.
    pub in_place: bool,
    /// Why a variant was built although in place was on: what the adapter
    /// said of its files.
    pub not_in_place: Option<String>,
    /// Why it could not be asked at all, if it could not.
    pub unresolved: Option<String>,
    /// Probes asked and how many answered as head.
    pub asked: usize,
    /// Of them, answered as head.
    pub as_head: usize,
}

/// What the cache keeps of one variant.
#[derive(Clone, Debug, Default)]
struct Kept {
    /// `Some(reason)` when it did not build or start; of in-place answers,
    /// why the variant is built instead (or, with `fails`, why it does not
    /// compile).
    broken: Option<String>,
    /// In place, the variant's own files did not compile: it does not build.
    fails: bool,
    /// Probe key → answer line.
    answers: BTreeMap<String, String>,
}

/// Most files a variant may differ from base's by to be compiled in place.
const IN_PLACE_MOST_FILES: usize = 8;

/// The in-place adapter's state.
enum InPlace {
    /// Not asked for (`--no-in-place`, or no origin).
    Unwanted,
    /// Not started yet.
    Unstarted,
    /// Started on the origin, listing `compile`.
    Ready(Box<Adapter>),
    /// Off for the rest of the run, and why.
    Off(String),
}

/// Builds and asks variants.
pub struct Lab {
    lane: Lane,
    /// The built tree the in-place adapter runs on, and its sources.
    origin: Option<(PathBuf, Snapshot)>,
    in_place: InPlace,
    build: Option<String>,
    template: Vec<String>,
    adapter: AdapterConfig,
    strictness: Strictness,
    cache_file: PathBuf,
    cache: BTreeMap<String, Kept>,
    /// Every variant tried, in order.
    pub trials: Vec<Trial>,
}

impl Lab {
    /// A lab building in `lane`, its cache in `scratch/answers.json`.
    pub fn new(
        lane: Lane,
        build: Option<String>,
        template: Vec<String>,
        adapter: AdapterConfig,
        strictness: Strictness,
        scratch: &std::path::Path,
        origin: Option<(PathBuf, Snapshot)>,
    ) -> Result<Lab, String> {
        let cache_file = scratch.join("answers.json");
        let cache = match std::fs::read_to_string(&cache_file) {
            Ok(text) => read_cache(&text).map_err(|e| {
                format!("{}: {e} (remove it to start afresh)", cache_file.display())
            })?,
            Err(_) => BTreeMap::new(),
        };
        Ok(Lab {
            lane,
            in_place: if origin.is_some() {
                InPlace::Unstarted
            } else {
                InPlace::Unwanted
            },
            origin,
            build,
            template,
            adapter,
            strictness,
            cache_file,
            cache,
            trials: Vec::new(),
        })
    }

    fn variant_key(&self, snap: &Snapshot) -> String {
        digest(&format!(
            "{}\n{}\n{}",
            snap.digest(),
            self.build.as_deref().unwrap_or(""),
            self.template.join("\u{0}")
        ))
    }

    /// Whether variants are compiled in place now, or why not (`None`
    /// when never asked for).
    pub fn in_place(&self) -> Option<Result<(), &str>> {
        match &self.in_place {
            InPlace::Unwanted => None,
            InPlace::Unstarted | InPlace::Ready(_) => Some(Ok(())),
            InPlace::Off(why) => Some(Err(why)),
        }
    }

    /// Turns compiling in place off for the rest of the run.
    pub fn in_place_off(&mut self, why: String) {
        if !matches!(self.in_place, InPlace::Unwanted | InPlace::Off(_)) {
            eprintln!("attribution: compiling in place is off: {why}");
            self.in_place = InPlace::Off(why);
        }
    }

    /// Whether the cache holds in-place answers of `snap` for every one
    /// of `probes` and no built ones: what only in place has said.
    pub fn only_in_place(&self, snap: &Snapshot, all: &[Probe], probes: &[usize]) -> bool {
        let key = self.variant_key(snap);
        let has = |k: &str| {
            self.cache.get(k).is_some_and(|kept| {
                kept.broken.is_none()
                    && probes
                        .iter()
                        .all(|&i| kept.answers.contains_key(&all[i].key))
            })
        };
        has(&in_place_key(&key)) && !has(&key)
    }

    /// Whether in place said `snap` does not compile, and no build has
    /// said anything of it: what only a build can confirm.
    pub fn failed_only_in_place(&self, snap: &Snapshot) -> bool {
        let key = self.variant_key(snap);
        self.cache.get(&in_place_key(&key)).is_some_and(|k| k.fails)
            && !self.cache.contains_key(&key)
    }

    /// The verdicts of the variant `snap` on `probes` (indices into
    /// `all`), compiled in place where the adapter will, else built,
    /// unless the cache has them.
    pub fn try_variant(
        &mut self,
        label: String,
        snap: &Snapshot,
        all: &[Probe],
        probes: &[usize],
    ) -> Result<Vec<Verdict>, String> {
        self.try_as(label, snap, all, probes, true)
    }

    /// The verdicts of the variant `snap` built (never compiled in place).
    pub fn try_built(
        &mut self,
        label: String,
        snap: &Snapshot,
        all: &[Probe],
        probes: &[usize],
    ) -> Result<Vec<Verdict>, String> {
        self.try_as(label, snap, all, probes, false)
    }

    fn try_as(
        &mut self,
        label: String,
        snap: &Snapshot,
        all: &[Probe],
        probes: &[usize],
        allow_in_place: bool,
    ) -> Result<Vec<Verdict>, String> {
        let built_key = self.variant_key(snap);
        let mut trial = Trial {
            label,
            build_secs: 0.0,
            cached: true,
            in_place: false,
            not_in_place: None,
            unresolved: None,
            asked: probes.len(),
            as_head: 0,
        };
        let mut kept = None;
        if allow_in_place && matches!(self.in_place, InPlace::Unstarted | InPlace::Ready(_)) {
            let key = in_place_key(&built_key);
            let have = self.cache.get(&key).cloned().unwrap_or_default();
            let missing = missing(&have, all, probes);
            if (have.broken.is_none() && missing.is_empty()) || have.fails {
                trial.in_place = true;
                trial.unresolved = have.broken.clone().filter(|_| have.fails);
                kept = Some(have);
            } else if have.broken.is_none() {
                trial.cached = false;
                match self.ask_in_place(snap, all, &missing) {
                    Ok(InPlaceResult::Fails(secs, why)) => {
                        let have = Kept {
                            broken: Some(format!("does not compile (in place): {why}")),
                            fails: true,
                            answers: BTreeMap::new(),
                        };
                        trial.in_place = true;
                        trial.build_secs = secs;
                        trial.unresolved = have.broken.clone();
                        self.cache.insert(key, have.clone());
                        self.save()?;
                        kept = Some(have);
                    }
                    Ok(InPlaceResult::Answered(secs, answers)) => {
                        let mut have = have;
                        have.answers.extend(answers);
                        trial.in_place = true;
                        trial.build_secs = secs;
                        self.cache.insert(key, have.clone());
                        self.save()?;
                        kept = Some(have);
                    }
                    Err(why) => {
                        // Not this variant in place: built, below. Kept so
                        // that a second run builds it without asking again.
                        self.cache.insert(
                            key,
                            Kept {
                                broken: Some(why.clone()),
                                fails: false,
                                answers: BTreeMap::new(),
                            },
                        );
                        trial.not_in_place = Some(why);
                    }
                }
            } else {
                trial.not_in_place = have.broken.clone();
            }
        }
        let kept = match kept {
            Some(k) => k,
            None => {
                let mut have = self.cache.get(&built_key).cloned().unwrap_or_default();
                trial.unresolved = have.broken.clone();
                let missing = missing(&have, all, probes);
                if !missing.is_empty() {
                    trial.cached = false;
                    self.lane.set(snap)?;
                    let built = match &self.build {
                        Some(cmd) => {
                            let b = build(cmd, &self.lane.dir);
                            trial.build_secs = b.secs;
                            b.result
                        }
                        None => Ok(()),
                    };
                    match built.and_then(|()| self.ask(all, &missing)) {
                        Ok(answers) => have.answers.extend(answers),
                        Err(why) => {
                            have.broken = Some(why.clone());
                            trial.unresolved = Some(why);
                        }
                    }
                    self.cache.insert(built_key, have.clone());
                    self.save()?;
                }
                have
            }
        };
        let verdicts: Vec<Verdict> = probes
            .iter()
            .map(|&i| match (&kept.broken, kept.answers.get(&all[i].key)) {
                (Some(why), _) => Verdict::Unresolved(why.clone()),
                (None, Some(line)) => self.judge(&all[i], line),
                (None, None) => Verdict::Unresolved("no answer".into()),
            })
            .collect();
        trial.as_head = verdicts.iter().filter(|v| **v == Verdict::Head).count();
        if !trial.cached {
            // Progress on stderr: a build can take a while, and there may be many.
            eprintln!(
                "attribution: variant {}: {}: {}",
                self.trials.len() + 1,
                trial.label,
                match &trial.unresolved {
                    Some(why) =>
                        format!("could not be asked ({})", crate::review::compare::cut(why)),
                    None => format!(
                        "{} of {} input(s) as head ({} {:.1} s)",
                        trial.as_head,
                        trial.asked,
                        if trial.in_place {
                            "compiled in place"
                        } else {
                            "build"
                        },
                        trial.build_secs
                    ),
                }
            );
        }
        self.trials.push(trial);
        Ok(verdicts)
    }

    /// Compiles `snap` in place (its files that differ from the origin's)
    /// and asks it `probes`: the compile request's seconds and each
    /// answer's line. `Err` says why the variant is to be built instead.
    fn ask_in_place(
        &mut self,
        snap: &Snapshot,
        all: &[Probe],
        probes: &[usize],
    ) -> Result<InPlaceResult, String> {
        let Some((origin_dir, origin)) = &self.origin else {
            return Err("no origin".into());
        };
        if let Some(gone) = origin.files.keys().find(|p| !snap.files.contains_key(*p)) {
            return Err(format!(
                "{gone} is removed (a build decides what that does)"
            ));
        }
        let changed: Vec<&str> = snap
            .files
            .iter()
            .filter(|(p, c)| origin.files.get(*p) != Some(c))
            .map(|(p, _)| p.as_str())
            .collect();
        if changed.len() > IN_PLACE_MOST_FILES {
            // Compiling them all in place costs more than an incremental
            // build and a start (measured on v0.12.0 -> v0.13.0: 4.6 s a
            // variant of some 70 files, against 1.4 s a build).
            return Err(format!(
                "{} files differ from base's (in place compiles at most {IN_PLACE_MOST_FILES})",
                changed.len()
            ));
        }
        if matches!(self.in_place, InPlace::Unstarted) {
            let dir = origin_dir.to_string_lossy().into_owned();
            let mut cfg = self.adapter.clone();
            cfg.command = self
                .template
                .iter()
                .map(|a| a.replace("{dir}", &dir))
                .collect();
            match Adapter::start(cfg) {
                Ok(a) if a.extensions().contains("compile") => {
                    eprintln!(
                        "attribution: the adapter lists compile: variants are compiled in place on {} where it will",
                        origin_dir.display()
                    );
                    self.in_place = InPlace::Ready(Box::new(a));
                }
                Ok(_) => {
                    self.in_place =
                        InPlace::Off("the adapter does not list the compile extension".into());
                    return Err("the adapter does not compile in place".into());
                }
                Err(e) => {
                    let why = format!("base's adapter for compiling in place: {e}");
                    self.in_place = InPlace::Off(why.clone());
                    return Err(why);
                }
            }
        }
        self.lane.set(snap)?;
        let InPlace::Ready(adapter) = &mut self.in_place else {
            return Err("compiling in place is off".into());
        };
        let restarts = adapter.restarts;
        let json = serde_json::json!([self.lane.dir.to_string_lossy(), changed]).to_string();
        let request = Request {
            op: "compile",
            args: &[],
            args_json: Some(&json),
        };
        let started = std::time::Instant::now();
        let answer = adapter.call_setup(&[request]).pop();
        let secs = started.elapsed().as_secs_f64();
        // The ops the variant declares answer the probes of ops one side declares.
        let declared: Vec<String> = match answer {
            Some(Answer::Ok(Term::List(items)))
                if items.iter().all(|t| matches!(t, Term::Str(_))) =>
            {
                items
                    .into_iter()
                    .filter_map(|t| match t {
                        Term::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect()
            }
            Some(Answer::Ok(other)) => {
                let why = format!(
                    "the compile request answered {}, not the list of ops the variant declares",
                    crate::review::compare::cut(&wire::encode_args(&[other]))
                );
                self.in_place_off(why.clone());
                return Err(why);
            }
            Some(Answer::Unsupported(why)) => return Err(format!("in place: {why}")),
            // The variant's own files do not compile: it does not build.
            Some(Answer::Raised(r)) if r.class == "CompileError" => {
                return Ok(InPlaceResult::Fails(secs, r.message))
            }
            Some(Answer::Raised(r)) => {
                return Err(format!("in place: the compile request raised {}", r.class))
            }
            Some(other) => {
                let why = format!("the compile request: {}", describe_answer(&other));
                self.in_place_off(why.clone());
                return Err(why);
            }
            None => return Err("the compile request: no answer".into()),
        };
        let InPlace::Ready(adapter) = &mut self.in_place else {
            return Err("compiling in place is off".into());
        };
        let out = answer_probes(adapter, all, probes, &|op| declared.iter().any(|d| d == op));
        if adapter.restarts != restarts {
            // A restarted adapter runs base's build again, not the variant.
            let why = "the in-place adapter was restarted while answering".to_owned();
            self.in_place_off(why.clone());
            return Err(why);
        }
        Ok(InPlaceResult::Answered(secs, out))
    }

    /// Starts the variant's adapter and asks it `probes`: each answer's
    /// line, by probe key. An adapter that does not start is an error (the
    /// variant cannot be asked); an answer that is no valid answer is not
    /// kept (asked again next time).
    fn ask(&self, all: &[Probe], probes: &[usize]) -> Result<Vec<(String, String)>, String> {
        let dir = self.lane.dir.to_string_lossy().into_owned();
        let mut cfg = self.adapter.clone();
        cfg.command = self
            .template
            .iter()
            .map(|a| a.replace("{dir}", &dir))
            .collect();
        let mut adapter = Adapter::start(cfg).map_err(|e| format!("its adapter: {e}"))?;
        let ops = adapter.ops();
        Ok(answer_probes(&mut adapter, all, probes, &|op| {
            ops.contains(op)
        }))
    }

    fn judge(&self, probe: &Probe, line: &str) -> Verdict {
        let Ok((_, got)) = wire::parse_answer(line.trim_end()) else {
            return Verdict::Unresolved("a cached answer is not an answer line".into());
        };
        let same = |want: &Answer| match &probe.ask {
            Ask::Declares(_) => got == *want,
            Ask::Call { op, args } => alike(op, args, want, &got, self.strictness),
        };
        if same(&probe.head) {
            Verdict::Head
        } else if same(&probe.base) {
            Verdict::Base
        } else {
            Verdict::Other
        }
    }

    fn save(&self) -> Result<(), String> {
        let v: serde_json::Map<String, serde_json::Value> = self
            .cache
            .iter()
            .map(|(k, kept)| {
                (
                    k.clone(),
                    serde_json::json!({"broken": kept.broken, "fails": kept.fails, "answers": kept.answers}),
                )
            })
            .collect();
        let text = serde_json::to_string(&v).map_err(|e| e.to_string())?;
        std::fs::write(&self.cache_file, text)
            .map_err(|e| format!("{}: cannot write: {e}", self.cache_file.display()))
    }
}

/// What a compile request made of a variant.
enum InPlaceResult {
    /// Compiled: its seconds, and each probe's answer line.
    Answered(f64, Vec<(String, String)>),
    /// Its files do not compile (`CompileError`): its seconds and why.
    Fails(f64, String),
}

/// Each probe's answer line from `adapter`, by probe key: its calls
/// asked in one batch (an answer that is no valid answer left out, to be
/// asked again), the ops it declares by `declares`.
fn answer_probes(
    adapter: &mut Adapter,
    all: &[Probe],
    probes: &[usize],
    declares: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let calls: Vec<(usize, Request<'_>)> = probes
        .iter()
        .filter_map(|&i| match &all[i].ask {
            Ask::Call { op, args } => Some((i, Request::new(op.name, args))),
            Ask::Declares(_) => None,
        })
        .collect();
    let requests: Vec<Request<'_>> = calls.iter().map(|(_, r)| *r).collect();
    let answers = adapter.call_many(&requests);
    let mut out = Vec::new();
    for ((i, _), a) in calls.iter().zip(answers) {
        if matches!(a, Answer::Error(_)) {
            continue;
        }
        let mut line = String::new();
        wire::push_answer(&mut line, "0", &a);
        out.push((all[*i].key.clone(), line));
    }
    for &i in probes {
        if let Ask::Declares(op) = &all[i].ask {
            let mut line = String::new();
            wire::push_answer(&mut line, "0", &Answer::Ok(Term::Bool(declares(op))));
            out.push((all[i].key.clone(), line));
        }
    }
    out
}

/// The cache key of a variant's in-place answers.
fn in_place_key(built: &str) -> String {
    format!("{built} in place")
}

/// The probes whose answers `kept` lacks (none when it is broken).
fn missing(kept: &Kept, all: &[Probe], probes: &[usize]) -> Vec<usize> {
    probes
        .iter()
        .copied()
        .filter(|&i| kept.broken.is_none() && !kept.answers.contains_key(&all[i].key))
        .collect()
}

fn describe_answer(a: &Answer) -> String {
    match a {
        Answer::Ok(_) => "ok".into(),
        Answer::Error(e) => format!("no valid answer ({e})"),
        other => format!("{other:?}"),
    }
}

fn read_cache(text: &str) -> Result<BTreeMap<String, Kept>, String> {
    let v: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| format!("not the kit's answer cache: {e}"))?;
    v.into_iter()
        .map(|(k, e)| {
            let broken = e.get("broken").and_then(|b| b.as_str()).map(str::to_owned);
            let answers = e
                .get("answers")
                .and_then(|a| a.as_object())
                .ok_or_else(|| format!("entry {k}: no \"answers\" object"))?
                .iter()
                .map(|(p, l)| {
                    l.as_str()
                        .map(|l| (p.clone(), l.to_owned()))
                        .ok_or_else(|| format!("entry {k}: answer {p} is not a string"))
                })
                .collect::<Result<_, _>>()?;
            let fails = e.get("fails").and_then(|f| f.as_bool()).unwrap_or(false);
            Ok((
                k,
                Kept {
                    broken,
                    fails,
                    answers,
                },
            ))
        })
        .collect()
}

/// Whether `got` is the answer `want` is, to `op` on `args`: the judge of
/// `run` and `compare` ([`same_answer`]), structs as answered; two
/// answers that give no expectation alike when of one sort.
pub fn alike(op: &Op, args: &[Term], want: &Answer, got: &Answer, strictness: Strictness) -> bool {
    match crate::review::fuzz::expectation(want) {
        Some(expect) => matches!(
            same_answer(op, args, &expect, got, strictness, Reading::AsAnswered),
            Outcome::Pass
        ),
        None => std::mem::discriminant(want) == std::mem::discriminant(got),
    }
}
