//! Discovery and loading of the golden corpus and the spec rules it cites.
//!
//! One case per file; a case's path under its corpus root, without `.json`,
//! is its id, and the file's `id` field must say the same. Loading collects
//! every problem (malformed file, unknown op, wrong argument count, unknown
//! spec rule, undeclared feature, duplicated id) instead of stopping at the
//! first, and each names the file and the case.
//!
//! The corpus and the spec come from the copies packed into the binary
//! ([`embedded`], the default) or from directories (`--corpus`, `--spec`),
//! both read through [`tree::Tree`], and the loaded [`Corpus`] names where
//! it came from ([`Corpus::name`]) for every report.
//!
//! [`case`] is one case file (its types and how it is read), [`lint`] the
//! checks across the corpus (every rule cited, every op covered, each
//! description agreeing with its case, [`describe`]) and
//! [`select`] which cases a command takes, and shards.

pub mod case;
pub mod coverage;
pub mod describe;
pub mod embedded;
pub mod lint;
pub mod select;
pub mod tree;

pub use case::{parse_case, Case, CaseReleases, CorpusError, Expect, Level};
pub use tree::{Origin, Provenance};

use embedded::Embedded;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tree::Tree;

/// The loaded corpus: cases sorted by id, and the problems found.
#[derive(Debug)]
pub struct Corpus {
    /// Cases that loaded cleanly, sorted by id.
    pub cases: Vec<Case>,
    /// Every problem found; a corpus with problems must not be run.
    pub errors: Vec<CorpusError>,
    /// The spec rules, id → the file that defines it.
    pub rules: BTreeMap<String, PathBuf>,
    /// How many files were scanned.
    pub files_scanned: usize,
    /// Rules checked by the harness's own tests instead of cases: rule id →
    /// the files that must name it (from a `<!-- lint: tested-by FILE... -->`
    /// line in the rule's spec file, paths relative to the spec's parent).
    pub tested_by: BTreeMap<String, Vec<PathBuf>>,
    /// Where the cases came from, how many files, their hash.
    pub provenance: Provenance,
    /// Where the spec came from, how many files, their hash.
    pub spec: Provenance,
}

impl Corpus {
    /// The corpus as every report names it.
    pub fn info(&self) -> CorpusInfo {
        CorpusInfo {
            roots: self.provenance.paths.clone(),
            cases: self.cases.len(),
            source: self.provenance.source.clone(),
            embedded: self.provenance.embedded,
            files: self.provenance.files,
            sha256: self.provenance.sha256.clone(),
        }
    }

    /// The corpus and the spec on two lines, as the text reports start
    /// ([`describe`]).
    pub fn describe(&self) -> String {
        describe(&self.info(), Some(&self.spec))
    }
}

/// Which corpus a run took its cases from, as every report names it: where
/// from (embedded in the binary, or directories), how many cases, and the
/// hash of its files (`sha256`): equal hashes, equal corpora.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CorpusInfo {
    /// The corpus roots as reports show them (`golden` for the embedded one).
    pub roots: Vec<String>,
    /// Cases in the corpus (the selection took some of them).
    pub cases: usize,
    /// `embedded in ptc-conformance VERSION` or `directory DIR`
    /// ([`Provenance::source`]; empty in reports written before it).
    #[serde(default)]
    pub source: String,
    /// Whether the corpus is the binary's own copy.
    #[serde(default)]
    pub embedded: bool,
    /// Files under the roots.
    #[serde(default)]
    pub files: usize,
    /// [`tree::sha256`] of those files: the same for the embedded copy and
    /// its export.
    #[serde(default)]
    pub sha256: String,
}

/// `corpus: 1301 cases, embedded in ptc-conformance 0.1.0, sha256 ...`
/// and, given the spec, `spec: 19 files, ..., sha256 ...` on a second line
/// (no trailing newline).
pub fn describe(corpus: &CorpusInfo, spec: Option<&Provenance>) -> String {
    let source = if corpus.source.is_empty() {
        corpus.roots.join(", ")
    } else {
        corpus.source.clone()
    };
    let mut out = format!("corpus: {} cases, {source}", corpus.cases);
    if !corpus.sha256.is_empty() {
        out.push_str(&format!(", sha256 {}", corpus.sha256));
    }
    if let Some(p) = spec {
        out.push_str(&format!(
            "\nspec: {} files, {}, sha256 {}",
            p.files, p.source, p.sha256
        ));
    }
    out
}

