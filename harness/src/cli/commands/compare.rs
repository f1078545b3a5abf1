//! `ptc-conformance compare`: two builds held against each other.

use super::fuzz::{fuzz_config, planned, print_fuzz_totals, progress_display, Budget};
use crate::cli::args::{load_clean, seconds, start, CorpusArgs, Filter};
use crate::exit::Failure;
use crate::judging::outcome::Strictness;
use crate::review::compare::{Comparison, Group};
use crate::review::show::{answer_line, args_line};
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
    /// split as a shell would (e.g. "elixir -pa ... adapter.exs").
    #[arg(long, value_name = "CMD")]
    pub base: String,
    /// The second build: a command line, split as a shell would.
    #[arg(long, value_name = "CMD")]
    pub head: String,
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
    let (base_cfg, head_cfg) = (side("base", &args.base)?, side("head", &args.head)?);
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
    };
    let mut base = start(base_cfg)?;
    let mut head = start(head_cfg)?;
    let pretty = args.format == CompareFormat::Pretty;
    if pretty {
        println!(
            "{}\nbase: {}\nhead: {}",
            corpus.describe(),
            base.name(),
            head.name()
        );
        if cfg.fuzz.is_some() {
            println!("fuzz seed {seed} (replay: --seed {seed})");
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
    if pretty {
        print_pretty(&c);
    } else {
        let mut v = c.to_json();
        v["seed"] = serde_json::json!(cfg.fuzz.as_ref().map(|_| seed));
        v["corpus"] = serde_json::json!(corpus.info());
        v["spec"] = serde_json::json!(corpus.spec);
        println!(
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

/// Characters of an example's line (an answer, a line of diff) shown.
const LINE_CHARS: usize = 120;
/// Width the lists of a kind are wrapped at.
const WRAP: usize = 100;

/// Prints what only one side declares, each kind once, the fuzzing totals
/// and the summary.
fn print_pretty(c: &Comparison<'_>) {
    for o in c.one_sided_ops.iter().chain(&c.one_sided_features) {
        let kind = if c.one_sided_ops.contains(o) {
            "op"
        } else {
            "feature"
        };
        println!(
            "ONLY {} DECLARES {kind} {} ({} selected case(s) run on neither side)",
            o.declared_by.to_uppercase(),
            o.name,
            o.cases
        );
    }
    if let Some(f) = &c.fuzz {
        println!();
        print_fuzz_totals(f);
        if f.unanswered > 0 {
            println!(
                "  ({} inputs base could not answer, not compared)",
                f.unanswered
            );
        }
    }
    let generated: usize = c.groups.iter().map(|g| g.generated).sum();
    let (explained_cases, explained_generated) = c.explained();
    let listed = c.differences.len() - explained_cases;
    if !c.groups.is_empty() {
        println!(
            "\n{} kind(s) of difference ({listed} corpus case(s), {generated} generated input(s)), each once with its smallest example:",
            c.groups.len(),
        );
    }
    for (i, g) in c.groups.iter().enumerate() {
        print_group(i + 1, g);
    }
    if explained_cases + explained_generated > 0 {
        println!(
            "\n{} differences explained by the struct changes above ({explained_cases} corpus case(s), {explained_generated} generated input(s)): equal once the fields only one side's struct has are removed, with their text, from both answers, or a refusal of an input naming such a field",
            explained_cases + explained_generated
        );
    }
    for fault in &c.faults {
        println!("\nADAPTER FAULT {fault}");
    }
    println!(
        "\ncompare: {} cases selected, {} answered alike, {} answered differently ({explained_cases} explained by struct changes), {} run on neither side, {} unanswered by both; {} generated input(s) answered differently ({explained_generated} explained by struct changes); {} kind(s) of difference; {} op(s) and {} feature(s) declared by one side only",
        c.selected,
        c.agreed,
        c.differences.len(),
        c.skipped,
        c.unanswered,
        generated + explained_generated,
        c.groups.len(),
        c.one_sided_ops.len(),
        c.one_sided_features.len()
    );
    if c.compared() == 0 {
        println!("compare: nothing was compared: neither the selected cases nor generated inputs were answered by both sides");
    }
}

/// `n case(s)`, `n input(s)` or both, joined by `+`.
fn counts(cases: usize, generated: usize) -> String {
    let mut out = Vec::new();
    if cases > 0 {
        out.push(format!("{cases} case(s)"));
    }
    if generated > 0 {
        out.push(format!("{generated} input(s)"));
    }
    out.join(" + ")
}

/// `items` after `label`, comma-separated, wrapped at [`WRAP`] characters.
fn print_wrapped(label: &str, items: &[String]) {
    let mut line = format!("  {label}");
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        if line.len() + 1 + piece.len() > WRAP && line.trim().len() > label.len() {
            println!("{line}");
            line = "   ".to_owned();
        }
        line.push(' ');
        line.push_str(&piece);
    }
    println!("{line}");
}

/// Prints one kind: its title with its counts, its first case, its
/// smallest example on three short lines with the point where the answers
/// differ, and what a struct change explains elsewhere.
fn print_group(n: usize, g: &Group<'_>) {
    println!(
        "\nKIND {n}. {}: {}",
        g.kind.title(("base", "head")),
        counts(g.cases.len(), g.generated)
    );
    if let Some(first) = g.cases.first() {
        let more = g.cases.len() - 1;
        let more = if more > 0 {
            format!(" (+{more} more)")
        } else {
            String::new()
        };
        println!("  cases: {}{more}", first.id);
    }
    let from = match (&g.example.case, g.example.shrink_steps) {
        (Some(id), _) => format!("case {id}"),
        (None, Some(steps)) => format!("generated, shrunk in {steps} steps"),
        (None, None) => String::new(),
    };
    println!("  e.g. ({from}) {}", cut(&args_line(&g.example.args)));
    println!("    base: {}", cut(&answer_line(&g.example.base)));
    println!("    head: {}", cut(&answer_line(&g.example.head)));
    let lines: Vec<&str> = g.example.diff.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("first difference at"));
    let shown = match at {
        Some(i) => &lines[i..(i + 3).min(lines.len())],
        None => &lines[..1.min(lines.len())],
    };
    for line in shown {
        println!("    {}", cut(line.trim()));
    }
    let (answers, refusals): (Vec<_>, Vec<_>) = g.also.iter().partition(|a| !a.refused);
    let list = |v: &[&crate::review::compare::AlsoSeen<'_>]| -> Vec<String> {
        v.iter()
            .map(|a| format!("{} {}", a.op, counts(a.cases.len(), a.generated)))
            .collect()
    };
    if !answers.is_empty() {
        print_wrapped("also seen in:", &list(&answers));
    }
    if !refusals.is_empty() {
        let side = match &g.kind.how {
            crate::review::kinds::How::OnlyIn(crate::review::kinds::Side::Actual) => "base",
            _ => "head",
        };
        print_wrapped(
            &format!("refused by {side} where args name it:"),
            &list(&refusals),
        );
    }
    if let Some(p) = &g.emitted {
        println!("  case written to {}", p.display());
    }
}

/// `line` cut to [`LINE_CHARS`] characters, with how many were cut.
fn cut(line: &str) -> String {
    let n = line.chars().count();
    if n <= LINE_CHARS {
        return line.to_owned();
    }
    let head: String = line.chars().take(LINE_CHARS).collect();
    format!("{head}…(+{} chars)", n - LINE_CHARS)
}
