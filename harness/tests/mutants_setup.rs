//! The mutation set-up says what it means (`.cargo/mutants.toml`,
//! docs/contributor.md § Mutation testing): every Rust file of `src/` is
//! decided, either in its list of mutated files or in `exclude_globs` with
//! the reason written above the entry, and every entry names a file that
//! exists. A new or moved file fails here until someone decides on it; an
//! exclusion left behind by a moved file fails here too.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const CONFIG: &str = ".cargo/mutants.toml";
const BEGIN: &str = "# BEGIN mutated";
const END: &str = "# END mutated";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One entry of `exclude_globs`: the glob, the comment lines right above
/// it (its reason) and the line it is on.
struct Exclusion {
    glob: String,
    reason: String,
    line: usize,
}

/// The set-up as the config writes it.
struct Setup {
    /// The mutated list: path → line.
    mutated: BTreeMap<String, usize>,
    exclusions: Vec<Exclusion>,
}

/// Reads the mutated list (`#   path` lines between `# BEGIN mutated` and
/// `# END mutated`) and `exclude_globs` (one quoted glob a line, the
/// comment lines above it its reason). Anything else inside either block is
/// an error, so that a file cannot be decided in a form this test skips.
fn read_setup(text: &str) -> Result<Setup, String> {
    let mut mutated = BTreeMap::new();
    let mut exclusions = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let mut seen_mutated = false;
    let mut seen_exclude = false;
    while let Some((n, line)) = lines.next() {
        if line.starts_with(BEGIN) {
            seen_mutated = true;
            loop {
                let (n, line) = lines
                    .next()
                    .ok_or_else(|| format!("{CONFIG}:{n}: `{BEGIN}` without `{END}`"))?;
                if line.starts_with(END) {
                    break;
                }
                let path = line
                    .strip_prefix('#')
                    .map(str::trim)
                    .filter(|p| !p.is_empty() && !p.contains(char::is_whitespace))
                    .ok_or_else(|| {
                        format!("{CONFIG}:{n}: expected `#   src/PATH.rs` in the mutated list, found {line:?}")
                    })?;
                if mutated.insert(path.to_owned(), n).is_some() {
                    return Err(format!("{CONFIG}:{n}: {path} is listed twice as mutated"));
                }
            }
        } else if line.starts_with("exclude_globs") {
            seen_exclude = true;
            if line != "exclude_globs = [" {
                return Err(format!(
                    "{CONFIG}:{n}: write exclude_globs one entry a line, each with its reason \
                     in the comment lines above it, as `exclude_globs = [` then `\"path\",` lines"
                ));
            }
            let mut reason = Vec::new();
            loop {
                let (n, line) = lines
                    .next()
                    .ok_or_else(|| format!("{CONFIG}:{n}: exclude_globs is not closed"))?;
                if line == "]" {
                    break;
                }
                if let Some(comment) = line.strip_prefix('#') {
                    reason.push(comment.trim().to_owned());
                } else if let Some(glob) = line
                    .strip_suffix(',')
                    .unwrap_or(line)
                    .strip_prefix('"')
                    .and_then(|g| g.strip_suffix('"'))
                {
                    exclusions.push(Exclusion {
                        glob: glob.to_owned(),
                        reason: reason.join(" ").trim().to_owned(),
                        line: n,
                    });
                    reason.clear();
                } else if !line.is_empty() {
                    return Err(format!(
                        "{CONFIG}:{n}: expected a comment or one quoted glob in exclude_globs, found {line:?}"
                    ));
                }
            }
        } else if line.starts_with("examine_globs") {
            return Err(format!(
                "{CONFIG}:{n}: examine_globs would change what `mutated` means (and `-f FILE` \
                 adds to it); decide files in the mutated list and exclude_globs instead"
            ));
        }
    }
    if !seen_mutated || !seen_exclude {
        return Err(format!(
            "{CONFIG}: expected both a `{BEGIN}` ... `{END}` list and exclude_globs"
        ));
    }
    Ok(Setup {
        mutated,
        exclusions,
    })
}

/// A glob as cargo-mutants builds it (its `glob.rs`): one with a `/` is
/// matched against the whole path from the workspace root, `*` not crossing
/// a `/`; one without matches a file or directory of that name anywhere.
fn glob_set(glob: &str) -> GlobSet {
    let globs = if glob.contains('/') {
        vec![glob.to_owned()]
    } else {
        vec![format!("**/{glob}"), format!("**/{glob}/**")]
    };
    let mut set = GlobSetBuilder::new();
    for g in globs {
        set.add(
            GlobBuilder::new(&g)
                .literal_separator(true)
                .build()
                .unwrap_or_else(|e| panic!("{CONFIG}: glob {glob:?}: {e}")),
        );
    }
    set.build().unwrap()
}

/// Every file of the repository (relative, with `/`), leaving out the build
/// output and version control.
fn repository_files(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            !(e.depth() == 1 && (name == "target" || name == ".git" || name == "mutants.out"))
                && name != "node_modules"
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect()
}

