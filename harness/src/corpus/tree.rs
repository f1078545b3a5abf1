//! A directory of files held in memory, from the binary ([`Origin::Embedded`])
//! or from disk ([`Origin::Dir`]): the corpus and the spec are read through
//! it, so that both origins are loaded, checked and named by one code path,
//! and a report can say which corpus ran ([`Provenance`]): where from, how
//! many files, and a SHA-256 of their paths and bytes that is the same for
//! the embedded copy and for that copy written out by `ptc-conformance export`.

use super::embedded::{self, Embedded};
use super::CorpusError;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Where a tree comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Packed into the binary when it was built.
    Embedded,
    /// A directory on disk.
    Dir(PathBuf),
}

/// One file of a tree.
#[derive(Clone, Debug)]
pub struct TreeFile {
    /// Its path under the tree's root, `/`-separated.
    pub rel: String,
    /// Its bytes.
    pub bytes: Cow<'static, [u8]>,
}

/// A directory's files, sorted by path.
#[derive(Clone, Debug)]
pub struct Tree {
    /// Where they come from.
    pub origin: Origin,
    /// The root as reports show it: relative to where the user stands for a
    /// directory, the repository's name (`golden`, `spec`) for an embedded one.
    pub root: PathBuf,
    /// The files, sorted by `rel`.
    pub files: Vec<TreeFile>,
}

impl Tree {
    /// The embedded copy of `which`.
    pub fn embedded(which: Embedded) -> Tree {
        Tree {
            origin: Origin::Embedded,
            root: PathBuf::from(which.dir_name()),
            files: which
                .files()
                .iter()
                .map(|(rel, bytes)| TreeFile {
                    rel: (*rel).to_owned(),
                    bytes: Cow::Borrowed(*bytes),
                })
                .collect(),
        }
    }

    /// `origin`'s tree: the embedded copy of `which`, or the directory.
    pub fn load(origin: &Origin, which: Embedded) -> (Tree, Vec<CorpusError>) {
        match origin {
            Origin::Embedded => (Tree::embedded(which), Vec::new()),
            Origin::Dir(dir) => Tree::read(dir),
        }
    }

    /// Reads every file under `dir`; each file or directory that cannot be
    /// read is a problem naming it (a missing `dir` is one).
    pub fn read(dir: &Path) -> (Tree, Vec<CorpusError>) {
        let root = crate::paths::shown(dir);
        let mut tree = Tree {
            origin: Origin::Dir(dir.to_owned()),
            root: root.clone(),
            files: Vec::new(),
        };
        let mut errors = Vec::new();
        let problem = |file: &Path, message: String| CorpusError {
            file: file.to_owned(),
            case: None,
            message,
        };
        if !root.is_dir() {
            errors.push(problem(&root, "directory does not exist".into()));
            return (tree, errors);
        }
        for entry in walkdir::WalkDir::new(&root) {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let at = e.path().unwrap_or(&root).to_owned();
                    errors.push(problem(&at, format!("cannot read: {e}")));
                    continue;
                }
            };
            if !entry.file_type().is_file() {
                continue;
            }
            let path = entry.path();
            let Some(rel) = rel_path(&root, path) else {
                errors.push(problem(path, "path is not valid UTF-8".into()));
                continue;
            };
            match std::fs::read(path) {
                Ok(bytes) => tree.files.push(TreeFile {
                    rel,
                    bytes: Cow::Owned(bytes),
                }),
                Err(e) => errors.push(problem(path, format!("cannot read: {e}"))),
            }
        }
        tree.files.sort_by(|a, b| a.rel.cmp(&b.rel));
        (tree, errors)
    }

    /// A file's path as reports show it: the root joined with `rel`.
    pub fn path_of(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

/// `root/a/b/c.json` → `a/b/c.json`, `None` when not UTF-8 or not under `root`.
fn rel_path(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

/// Where a set of trees came from and what they hold, as reports name them.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Provenance {
    /// `embedded in ptc-conformance VERSION`, or `directory DIR` (several
    /// joined by `, `).
    pub source: String,
    /// Whether every tree is the binary's own copy.
    pub embedded: bool,
    /// The roots as reports show them (`golden` for the embedded corpus).
    pub paths: Vec<String>,
    /// How many files they hold.
    pub files: usize,
    /// [`sha256`] of their files, in hex.
    pub sha256: String,
}

impl Provenance {
    /// The provenance of `trees`.
    pub fn of(trees: &[Tree]) -> Provenance {
        let mut sources: Vec<String> = Vec::new();
        for t in trees {
            let s = match &t.origin {
                Origin::Embedded => embedded::label(),
                Origin::Dir(_) => format!("directory {}", t.root.display()),
            };
            if !sources.contains(&s) {
                sources.push(s);
            }
        }
        Provenance {
            source: sources.join(", "),
            embedded: !trees.is_empty() && trees.iter().all(|t| t.origin == Origin::Embedded),
            paths: trees.iter().map(|t| t.root.display().to_string()).collect(),
            files: trees.iter().map(|t| t.files.len()).sum(),
            sha256: sha256(trees),
        }
    }
}

/// SHA-256 over the files of `trees` in order of (path under its root,
/// bytes): for each, the path's UTF-8 bytes, a zero byte, the length of its
/// bytes as a little-endian u64, and the bytes. It depends only on paths and
/// contents, so an embedded corpus and its export hash alike.
pub fn sha256(trees: &[Tree]) -> String {
    let mut files: Vec<&TreeFile> = trees.iter().flat_map(|t| &t.files).collect();
    files.sort_by(|a, b| (&a.rel, &a.bytes).cmp(&(&b.rel, &b.bytes)));
    let mut h = Sha256::new();
    for f in files {
        h.update(f.rel.as_bytes());
        h.update([0u8]);
        h.update((f.bytes.len() as u64).to_le_bytes());
        h.update(&f.bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        Tree {
            origin: Origin::Dir(PathBuf::from("x")),
            root: PathBuf::from("x"),
            files: files
                .iter()
                .map(|(r, b)| TreeFile {
                    rel: (*r).to_owned(),
                    bytes: Cow::Owned(b.as_bytes().to_vec()),
                })
                .collect(),
        }
    }

    #[test]
    fn the_hash_follows_paths_and_bytes_only() {
        let a = sha256(&[tree(&[("a.json", "1"), ("b/c.json", "2")])]);
        // Order of files and of trees does not matter; where they came from neither.
        assert_eq!(a, sha256(&[tree(&[("b/c.json", "2"), ("a.json", "1")])]));
        assert_eq!(
            a,
            sha256(&[tree(&[("b/c.json", "2")]), tree(&[("a.json", "1")])])
        );
        // A byte, a path, or where a path ends and the bytes begin does.
        assert_ne!(a, sha256(&[tree(&[("a.json", "1"), ("b/c.json", "3")])]));
        assert_ne!(a, sha256(&[tree(&[("a.json", "1"), ("b/d.json", "2")])]));
        assert_ne!(
            sha256(&[tree(&[("ab", "c")])]),
            sha256(&[tree(&[("a", "bc")])])
        );
        assert_eq!(a.len(), 64);
    }

    #[test]
    fn the_embedded_corpus_is_the_repository_s() {
        let embedded = Tree::embedded(Embedded::Golden);
        let (on_disk, errors) = Tree::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("golden"));
        assert!(errors.is_empty(), "{errors:?}");
        assert!(embedded.files.len() > 1000, "{}", embedded.files.len());
        assert_eq!(sha256(&[embedded]), sha256(&[on_disk]));
    }
}
