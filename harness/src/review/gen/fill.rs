//! `lint --coverage --emit DIR`: a case for each class the corpus holds at
//! no place of its op ([`crate::corpus::coverage`]). The class's example
//! ([`super::classes::Class::example`]) is put at the place, or for a size
//! class the seed's own collection there resized
//! ([`super::classes::Class::like`]); the rest of
//! the input is an existing case of the op (its *seed*), chosen so that
//! the op gets past its earlier checks: one that already has the place,
//! holds at every release, answers a value rather than an exception, is
//! required, and is smallest. The case cites its seed's rules at its
//! seed's level, unless it raises: then the rules of the op's cases that
//! raise the same (`cite`).
//!
//! The expectation written is the reference's at v0.13.0, a draft: every
//! expectation of the corpus comes from the real builds of each release,
//! so the cases are blessed from them (`bless --from-adapter --release R
//! --write`) before they join `golden/`, and a release build that answers
//! otherwise than the reference is a reference bug.

use super::classes::Class;
use super::ops::{names_a_module, never_inspected, vm_ordered_keys};
use super::places::Place;
use crate::corpus::coverage::Coverage;
use crate::corpus::{Case, Corpus, Expect, Level};
use crate::review::fuzz::emit::{write_case, NewCase};
use crate::subject::reference::Reference;
use crate::subject::Request;
use ptc_conformance::term::Term;
use ptc_conformance::Release;
use std::path::{Path, PathBuf};

/// A case to write for one open class.
#[derive(Clone, Debug)]
pub struct Fill {
    /// Its id (its path under the corpus root).
    pub id: String,
    /// The seed's id.
    pub seed: String,
    /// The op.
    pub op: &'static ptc_conformance::ops::Op,
    /// The place's name.
    pub place: String,
    /// The class's name.
    pub class: String,
    /// The arguments: the seed's, with the class's example at the place.
    pub args: Vec<Term>,
    /// The seed's rules.
    pub spec: Vec<String>,
    /// The seed's level.
    pub level: Level,
    /// The releases the seed holds for, when not every one.
    pub releases: Option<Vec<Release>>,
}

/// A case for each open class of `cov`, and a line for each open class
/// no seed takes.
pub fn plan(corpus: &Corpus, cov: &Coverage) -> (Vec<Fill>, Vec<String>) {
    let (mut fills, mut none) = (Vec::new(), Vec::new());
    for (p, cell) in cov.open() {
        let (Some(place), Some(class)) = (p.at, super::classes::by_name(&cell.class)) else {
            continue;
        };
        match fill_one(corpus, place, class) {
            Some(f) => fills.push(f),
            None => none.push(format!(
                "{} {} {}: no case of the op takes the class there",
                p.op, p.place, cell.class
            )),
        }
    }
    (fills, none)
}

/// The seeds of `place` in the order [`fill_one`] tries them.
fn seeds<'c>(corpus: &'c Corpus, place: &Place) -> Vec<&'c Case> {
    let mut cases: Vec<&Case> = corpus
        .cases
        .iter()
        .filter(|c| c.op.name == place.op)
        .collect();
    cases.sort_by_key(|c| {
        (
            place.values(&c.args).is_empty(),
            c.releases.only.is_some(),
            !matches!(c.expect, Expect::Ok(_)),
            c.level != Level::Required,
            c.args_json.len(),
            c.id.clone(),
        )
    });
    cases
}

/// The case for `class` at `place`, from the first seed that takes it. A
/// collection of a size class is made of a seed's own items there
/// ([`Class::like`]: a list of tools stays one) when some seed has them;
/// only when none has is the class's example put in.
pub fn fill_one(corpus: &Corpus, place: &'static Place, class: Class) -> Option<Fill> {
    let seeds = seeds(corpus, place);
    let shaped = seeds.iter().filter_map(|seed| {
        let like = place
            .values(&seed.args)
            .first()
            .and_then(|v| class.like(v))?;
        Some((*seed, like))
    });
    let plain = seeds.iter().map(|seed| (*seed, class.example()));
    for (seed, example) in shaped.chain(plain) {
        let Some(args) = place.put(&seed.args, &example) else {
            continue;
        };
        if !place.values(&args).iter().any(|v| class.holds(v))
            || args
                .iter()
                .any(|a| vm_ordered_keys(a) || names_a_module(a) || never_inspected(a))
        {
            continue;
        }
        let dir = seed.id.rsplit_once('/').map_or("", |(d, _)| d);
        let releases = holding_releases(seed.releases.only.as_deref(), &args);
        return Some(Fill {
            id: format!(
                "{dir}/cover-{}-{}",
                place_slug(&place.name()),
                class_slug(&class.name())
            ),
            seed: seed.id.clone(),
            op: seed.op,
            place: place.name(),
            class: class.name(),
            args,
            spec: seed.spec.clone(),
            level: seed.level,
            releases,
        });
    }
    None
}

