//! One case file: the case format's types ([`Case`], [`Expect`], [`Level`]),
//! the problem type that names where a problem is ([`CorpusError`]), and
//! reading and checking one file ([`parse_case`]).

use ptc_conformance::ops::{self, Op};
use ptc_conformance::tagged::{self, DecodeError};
use ptc_conformance::{features, structs};
use ptc_conformance::{Release, Term};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// The file it was read from, as reports show it (`golden/...` for the
    /// embedded corpus, the path `export` writes it to).
    pub file: PathBuf,
    /// The file's text as read (what `bless` and `compare` edit).
    pub source: Arc<str>,
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
    /// The releases it holds for and its expectation at those where it
    /// differs from `expect` (`spec/README.md` § Releases).
    pub releases: CaseReleases,
}

/// Which releases a case holds for, and what it expects at each release
/// where the answer differs from `expect` (the answer at the newest release
/// it holds for: v0.13.0's, unless the case does not hold there).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseReleases {
    /// The releases it holds for, oldest first; `None` (the file gives no
    /// `releases`): every release.
    pub only: Option<Vec<Release>>,
    /// `expect_by_release`: the expectation at these releases, each
    /// different from `expect`.
    pub expect: BTreeMap<Release, Expect>,
}

impl Case {
    /// Whether the case holds at `release` (its input exists there).
    pub fn holds_at(&self, release: Release) -> bool {
        self.releases
            .only
            .as_ref()
            .is_none_or(|only| only.contains(&release))
    }

    /// The releases it holds for, oldest first.
    pub fn holds_for(&self) -> Vec<Release> {
        Release::ALL
            .into_iter()
            .filter(|r| self.holds_at(*r))
            .collect()
    }

    /// The release `expect` is the answer at: the newest it holds for.
    pub fn newest(&self) -> Release {
        self.holds_for().pop().unwrap_or_default()
    }

