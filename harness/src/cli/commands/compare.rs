//! `ptc-conformance compare`: two builds held against each other.

use super::fuzz::{fuzz_config, planned, print_struct_field_notes, progress_display, Budget};
use crate::cli::args::{load_clean, seconds, start, CorpusArgs, Filter};
use crate::cli::out::{out, outln};
use crate::exit::Failure;
use crate::judging::outcome::Strictness;
use crate::review::causes::Trigger;
use crate::review::compare::Comparison;
use crate::subject::adapter::AdapterConfig;
use crate::subject::Subject;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `compare` arguments.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Corpus location.
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Case selection (`--op` also limits the fuzzed ops).
    #[command(flatten)]
    pub filter: Filter,
    /// The first build, whose answers are the expectation: a command line,
    /// split as a shell would (e.g. "elixir -pa ... adapter.exs"). With
    /// sources, `{dir}` in it stands for the tree, and one of --base and
    /// --head may serve both.
    #[arg(long, value_name = "CMD")]
    pub base: Option<String>,
    /// The second build: a command line, split as a shell would.
    #[arg(long, value_name = "CMD")]
    pub head: Option<String>,
    /// Sources, as two trees: base's. With them, which change of the code
    /// made each difference is tested (docs/reviewer.md § Which change made it,
    /// in the kit's source; spec/adapter_protocol.md AP-19 for the extensions).
    #[arg(long, value_name = "DIR", requires = "head_src", conflicts_with_all = ["git", "range"])]
    pub base_src: Option<PathBuf>,
    /// Sources: head's tree.
    #[arg(long, value_name = "DIR", requires = "base_src")]
    pub head_src: Option<PathBuf>,
    /// Sources, as a git repository (with --range): its commits between
    /// base and head are bisected, the culprit's hunks delta-debugged.
    #[arg(long, value_name = "REPO", requires = "range")]
    pub git: Option<PathBuf>,
    /// With --git: `A..B`, base and head.
    #[arg(long, value_name = "A..B", requires = "git")]
    pub range: Option<String>,
    /// With sources: the command that builds a tree, run with `sh -c` in
    /// its directory (e.g. 'mix compile').
    #[arg(long, value_name = "CMD")]
    pub build: Option<String>,
    /// With sources: which files are sources (a glob, repeatable; default:
    /// every file but build outputs such as _build/ and deps/).
    #[arg(long, value_name = "GLOB")]
    pub src: Vec<String>,
    /// With sources: where lanes, builds and cached answers live (default:
    /// a directory of the system's temporary one named by the sources).
    #[arg(long, value_name = "DIR")]
    pub scratch: Option<PathBuf>,
    /// With sources: corpus cases of each kind asked besides its smallest example.
    #[arg(long, value_name = "N", default_value = "3")]
    pub probes_per_kind: usize,
    /// With sources: aim the generated inputs at the diff (its constants,
    /// the reach extension) but do not test which change made each
    /// difference (no variant is built).
    #[arg(long)]
    pub no_attribution: bool,
    /// With sources: build every variant, even where the adapter lists the
    /// `compile` extension (AP-19) and could compile it in place.
    #[arg(long)]
    pub no_in_place: bool,
    /// `strict` (default) compares rendered JSON byte for byte; `default` as JSON.
    #[arg(long, value_enum, default_value = "strict")]
    pub level: Strictness,
    /// Write one case file per kind of difference (its smallest example)
    /// under DIR (expectation: base's answer).
    #[arg(long, value_name = "DIR")]
    pub emit: Option<PathBuf>,
    /// Generated inputs in all at most, taken from the ops in turn (0: the
    /// corpus only; default: no cap, each op gets --cases-per-op).
    #[arg(long, value_name = "N")]
    pub cases: Option<usize>,
    /// Generated inputs per op.
    #[command(flatten)]
    pub budget: Budget,
    /// Report format.
    #[arg(long, value_enum, default_value = "pretty")]
    pub format: CompareFormat,
    /// Generator seed (printed when not given, for replay).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop fuzzing after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value = "5")]
    pub timeout: f64,
    /// Seconds start-up and the handshake may take.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub startup_timeout: f64,
    /// Afterwards, time each side answering the generated inputs alone,
    /// and report this comparison's time as a ratio of the slower one's
    #[arg(long)]
    pub alone: bool,
}

/// How `compare` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// Each kind of difference once, for people.
    Pretty,
    /// The same as data.
    Json,
}