/// Name and value pairs for JUnit properties naming the corpus and spec.
pub fn properties(corpus: &CorpusInfo, spec: Option<&Provenance>) -> Vec<(String, String)> {
    let mut out = vec![
        ("corpus.source".to_owned(), corpus.source.clone()),
        ("corpus.embedded".to_owned(), corpus.embedded.to_string()),
        ("corpus.roots".to_owned(), corpus.roots.join(", ")),
        ("corpus.cases".to_owned(), corpus.cases.to_string()),
        ("corpus.files".to_owned(), corpus.files.to_string()),
        ("corpus.sha256".to_owned(), corpus.sha256.clone()),
    ];
    if let Some(p) = spec {
        out.push(("spec.source".to_owned(), p.source.clone()));
        out.push(("spec.embedded".to_owned(), p.embedded.to_string()));
        out.push(("spec.paths".to_owned(), p.paths.join(", ")));
        out.push(("spec.files".to_owned(), p.files.to_string()));
        out.push(("spec.sha256".to_owned(), p.sha256.clone()));
    }
    out
}

/// Where the corpus and spec are.
#[derive(Clone, Debug)]
pub struct Sources {
    /// Corpus roots (case ids are relative to each).
    pub roots: Vec<Origin>,
    /// The spec (rules are read from its `*.md` files).
    pub spec: Origin,
}

impl Sources {
    /// The corpus and spec embedded in this binary: the default of every command.
    pub fn embedded() -> Sources {
        Sources {
            roots: vec![Origin::Embedded],
            spec: Origin::Embedded,
        }
    }

    /// The corpus under `roots` and the spec in `spec`, on disk.
    pub fn dirs(roots: &[PathBuf], spec: &Path) -> Sources {
        Sources {
            roots: roots.iter().cloned().map(Origin::Dir).collect(),
            spec: Origin::Dir(spec.to_owned()),
        }
    }
}

/// Reads the rule ids the spec defines: a rule is a line starting with
/// `**XX-n**` (optionally after a list marker), e.g. `**KN-3** Tuples ...`.
/// `tested-by` files are resolved against the spec directory's parent (the
/// repository), as reports show paths.
pub fn load_rules(
    spec: &Tree,
    errors: &mut Vec<CorpusError>,
    tested_by: &mut BTreeMap<String, Vec<PathBuf>>,
) -> BTreeMap<String, PathBuf> {
    let mut rules = BTreeMap::new();
    let marker = regex::Regex::new(r"<!--\s*lint:\s*tested-by\s+([^>]*?)\s*-->")
        .unwrap_or_else(|e| panic!("marker pattern: {e}"));
    let base = spec.root.join("..");
    let re = rule_regex();
    for file in &spec.files {
        if !file.rel.ends_with(".md") {
            continue;
        }
        let path = spec.path_of(&file.rel);
        let text = match std::str::from_utf8(&file.bytes) {
            Ok(t) => t,
            Err(e) => {
                errors.push(CorpusError {
                    file: path,
                    case: None,
                    message: format!("cannot read: not UTF-8: {e}"),
                });
                continue;
            }
        };
        let tests: Option<Vec<PathBuf>> = marker.captures(text).map(|c| {
            c[1].split_whitespace()
                .map(|f| crate::paths::shown(&base.join(f)))
                .collect()
        });
        for cap in re.captures_iter(text) {
            let id = cap[1].to_owned();
            if let Some(files) = &tests {
                tested_by.insert(id.clone(), files.clone());
            }
            if let Some(first) = rules.insert(id.clone(), path.clone()) {
                errors.push(CorpusError {
                    file: path.clone(),
                    case: None,
                    message: format!("rule {id} is defined twice (also in {})", first.display()),
                });
            }
        }
    }
    rules
}

/// The rules marked **Quirk.** in their paragraph (`spec/README.md`: a
/// pinned quirk says so), read from the files that define `rules`. A rule's
/// text runs to the next rule or heading.
pub fn quirk_rules(rules: &BTreeMap<String, PathBuf>) -> std::collections::BTreeSet<String> {
    let re = rule_regex();
    let files: std::collections::BTreeSet<&PathBuf> = rules.values().collect();
    let mut out = std::collections::BTreeSet::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let starts: Vec<(usize, String)> = re
            .captures_iter(&text)
            .filter_map(|c| Some((c.get(0)?.start(), c[1].to_owned())))
            .collect();
        for (i, (start, id)) in starts.iter().enumerate() {
            let end = starts.get(i + 1).map_or(text.len(), |(s, _)| *s);
            let body = &text[*start..end];
            let body = body.find("\n#").map_or(body, |h| &body[..h]);
            if body.contains("**Quirk") {
                out.insert(id.clone());
            }
        }
    }
    out
}

/// The pattern of a rule definition line.
pub fn rule_regex() -> regex::Regex {
    regex::Regex::new(r"(?m)^\s*(?:[-*]\s+)?\*\*([A-Z]{2,5}-[0-9]+)\*\*")
        .unwrap_or_else(|e| panic!("rule pattern: {e}"))
}

