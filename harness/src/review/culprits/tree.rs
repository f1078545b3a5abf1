//! Source trees: a snapshot of a tree's source files (a directory's, or a
//! git commit's, read with the `git` command), the commits of a range,
//! and a *lane*, a scratch directory a snapshot is written into and built
//! in, again and again, so that each build compiles only what changed.

use globset::{Glob, GlobSet, GlobSetBuilder};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The source files of a tree, by path relative to its root (`/`-separated).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Path → content.
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Snapshot {
    /// A digest of every path and content: two snapshots with the same
    /// digest are the same sources.
    pub fn digest(&self) -> String {
        let mut h = Sha256::new();
        for (p, c) in &self.files {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p.as_bytes());
            h.update((c.len() as u64).to_le_bytes());
            h.update(c);
        }
        hex(&h.finalize())
    }
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Directories never taken for sources: build outputs, dependencies,
/// caches and version control.
const NOT_SOURCES: &[&str] = &[
    ".git",
    "_build",
    "deps",
    "node_modules",
    "target",
    "__pycache__",
    ".elixir_ls",
    ".mypy_cache",
    ".pytest_cache",
    "cover",
];

/// Which files of a tree are its sources: the ones `--src` globs match
/// (all, when none is given), never under [`NOT_SOURCES`] nor compiled
/// (`.beam`, `.pyc`, `.o`).
#[derive(Clone, Debug)]
pub struct Filter {
    globs: Option<GlobSet>,
    /// The globs as given, for messages.
    pub given: Vec<String>,
}

impl Filter {
    /// A filter from `--src` globs.
    pub fn new(globs: &[String]) -> Result<Filter, String> {
        if globs.is_empty() {
            return Ok(Filter {
                globs: None,
                given: Vec::new(),
            });
        }
        let mut b = GlobSetBuilder::new();
        for g in globs {
            b.add(Glob::new(g).map_err(|e| format!("--src {g:?}: {e}"))?);
        }
        Ok(Filter {
            globs: Some(b.build().map_err(|e| format!("--src: {e}"))?),
            given: globs.to_vec(),
        })
    }

    /// Whether `path` (relative, `/`-separated) is a source file.
    pub fn keeps(&self, path: &str) -> bool {
        let compiled = [".beam", ".pyc", ".o", ".so"];
        if path.split('/').any(|part| NOT_SOURCES.contains(&part))
            || compiled.iter().any(|e| path.ends_with(e))
        {
            return false;
        }
        self.globs.as_ref().is_none_or(|g| g.is_match(path))
    }
}

/// Runs `git -C dir args…`, its standard output, or an error naming the command.
pub fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| {
            format!(
                "git -C {} {}: cannot run git: {e}",
                dir.display(),
                args.join(" ")
            )
        })?;
    if !out.status.success() {
        return Err(format!(
            "git -C {} {}: {}",
            dir.display(),
            args.join(" "),
            crate::quote::line(String::from_utf8_lossy(&out.stderr).trim())
        ));
    }
    Ok(out.stdout)
}

