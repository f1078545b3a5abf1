//! The kit's link check: every path that its Markdown (and, in a checkout,
//! its doc comments) cites exists. A citation that points nowhere is a bug
//! (expect-test's tidy checks). It runs on a checkout of the repository
//! (`harness/tests/paths.rs`) and on what `ptc-conformance export` writes
//! (`harness/tests/standalone.rs`), where the spec and the SDKs' READMEs
//! must cite nothing but what the export carries.

use std::path::{Path, PathBuf};

/// Where the check runs, which decides what it reads and what a path may
/// resolve against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    /// A checkout: the README, the Markdown under `docs/`, `spec/`, `sdk/`,
    /// `harness/adapters/` and `golden/`, and the doc comments of the Rust
    /// sources.
    Checkout,
    /// An export (`golden/`, `spec/`, `sdk/`): its Markdown only. The
    /// `<!-- lint: ... -->` comments are left out: they are read by `lint`
    /// in a checkout and are not shown to a reader.
    Export,
}

/// What a check found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Files read.
    pub files: usize,
    /// Citations checked.
    pub citations: usize,
    /// `file: cites PATH, which does not exist`, one per missing path.
    pub missing: Vec<String>,
}

/// Checks every citation under `root`, a checkout or an export.
pub fn check(root: &Path, tree: Tree) -> Checked {
    let mut out = Checked::default();
    let (files, errors) = sources(root, tree);
    out.missing = errors;
    for (file, docs_only) in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            out.missing
                .push(format!("{}: cannot be read as UTF-8", file.display()));
            continue;
        };
        out.files += 1;
        let in_spec = file.starts_with(root.join("spec"));
        let dir = file.parent().unwrap_or(root);
        let shown = cited_text(&text, docs_only, tree);
        if tree == Tree::Export {
            for command in repository_only(&shown) {
                out.missing.push(format!(
                    "{}: shows `{command}`, which only a checkout of the repository can run",
                    file.strip_prefix(root).unwrap_or(&file).display()
                ));
            }
        }
        for cited in citations(&shown, in_spec) {
            out.citations += 1;
            if !exists(root, &cited, dir) {
                out.missing.push(format!(
                    "{}: cites {cited}, which does not exist",
                    file.strip_prefix(root).unwrap_or(&file).display()
                ));
            }
        }
    }
    out
}

/// The files whose citations count, and whether only their doc comments
/// do; and the directories that could not be read.
fn sources(root: &Path, tree: Tree) -> (Vec<(PathBuf, bool)>, Vec<String>) {
    let errors = std::cell::RefCell::new(Vec::new());
    let files = |dir: &str, ext: &str| -> Vec<PathBuf> {
        walkdir::WalkDir::new(root.join(dir))
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                let name = e.file_name().to_string_lossy();
                !(name.starts_with('.') && e.depth() > 0) && name != "node_modules"
            })
            .filter_map(|e| {
                e.map_err(|err| errors.borrow_mut().push(format!("{dir}: {err}")))
                    .ok()
            })
            .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == ext))
            .map(|e| e.into_path())
            .collect()
    };
    let mut out = Vec::new();
    let markdown: &[&str] = match tree {
        Tree::Checkout => {
            out.push((root.join("README.md"), false));
            &["docs", "spec", "sdk", "harness/adapters", "golden"]
        }
        Tree::Export => &["golden", "spec", "sdk"],
    };
    for dir in markdown {
        out.extend(files(dir, "md").into_iter().map(|f| (f, false)));
    }
    if tree == Tree::Checkout {
        for dir in ["src", "harness/src", "harness/tests", "tests"] {
            out.extend(files(dir, "rs").into_iter().map(|f| (f, true)));
        }
    }
    (out, errors.into_inner())
}