/// The releases a case with `args` holds for, given its seed's (`None`:
/// every one): those whose structs have every field the args write (a
/// `%Tool{}` with `visibility` exists from v0.13.0 on, REL-1).
fn holding_releases(seed: Option<&[Release]>, args: &[Term]) -> Option<Vec<Release>> {
    fn fields_exist(rel: Release, t: &Term) -> bool {
        match t {
            Term::Struct(s) => s.fields.iter().all(|(f, v)| {
                (ptc_conformance::structs::fields_of(&s.module).is_none()
                    || ptc_conformance::structs::has_field_at(rel, &s.module, f))
                    && fields_exist(rel, v)
            }),
            Term::List(items) | Term::Tuple(items) => items.iter().all(|i| fields_exist(rel, i)),
            Term::Map(m) => m
                .iter()
                .all(|(k, v)| fields_exist(rel, k) && fields_exist(rel, v)),
            Term::Fun(f) => match &**f {
                ptc_conformance::term::FunSpec::Returns { returns, .. } => {
                    fields_exist(rel, returns)
                }
                _ => true,
            },
            _ => true,
        }
    }
    let holds: Vec<Release> = Release::ALL
        .into_iter()
        .filter(|r| seed.is_none_or(|only| only.contains(r)))
        .filter(|r| args.iter().all(|a| fields_exist(*r, a)))
        .collect();
    (holds.len() < Release::ALL.len()).then_some(holds)
}

/// A place's name as an id segment: `args[1][:limit]` → `a1-limit`,
/// `args[0][*].expose` → `a0-elem-expose`.
pub fn place_slug(name: &str) -> String {
    let name = name.strip_prefix("args").unwrap_or(name);
    let mut out = String::from("a");
    let mut sep = false;
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' => {
                if sep && out.len() > 1 {
                    out.push('-');
                }
                sep = false;
                out.push(c);
            }
            '*' => {
                if out.len() > 1 {
                    out.push('-');
                }
                sep = false;
                out.push_str("elem");
            }
            _ => sep = true,
        }
    }
    out
}

/// A class's name as an id segment: `int:negative` → `int-negative`,
/// `function:arity-2+` → `function-arity-2plus`.
pub fn class_slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '.' => out.push(c),
            '+' => out.push_str("plus"),
            _ if !out.ends_with('-') => out.push('-'),
            _ => {}
        }
    }
    out
}

/// Writes `fills` under `dir`, each with the reference's answer at
/// v0.13.0 as a draft expectation (to be blessed from the release builds);
/// returns the paths.
pub fn write(dir: &Path, corpus: &Corpus, fills: &[Fill]) -> Result<Vec<PathBuf>, String> {
    let reference = Reference::at(Release::V0_13_0);
    let mut paths = Vec::new();
    for f in fills {
        let answer = reference.answer(Request::new(f.op.name, &f.args));
        let (spec, level, cited) = cite(corpus, f, &answer);
        let args_json = crate::subject::wire::encode_args(&f.args);
        let description = format!(
            "Coverage: {} at {}, the rest of the input as {}",
            f.class, f.place, f.seed
        );
        let notes = format!(
            "Written by `lint --coverage --emit` (issue 51): the class {} at {} of {}, which no case held; the rest of the input is {}'s. Cited: {cited}. Expectations from the PtcRunner build of each release (bless --from-adapter --release R).",
            f.class, f.place, f.op.name, f.seed
        );
        let path = write_case(
            dir,
            &NewCase {
                id: &f.id,
                op: f.op,
                description: &description,
                spec: &spec,
                level,
                args: &f.args,
                args_json: &args_json,
                answer: &answer,
                notes: &notes,
            },
        )?;
        // Features of the answers at every release, as the reference
        // gives them, for the expectations each release's build adds.
        let mut used = std::collections::BTreeSet::new();
        for rel in f.releases.clone().unwrap_or_else(|| Release::ALL.to_vec()) {
            if let crate::subject::Answer::Ok(t) =
                Reference::at(rel).answer(Request::new(f.op.name, &f.args))
            {
                ptc_conformance::features::used_by(&t, &mut used);
            }
        }
        finish(&path, f.releases.as_deref(), &used)?;
        paths.push(path);
    }
    Ok(paths)
}

