//! Which change of the code made each difference, settled by test, when
//! `compare` is given the two builds' sources (docs/reviewer.md § Which
//! change made it). Each kind's smallest example and a few more of its
//! inputs are *probes*; variants of the sources between base and head are
//! built and asked them ([`lab`]). Over a git range, the commits are
//! bisected for every probe at once ([`search::bisect`]); within the
//! commit found, or between two trees, the diff's hunks ([`hunks`]) are
//! tried alone on base, then delta-debugged ([`search::ddmin`]) for the
//! probes no single hunk reproduces. A cause is one culprit, the smallest
//! set of hunks (and their commit) that makes its probes answer as head;
//! a kind whose probes have different culprits is split by culprit, and
//! kinds with one culprit are one cause. Hunks of the diffs tried that no
//! probe needs are listed as without wire effect found.
//!
//! The model and the judge are the kit's ([`crate::judging`]); this module
//! only builds, asks and searches.

pub mod constants;
pub mod hunks;
pub mod lab;
pub mod search;
pub mod text;
pub mod tree;

use crate::judging::outcome::Strictness;
use crate::review::compare::Comparison;
use crate::subject::adapter::AdapterConfig;
use hunks::Hunk;
use lab::{Lab, Probe, Verdict};
use search::Seen;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tree::{Commit, Filter, Lane, Snapshot};

/// The sources given: two trees, or a git repository and a range.
#[derive(Clone, Debug)]
pub enum Given {
    /// `--base-src DIR --head-src DIR`.
    Trees {
        /// Base's tree.
        base: PathBuf,
        /// Head's tree.
        head: PathBuf,
    },
    /// `--git REPO --range A..B`.
    Git {
        /// The repository.
        repo: PathBuf,
        /// `A..B`.
        range: String,
    },
}

/// How to attribute.
#[derive(Clone, Debug)]
pub struct Config {
    /// The sources.
    pub given: Given,
    /// `--build`: run with `sh -c` in a tree's directory before it is asked.
    pub build: Option<String>,
    /// `--src` globs: which files are sources (all but build outputs when none).
    pub src: Vec<String>,
    /// Where lanes, builds and the answer cache live.
    pub scratch: PathBuf,
    /// The adapter command for a variant, `{dir}` standing for its tree.
    pub template: Vec<String>,
    /// Timeouts and the rest of an adapter's settings.
    pub adapter: AdapterConfig,
    /// Compare's level: a variant answers as head when the judge says so at it.
    pub strictness: Strictness,
    /// Corpus cases of a kind probed besides its smallest example.
    pub per_kind: usize,
    /// Compile variants in place where the adapter lists `compile` (AP-19);
    /// `false` (`--no-in-place`) builds every variant.
    pub in_place: bool,
}

/// The two sides' trees, ready for their adapters.
#[derive(Debug)]
pub struct Prepared {
    /// Base's directory (`{dir}` of `--base`).
    pub base_dir: PathBuf,
    /// Head's directory.
    pub head_dir: PathBuf,
    base: Snapshot,
    head: Snapshot,
    commits: Vec<Commit>,
    filter: Filter,
    /// Each preparing build: its label and seconds.
    pub builds: Vec<(String, f64)>,
}

impl Prepared {
    /// The hunks of the whole diff, base to head.
    pub fn hunks(&self) -> Vec<Hunk> {
        hunks::hunks(&self.base, &self.head)
    }