/// Runs the corpus and the fuzzer against base and head and prints each
/// kind of difference once.
pub fn exec(args: CompareArgs) -> Result<(), Failure> {
    let pretty = args.format == CompareFormat::Pretty;
    let corpus = load_clean(&args.corpus)?;
    let selection = args.filter.selection(None);
    let cases = selection.apply(&corpus).map_err(Failure::usage)?;
    if cases.is_empty() {
        return Err(Failure::usage(format!(
            "no case matches {} ({} cases in the corpus)",
            selection.describe(),
            corpus.cases.len()
        )));
    }
    let side = |name: &str, line: &str| -> Result<AdapterConfig, Failure> {
        let argv = shlex::split(line)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| Failure::usage(format!("--{name} {line:?}: not a command line")))?;
        let mut cfg = AdapterConfig::new(argv);
        cfg.timeout = seconds("timeout", args.timeout)?;
        cfg.startup_timeout = seconds("startup-timeout", args.startup_timeout)?;
        Ok(cfg)
    };
    let sources = sources_of(&args)?;
    let (base_line, head_line) = match (&args.base, &args.head, &sources) {
        (Some(b), Some(h), _) => (b.clone(), h.clone()),
        (Some(one), None, Some(_)) | (None, Some(one), Some(_)) => (one.clone(), one.clone()),
        (None, _, _) => return Err(Failure::usage("compare needs --base CMD (and --head CMD)")),
        (_, None, _) => return Err(Failure::usage("compare needs --head CMD (with --base-src/--head-src or --git/--range, one of --base and --head may serve both)")),
    };
    let prepared = match &sources {
        Some(s) => {
            if pretty {
                outln!("sources: {}", describe_sources(&s.given));
            }
            Some(
                crate::review::culprits::prepare(s)
                    .map_err(|e| Failure::failed(format!("compare: {e}")))?,
            )
        }
        None => None,
    };
    let at = |line: &str, dir: Option<&std::path::Path>| match dir {
        Some(d) => line.replace("{dir}", &d.to_string_lossy()),
        None => line.to_owned(),
    };
    let (base_cfg, head_cfg) = (
        side(
            "base",
            &at(&base_line, prepared.as_ref().map(|p| p.base_dir.as_path())),
        )?,
        side(
            "head",
            &at(&head_line, prepared.as_ref().map(|p| p.head_dir.as_path())),
        )?,
    );
    let seed = crate::review::fuzz::seed_or_now(args.seed);
    let fuzz = match args.cases {
        Some(0) => None,
        cases => Some(fuzz_config(
            &args.filter.op,
            cases,
            &args.budget,
            seed,
            args.time,
            &corpus,
        )?),
    };
    let mut cfg = crate::review::compare::CompareConfig {
        strictness: args.level,
        emit: args.emit.clone(),
        fuzz,
        alone: args.alone,
    };
    if let (Some(p), Some(f)) = (&prepared, &mut cfg.fuzz) {
        f.dictionary = p.dictionary();
        if pretty {
            let shown: Vec<String> = f
                .dictionary
                .iter()
                .take(8)
                .map(|t| crate::review::compare::cut(&ptc_conformance::tagged::encode(t)))
                .collect();
            outln!(
                "aimed: {} hunk(s) in the diff; {} of its constants (with their neighbours and sizes) tried at every place, in a third of the generated inputs: {}{}",
                p.hunks().len(),
                f.dictionary.len(),
                shown.join(", "),
                if f.dictionary.len() > 8 { ", …" } else { "" }
            );
        }
    }
    let mut base = start(base_cfg)?;
    let mut head = start(head_cfg)?;
    if pretty {
        outln!(
            "{}\nbase: {}\nhead: {}",
            corpus.describe(),
            base.name(),
            head.name()
        );
        if cfg.fuzz.is_some() {
            outln!("fuzz seed {seed} (replay: --seed {seed})");
        }
    }
    let both: std::collections::BTreeSet<String> =
        base.ops().intersection(&head.ops()).cloned().collect();
    if let Some(f) = &mut cfg.fuzz {
        // A glob fuzzes the ops it matches that both sides declare.
        f.ops = crate::corpus::select::expand_ops(&args.filter.op, Some((&both, "both sides")))
            .map_err(Failure::usage)?
            .into_iter()
            .map(str::to_owned)
            .collect();
    }
    // The `reach` extension (AP-19): which corpus inputs reach the
    // functions the diff touches. Those ops get most of the generated
    // inputs, and those inputs are mutated first.
    let reach = match &prepared {
        Some(p) => crate::review::reach::measure(
            [("base", &mut base), ("head", &mut head)],
            &p.functions(),
            &cases,
        ),
        None => None,
    };
    if let (Some(r), Some(f)) = (reach.as_ref().filter(|r| r.measured()), &mut cfg.fuzz) {
        for &i in &r.reaching {
            let c = cases[i];
            f.reached
                .entry(c.op.name.to_owned())
                .or_default()
                .push(c.args.clone());
        }
        if let Ok(ops) = crate::review::fuzz::plan(&f.ops, &both) {
            let names: Vec<String> = ops.iter().map(|o| o.name.to_owned()).collect();
            if let Some(w) = crate::review::reach::weights(
                &names,
                &r.ops(),
                f.cases_per_op.saturating_mul(names.len()),
                f.batch,
            ) {
                f.weights = w;
            }
        }
    }
    if pretty {
        match &reach {
            Some(r) => {
                out!("{}", r.render());
                if let Some(f) = &cfg.fuzz {
                    if !f.weights.is_empty() {
                        let hot: Vec<String> = r.ops().into_iter().collect();
                        outln!(
                            "  the {} op(s) that reach a changed function get three quarters of the generated inputs ({}), the inputs that reached one are mutated in half of theirs",
                            hot.len(),
                            hot.join(", ")
                        );
                    }
                }
            }
            None if prepared.is_some() => outln!(
                "reach: not measured (neither side lists the reach extension, AP-19): every op gets an even share"
            ),
            None => {}
        }
    }
    let total = cfg.fuzz.as_ref().map_or(0, |f| {
        crate::review::fuzz::plan(&f.ops, &both).map_or(0, |ops| planned(f, ops.len()))
    });
    let (bar, mut progress) = progress_display(total);
    let c = crate::review::compare::compare(
        &mut base,
        &mut head,
        &cases,
        &corpus.cases,
        &cfg,
        &mut progress,
    )
    .map_err(|e| Failure::failed(format!("compare: {e}")))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let attribution = match (&sources, &prepared) {
        (Some(s), Some(p)) if !args.no_attribution => {
            // The two builds' adapters are not needed any more.
            drop(base);
            drop(head);
            let mut s = s.clone();
            s.template = template(&base_line, &head_line)?;
            let mut a = crate::review::culprits::attribute(&s, p, &c)
                .map_err(|e| Failure::failed(format!("compare: attribution: {e}")))?;
            a.reach = reach.clone();
            Some(a)
        }
        _ => None,
    };
    if pretty {
        print_pretty(&c);
        if let Some(a) = &attribution {
            out!("{}", crate::review::culprits::text::render(a, &c));
        } else if args.no_attribution {
            outln!("(--no-attribution: the sources aimed the inputs; which change made each difference was not tested)");
        } else {
            outln!("(no sources given: causes are named from the answers alone; --base-src/--head-src or --git/--range test which change made each)");
        }
    } else {
        let mut v = c.to_json();
        v["attribution"] = attribution
            .as_ref()
            .map(|a| crate::review::culprits::text::to_json(a, &c))
            .unwrap_or(serde_json::Value::Null);
        v["reach"] = reach
            .as_ref()
            .map(crate::review::reach::Reach::to_json)
            .unwrap_or(serde_json::Value::Null);
        v["seed"] = serde_json::json!(cfg.fuzz.as_ref().map(|_| seed));
        v["corpus"] = serde_json::json!(corpus.info());
        v["spec"] = serde_json::json!(corpus.spec);
        outln!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| Failure::failed(e.to_string()))?
        );
    }
    if c.passed() {
        Ok(())
    } else {
        Err(Failure::reported())
    }
}

