//! Paths as reports show them: as the user gave them, an absolute path
//! absolute and a relative one relative to where the user stands, only
//! tidied: `.` dropped and `dir/..` resolved (lexically), so `--corpus
//! ./../golden` shows its cases under `../golden`, a spec rule's test
//! `spec/../harness/tests/cli.rs` as `harness/tests/cli.rs`, and `--corpus
//! /srv/kit/golden` as `/srv/kit/golden/...` wherever it is run from.

use std::path::{Component, Path, PathBuf};

/// `path` as given, with `.` components dropped and each `..` that follows
/// a named directory resolved; leading `..` stay, `/..` is `/`, and an
/// empty result is `.`. No file system access.
pub fn shown(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    // Named components at the end of `out`, which a `..` may cancel.
    let mut named = 0usize;
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if named > 0 => {
                out.pop();
                named -= 1;
            }
            Component::ParentDir if out.has_root() => {}
            Component::ParentDir => out.push(".."),
            Component::Normal(n) => {
                out.push(n);
                named += 1;
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_as_given_and_tidied() {
        let shown = |p: &str| shown(Path::new(p)).display().to_string();
        assert_eq!(shown("/nonexistent"), "/nonexistent");
        assert_eq!(shown("../nonexistent"), "../nonexistent");
        assert_eq!(shown("./../golden/a/b.json"), "../golden/a/b.json");
        assert_eq!(shown("spec/../harness/tests/x.rs"), "harness/tests/x.rs");
        assert_eq!(shown("../../kit/spec/.."), "../../kit");
        assert_eq!(shown("/work/repo/harness/../golden"), "/work/repo/golden");
        assert_eq!(shown("/.."), "/");
        assert_eq!(shown("golden/"), "golden");
        assert_eq!(shown("spec/.."), ".");
        assert_eq!(shown("."), ".");
    }
}
