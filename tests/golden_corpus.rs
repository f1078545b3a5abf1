//! The golden corpus (`golden/`) as one test of this crate, at the strict
//! level, for mutation testing (`cargo mutants`, `.cargo/mutants.toml`).
//! Each case runs at every release it holds for (`releases`, all three
//! when absent), against that release's expectation (its entry in
//! `expect_by_release`, else `expect`), so that a mutant of a release
//! switch is caught by the cases of the release it breaks. The op is
//! looked up as the reference at that release declares it (`ops::find_at`),
//! and the ops it declares at each release (`ops::at`) must be those the
//! corpus has cases of there.
//!
//! The harness crate (`harness/tests/golden.rs`) runs the same cases as one
//! trial each, with path-level diffs; this copy needs nothing but the
//! crate's own tagged codec and op registry, so a mutant of `src/` rebuilds
//! only the library and this file. It judges as the harness does at
//! `--level strict`: a term answer must equal the expectation (compared by
//! its tagged JSON text, which is canonical, once both have v0.13.0's
//! struct defaults filled in, so a mutant of term equality
//! cannot make two different terms pass as equal), a rendered JSON string
//! must equal it byte for byte, and an exception must have the expected
//! class and, when the case gives one, message.

use ptc_conformance::loose::{mask_stacktraces, mask_stacktraces_in};
use ptc_conformance::ops::{self, Output};
use ptc_conformance::structs;
use ptc_conformance::tagged::{decode_args, decode_str, encode};
use ptc_conformance::{Release, Term};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct CaseFile {
    id: String,
    op: String,
    args: Box<RawValue>,
    /// `{"ok": <term>}` or `{"raised": ...}`; a map of raw values, since
    /// `{"ok": null}` is an answer, not an absent one.
    expect: BTreeMap<String, Box<RawValue>>,
    /// The releases the case holds for; absent: all.
    releases: Option<Vec<String>>,
    /// An older release's expectation, where it differs.
    #[serde(default)]
    expect_by_release: BTreeMap<String, BTreeMap<String, Box<RawValue>>>,
}

#[derive(Deserialize)]
struct RaisedFile {
    class: String,
    message: Option<String>,
}

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            case_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Runs one case at every release it holds for, noting in `ran` which ops
/// ran at which release; `Err` says why it fails.
fn check(file: &Path, ran: &mut BTreeSet<(Release, String)>) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("reading: {e}"))?;
    let case: CaseFile = serde_json::from_str(&text).map_err(|e| format!("parsing: {e}"))?;
    let mut held = 0;
    for rel in Release::ALL {
        let holds = case
            .releases
            .as_ref()
            .map_or(true, |rs| rs.iter().any(|r| r == rel.version()));
        if holds {
            check_at(&case, rel, file)?;
            ran.insert((rel, case.op.clone()));
            held += 1;
        }
    }
    if held == 0 {
        return Err(format!("{}: holds for no release", case.id));
    }
    Ok(())
}

/// Runs `case` at release `rel`, with the op looked up as the reference at
/// `rel` declares it (the harness's reference subject sends no case whose
/// op the release lacks).
fn check_at(case: &CaseFile, rel: Release, file: &Path) -> Result<(), String> {
    let op = ops::find_at(&case.op, rel).ok_or_else(|| {
        format!(
            "{}: the reference at {rel} has no op {:?}, but the case holds for {rel}",
            case.id, case.op
        )
    })?;
    let args = decode_args(case.args.get(), "/args").map_err(|e| e.to_string())?;
    // Structs travel as written; the reference computes on them completed
    // with the release's defaults (spec/terms.md TJ-7), as the harness's does.
    let args = structs::complete_args_at(rel, &args, "/args")
        .map_err(|e| format!("{} at {rel}: {e}", case.id))?;
    let answer = op.invoke(rel, &args);
    let shown = match &answer {
        Ok(t) => format!("ok {}", encode(t)),
        Err(r) => format!("raised {}: {:?}", r.class, r.message),
    };
    let fail = |expected: String| {
        Err(format!(
            "{} at {rel} ({})\n    expected {expected}\n    got      {shown}",
            case.id,
            file.display()
        ))
    };
    let expect = case
        .expect_by_release
        .get(rel.version())
        .unwrap_or(&case.expect);
    let raised = match expect.get("raised") {
        Some(raw) => Some(
            serde_json::from_str::<RaisedFile>(raw.get())
                .map_err(|e| format!("{}: /expect/raised: {e}", case.id))?,
        ),
        None => None,
    };
    match (expect.get("ok"), raised) {
        (Some(raw), None) if expect.len() == 1 => {
            let expected = decode_str(raw.get(), "/expect/ok").map_err(|e| e.to_string())?;
            // An omitted field of an expected struct is the release's default.
            let expected = structs::with_defaults_at(rel, &expected).into_owned();
            // Stack frames in an `#Inspect.Error` are the VM's and the
            // caller's (spec/README.md LOOSE-4): masked, as the judge does.
            let equal = match (&answer, &expected) {
                (Ok(Term::Str(a)), Term::Str(e)) if op.output == Output::JsonString => {
                    mask_stacktraces(a) == mask_stacktraces(e)
                }
                (Ok(a), e) => encode(&mask_stacktraces_in(a)) == encode(&mask_stacktraces_in(e)),
                (Err(_), _) => false,
            };
            if equal {
                Ok(())
            } else {
                fail(format!("ok {}", encode(&expected)))
            }
        }
        (None, Some(want)) => match &answer {
            Err(r)
                if r.class == want.class
                    && want.message.as_ref().map_or(true, |m| {
                        ptc_conformance::loose::messages_match(m, &r.message)
                    }) =>
            {
                Ok(())
            }
            _ => fail(format!("raised {}: {:?}", want.class, want.message)),
        },
        _ => Err(format!(
            "{}: `expect` needs exactly one of ok, raised",
            case.id
        )),
    }
}

#[test]
fn golden_corpus_at_the_strict_level() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
    let mut files = Vec::new();
    if let Err(e) = case_files(&root, &mut files) {
        panic!("scanning {}: {e}", root.display());
    }
    files.sort();
    assert!(!files.is_empty(), "no case files under {}", root.display());
    let mut ran = BTreeSet::new();
    let mut failures: Vec<String> = files
        .iter()
        .filter_map(|f| check(f, &mut ran).err().map(|e| format!("  {e}")))
        .collect();
    // The ops the reference declares at each release (its `hello`, AP-2)
    // are those the corpus has cases of at that release. The cases'
    // `releases` come from the real builds, whose adapters do not declare
    // an op their release lacks (REL-3).
    for rel in Release::ALL {
        let declared: BTreeSet<&str> = ops::at(rel).map(|op| op.name).collect();
        let cased: BTreeSet<&str> = ran
            .iter()
            .filter(|(r, _)| *r == rel)
            .map(|(_, op)| op.as_str())
            .collect();
        if declared != cased {
            failures.push(format!(
                "  at {rel}, the reference declares ops no case holds for there: {:?}; \
                 it leaves out ops cases hold for there: {:?}",
                declared.difference(&cased).collect::<Vec<_>>(),
                cased.difference(&declared).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases fail (or releases' op lists differ):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