/// The source files of directory `dir`: in a git work tree the files git
/// tracks or would track (not ignored), elsewhere every file below it.
pub fn read_dir(dir: &Path, filter: &Filter) -> Result<Snapshot, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()));
    }
    let mut paths: Vec<String> = Vec::new();
    let in_git = dir.join(".git").exists()
        && git(dir, &["rev-parse", "--show-prefix"]).is_ok_and(|p| p.trim_ascii().is_empty());
    if in_git {
        let out = git(
            dir,
            &[
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
        )?;
        for p in out.split(|b| *b == 0).filter(|p| !p.is_empty()) {
            paths.push(String::from_utf8_lossy(p).into_owned());
        }
    } else {
        for entry in walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_entry(|e| !NOT_SOURCES.contains(&e.file_name().to_string_lossy().as_ref()))
        {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            if entry.file_type().is_file() {
                let rel = entry
                    .path()
                    .strip_prefix(dir)
                    .map_err(|e| format!("{}: {e}", entry.path().display()))?;
                paths.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut files = BTreeMap::new();
    for p in paths.into_iter().filter(|p| filter.keeps(p)) {
        let full = dir.join(&p);
        if !full.is_file() {
            continue; // tracked but deleted in the work tree
        }
        let content =
            std::fs::read(&full).map_err(|e| format!("{}: cannot read: {e}", full.display()))?;
        files.insert(p, content);
    }
    if files.is_empty() {
        return Err(format!(
            "{}: no source file found{}",
            dir.display(),
            if filter.given.is_empty() {
                String::new()
            } else {
                format!(" matching --src {}", filter.given.join(" "))
            }
        ));
    }
    Ok(Snapshot { files })
}

/// A commit of a range: its id and subject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commit {
    /// The full id.
    pub id: String,
    /// The first line of its message.
    pub subject: String,
}

impl Commit {
    /// The id's first 12 characters.
    pub fn short(&self) -> &str {
        &self.id[..self.id.len().min(12)]
    }
}

/// The commits of `range` (`A..B`) in `repo`, oldest first, `A` itself
/// first: along first parents, so that each commit's diff is its own
/// (a merge's is what it brought in).
pub fn commits(repo: &Path, range: &str) -> Result<Vec<Commit>, String> {
    let (a, b) = range
        .split_once("..")
        .filter(|(a, b)| !a.is_empty() && !b.is_empty() && !b.starts_with('.'))
        .ok_or_else(|| format!("--range {range:?}: expected A..B (two revisions)"))?;
    let rev = |r: &str| -> Result<String, String> {
        let out = git(
            repo,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("{r}^{{commit}}"),
            ],
        )
        .map_err(|_| {
            format!(
                "--range {range:?}: {r:?} names no commit of {}",
                repo.display()
            )
        })?;
        Ok(String::from_utf8_lossy(&out).trim().to_owned())
    };
    let (a, b) = (rev(a)?, rev(b)?);
    let out = git(
        repo,
        &[
            "log",
            "--first-parent",
            "--reverse",
            "--format=%H%x00%s",
            &format!("{a}..{b}"),
        ],
    )?;
    let mut list = vec![Commit {
        subject: subject_of(repo, &a)?,
        id: a.clone(),
    }];
    for line in String::from_utf8_lossy(&out).lines() {
        if let Some((id, subject)) = line.split_once('\0') {
            list.push(Commit {
                id: id.to_owned(),
                subject: subject.to_owned(),
            });
        }
    }
    if list.last().map(|c| c.id.as_str()) != Some(b.as_str()) {
        return Err(format!(
            "--range {range:?}: {b} is not reached from {a} along first parents (is A an ancestor of B?)"
        ));
    }
    Ok(list)
}

fn subject_of(repo: &Path, id: &str) -> Result<String, String> {
    let out = git(repo, &["log", "-1", "--format=%s", id])?;
    Ok(String::from_utf8_lossy(&out).trim().to_owned())
}

/// The blobs of commit `id` of `repo`: each path and its object id.
fn blobs(repo: &Path, id: &str) -> Result<Vec<(String, String)>, String> {
    let list = git(repo, &["ls-tree", "-r", "-z", "--full-tree", id])?;
    let mut out = Vec::new();
    for entry in list.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        if let (_mode, Some("blob"), Some(object)) = (meta.next(), meta.next(), meta.next()) {
            out.push((path.to_owned(), object.to_owned()));
        }
    }
    Ok(out)
}

/// The source files of commit `id` of `repo`.
pub fn read_commit(repo: &Path, id: &str, filter: &Filter) -> Result<Snapshot, String> {
    let mut files = BTreeMap::new();
    for (path, object) in blobs(repo, id)? {
        if !filter.keeps(&path) {
            continue;
        }
        let content = git(repo, &["cat-file", "blob", &object]).map_err(|e| {
            format!("{path} at {id}: {e} (a snapshot without its largest files? name the sources with --src)")
        })?;
        files.insert(path, content);
    }
    Ok(Snapshot { files })
}