/// The text that counts: all of a Markdown file (less the lint comments in
/// an export), the doc comments of a Rust file.
pub fn cited_text(text: &str, docs_only: bool, tree: Tree) -> String {
    if docs_only {
        return text
            .lines()
            .filter_map(|l| {
                let t = l.trim_start();
                t.strip_prefix("//!").or_else(|| t.strip_prefix("///"))
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    match tree {
        Tree::Checkout => text.to_owned(),
        Tree::Export => lint_comment().replace_all(text, "").into_owned(),
    }
}

fn lint_comment() -> regex::Regex {
    regex::Regex::new(r"(?s)<!--\s*lint:.*?-->").unwrap_or_else(|e| panic!("{e}"))
}

/// Commands in `text` that need a checkout of the repository (its cargo
/// package, its tests, its CI script): an export, read where no checkout
/// is, must not send its reader to them.
pub fn repository_only(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"cargo (?:test|run|mutants|build)\b|UPDATE_[A-Z_]+=|\.ci/run")
        .unwrap_or_else(|e| panic!("{e}"));
    re.find_iter(text).map(|m| m.as_str().to_owned()).collect()
}

/// Paths in `text`: tokens starting with a top-level directory of the
/// repository, and in the spec also `name.md` / `schema/...` files named
/// relative to it.
pub fn citations(text: &str, in_spec: bool) -> Vec<String> {
    let top = regex::Regex::new(
        r"(?:^|[\s`(\[\x22'])((?:\.\./)*(?:golden|spec|sdk|src|harness|tests|docs|packaging|\.ci)/[A-Za-z0-9_./*<>?-]*)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let local = regex::Regex::new(r"`((?:\.\./)*(?:schema/)?[A-Za-z0-9_.*-]+\.(?:md|json))`")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut out: Vec<String> = top.captures_iter(text).map(|c| c[1].to_owned()).collect();
    if in_spec {
        out.extend(local.captures_iter(text).map(|c| c[1].to_owned()));
    }
    out.into_iter()
        .map(|p| p.trim_end_matches(['.', ',', ')']).to_owned())
        .collect()
}

/// Whether `cited` exists under `root` or from `dir`, the citing file's
/// directory, without leaving `root`. A path with a placeholder or a
/// wildcard is checked up to the directory before it.
pub fn exists(root: &Path, cited: &str, dir: &Path) -> bool {
    let path = match cited.find(['*', '<', '?']) {
        Some(i) => match cited[..i].rfind('/') {
            Some(j) => &cited[..j],
            None => return true,
        },
        None => cited,
    };
    // Lexically, from an absolute path, so `..` cannot climb out of `root`.
    let absolute = |p: &Path| match std::env::current_dir() {
        Ok(cwd) if p.is_relative() => crate::paths::shown(&cwd.join(p)),
        _ => crate::paths::shown(p),
    };
    let inside = |p: PathBuf| absolute(&p).starts_with(absolute(root)) && p.exists();
    inside(root.join(path)) || inside(dir.join(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_sees_paths_and_placeholders() {
        let found = citations(
            "see `spec/terms.md`, (golden/a/<x>.json), sdk/js/ and harness/src/cli.rs.",
            false,
        );
        assert_eq!(
            found,
            vec![
                "spec/terms.md",
                "golden/a/<x>.json",
                "sdk/js/",
                "harness/src/cli.rs"
            ]
        );
        assert_eq!(
            citations("`terms.md` and `schema/case.schema.json`", true).len(),
            2
        );
        assert!(citations("`terms.md`", false).is_empty());
        assert_eq!(
            citations("see docs/porter.md.", false),
            vec!["docs/porter.md"]
        );
    }

    #[test]
    fn an_export_shows_no_command_of_the_checkout() {
        let text = "run `UPDATE_PORTER_DATA=1 cargo test --test porter_data`, then .ci/run";
        assert_eq!(
            repository_only(text),
            vec!["UPDATE_PORTER_DATA=", "cargo test", ".ci/run"]
        );
        assert!(repository_only("cargo install --locked --path .; ptc-conformance run").is_empty());
    }

    #[test]
    fn lint_comments_are_left_out_of_an_export_only() {
        let text = "<!-- lint: tested-by harness/tests/x.rs -->\nsee spec/terms.md";
        assert_eq!(
            citations(&cited_text(text, false, Tree::Export), false),
            vec!["spec/terms.md"]
        );
        assert_eq!(
            citations(&cited_text(text, false, Tree::Checkout), false).len(),
            2
        );
        let rust = "//! see harness/src/a.rs\nfn f() {} // harness/src/b.rs\n/// spec/x.md";
        assert_eq!(
            citations(&cited_text(rust, true, Tree::Checkout), false),
            vec!["harness/src/a.rs", "spec/x.md"]
        );
    }

    #[test]
    fn a_path_must_stay_inside_the_tree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let spec = root.join("spec");
        assert!(exists(root, "terms.md", &spec));
        assert!(exists(root, "golden/<module>/x.json", &spec));
        assert!(exists(root, "../src/", &spec));
        assert!(!exists(root, "spec/report.md", &spec));
        // From spec/ as the root, `../src/` leaves it: not there.
        assert!(!exists(&spec, "../src/", &spec));
        assert!(!exists(&spec, "src/lib.rs", &spec));
    }
}
