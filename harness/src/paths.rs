//! Paths as reports show them: relative to where the user stands, with
//! `.` and `..` resolved, so a case reads `golden/inspect/inspect/alias-atom.json`
//! from the repository, the same with `../` in front from `harness/`, and
//! never `/.../harness/../golden/...`.

use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `..` resolved lexically (no file system access), made
/// absolute against the current directory first when it is relative.
pub fn normalize(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_owned()
    } else {
        match std::env::current_dir() {
            Ok(cwd) => cwd.join(path),
            Err(_) => path.to_owned(),
        }
    };
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` normalized and relative to the current directory (`..` steps
/// where it lies outside it); unchanged if the current directory is unknown.
pub fn relative(path: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else {
        return path.to_owned();
    };
    relative_to(&normalize(path), &normalize(&cwd))
}

/// `path` relative to `base`; both absolute and normalized.
pub fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let p: Vec<Component<'_>> = path.components().collect();
    let b: Vec<Component<'_>> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_owned();
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c.as_os_str());
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
    fn relative_paths_are_normalized() {
        let base = Path::new("/work/repo/harness");
        let rel = |p: &str| relative_to(&normalize(Path::new(p)), base);
        assert_eq!(
            rel("/work/repo/harness/../golden/a/b.json"),
            Path::new("../golden/a/b.json")
        );
        assert_eq!(rel("/work/repo/harness/./src/x.rs"), Path::new("src/x.rs"));
        assert_eq!(rel("/work/repo/harness"), Path::new("."));
        assert_eq!(rel("/tmp/c.json"), Path::new("../../../tmp/c.json"));
    }
}