/// The attribution's settings, when sources are given.
fn sources_of(args: &CompareArgs) -> Result<Option<crate::review::culprits::Config>, Failure> {
    use crate::review::culprits::Given;
    let given = match (&args.base_src, &args.head_src, &args.git, &args.range) {
        (Some(b), Some(h), None, None) => Given::Trees {
            base: b.clone(),
            head: h.clone(),
        },
        (None, None, Some(repo), Some(range)) => Given::Git {
            repo: repo.clone(),
            range: range.clone(),
        },
        (None, None, None, None) => {
            if args.build.is_some()
                || !args.src.is_empty()
                || args.scratch.is_some()
                || args.no_attribution
                || args.no_in_place
            {
                return Err(Failure::usage(
                    "--build, --src, --scratch, --no-attribution and --no-in-place go with sources: --base-src DIR --head-src DIR, or --git REPO --range A..B",
                ));
            }
            return Ok(None);
        }
        _ => {
            return Err(Failure::usage(
                "sources are --base-src DIR --head-src DIR, or --git REPO --range A..B, not both",
            ))
        }
    };
    let scratch = match &args.scratch {
        Some(d) => d.clone(),
        None => {
            let named = format!("{given:?} {:?} {:?}", args.build, args.src);
            let h = <sha2::Sha256 as sha2::Digest>::digest(named.as_bytes());
            std::env::temp_dir().join(format!(
                "ptc-conformance-attribution-{}",
                &crate::review::culprits::tree::hex(&h)[..16]
            ))
        }
    };
    let mut adapter = AdapterConfig::new(Vec::new());
    adapter.timeout = seconds("timeout", args.timeout)?;
    adapter.startup_timeout = seconds("startup-timeout", args.startup_timeout)?;
    Ok(Some(crate::review::culprits::Config {
        given,
        build: args.build.clone(),
        src: args.src.clone(),
        scratch,
        template: Vec::new(),
        adapter,
        strictness: args.level,
        per_kind: args.probes_per_kind,
        in_place: !args.no_in_place,
    }))
}