/// The rules a case cites and its level: an answer that raises cites the
/// rules of the op's written cases (not `cover-` ones) that raise a
/// message of the same template, else of the same class (the three most cited, pinned when all
/// those cases are), since the seed's rules are about another answer; any
/// other answer, or one no written case raises, cites the seed's rules at
/// its level. The third part says which, for the notes.
fn cite(
    corpus: &Corpus,
    f: &Fill,
    answer: &crate::subject::Answer,
) -> (Vec<String>, Level, String) {
    let seed = || {
        (
            f.spec.clone(),
            f.level,
            format!("the rules of {}, at its level", f.seed),
        )
    };
    let crate::subject::Answer::Raised(r) = answer else {
        return seed();
    };
    let written: Vec<&Case> = corpus
        .cases
        .iter()
        .filter(|c| c.op.name == f.op.name && !c.id.contains("/cover-"))
        .collect();
    // The message's template (`spec/data/messages.json`), as porter data
    // matches cases to templates.
    let template = ptc_conformance::elixir::messages::ALL
        .iter()
        .filter(|t| t.class == Some(r.class.as_str()))
        .map(|t| template_pattern(t.text))
        .find(|re| re.is_match(&r.message));
    let raising = |same_template: bool| -> Vec<&Case> {
        written
            .iter()
            .copied()
            .filter(|c| match &c.expect {
                Expect::Raised { class, message } => {
                    *class == r.class
                        && (!same_template
                            || template.as_ref().is_some_and(|re| {
                                message.as_deref().is_some_and(|m| re.is_match(m))
                            }))
                }
                Expect::Ok(_) => false,
            })
            .collect()
    };
    let (chosen, why) = match (raising(true), raising(false)) {
        (same, _) if !same.is_empty() => (same, "message template"),
        (_, class) if !class.is_empty() => (class, "exception class"),
        _ => return seed(),
    };
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for c in &chosen {
        for rule in &c.spec {
            *counts.entry(rule.as_str()).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let rules: Vec<String> = ranked
        .iter()
        .take(3)
        .map(|(r, _)| (*r).to_owned())
        .collect();
    let level = if chosen.iter().all(|c| c.level == Level::Pinned) {
        Level::Pinned
    } else {
        Level::Required
    };
    let ids: Vec<&str> = chosen.iter().take(3).map(|c| c.id.as_str()).collect();
    (
        rules,
        level,
        format!(
            "the most cited rules of the op's cases that raise the same {why} ({}{})",
            ids.join(", "),
            if chosen.len() > 3 { ", ..." } else { "" }
        ),
    )
}

/// A message template's text as a regex: each `{name}` placeholder any text.
fn template_pattern(text: &str) -> regex::Regex {
    let mut re = String::from("(?s)^");
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') {
            re.push_str(&regex::escape(&rest[..open]));
            re.push_str(".*?");
            rest = &after[len + 1..];
        } else {
            re.push_str(&regex::escape(&rest[..=open]));
            rest = after;
        }
    }
    re.push_str(&regex::escape(rest));
    re.push('$');
    regex::Regex::new(&re).unwrap_or_else(|e| panic!("template {text:?}: {e}"))
}

/// Adds `features` to the case file at `path` (those its draft answer
/// and args use are declared already) and writes `"releases"` after its
/// `"level"` line, where the corpus writes it.
fn finish(
    path: &Path,
    releases: Option<&[Release]>,
    features: &std::collections::BTreeSet<&'static str>,
) -> Result<(), String> {
    let read = |e: std::io::Error| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(read)?;
    let start = text
        .find("  \"features\": [")
        .ok_or_else(|| format!("{}: no features", path.display()))?;
    let end = start
        + text[start..]
            .find("],\n")
            .ok_or_else(|| format!("{}: features not closed", path.display()))?;
    let mut all: std::collections::BTreeSet<&str> = text[start + 15..end]
        .split(',')
        .map(|f| f.trim().trim_matches('"'))
        .filter(|f| !f.is_empty())
        .collect();
    all.extend(features.iter().copied());
    let ordered: Vec<String> = ptc_conformance::features::ALL
        .iter()
        .filter(|f| all.contains(**f))
        .map(|f| format!("    \"{f}\""))
        .collect();
    let block = if ordered.is_empty() {
        "  \"features\": [".to_owned()
    } else {
        format!("  \"features\": [\n{}\n  ", ordered.join(",\n"))
    };
    let mut text = format!("{}{block}{}", &text[..start], &text[end..]);
    if let Some(only) = releases {
        let list: Vec<String> = only.iter().map(|r| format!("    \"{r}\"")).collect();
        let line = text
            .lines()
            .find(|l| l.starts_with("  \"level\": "))
            .ok_or_else(|| format!("{}: no level line", path.display()))?
            .to_owned();
        text = text.replacen(
            &line,
            &format!("{line}\n  \"releases\": [\n{}\n  ],", list.join(",\n")),
            1,
        );
    }
    std::fs::write(path, text).map_err(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_matches_its_messages() {
        let re = template_pattern("key {key} not found in: {term}");
        assert!(re.is_match("key :memory not found in: %{a: 1}"));
        assert!(!re.is_match("no key :memory"));
        assert!(template_pattern("a {b c} {d}").is_match("a {b c} x"));
    }

    #[test]
    fn slugs_are_id_segments() {
        assert_eq!(
            place_slug("args[1][:format_options][:feedback_max_chars]"),
            "a1-format_options-feedback_max_chars"
        );
        assert_eq!(place_slug("args[0].expose"), "a0-expose");
        assert_eq!(place_slug("args[0][*].expose"), "a0-elem-expose");
        assert_eq!(place_slug("args[1]{1}"), "a1-1");
        assert_eq!(class_slug("int:negative"), "int-negative");
        assert_eq!(class_slug("float:-0.0"), "float-0.0");
        assert_eq!(class_slug("function:arity-2+"), "function-arity-2plus");
        assert_eq!(class_slug("struct:PtcRunner.Tool"), "struct-PtcRunner.Tool");
    }
}