/// Every file of commit `id` a build may need, sources or not (what a
/// checkout of it holds), and the paths of the blobs the repository cannot
/// give (a snapshot without its largest files), which are left out.
pub fn read_commit_all(repo: &Path, id: &str) -> Result<(Snapshot, Vec<String>), String> {
    let mut files = BTreeMap::new();
    let mut absent = Vec::new();
    for (path, object) in blobs(repo, id)? {
        match git(repo, &["cat-file", "blob", &object]) {
            Ok(content) => {
                files.insert(path, content);
            }
            Err(_) => absent.push(path),
        }
    }
    Ok((Snapshot { files }, absent))
}

/// A scratch directory a snapshot is written into and built in.
#[derive(Debug)]
pub struct Lane {
    /// The directory.
    pub dir: PathBuf,
    /// The sources written there now.
    current: Snapshot,
}

impl Lane {
    /// A lane at `dir`, made anew: a copy of `from` (with its build
    /// outputs, so that the first build is incremental) when given, else
    /// empty. `current` is what `from`'s sources are.
    pub fn new(dir: PathBuf, from: Option<(&Path, Snapshot)>) -> Result<Lane, String> {
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("{}: cannot remove: {e}", dir.display()))?;
        }
        let current = match from {
            Some((src, snap)) => {
                if let Some(parent) = dir.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
                }
                // `cp -a` keeps modification times, which builds read.
                let out = Command::new("cp")
                    .arg("-a")
                    .arg(src)
                    .arg(&dir)
                    .output()
                    .map_err(|e| format!("cp -a {}: {e}", src.display()))?;
                if !out.status.success() {
                    return Err(format!(
                        "cp -a {} {}: {}",
                        src.display(),
                        dir.display(),
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                }
                snap
            }
            None => {
                std::fs::create_dir_all(&dir)
                    .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
                Snapshot::default()
            }
        };
        Ok(Lane { dir, current })
    }

    /// Writes every file of `all` (a commit's whole tree) into the lane,
    /// whose sources are then `sources` (the files of `all` the filter
    /// keeps): the files that are no sources stay as written.
    pub fn seed(&mut self, all: &Snapshot, sources: &Snapshot) -> Result<(), String> {
        self.set(all)?;
        self.current = sources.clone();
        Ok(())
    }

    /// Writes `snap` into the lane: the files whose content differs, and
    /// removes the source files it lacks; the rest (build outputs, and
    /// sources left as they were, with their times) stays.
    pub fn set(&mut self, snap: &Snapshot) -> Result<(), String> {
        for path in self.current.files.keys() {
            if !snap.files.contains_key(path) {
                let full = self.dir.join(path);
                if full.exists() {
                    std::fs::remove_file(&full)
                        .map_err(|e| format!("{}: cannot remove: {e}", full.display()))?;
                }
            }
        }
        for (path, content) in &snap.files {
            if self.current.files.get(path) == Some(content) {
                continue;
            }
            let full = self.dir.join(path);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: cannot create: {e}", parent.display()))?;
            }
            std::fs::write(&full, content)
                .map_err(|e| format!("{}: cannot write: {e}", full.display()))?;
        }
        self.current = snap.clone();
        Ok(())
    }
}

/// What a build did: its time and, when it failed, the tail of its output.
#[derive(Clone, Debug)]
pub struct Built {
    /// Wall time.
    pub secs: f64,
    /// `Err` with the exit status and the last lines of its output.
    pub result: Result<(), String>,
}

/// Runs `cmd` with `sh -c` in `dir`.
pub fn build(cmd: &str, dir: &Path) -> Built {
    let started = std::time::Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output();
    let result = match out {
        Err(e) => Err(format!("cannot run sh -c {cmd:?}: {e}")),
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => {
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            let tail: Vec<&str> = text.lines().rev().take(6).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            Err(format!(
                "`{cmd}` exited with {} in {}: {}",
                o.status,
                dir.display(),
                crate::quote::line(&tail.join(" | "))
            ))
        }
    };
    Built {
        secs: started.elapsed().as_secs_f64(),
        result,
    }
}