/// The adapter command of a variant: base's template, or head's, whichever holds `{dir}`.
fn template(base: &str, head: &str) -> Result<Vec<String>, Failure> {
    let line = [base, head]
        .into_iter()
        .find(|l| l.contains("{dir}"))
        .ok_or_else(|| {
            Failure::usage(format!(
                "with sources, --base or --head must hold {{dir}}, where each variant's tree goes (--base {base:?}, --head {head:?})"
            ))
        })?;
    shlex::split(line)
        .filter(|a| !a.is_empty())
        .ok_or_else(|| Failure::usage(format!("{line:?}: not a command line")))
}

fn describe_sources(g: &crate::review::culprits::Given) -> String {
    match g {
        crate::review::culprits::Given::Trees { base, head } => {
            format!("base tree {}, head tree {}", base.display(), head.display())
        }
        crate::review::culprits::Given::Git { repo, range } => {
            format!("git {} {range}", repo.display())
        }
    }
}

/// Lines of refusals the two sides give differently listed; the rest counted.
const DECLINES_SHOWN: usize = 12;

/// Prints the fuzzing totals as a reviewer of two builds needs them: the
/// inputs (one line when every op got as many), and of the requests
/// declined only those the two sides decline differently (a refusal both
/// give alike is counted, not listed: it is no difference).
fn print_totals(report: &crate::review::fuzz::FuzzReport) {
    let rate = report.checked as f64 / report.elapsed.as_secs_f64().max(1e-9);
    outln!(
        "{} inputs checked in {:.2}s ({rate:.0}/s), {} declined by head",
        report.checked,
        report.elapsed.as_secs_f64(),
        report.declined
    );
    let per_op: std::collections::BTreeSet<usize> = report
        .ops
        .iter()
        .map(|op| report.checked_per_op.get(op).copied().unwrap_or(0))
        .collect();
    match per_op.iter().next() {
        Some(n) if per_op.len() == 1 => {
            outln!(
                "  {n} inputs for each of the {} ops both declare",
                report.ops.len()
            );
        }
        _ => {
            let w = report.ops.iter().map(|o| o.len()).max().unwrap_or(2);
            for op in &report.ops {
                let n = report.checked_per_op.get(op).copied().unwrap_or(0);
                outln!("  {op:<w$}  {n:>8} inputs");
            }
        }
    }
    let mut by_place: std::collections::BTreeMap<(&str, &str), (usize, usize)> =
        std::collections::BTreeMap::new();
    for ((side, op, reason), n) in &report.declines {
        let e = by_place.entry((*op, reason.as_str())).or_default();
        if *side == "base" {
            e.0 += n;
        } else {
            e.1 += n;
        }
    }
    let (alike, mut differ): (Vec<_>, Vec<_>) =
        by_place.into_iter().partition(|(_, (b, h))| b == h);
    if !alike.is_empty() {
        let n: usize = alike.iter().map(|(_, (b, _))| b).sum();
        outln!(
            "{n} request(s) declined alike by both sides ({} op and reason(s); --format json lists them)",
            alike.len()
        );
    }
    if !differ.is_empty() {
        differ.sort_by(|a, b| {
            (b.1 .0.abs_diff(b.1 .1))
                .cmp(&a.1 .0.abs_diff(a.1 .1))
                .then(a.0.cmp(&b.0))
        });
        outln!("requests declined differently by the two sides, by op and reason (base, head):");
        for ((op, reason), (b, h)) in differ.iter().take(DECLINES_SHOWN) {
            outln!(
                "  {b:>8} {h:>8}  {op}: {}",
                crate::review::compare::cut(reason)
            );
        }
        if differ.len() > DECLINES_SHOWN {
            outln!(
                "  (+{} more op and reason(s); --format json lists them)",
                differ.len() - DECLINES_SHOWN
            );
        }
    }
    print_struct_field_notes(report);
}