    /// What the case expects at `release`; `None` when it does not hold there.
    pub fn expect_at(&self, release: Release) -> Option<&Expect> {
        if !self.holds_at(release) {
            return None;
        }
        Some(self.releases.expect.get(&release).unwrap_or(&self.expect))
    }
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
    releases: Option<Vec<String>>,
    #[serde(default)]
    expect_by_release: Option<BTreeMap<String, ExpectFile>>,
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

/// Checks one case file, read from `path` (as reports show it), whose
/// path-derived id is `id`.
pub fn parse_case(
    path: &Path,
    bytes: &[u8],
    id: &str,
    rules: &BTreeMap<String, PathBuf>,
) -> Result<Case, Vec<CorpusError>> {
    let err = |case: Option<&str>, message: String| CorpusError {
        file: path.to_owned(),
        case: case.map(str::to_owned),
        message,
    };
    let text = std::str::from_utf8(bytes)
        .map_err(|e| vec![err(Some(id), format!("cannot read: not UTF-8: {e}"))])?;
    let file: CaseFile = serde_json::from_str(text)
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
    let expect = read_expect(file.expect, "/expect").map_err(|m| err(Some(id), m));
    let releases = read_releases(file.releases, file.expect_by_release)
        .map_err(|ms| ms.into_iter().map(|m| err(Some(id), m)).collect::<Vec<_>>());
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
    let releases = releases.and_then(|r| {
        let bad: Vec<CorpusError> = r
            .expect
            .iter()
            .filter_map(|(rel, e)| match e {
                Expect::Ok(t) => {
                    structs::complete_term(t, &format!("/expect_by_release/{rel}/ok")).err()
                }
                Expect::Raised { .. } => None,
            })
            .map(|m| err(Some(id), m))
            .collect();
        if bad.is_empty() {
            Ok(r)
        } else {
            Err(bad)
        }
    });
    let (args, expect, releases) = match (args, expect, releases) {
        (Ok(a), Ok(e), Ok(r)) => (a, e, r),
        (a, e, r) => {
            errors.extend(a.err());
            errors.extend(e.err());
            errors.extend(r.err().into_iter().flatten());
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
    for e in std::iter::once(&expect).chain(releases.expect.values()) {
        if let Expect::Ok(t) = e {
            features::used_by(t, &mut used);
        }
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
            source: Arc::from(text),
            op,
            args_json: crate::subject::wire::encode_args(&args),
            args,
            expect,
            description: file.description,
            spec: file.spec,
            features: file.features,
            level: file.level,
            releases,
        }),
        _ => Err(errors),
    }
}

/// One expectation as a case file writes it, at JSON pointer `at`
/// (`/expect`, `/expect_by_release/0.12.0`).
fn read_expect(file: ExpectFile, at: &str) -> Result<Expect, String> {
    match file {
        ExpectFile::Ok(raw) => tagged::decode_str(raw.get(), &format!("{at}/ok"))
            .map(Expect::Ok)
            .map_err(|DecodeError(m)| m),
        ExpectFile::Raised(r) => {
            if r.class.is_empty() || r.class.starts_with("Elixir.") {
                Err(format!(
                    "{at}/raised/class: {:?} must be the module name without Elixir.",
                    r.class
                ))
            } else {
                Ok(Expect::Raised {
                    class: r.class,
                    message: r.message,
                })
            }
        }
    }
}

/// `releases` and `expect_by_release` as a case file writes them: every
/// release named must be one of the boundary's ([`Release::ALL`]),
/// `releases` lists them oldest first and each once, and a per-release
/// expectation is for a release the case holds at other than the newest
/// (whose answer `expect` already is). Each problem names its JSON pointer.
fn read_releases(
    releases: Option<Vec<String>>,
    by_release: Option<BTreeMap<String, ExpectFile>>,
) -> Result<CaseReleases, Vec<String>> {
    let mut problems = Vec::new();
    let only = releases.map(|names| {
        if names.is_empty() {
            problems.push(
                "/releases is empty: a case holds for at least one release (leave it out: every release)"
                    .to_owned(),
            );
        }
        let mut out: Vec<Release> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            match name.parse::<Release>() {
                Ok(r) if name.starts_with('v') => problems.push(format!(
                    "/releases/{i}: write {r}, not {name:?}"
                )),
                Ok(r) if out.last().is_some_and(|last| *last >= r) => problems.push(format!(
                    "/releases/{i}: {r} out of order: list each release once, oldest first"
                )),
                Ok(r) => out.push(r),
                Err(e) => problems.push(format!("/releases/{i}: {e}")),
            }
        }
        out
    });
    let holds = |r: Release| only.as_ref().is_none_or(|o| o.contains(&r));
    let newest = Release::ALL
        .into_iter()
        .rev()
        .find(|r| holds(*r))
        .unwrap_or_default();
    let mut expect = BTreeMap::new();
    for (name, file) in by_release.unwrap_or_default() {
        let at = format!("/expect_by_release/{name}");
        let rel = match name.parse::<Release>() {
            Ok(r) if name.starts_with('v') => {
                problems.push(format!("{at}: write {r}, not {name:?}"));
                continue;
            }
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("{at}: {e}"));
                continue;
            }
        };
        if !holds(rel) {
            problems.push(format!(
                "{at}: the case does not hold at {rel} (its releases are {})",
                Release::ALL
                    .into_iter()
                    .filter(|r| holds(*r))
                    .map(|r| r.version())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            continue;
        }
        if rel == newest {
            problems.push(format!(
                "{at}: `expect` is already the answer at {rel}, the newest release the case holds for"
            ));
            continue;
        }
        match read_expect(file, &at) {
            Ok(e) => {
                expect.insert(rel, e);
            }
            Err(m) => problems.push(m),
        }
    }
    if problems.is_empty() {
        Ok(CaseReleases { only, expect })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(extra: &str) -> Result<Case, Vec<CorpusError>> {
        let text = format!(
            r#"{{"id": "a/b", "op": "key_normalizer.normalize_key", "description": "d",
              "spec": ["KN-2"], "features": [], "level": "required", "args": ["x-y"],
              "expect": {{"ok": "x_y"}}{extra}}}"#
        );
        let rules = BTreeMap::from([("KN-2".to_owned(), PathBuf::from("spec/k.md"))]);
        parse_case(Path::new("golden/a/b.json"), text.as_bytes(), "a/b", &rules)
    }

    fn messages(extra: &str) -> Vec<String> {
        match parse(extra) {
            Ok(_) => Vec::new(),
            Err(es) => es.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    /// A case without `releases` holds at every release and expects
    /// `expect` at each; `expect_by_release` overrides it where listed.
    #[test]
    fn each_release_gets_its_expectation() {
        let all = parse("").expect("a plain case loads");
        assert_eq!(all.holds_for(), Release::ALL.to_vec());
        for r in Release::ALL {
            assert_eq!(all.expect_at(r), Some(&Expect::Ok(Term::Str("x_y".into()))));
        }
        let c = parse(r#", "releases": ["0.12.0", "0.13.0"], "expect_by_release": {"0.12.0": {"raised": {"class": "KeyError", "message": "m"}}}"#)
            .expect("loads");
        assert_eq!(c.expect_at(Release::V0_11_0), None);
        assert!(matches!(
            c.expect_at(Release::V0_12_0),
            Some(Expect::Raised { class, .. }) if class == "KeyError"
        ));
        assert_eq!(c.expect_at(Release::V0_13_0), Some(&c.expect));
        assert_eq!(c.newest(), Release::V0_13_0);
        // A case that does not hold at 0.13.0: `expect` is its newest release's.
        let old = parse(
            r#", "releases": ["0.11.0", "0.12.0"], "expect_by_release": {"0.11.0": {"ok": "z"}}"#,
        )
        .expect("loads");
        assert_eq!(old.newest(), Release::V0_12_0);
        assert_eq!(old.expect_at(Release::V0_13_0), None);
    }

    /// Every problem of the per-release part names its JSON pointer.
    #[test]
    fn release_problems_name_their_path() {
        let has = |extra: &str, says: &str| {
            let ms = messages(extra);
            assert!(
                ms.iter()
                    .any(|m| m.starts_with("golden/a/b.json (case a/b): ") && m.contains(says)),
                "{extra}: {ms:?}"
            );
        };
        has(
            r#", "releases": ["0.14.0"]"#,
            "/releases/0: unknown release \"0.14.0\"",
        );
        has(r#", "releases": []"#, "/releases is empty");
        has(
            r#", "releases": ["0.13.0", "0.12.0"]"#,
            "/releases/1: 0.12.0 out of order",
        );
        has(r#", "releases": ["v0.13.0"]"#, "/releases/0: write 0.13.0");
        has(
            r#", "expect_by_release": {"0.10.0": {"ok": 1}}"#,
            "/expect_by_release/0.10.0: unknown release",
        );
        has(
            r#", "expect_by_release": {"0.13.0": {"ok": 1}}"#,
            "/expect_by_release/0.13.0: `expect` is already the answer at 0.13.0",
        );
        has(
            r#", "releases": ["0.13.0"], "expect_by_release": {"0.12.0": {"ok": 1}}"#,
            "/expect_by_release/0.12.0: the case does not hold at 0.12.0",
        );
        has(
            r#", "expect_by_release": {"0.12.0": {"ok": {"$atm": 1}}}"#,
            "/expect_by_release/0.12.0/ok",
        );
        has(
            r#", "expect_by_release": {"0.12.0": {"ok": {"$atom": "a"}}}"#,
            "uses features it does not declare: atoms",
        );
    }
}
