//! Discovery and loading of the golden corpus and the spec rules it cites.
//!
//! One case per file; a case's path under its corpus root, without `.json`,
//! is its id, and the file's `id` field must say the same. Loading collects
//! every problem (malformed file, unknown op, wrong argument count, unknown
//! spec rule, undeclared feature, duplicated id) instead of stopping at the
//! first, and each names the file and the case. [`lint`] adds the checks
//! across the corpus: every rule cited, every op covered.

use ptc_conformance::ops::{self, Op};
use ptc_conformance::tagged::{self, DecodeError};
use ptc_conformance::Term;
use ptc_conformance::{features, structs};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Whether a case is required of every port or pins a quirk.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Every conforming implementation reproduces it.
    Required,
    /// A documented quirk or implementation-defined behaviour of v0.13.0.
    Pinned,
}

impl Level {
    /// Its name in case files.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Required => "required",
            Level::Pinned => "pinned",
        }
    }
}

/// What a case expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// The return value.
    Ok(Term),
    /// An exception of `class` and its message. Lint requires the message
    /// in a case file; `None` only lets `bless` read a case it will fill.
    Raised {
        /// Exception module without `Elixir.`.
        class: String,
        /// The message (compared as `spec/README.md` § Loosely compared
        /// message parts says); `None` only in a case that lint rejects.
        message: Option<String>,
    },
}

/// One golden case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Unique id: the file's path under the corpus root without `.json`.
    pub id: String,
    /// The file it was read from.
    pub file: PathBuf,
    /// The op name (a row of the registry).
    pub op: &'static Op,
    /// Positional arguments.
    pub args: Vec<Term>,
    /// The arguments as canonical tagged JSON (encoded once, at load).
    pub args_json: String,
    /// The expectation.
    pub expect: Expect,
    /// One line saying what it checks.
    pub description: String,
    /// Spec rule ids it checks.
    pub spec: Vec<String>,
    /// Features a port needs to run it.
    pub features: Vec<String>,
    /// Required or pinned.
    pub level: Level,
}