    /// The functions the diff's hunks lie in (`Module.name`, as
    /// [`hunks::function_at`] names them), once each, in diff order: what
    /// the `reach` extension is asked about.
    pub fn functions(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for h in self.hunks() {
            if let Some(f) = h.function {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// The diff's constants, which the generator aims a share of its
    /// inputs at ([`constants::constants`]).
    pub fn dictionary(&self) -> Vec<ptc_conformance::term::Term> {
        constants::constants(&self.hunks())
    }
}

/// Reads the sources and, with `--build`, builds base and head: the two
/// trees in place, or for a range its two ends each in a lane of the
/// scratch directory.
pub fn prepare(cfg: &Config) -> Result<Prepared, String> {
    let filter = Filter::new(&cfg.src)?;
    std::fs::create_dir_all(&cfg.scratch)
        .map_err(|e| format!("--scratch {}: cannot create: {e}", cfg.scratch.display()))?;
    let mut builds = Vec::new();
    let mut run_build = |label: &str, dir: &Path| -> Result<(), String> {
        if let Some(cmd) = &cfg.build {
            let b = tree::build(cmd, dir);
            builds.push((label.to_owned(), b.secs));
            b.result
                .map_err(|e| format!("{label}'s build failed: {e}"))?;
        }
        Ok(())
    };
    match &cfg.given {
        Given::Trees { base, head } => {
            let b = tree::read_dir(base, &filter).map_err(|e| format!("--base-src: {e}"))?;
            let h = tree::read_dir(head, &filter).map_err(|e| format!("--head-src: {e}"))?;
            run_build("base", base)?;
            run_build("head", head)?;
            Ok(Prepared {
                base_dir: base.clone(),
                head_dir: head.clone(),
                base: b,
                head: h,
                commits: Vec::new(),
                filter,
                builds,
            })
        }
        Given::Git { repo, range } => {
            let commits = tree::commits(repo, range)?;
            let (first, last) = (&commits[0], &commits[commits.len() - 1]);
            let b = tree::read_commit(repo, &first.id, &filter)?;
            let h = tree::read_commit(repo, &last.id, &filter)?;
            if b.files.is_empty() {
                return Err(format!(
                    "--git {}: commit {} has no source file{}",
                    repo.display(),
                    first.short(),
                    if filter.given.is_empty() {
                        ""
                    } else {
                        " matching --src"
                    }
                ));
            }
            let mut dirs = Vec::new();
            for (label, snap, commit) in [("base", &b, first), ("head", &h, last)] {
                // The whole tree (mix.exs, priv/, ... as a checkout has
                // them), its sources being the files --src keeps.
                let (all, absent) = tree::read_commit_all(repo, &commit.id)?;
                if !absent.is_empty() {
                    eprintln!(
                        "attribution: {label} (commit {}): {} file(s) the repository cannot give are left out of its tree: {}",
                        commit.short(),
                        absent.len(),
                        crate::review::compare::cut(&absent.join(", "))
                    );
                }
                let mut lane = Lane::new(cfg.scratch.join(label), None)?;
                lane.seed(&all, snap)?;
                run_build(label, &lane.dir)?;
                dirs.push(lane.dir);
            }
            let head_dir = dirs.pop().unwrap_or_default();
            let base_dir = dirs.pop().unwrap_or_default();
            Ok(Prepared {
                base_dir,
                head_dir,
                base: b,
                head: h,
                commits,
                filter,
                builds,
            })
        }
    }
}

/// A hunk of a diff tried, with its commit (over a range).
#[derive(Clone, Debug)]
pub struct Placed {
    /// The commit whose diff holds it (over a range), or the interval of
    /// commits when bisection could not narrow it to one.
    pub commit: Option<Commit>,
    /// The hunk.
    pub hunk: Hunk,
}

/// A cause named by test: its culprit and the kinds it makes.
#[derive(Clone, Debug)]
pub struct Culprit {
    /// Over a range, the commit (or the commits, oldest first, when the
    /// commits between could not be built).
    pub commits: Vec<Commit>,
    /// The smallest set of hunks that reproduces its probes.
    pub hunks: Vec<Hunk>,
    /// How the set was found.
    pub how: String,
    /// Its kinds (indices into the comparison's groups), and the ops one side declares.
    pub kinds: Vec<usize>,
    /// The ops one side declares that it makes.
    pub ops: Vec<String>,
    /// Its probes (indices into [`Attribution::probes`]).
    pub probes: Vec<usize>,
    /// The interval of commit indices it lies in (`(0, 1)` for two trees).
    pub interval: (usize, usize),
}

/// What attribution found.
#[derive(Debug)]
pub struct Attribution {
    /// Two trees or a range of N commits.
    pub mode: String,
    /// The probes asked.
    pub probes: Vec<Probe>,
    /// One per culprit.
    pub causes: Vec<Culprit>,
    /// Hunks of the diffs tried that no probe needs.
    pub no_effect: Vec<Placed>,
    /// Commits of the range whose diffs held no culprit (not delta-debugged).
    pub quiet_commits: usize,
    /// Probes no variant could be made to answer as head, with why.
    pub unattributed: Vec<(usize, String)>,
    /// Every variant tried.
    pub trials: Vec<lab::Trial>,
    /// Builds of the preparation.
    pub prepare_builds: Vec<(String, f64)>,
    /// Wall time of the attribution (after the comparison).
    pub secs: f64,
    /// What the `reach` extension saw of the diff's functions, when a side
    /// lists it: a hunk without wire effect that no input reached says so.
    pub reach: Option<crate::review::reach::Reach>,
    /// How variants were tested when compiling in place was asked for:
    /// in place and confirmed, or off and why.
    pub in_place: Option<String>,
}

/// The probes of a comparison: each kind's smallest example, up to
/// `per_kind` of its corpus cases, and each op one side declares.
pub fn probes(c: &Comparison<'_>, per_kind: usize) -> Vec<Probe> {
    let mut out = Vec::new();
    for (i, g) in c.groups.iter().enumerate() {
        let Some(op) = ptc_conformance::ops::find(g.kind.op) else {
            // A struct field one side has is a kind of no one op: its
            // corpus cases, with their answers, are its probes.
            if g.kind.one_sided() {
                // Its own cases, else those of the differences it explains.
                let cases = g
                    .cases
                    .iter()
                    .chain(g.also.iter().flat_map(|a| a.cases.iter()));
                for case in cases.take(per_kind + 1) {
                    if let Some(d) = c.differences.iter().find(|d| d.case.id == case.id) {
                        if !matches!(d.base, crate::subject::Answer::Error(_))
                            && !matches!(d.head, crate::subject::Answer::Error(_))
                        {
                            out.push(Probe::call(
                                Some(i),
                                d.case.op,
                                d.case.args.clone(),
                                (d.base.clone(), d.head.clone()),
                            ));
                        }
                    }
                }
            }
            continue;
        };
        if matches!(g.example.base, crate::subject::Answer::Error(_))
            || matches!(g.example.head, crate::subject::Answer::Error(_))
        {
            continue; // an adapter's fault: nothing to attribute
        }
        out.push(Probe::call(
            Some(i),
            op,
            g.example.args.clone(),
            (g.example.base.clone(), g.example.head.clone()),
        ));
        for d in c
            .differences
            .iter()
            .filter(|d| d.kind == g.kind && g.example.case.as_deref() != Some(d.case.id.as_str()))
            .take(per_kind)
        {
            out.push(Probe::call(
                Some(i),
                d.case.op,
                d.case.args.clone(),
                (d.base.clone(), d.head.clone()),
            ));
        }
    }
    for o in &c.one_sided_ops {
        out.push(Probe::declares(&o.name, o.declared_by == "head"));
    }
    out
}

/// Most single hunks tried alone before delta debugging: past it, `ddmin`
/// alone (its last rounds try single hunks too) costs fewer builds.
const SINGLES: usize = 24;

/// Attributes each difference of `comparison` to the change that made it.
pub fn attribute(
    cfg: &Config,
    prepared: &Prepared,
    comparison: &Comparison<'_>,
) -> Result<Attribution, String> {
    let started = std::time::Instant::now();
    let probes = probes(comparison, cfg.per_kind);
    let lane = Lane::new(
        cfg.scratch.join("variant"),
        Some((prepared.base_dir.as_path(), prepared.base.clone())),
    )?;
    let mut lab = Lab::new(
        lane,
        cfg.build.clone(),
        cfg.template.clone(),
        cfg.adapter.clone(),
        cfg.strictness,
        &cfg.scratch,
        cfg.in_place
            .then(|| (prepared.base_dir.clone(), prepared.base.clone())),
    )?;
    // What was compiled in place is confirmed built at the end; where a
    // build disagrees, the whole search is made again with builds alone.
    let mut attribution = search_all(cfg, prepared, &probes, &mut lab)?;
    if lab.in_place().is_some() {
        if let Some(why) = confirm(cfg, prepared, &probes, &mut lab, &attribution)? {
            lab.in_place_off(why.clone());
            attribution = search_all(cfg, prepared, &probes, &mut lab)?;
            attribution.in_place = Some(format!(
                "compiled in place, then turned off ({why}): every variant built"
            ));
        } else {
            attribution.in_place = Some(match lab.in_place() {
                Some(Err(why)) => format!("off ({why}): variants built"),
                _ => "variants compiled in place where the adapter would; each cause's confirmed built".to_owned(),
            });
        }
    }
    attribution.probes = probes;
    attribution.trials = std::mem::take(&mut lab.trials);
    attribution.secs = started.elapsed().as_secs_f64();
    Ok(attribution)
}

/// Whether what in place said of the causes holds built: for each cause,
/// its variant (the older end of its interval with its hunks) built
/// answers its inputs as head, and for a cause within a commit of a range,
/// that commit's parent built does not. `Some(why)` when a build
/// disagrees.
fn confirm(
    cfg: &Config,
    prepared: &Prepared,
    probes: &[Probe],
    lab: &mut Lab,
    a: &Attribution,
) -> Result<Option<String>, String> {
    for c in &a.causes {
        let (lo, hi) = c.interval;
        let (old, new, _) = interval_snapshots(cfg, prepared, lo, hi)?;
        let hs = hunks::hunks(&old, &new);
        let set: Vec<usize> = c
            .hunks
            .iter()
            .filter_map(|h| hs.iter().position(|x| x == h))
            .collect();
        let variant = hunks::apply(&old, &hs, &set);
        let calls: Vec<usize> = c
            .probes
            .iter()
            .copied()
            .filter(|&p| matches!(probes[p].ask, lab::Ask::Call { .. }))
            .collect();
        if calls.is_empty() {
            continue;
        }
        if lab.only_in_place(&variant, probes, &calls) {
            let v = lab.try_built(
                format!("confirming built: {}", place_of(c)),
                &variant,
                probes,
                &calls,
            )?;
            if let Some(n) = v.iter().position(|v| *v != Verdict::Head) {
                return Ok(Some(format!(
                    "{} answered as head in place and {:?} built ({})",
                    probes[calls[n]].describe(),
                    v[n],
                    place_of(c)
                )));
            }
        }
        if lo > 0 && lab.only_in_place(&old, probes, &calls) {
            let parent = &prepared.commits[lo];
            let v = lab.try_built(
                format!("confirming built: commit {} (the parent)", parent.short()),
                &old,
                probes,
                &calls,
            )?;
            if let Some(n) = v.iter().position(|v| *v == Verdict::Head) {
                return Ok(Some(format!(
                    "commit {} answered {} as head built, not in place",
                    parent.short(),
                    probes[calls[n]].describe()
                )));
            }
        }
    }
    Ok(None)
}

fn place_of(c: &Culprit) -> String {
    c.hunks
        .iter()
        .map(|h| h.place())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The search: commits bisected, hunks tried and delta-debugged.
fn search_all(
    cfg: &Config,
    prepared: &Prepared,
    probes: &[Probe],
    lab: &mut Lab,
) -> Result<Attribution, String> {
    let all: Vec<usize> = (0..probes.len()).collect();
    let probes = probes.to_vec();
    // Intervals: (lo, hi) commit indices; for two trees, (0, 1).
    let (intervals, mode) = if prepared.commits.is_empty() {
        (vec![(0usize, 1usize); probes.len()], "two trees".to_owned())
    } else {
        let Given::Git { repo, .. } = &cfg.given else {
            return Err("commits without a repository".into());
        };
        let commits = &prepared.commits;
        let mut snaps: BTreeMap<usize, Snapshot> = BTreeMap::new();
        let iv = search::bisect(commits.len(), probes.len(), &mut |at, who| {
            let snap = match snaps.get(&at) {
                Some(s) => s.clone(),
                None => {
                    let s = tree::read_commit(repo, &commits[at].id, &prepared.filter)?;
                    snaps.insert(at, s.clone());
                    s
                }
            };
            let c = &commits[at];
            let label = format!("commit {} {:?}", c.short(), c.subject);
            let mut verdicts = lab.try_variant(label.clone(), &snap, &probes, who)?;
            // A commit of the history that does not compile in place is
            // built: a commit that does not build is rare, and in place
            // may be wrong about it.
            if lab.failed_only_in_place(&snap) {
                verdicts = lab.try_built(label, &snap, &probes, who)?;
                if !verdicts.iter().all(|v| matches!(v, Verdict::Unresolved(_))) {
                    lab.in_place_off(format!(
                        "commit {} does not compile in place, and builds",
                        c.short()
                    ));
                }
            }
            Ok(verdicts
                .into_iter()
                .map(|v| match v {
                    Verdict::Head => Seen::New,
                    Verdict::Base | Verdict::Other => Seen::Old,
                    Verdict::Unresolved(_) => Seen::Untestable,
                })
                .collect())
        })?;
        (iv, format!("a range of {} commit(s)", commits.len() - 1))
    };
    let mut by_interval: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for (p, iv) in intervals.iter().enumerate() {
        by_interval.entry(*iv).or_default().push(p);
    }
    // Each probe's culprits: its commits, hunk set, how found, interval.
    // (More than one when the probe shows independent changes at once.)
    type Found = (Vec<Commit>, Vec<usize>, String, (usize, usize));
    let mut culprit_of: BTreeMap<usize, Vec<Found>> = BTreeMap::new();
    let mut unattributed = Vec::new();
    let mut diffs: BTreeMap<(usize, usize), Vec<Hunk>> = BTreeMap::new();
    for (&(lo, hi), inputs) in &by_interval {
        let (old, new, commits) = interval_snapshots(cfg, prepared, lo, hi)?;
        let hs = hunks::hunks(&old, &new);
        let label = |chosen: &[usize]| -> String {
            let at = commits
                .last()
                .map(|c| format!(" (commit {})", c.short()))
                .unwrap_or_default();
            if chosen.len() == hs.len() {
                format!("base + all {} hunk(s){at}", hs.len())
            } else {
                format!(
                    "base + hunk(s) {}{at}",
                    chosen
                        .iter()
                        .map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        };
        let everything: Vec<usize> = (0..hs.len()).collect();
        // The whole diff must reproduce a probe before its parts are searched.
        let whole = hunks::apply(&old, &hs, &everything);
        let mut full = lab.try_variant(label(&everything), &whole, &probes, inputs)?;
        // In place, the whole diff not answering as head may be in place's
        // doing (what a build carries further): asked built, and where the
        // build answers as head, in place is off for the rest of the run.
        let not_head: Vec<usize> = inputs
            .iter()
            .zip(&full)
            .filter(|(_, v)| **v != Verdict::Head)
            .map(|(&p, _)| p)
            .collect();
        if !not_head.is_empty()
            && (lab.only_in_place(&whole, &probes, &not_head) || lab.failed_only_in_place(&whole))
        {
            let built = lab.try_built(label(&everything), &whole, &probes, &not_head)?;
            if built.contains(&Verdict::Head) {
                lab.in_place_off(format!(
                    "base with every hunk of {} compiled in place answers unlike head where built it answers as head",
                    commits
                        .last()
                        .map(|c| format!("commit {}", c.short()))
                        .unwrap_or_else(|| "the diff".into())
                ));
            }
            for (p, v) in not_head.iter().zip(built) {
                if let Some(i) = inputs.iter().position(|q| q == p) {
                    full[i] = v;
                }
            }
        }
        let mut open: Vec<usize> = Vec::new();
        for (&p, v) in inputs.iter().zip(full) {
            match v {
                Verdict::Head => open.push(p),
                Verdict::Base | Verdict::Other => unattributed.push((
                    p,
                    "base with every hunk of the diff applied does not answer it as head (a file --src leaves out? a build that differs?)".to_owned(),
                )),
                Verdict::Unresolved(why) => unattributed.push((p, format!("base with every hunk applied: {why}"))),
            }
        }
        if hs.len() == 1 {
            for p in open.drain(..) {
                culprit_of.entry(p).or_default().push((
                    commits.clone(),
                    vec![0],
                    "the diff's one hunk".into(),
                    (lo, hi),
                ));
            }
        }
        // Each hunk alone on base; where one does not build, its function's
        // hunks together, then its file's (dd+'s grouping).
        let mut within: Vec<(usize, Vec<usize>)> = Vec::new();
        if !open.is_empty() && hs.len() <= SINGLES {
            let mut units: Vec<Vec<usize>> = (0..hs.len()).map(|i| vec![i]).collect();
            let mut broken: Vec<usize> = Vec::new();
            let mut tried: Vec<Vec<usize>> = Vec::new();
            while let Some(unit) = units.first().cloned() {
                units.remove(0);
                if tried.contains(&unit) || open.is_empty() {
                    continue;
                }
                tried.push(unit.clone());
                let verdicts = lab.try_variant(
                    label(&unit),
                    &hunks::apply(&old, &hs, &unit),
                    &probes,
                    &open,
                )?;
                if verdicts.iter().any(|v| matches!(v, Verdict::Unresolved(_))) {
                    broken.extend(unit.iter().copied());
                    let grouped = |same: &dyn Fn(&Hunk, &Hunk) -> bool| -> Vec<usize> {
                        (0..hs.len())
                            .filter(|&j| unit.iter().any(|&u| same(&hs[u], &hs[j])))
                            .collect()
                    };
                    for g in [
                        grouped(&|a, b| {
                            a.path == b.path && a.function == b.function && a.function.is_some()
                        }),
                        grouped(&|a, b| a.path == b.path),
                    ] {
                        if g.len() > unit.len() && !tried.contains(&g) {
                            units.push(g);
                        }
                    }
                    continue;
                }
                let mut still = Vec::new();
                for (&p, v) in open.iter().zip(verdicts) {
                    match v {
                        Verdict::Head if unit.len() == 1 => {
                            culprit_of.entry(p).or_default().push((
                                commits.clone(),
                                unit.clone(),
                                "the hunk alone on base answers as head".to_owned(),
                                (lo, hi),
                            ))
                        }
                        // A group (its hunks do not build apart): the
                        // smallest part of it is searched below.
                        Verdict::Head => within.push((p, unit.clone())),
                        _ => still.push(p),
                    }
                }
                open = still;
            }
            let _ = broken;
        }
        // What no single unit reproduces: ddmin over the hunks, per probe
        // (variants shared through the cache).
        let searches: Vec<(usize, Vec<usize>)> = open
            .into_iter()
            .map(|p| (p, everything.clone()))
            .chain(within)
            .collect();
        for (p, units) in searches {
            let mut test = |set: &[usize]| -> Result<Option<bool>, String> {
                let v =
                    lab.try_variant(label(set), &hunks::apply(&old, &hs, set), &probes, &[p])?;
                Ok(match &v[0] {
                    Verdict::Head => Some(true),
                    Verdict::Base | Verdict::Other => Some(false),
                    Verdict::Unresolved(_) => None,
                })
            };
            // Files first, each file's hunks one unit (a file's hunks often
            // build only together, files apart: hierarchical delta
            // debugging), then the hunks of the files found.
            let mut by_file: Vec<Vec<usize>> = Vec::new();
            for &u in &units {
                match by_file.iter_mut().find(|f| hs[f[0]].path == hs[u].path) {
                    Some(f) => f.push(u),
                    None => by_file.push(vec![u]),
                }
            }
            // A set already found for another probe of this diff that also
            // makes this one answer as head is searched first: only within it.
            let mut known: Vec<Vec<usize>> = culprit_of
                .values()
                .flatten()
                .filter(|f| f.3 == (lo, hi) && f.1.iter().all(|h| units.contains(h)))
                .map(|f| f.1.clone())
                .collect();
            known.sort_by_key(Vec::len);
            known.dedup();
            let mut within_known = None;
            for k in known {
                if test(&k)? == Some(true) {
                    within_known = Some(k);
                    break;
                }
            }
            let in_files = if let Some(k) = within_known {
                k
            } else if by_file.len() > 1 {
                let mut per_file = |sets: &[Vec<usize>]| test(&sets.concat());
                let mut files = search::ddmin(&by_file, &mut per_file)?.concat();
                files.sort_unstable();
                files
            } else {
                units.clone()
            };
            let found = search::ddmin(&in_files, &mut test)?;
            if found.len() == 1 {
                let how = "delta debugging: the one hunk base needs to answer as head".to_owned();
                culprit_of
                    .entry(p)
                    .or_default()
                    .push((commits.clone(), found, how, (lo, hi)));
                continue;
            }
            // Hunks that need each other, or independent changes that show
            // in one answer at once: each hunk alone changes the answer
            // (it builds, and answers as neither side) only in the latter.
            let mut each_changes = true;
            for &h in &found {
                let v =
                    lab.try_variant(label(&[h]), &hunks::apply(&old, &hs, &[h]), &probes, &[p])?;
                each_changes &= v[0] == Verdict::Other;
            }
            if each_changes {
                for &h in &found {
                    let how = format!(
                        "delta debugging: its input shows {} changes at once (each hunk alone changes the answer, all {} together answer as head)",
                        found.len(),
                        found.len()
                    );
                    culprit_of.entry(p).or_default().push((
                        commits.clone(),
                        vec![h],
                        how,
                        (lo, hi),
                    ));
                }
            } else {
                let how = format!(
                    "delta debugging: {} hunks, none of which can be left out (one alone does not build, or does not change the answer)",
                    found.len()
                );
                culprit_of
                    .entry(p)
                    .or_default()
                    .push((commits.clone(), found, how, (lo, hi)));
            }
        }
        diffs.insert((lo, hi), hs);
    }
    // One cause per culprit.
    let mut causes: Vec<Culprit> = Vec::new();
    let mut index: BTreeMap<((usize, usize), Vec<usize>), usize> = BTreeMap::new();
    for (p, (commits, set, how, iv)) in all
        .iter()
        .flat_map(|p| culprit_of.get(p).into_iter().flatten().map(move |f| (p, f)))
    {
        let i = *index.entry((*iv, set.clone())).or_insert_with(|| {
            causes.push(Culprit {
                commits: commits.clone(),
                hunks: set.iter().map(|&h| diffs[iv][h].clone()).collect(),
                how: how.clone(),
                kinds: Vec::new(),
                ops: Vec::new(),
                probes: Vec::new(),
                interval: *iv,
            });
            causes.len() - 1
        });
        let c = &mut causes[i];
        c.probes.push(*p);
        match (&probes[*p].group, &probes[*p].ask) {
            (Some(g), _) if !c.kinds.contains(g) => c.kinds.push(*g),
            (None, lab::Ask::Declares(op)) if !c.ops.contains(op) => c.ops.push(op.clone()),
            _ => {}
        }
    }
    let mut no_effect = Vec::new();
    for (iv, hs) in &diffs {
        for (h, hunk) in hs.iter().enumerate() {
            if !index.keys().any(|(civ, set)| civ == iv && set.contains(&h)) {
                let commits = interval_commits(prepared, iv.0, iv.1);
                no_effect.push(Placed {
                    commit: commits.last().cloned(),
                    hunk: hunk.clone(),
                });
            }
        }
    }
    let quiet_commits = if prepared.commits.is_empty() {
        0
    } else {
        let culprit_commits: std::collections::BTreeSet<usize> =
            diffs.keys().map(|iv| iv.1).collect();
        (prepared.commits.len() - 1).saturating_sub(culprit_commits.len())
    };
    Ok(Attribution {
        mode,
        probes,
        causes,
        no_effect,
        quiet_commits,
        unattributed,
        trials: Vec::new(),
        prepare_builds: prepared.builds.clone(),
        secs: 0.0,
        reach: None,
        in_place: None,
    })
}

/// The commits an interval `(lo, hi)` names: those after `lo` up to `hi`.
fn interval_commits(prepared: &Prepared, lo: usize, hi: usize) -> Vec<Commit> {
    if prepared.commits.is_empty() {
        Vec::new()
    } else {
        prepared.commits[lo + 1..=hi].to_vec()
    }
}

/// The two ends of an interval and its commits.
fn interval_snapshots(
    cfg: &Config,
    prepared: &Prepared,
    lo: usize,
    hi: usize,
) -> Result<(Snapshot, Snapshot, Vec<Commit>), String> {
    let commits = interval_commits(prepared, lo, hi);
    match &cfg.given {
        Given::Trees { .. } => Ok((prepared.base.clone(), prepared.head.clone(), commits)),
        Given::Git { repo, .. } => Ok((
            tree::read_commit(repo, &prepared.commits[lo].id, &prepared.filter)?,
            tree::read_commit(repo, &prepared.commits[hi].id, &prepared.filter)?,
            commits,
        )),
    }
}