/// Loads every case under the roots, checking each against the registry,
/// the spec rules and the feature list.
pub fn load(sources: &Sources) -> Corpus {
    let mut errors = Vec::new();
    let (spec, mut spec_errors) = Tree::load(&sources.spec, Embedded::Spec);
    errors.append(&mut spec_errors);
    let mut tested_by = BTreeMap::new();
    let rules = load_rules(&spec, &mut errors, &mut tested_by);
    if rules.is_empty() && errors.is_empty() {
        errors.push(CorpusError {
            file: spec.root.clone(),
            case: None,
            message: "no spec rules found (a rule is a line starting with **XX-n**)".into(),
        });
    }
    let mut roots = Vec::new();
    for origin in &sources.roots {
        let (tree, mut errs) = Tree::load(origin, Embedded::Golden);
        errors.append(&mut errs);
        roots.push(tree);
    }
    let mut corpus = Corpus {
        cases: Vec::new(),
        errors,
        rules,
        files_scanned: 0,
        tested_by,
        provenance: Provenance::of(&roots),
        spec: Provenance::of(std::slice::from_ref(&spec)),
    };
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    for tree in &roots {
        for file in &tree.files {
            let path = tree.path_of(&file.rel);
            corpus.files_scanned += 1;
            let Some(id) = file.rel.strip_suffix(".json") else {
                if file.rel != "README.md" && !file.rel.ends_with("/README.md") {
                    corpus.errors.push(CorpusError {
                        file: path,
                        case: None,
                        message: "not a case file: cases end in .json (only README.md may sit beside them)".into(),
                    });
                }
                continue;
            };
            match parse_case(&path, &file.bytes, id, &corpus.rules) {
                Ok(case) => {
                    if let Some(first) = seen.insert(case.id.clone(), path.clone()) {
                        corpus.errors.push(CorpusError {
                            file: path,
                            case: Some(case.id.clone()),
                            message: format!("duplicated case id (also {})", first.display()),
                        });
                    } else {
                        corpus.cases.push(case);
                    }
                }
                Err(mut errs) => corpus.errors.append(&mut errs),
            }
        }
    }
    if corpus.cases.is_empty() && corpus.errors.is_empty() {
        let scanned: Vec<String> = roots.iter().map(|t| t.root.display().to_string()).collect();
        corpus.errors.push(CorpusError {
            file: roots.first().map(|t| t.root.clone()).unwrap_or_default(),
            case: None,
            message: format!(
                "no cases found: scanned {} files under {}",
                corpus.files_scanned,
                scanned.join(", ")
            ),
        });
    }
    corpus.cases.sort_by(|a, b| a.id.cmp(&b.id));
    corpus
}

/// FNV-1a, 64-bit: a hash stable across runs and machines (shards).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// `root/a/b/c.json` → `a/b/c`.
pub fn id_from_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?.with_extension("");
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// Loads the corpus and accepts it only without problems: the message lists
/// every problem, one a line (a corpus with problems must not be run).
pub fn load_clean(sources: &Sources) -> Result<Corpus, String> {
    let corpus = load(sources);
    if corpus.errors.is_empty() {
        Ok(corpus)
    } else {
        let mut msg = format!("the corpus has {} problem(s):\n", corpus.errors.len());
        for e in &corpus.errors {
            msg.push_str(&format!("  {e}\n"));
        }
        Err(msg.trim_end().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_conformance::Release;
    use std::collections::BTreeSet;

    /// `spec/README.md` § Releases names every case that does not hold at
    /// the default release, since a reader that reads `expect` alone must
    /// skip exactly those: the list and the corpus stay equal.
    #[test]
    fn the_spec_names_every_case_that_leaves_the_default_release_out() {
        let corpus = load_clean(&Sources::embedded()).unwrap_or_else(|e| panic!("{e}"));
        let outside: BTreeSet<String> = corpus
            .cases
            .iter()
            .filter(|c| !c.holds_at(Release::default()))
            .map(|c| c.id.clone())
            .collect();
        let readme =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/README.md"))
                .unwrap_or_else(|e| panic!("spec/README.md: {e}"));
        let sentence = readme
            .split_once("The corpus has ")
            .and_then(|(_, rest)| rest.split_once("\n\n").or(Some((rest, ""))))
            .map(|(s, _)| s.split("\n- ").next().unwrap_or(s).to_owned())
            .unwrap_or_else(|| panic!("spec/README.md § Releases: no \"The corpus has\" sentence"));
        let named: BTreeSet<String> = sentence
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| s.contains('/'))
            .map(str::to_owned)
            .collect();
        assert_eq!(
            named, outside,
            "spec/README.md § Releases names these cases as not holding at {}; the corpus has those",
            Release::default()
        );
    }
}
