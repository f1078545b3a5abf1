//! Discovery and loading of the golden corpus and the spec rules it cites.
//!
//! One case per file; a case's path under its corpus root, without `.json`,
//! is its id, and the file's `id` field must say the same. Loading collects
//! every problem (malformed file, unknown op, wrong argument count, unknown
//! spec rule, undeclared feature, duplicated id) instead of stopping at the
//! first, and each names the file and the case.
//!
//! [`case`] is one case file (its types and how it is read), [`lint`] the
//! checks across the corpus (every rule cited, every op covered) and
//! [`select`] which cases a command takes, and shards.

pub mod case;
pub mod lint;
pub mod select;

pub use case::{load_case, Case, CorpusError, Expect, Level};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The loaded corpus: cases sorted by id, and the problems found.
#[derive(Debug, Default)]
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
}

/// Where the corpus and spec are.
#[derive(Clone, Debug)]
pub struct Sources {
    /// Corpus roots (case ids are relative to each).
    pub roots: Vec<PathBuf>,
    /// The spec directory (rules are read from its `*.md` files).
    pub spec: PathBuf,
}

impl Sources {
    /// `golden/` and `spec/` of this repository: found from the current
    /// directory, else from where the harness was built.
    pub fn default_for_repo() -> Sources {
        let base = if Path::new("golden").is_dir() && Path::new("spec").is_dir() {
            PathBuf::new()
        } else {
            crate::paths::relative(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        };
        Sources {
            roots: vec![base.join("golden")],
            spec: base.join("spec"),
        }
    }
}

/// Reads the rule ids the spec defines: a rule is a line starting with
/// `**XX-n**` (optionally after a list marker), e.g. `**KN-3** Tuples ...`.
pub fn load_rules(
    spec_dir: &Path,
    errors: &mut Vec<CorpusError>,
    tested_by: &mut BTreeMap<String, Vec<PathBuf>>,
) -> BTreeMap<String, PathBuf> {
    let mut rules = BTreeMap::new();
    let marker = regex::Regex::new(r"<!--\s*lint:\s*tested-by\s+([^>]*?)\s*-->")
        .unwrap_or_else(|e| panic!("marker pattern: {e}"));
    let base = spec_dir.join("..");
    let re = rule_regex();
    let entries = match walkdir::WalkDir::new(spec_dir)
        .sort_by_file_name()
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(e) => e,
        Err(e) => {
            errors.push(CorpusError {
                file: spec_dir.to_owned(),
                case: None,
                message: format!("cannot read the spec: {e}"),
            });
            return rules;
        }
    };
    for entry in entries {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                errors.push(CorpusError {
                    file: path.to_owned(),
                    case: None,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        let tests: Option<Vec<PathBuf>> = marker.captures(&text).map(|c| {
            c[1].split_whitespace()
                .map(|f| crate::paths::relative(&base.join(f)))
                .collect()
        });
        for cap in re.captures_iter(&text) {
            let id = cap[1].to_owned();
            if let Some(files) = &tests {
                tested_by.insert(id.clone(), files.clone());
            }
            if let Some(first) = rules.insert(id.clone(), path.to_owned()) {
                errors.push(CorpusError {
                    file: path.to_owned(),
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
    // Every path a report shows is derived from these: normalized and
    // relative to the current directory.
    let sources = &Sources {
        roots: sources
            .roots
            .iter()
            .map(|r| crate::paths::relative(r))
            .collect(),
        spec: crate::paths::relative(&sources.spec),
    };
    let mut corpus = Corpus::default();
    corpus.rules = load_rules(&sources.spec, &mut corpus.errors, &mut corpus.tested_by);
    if corpus.rules.is_empty() && corpus.errors.is_empty() {
        corpus.errors.push(CorpusError {
            file: sources.spec.clone(),
            case: None,
            message: "no spec rules found (a rule is a line starting with **XX-n**)".into(),
        });
    }
    let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
    for root in &sources.roots {
        if !root.is_dir() {
            corpus.errors.push(CorpusError {
                file: root.clone(),
                case: None,
                message: "corpus directory does not exist".into(),
            });
            continue;
        }
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    corpus.errors.push(CorpusError {
                        file: root.clone(),
                        case: None,
                        message: format!("cannot walk: {e}"),
                    });
                    continue;
                }
            };
            if !entry.file_type().is_file() {
                continue;
            }
            let path = entry.path();
            corpus.files_scanned += 1;
            let is_json = path.extension().and_then(|e| e.to_str()) == Some("json");
            if !is_json {
                if path.file_name().and_then(|n| n.to_str()) != Some("README.md") {
                    corpus.errors.push(CorpusError {
                        file: path.to_owned(),
                        case: None,
                        message: "not a case file: cases end in .json (only README.md may sit beside them)".into(),
                    });
                }
                continue;
            }
            let id = match id_from_path(root, path) {
                Some(id) => id,
                None => {
                    corpus.errors.push(CorpusError {
                        file: path.to_owned(),
                        case: None,
                        message: "path is not valid UTF-8".into(),
                    });
                    continue;
                }
            };
            match load_case(path, &id, &corpus.rules) {
                Ok(case) => {
                    if let Some(first) = seen.insert(case.id.clone(), path.to_owned()) {
                        corpus.errors.push(CorpusError {
                            file: path.to_owned(),
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
        let roots: Vec<String> = sources
            .roots
            .iter()
            .map(|r| r.display().to_string())
            .collect();
        corpus.errors.push(CorpusError {
            file: sources.roots.first().cloned().unwrap_or_default(),
            case: None,
            message: format!(
                "no cases found: scanned {} files under {}",
                corpus.files_scanned,
                roots.join(", ")
            ),
        });
    }
    corpus.cases.sort_by(|a, b| a.id.cmp(&b.id));
    corpus
}

/// FNV-1a, 64-bit: a hash stable across runs and machines (shards, the
/// corpus digest).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Corpus {
    /// A digest of every case (id, op, arguments, expectation, level and
    /// rules), `fnv1a64:` and 16 hex digits: two reports with the same
    /// digest ran the same corpus, whatever each selected from it.
    pub fn digest(&self) -> String {
        let mut text = String::new();
        for c in &self.cases {
            let expect = match &c.expect {
                Expect::Ok(t) => ptc_conformance::tagged::encode(t),
                Expect::Raised { class, message } => format!("{class}\u{0}{message:?}"),
            };
            text.push_str(&format!(
                "{}\u{0}{}\u{0}{}\u{0}{expect}\u{0}{}\u{0}{}\n",
                c.id,
                c.op.name,
                c.args_json,
                c.level.as_str(),
                c.spec.join(",")
            ));
        }
        format!("fnv1a64:{:016x}", fnv1a64(text.as_bytes()))
    }
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