/// What is wrong with the set-up, against the files of the repository:
/// one line per problem.
fn problems(setup: &Setup, files: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let sources: Vec<&String> = files
        .iter()
        .filter(|f| f.starts_with("src/") && f.ends_with(".rs"))
        .collect();
    let mut excluded: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &setup.exclusions {
        let set = glob_set(&e.glob);
        let matched: Vec<&String> = files.iter().filter(|f| set.is_match(f.as_str())).collect();
        if matched.is_empty() {
            out.push(format!(
                "{CONFIG}:{}: exclude_globs entry {:?} matches no file: was the file moved or \
                 deleted? Decide on its new path, and remove the entry",
                e.line, e.glob
            ));
        }
        if e.reason.is_empty() {
            out.push(format!(
                "{CONFIG}:{}: exclude_globs entry {:?} has no reason: write why no op's answer \
                 depends on it in the comment lines above it",
                e.line, e.glob
            ));
        }
        if matched.iter().any(|f| f.starts_with("src/")) && !sources.contains(&&e.glob) {
            out.push(format!(
                "{CONFIG}:{}: exclude_globs entry {:?} leaves out files of src/ without naming \
                 them: name each file of src/ on its own line, with its reason",
                e.line, e.glob
            ));
        }
        excluded.insert(&e.glob, e.line);
    }
    for (path, line) in &setup.mutated {
        if !sources.contains(&path) {
            out.push(format!(
                "{CONFIG}:{line}: {path} is in the mutated list but is no Rust file of src/: \
                 was it moved or deleted? Decide on its new path, and remove the line"
            ));
        }
        if let Some(ex) = excluded.get(path.as_str()) {
            out.push(format!(
                "{CONFIG}:{line}: {path} is both mutated and excluded (line {ex}): keep one"
            ));
        }
    }
    for f in sources {
        if !setup.mutated.contains_key(f) && !excluded.contains_key(f.as_str()) {
            out.push(format!(
                "{f} is neither mutated nor excluded in {CONFIG}: decide on it, either a line \
                 `#   {f}` in the mutated list (between `{BEGIN}` and `{END}`), or an entry of \
                 exclude_globs with the reason no op's answer depends on it written above it"
            ));
        }
    }
    out
}

#[test]
fn every_file_of_src_is_mutated_or_excluded_for_a_reason() {
    let text = std::fs::read_to_string(repo().join(CONFIG)).unwrap();
    let setup = read_setup(&text).unwrap_or_else(|e| panic!("{e}"));
    let files = repository_files(&repo());
    assert!(
        files.iter().filter(|f| f.starts_with("src/")).count() > 30,
        "only {} files found under src/: is the scan broken?",
        files.len()
    );
    let found = problems(&setup, &files);
    assert!(
        found.is_empty(),
        "the mutation set-up does not say what it means:\n  {}",
        found.join("\n  ")
    );
}

/// The checks themselves, on a made-up tree: a file nobody decided on, an
/// exclusion of a file that is gone, an exclusion without a reason and a
/// glob that leaves out files of src/ without naming them all fail.
#[test]
fn the_check_fails_on_an_undecided_file_and_a_stale_exclusion() {
    let files: Vec<String> = [
        "src/lib.rs",
        "src/a.rs",
        "src/b.rs",
        "src/new.rs",
        "harness/src/lib.rs",
    ]
    .map(String::from)
    .to_vec();
    let config = "\
# BEGIN mutated
#   src/lib.rs
#   src/a.rs
# END mutated
exclude_globs = [
    # the judge
    \"harness/**\",
    # no op reads it
    \"src/b.rs\",
    # moved away
    \"src/gone.rs\",
    \"src/a.rs\",
    # every file of a folder
    \"src/**/*.txt\",
]
";
    let setup = read_setup(config).unwrap();
    let found = problems(&setup, &files).join("\n");
    for expected in [
        "\"src/gone.rs\" matches no file",
        "\"src/a.rs\" has no reason",
        "src/a.rs is both mutated and excluded",
        "src/new.rs is neither mutated nor excluded",
        "\"src/**/*.txt\" matches no file",
    ] {
        assert!(
            found.contains(expected),
            "missing {expected:?} in:\n{found}"
        );
    }
    assert!(!found.contains("src/b.rs is neither"), "{found}");
    assert!(!found.contains("\"harness/**\" matches no file"), "{found}");

    let globbed =
        "# BEGIN mutated\n# END mutated\nexclude_globs = [\n  # all\n  \"src/*.rs\",\n]\n";
    let found = problems(&read_setup(globbed).unwrap(), &files).join("\n");
    assert!(
        found.contains("leaves out files of src/ without naming them"),
        "{found}"
    );
    assert!(
        read_setup("exclude_globs = [\"src/a.rs\"]\n# BEGIN mutated\n# END mutated\n").is_err()
    );
}