/// Prints the summary of the causes (one line each), the fuzzing totals,
/// each cause once on its screen (its kinds beneath) and the totals.
fn print_pretty(c: &Comparison<'_>) {
    if !c.causes.is_empty() {
        outln!("\nSUMMARY: one line per cause (each on its own screen below)");
        out!("{}", c.summary_text());
    }
    if let Some(f) = &c.fuzz {
        outln!();
        print_totals(f);
        if let Some(l) = &c.learned {
            outln!("{}", l.describe());
            if !l.shown().is_empty() {
                let mut names = String::new();
                crate::review::compare::wrapped(&mut names, "  ", "learned:", l.shown());
                out!("{names}");
            }
        }
        if f.unanswered > 0 {
            outln!(
                "  ({} inputs base could not answer: each counted under its cause, and retried without the field where it named one base's struct lacks)",
                f.unanswered
            );
        }
    }
    let generated: usize = c.groups.iter().map(|g| g.generated).sum();
    let (explained_cases, explained_generated) = c.explained();
    let listed = c.differences.len() - explained_cases;
    let alone = c
        .causes
        .iter()
        .filter(|x| matches!(x.trigger, Trigger::Alone(_)))
        .count();
    let faults = c.causes.iter().filter(|x| x.is_fault()).count();
    let real = c.causes.len() - faults;
    let faulty = if faults > 0 {
        format!(
            " and {faults} of no valid answer (an adapter's fault, not a difference of behaviour)"
        )
    } else {
        String::new()
    };
    if !c.causes.is_empty() {
        outln!(
            "\n{real} cause(s) of difference ({} with no single trigger){faulty}, {} kind(s) ({listed} corpus case(s), {generated} generated input(s)), each cause once with its smallest example:",
            alone,
            c.groups.len(),
        );
    }
    out!("{}", c.causes_text());
    if explained_cases + explained_generated > 0 {
        outln!(
            "\n{} differences explained by the struct changes above ({explained_cases} corpus case(s), {explained_generated} generated input(s)): equal once the fields only one side's struct has are removed, with their text, from both answers, or a refusal of an input naming such a field",
            explained_cases + explained_generated
        );
    }
    for fault in &c.faults {
        outln!("\nADAPTER FAULT {fault}");
    }
    if !c.unanswered_cases.is_empty() {
        outln!(
            "\n{} case(s) answered by neither side:",
            c.unanswered_cases.len()
        );
        for (case, why) in c.unanswered_cases.iter().take(10) {
            outln!(
                "  {}: {}",
                case.id,
                crate::review::compare::cut(&crate::review::show::answer_line(why))
            );
        }
        if c.unanswered_cases.len() > 10 {
            outln!(
                "  (+{} more; --format json lists every one)",
                c.unanswered_cases.len() - 10
            );
        }
    }
    outln!("\n{}", c.timing.describe());
    outln!(
        "\ncompare: {} cases selected, {} answered alike, {} answered differently ({explained_cases} explained by struct changes), {} run on neither side, {} unanswered by both; {} generated input(s) answered differently ({explained_generated} explained by struct changes); {} cause(s), {} kind(s) of difference; {} op(s) and {} feature(s) declared by one side only",
        c.selected,
        c.agreed,
        c.differences.len(),
        c.skipped,
        c.unanswered,
        generated + explained_generated,
        real,
        c.groups.len(),
        c.one_sided_ops.len(),
        c.one_sided_features.len()
    );
    for o in &c.one_sided_features {
        outln!(
            "ONLY {} DECLARES feature {} ({} selected case(s) run on neither side)",
            o.declared_by.to_uppercase(),
            o.name,
            o.cases
        );
    }
    if c.compared() == 0 {
        outln!("compare: nothing was compared: neither the selected cases nor generated inputs were answered by both sides");
    }
}