/// A problem with the corpus, naming where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusError {
    /// The file (or directory) concerned.
    pub file: PathBuf,
    /// The case id, when known.
    pub case: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.case {
            Some(id) => write!(f, "{} (case {id}): {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

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

/// One row of the lint table: a rule, how many cases cite it, where it is defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleUse {
    /// The rule id.
    pub rule: String,
    /// The spec file that defines it.
    pub file: PathBuf,
    /// How many cases cite it; `None` when the harness's own tests check it.
    pub cases: Option<usize>,
}

/// What `ptc-conformance lint` found.
#[derive(Clone, Debug, Default)]
pub struct Lint {
    /// Every rule, in id order.
    pub rules: Vec<RuleUse>,
    /// Every problem: the corpus's load errors, then rules cited by no case
    /// (or named by none of the tests that check them), then ops without a case.
    pub problems: Vec<String>,
}

/// Checks the corpus as a whole: every expected exception carries its
/// message, every rule is cited by a case or named by one of the tests its
/// spec file says check it, every op has a case.
pub fn lint(corpus: &Corpus) -> Lint {
    let mut problems: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
    for c in &corpus.cases {
        if let Expect::Raised { message: None, .. } = c.expect {
            problems.push(format!(
                "{} (case {}): expect.raised has no message: messages are always compared; \
                 `ptc-conformance bless --from-adapter --write -- ADAPTER` fills it",
                c.file.display(),
                c.id
            ));
        }
    }
    let mut citations: BTreeMap<&str, usize> =
        corpus.rules.keys().map(|r| (r.as_str(), 0)).collect();
    for c in &corpus.cases {
        for r in &c.spec {
            if let Some(n) = citations.get_mut(r.as_str()) {
                *n += 1;
            }
        }
    }
    let mut rules = Vec::new();
    for (rule, n) in citations {
        let file = corpus.rules.get(rule).cloned().unwrap_or_default();
        match corpus.tested_by.get(rule) {
            Some(tests) => {
                let named = tests
                    .iter()
                    .any(|t| std::fs::read_to_string(t).is_ok_and(|text| names_rule(&text, rule)));
                if !named {
                    let list: Vec<String> = tests.iter().map(|t| t.display().to_string()).collect();
                    problems.push(format!(
                        "{}: rule {rule} is named by none of its tests ({})",
                        file.display(),
                        list.join(", ")
                    ));
                }
                rules.push(RuleUse {
                    rule: rule.to_owned(),
                    file,
                    cases: None,
                });
            }
            None => {
                if n == 0 {
                    problems.push(format!(
                        "{}: rule {rule} is cited by no case",
                        file.display()
                    ));
                }
                rules.push(RuleUse {
                    rule: rule.to_owned(),
                    file,
                    cases: Some(n),
                });
            }
        }
    }
    for op in ops::OPS {
        if !corpus.cases.iter().any(|c| c.op.name == op.name) {
            problems.push(format!("op {} has no case", op.name));
        }
    }
    Lint { rules, problems }
}

/// Whether `text` names `rule` (not as the prefix of a longer id: `AP-1` is not named by `AP-12`).
pub fn names_rule(text: &str, rule: &str) -> bool {
    text.match_indices(rule)
        .any(|(i, _)| !text[i + rule.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// `root/a/b/c.json` → `a/b/c`.
pub fn id_from_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?.with_extension("");
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile<'a> {
    id: String,
    op: String,
    description: String,
    spec: Vec<String>,
    features: Vec<String>,
    level: Level,
    #[serde(borrow)]
    args: &'a RawValue,
    expect: ExpectFile,
    #[serde(default)]
    #[allow(dead_code)]
    notes: Option<String>,
}

/// `{"ok": <raw>}` or `{"raised": {...}}`, read by hand so that `"ok": null` is kept.
enum ExpectFile {
    Ok(Box<RawValue>),
    Raised(RaisedFile),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RaisedFile {
    class: String,
    #[serde(default)]
    message: Option<String>,
}

impl<'de> Deserialize<'de> for ExpectFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ExpectFile;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"{"ok": <term>} or {"raised": {"class": ..., "message": ...}}"#)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExpectFile, A::Error> {
                let key: Option<String> = map.next_key()?;
                let out = match key.as_deref() {
                    Some("ok") => ExpectFile::Ok(map.next_value()?),
                    Some("raised") => ExpectFile::Raised(map.next_value()?),
                    Some(other) => {
                        return Err(de::Error::custom(format!(
                            "expect has unknown key {other:?} (ok or raised)"
                        )))
                    }
                    None => return Err(de::Error::custom("expect is empty: give ok or raised")),
                };
                if let Some(k) = map.next_key::<String>()? {
                    return Err(de::Error::custom(format!(
                        "expect has a second key {k:?}: give only one of ok or raised"
                    )));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V)
    }
}

/// Loads and checks one case file whose path-derived id is `id`.
pub fn load_case(
    path: &Path,
    id: &str,
    rules: &BTreeMap<String, PathBuf>,
) -> Result<Case, Vec<CorpusError>> {
    let err = |case: Option<&str>, message: String| CorpusError {
        file: path.to_owned(),
        case: case.map(str::to_owned),
        message,
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![err(Some(id), format!("cannot read: {e}"))])?;
    let file: CaseFile = serde_json::from_str(&text)
        .map_err(|e| vec![err(Some(id), format!("malformed case file: {e}"))])?;
    let mut errors = Vec::new();
    if file.id != id {
        errors.push(err(
            Some(id),
            format!(
                "the file says id {:?}, but its path makes it {id:?}",
                file.id
            ),
        ));
    }
    let op = ops::find(&file.op);
    if op.is_none() {
        errors.push(err(Some(id), format!("unknown op {:?}", file.op)));
    }
    let args =
        tagged::decode_args(file.args.get(), "/args").map_err(|DecodeError(m)| err(Some(id), m));
    let expect = match file.expect {
        ExpectFile::Ok(raw) => tagged::decode_str(raw.get(), "/expect/ok")
            .map(Expect::Ok)
            .map_err(|DecodeError(m)| err(Some(id), m)),
        ExpectFile::Raised(r) => {
            if r.class.is_empty() || r.class.starts_with("Elixir.") {
                Err(err(
                    Some(id),
                    format!(
                        "/expect/raised/class: {:?} must be the module name without Elixir.",
                        r.class
                    ),
                ))
            } else {
                Ok(Expect::Raised {
                    class: r.class,
                    message: r.message,
                })
            }
        }
    };
    if file.description.trim().is_empty() || file.description.contains('\n') {
        errors.push(err(
            Some(id),
            "description must be one non-empty line".into(),
        ));
    }
    if file.spec.is_empty() {
        errors.push(err(Some(id), "spec must cite at least one rule".into()));
    }
    for rule in &file.spec {
        if !rules.contains_key(rule) {
            errors.push(err(
                Some(id),
                format!("cites spec rule {rule}, which the spec does not define"),
            ));
        }
    }
    let declared: BTreeSet<&str> = file.features.iter().map(String::as_str).collect();
    for f in &declared {
        if !features::is_feature(f) {
            errors.push(err(
                Some(id),
                format!(
                    "unknown feature {f:?} (features are: {})",
                    features::ALL.join(", ")
                ),
            ));
        }
    }
    // Args and expectation stay as written (TJ-7); each must still be a
    // term v0.13.0 takes once completed with its defaults.
    let args = args.and_then(|a| match structs::complete_args(&a, "/args") {
        Ok(_) => Ok(a),
        Err(m) => Err(err(Some(id), m)),
    });
    let expect = expect.and_then(|e| match &e {
        Expect::Ok(t) => match structs::complete_term(t, "/expect/ok") {
            Ok(_) => Ok(e),
            Err(m) => Err(err(Some(id), m)),
        },
        Expect::Raised { .. } => Ok(e),
    });
    let (args, expect) = match (args, expect) {
        (Ok(a), Ok(e)) => (a, e),
        (a, e) => {
            errors.extend(a.err());
            errors.extend(e.err());
            return Err(errors);
        }
    };
    if let Some(op) = op {
        if !op.arity.contains(&args.len()) {
            errors.push(err(
                Some(id),
                format!(
                    "{} takes {:?} arguments, the case gives {}",
                    op.name,
                    op.arity,
                    args.len()
                ),
            ));
        }
    }
    let mut used = BTreeSet::new();
    args.iter().for_each(|a| features::used_by(a, &mut used));
    if let Expect::Ok(t) = &expect {
        features::used_by(t, &mut used);
    }
    let missing: Vec<&str> = used
        .iter()
        .filter(|f| !declared.contains(**f))
        .copied()
        .collect();
    if !missing.is_empty() {
        errors.push(err(
            Some(id),
            format!("uses features it does not declare: {}", missing.join(", ")),
        ));
    }
    match (op, errors.is_empty()) {
        (Some(op), true) => Ok(Case {
            id: id.to_owned(),
            file: path.to_owned(),
            op,
            args_json: crate::wire::encode_args(&args),
            args,
            expect,
            description: file.description,
            spec: file.spec,
            features: file.features,
            level: file.level,
        }),
        _ => Err(errors),
    }
}
