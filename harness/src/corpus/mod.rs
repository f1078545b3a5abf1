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
//! checks across the corpus (every rule cited, every op covered) and
//! [`select`] which cases a command takes, and shards.

pub mod case;
pub mod embedded;
pub mod lint;
pub mod select;
pub mod tree;

pub use case::{parse_case, Case, CorpusError, Expect, Level};
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
    pub fn name(&self) -> CorpusName {
        CorpusName {
            corpus: self.provenance.clone(),
            cases: self.cases.len(),
            spec: self.spec.clone(),
        }
    }
}

/// Which corpus and spec a command used, as every report names them: where
/// from (embedded in the binary, or a directory), how many cases, and the
/// content hashes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusName {
    /// The corpus's provenance.
    pub corpus: Provenance,
    /// How many cases it holds (all of them, not only those selected).
    pub cases: usize,
    /// The spec's provenance.
    pub spec: Provenance,
}

impl CorpusName {
    /// `corpus: 1301 cases, embedded in ptc-conformance 0.1.0, sha256 ...`
    /// and the same for the spec, on two lines (no trailing newline).
    pub fn lines(&self) -> String {
        format!(
            "corpus: {} cases, {}, sha256 {}\nspec: {} files, {}, sha256 {}",
            self.cases,
            self.corpus.source,
            self.corpus.sha256,
            self.spec.files,
            self.spec.source,
            self.spec.sha256
        )
    }

    /// `{"corpus": {...}, "spec": {...}}` fields for the JSON reports.
    pub fn json(&self) -> (serde_json::Value, serde_json::Value) {
        let mut corpus = serde_json::json!(self.corpus);
        corpus["cases"] = serde_json::json!(self.cases);
        (corpus, serde_json::json!(self.spec))
    }

    /// Name and value pairs for JUnit properties.
    pub fn properties(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (prefix, p) in [("corpus", &self.corpus), ("spec", &self.spec)] {
            out.push((format!("{prefix}.source"), p.source.clone()));
            out.push((format!("{prefix}.embedded"), p.embedded.to_string()));
            out.push((format!("{prefix}.paths"), p.paths.join(", ")));
            out.push((format!("{prefix}.files"), p.files.to_string()));
            out.push((format!("{prefix}.sha256"), p.sha256.clone()));
        }
        out.insert(1, ("corpus.cases".into(), self.cases.to_string()));
        out
    }
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
                .map(|f| crate::paths::relative(&base.join(f)))
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
