//! The hunks of a diff between two snapshots of source files, and a
//! snapshot with some of them applied. A hunk is one run of changed lines
//! (no context, as `git diff -U0` cuts them), so that two changes on lines
//! apart are two hunks; a file added, deleted or not UTF-8 is one hunk.
//! Lines are diffed by the `similar` crate (Myers).

use super::tree::Snapshot;
use regex::Regex;
use std::sync::OnceLock;

/// One hunk: lines `old` of `path` in the old snapshot replaced by `new`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk {
    /// The file.
    pub path: String,
    /// The old lines replaced, `start..end` (0-based; empty for an insertion).
    pub old: std::ops::Range<usize>,
    /// Where the new lines start in the new file (0-based).
    pub new_start: usize,
    /// The new lines (each with its line end).
    pub lines: Vec<String>,
    /// The old lines it removes (for the report and the diff's constants).
    pub removed: Vec<String>,
    /// The whole file: added (`Some(content)`), deleted (`None`), or not text.
    pub whole: Option<Whole>,
    /// The function the hunk is in (the nearest definition above it), if any.
    pub function: Option<String>,
}

/// A hunk that replaces a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whole {
    /// The file as head has it.
    Content(Vec<u8>),
    /// The file deleted.
    Deleted,
}

impl Hunk {
    /// `path:line` of the hunk in the new file (1-based), as a reviewer opens it.
    pub fn place(&self) -> String {
        match &self.whole {
            Some(Whole::Deleted) => format!("{} (deleted)", self.path),
            Some(Whole::Content(_)) => format!("{} (whole file)", self.path),
            None if self.lines.is_empty() && self.function.is_none() => {
                format!(
                    "{}:{} (lines removed, top level)",
                    self.path,
                    self.new_start + 1
                )
            }
            None if self.function.is_none() => {
                format!("{}:{} (top level)", self.path, self.new_start + 1)
            }
            None if self.lines.is_empty() => {
                format!("{}:{} (lines removed)", self.path, self.new_start + 1)
            }
            None => format!("{}:{}", self.path, self.new_start + 1),
        }
    }

    /// `-removed` and `+added` lines, for the report (at most `max` of each).
    pub fn patch(&self, max: usize) -> Vec<String> {
        let show = |sign: char, lines: &[String]| {
            let mut out: Vec<String> = lines
                .iter()
                .take(max)
                .map(|l| format!("{sign}{}", l.trim_end_matches(['\n', '\r'])))
                .collect();
            if lines.len() > max {
                out.push(format!("{sign}… (+{} more line(s))", lines.len() - max));
            }
            out
        };
        let mut out = show('-', &self.removed);
        out.extend(show('+', &self.lines));
        out
    }
}

/// Lines of `text`, each with its line end.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The hunks that turn `old` into `new`, by file (in path order), then line.
pub fn hunks(old: &Snapshot, new: &Snapshot) -> Vec<Hunk> {
    let mut paths: Vec<&String> = old.files.keys().chain(new.files.keys()).collect();
    paths.sort();
    paths.dedup();
    let mut out = Vec::new();
    for path in paths {
        let (a, b) = (old.files.get(path), new.files.get(path));
        if a == b {
            continue;
        }
        let texts = (
            a.map(|x| std::str::from_utf8(x)),
            b.map(|x| std::str::from_utf8(x)),
        );
        match texts {
            (Some(Ok(a)), Some(Ok(b))) => out.extend(file_hunks(path, a, b)),
            _ => out.push(Hunk {
                path: path.clone(),
                old: 0..0,
                new_start: 0,
                lines: Vec::new(),
                removed: Vec::new(),
                whole: Some(match b {
                    Some(content) => Whole::Content(content.clone()),
                    None => Whole::Deleted,
                }),
                function: None,
            }),
        }
    }
    out
}

fn file_hunks(path: &str, a: &str, b: &str) -> Vec<Hunk> {
    let (old, new) = (lines(a), lines(b));
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    similar::group_diff_ops(ops, 0)
        .into_iter()
        .filter_map(|group| {
            let (first, last) = (group.first()?, group.last()?);
            let o = first.old_range().start..last.old_range().end;
            let n = first.new_range().start..last.new_range().end;
            Some(Hunk {
                path: path.to_owned(),
                function: function_at(&new, n.start).or_else(|| function_at(&old, o.start)),
                lines: new[n.clone()].iter().map(|s| (*s).to_owned()).collect(),
                removed: old[o.clone()].iter().map(|s| (*s).to_owned()).collect(),
                old: o,
                new_start: n.start,
                whole: None,
            })
        })
        .collect()
}

/// The definition a line of code is in: the nearest line at or above
/// `at` that opens a function (`def`, `defp`, `defmacro`, `fn`,
/// `function`, `func`), with the module or class above that, as
/// `Module.name`. The hunk's own first line counts, so a changed head of
/// a function is in that function.
pub fn function_at(lines: &[&str], at: usize) -> Option<String> {
    static FUNCTION: OnceLock<Regex> = OnceLock::new();
    static MODULE: OnceLock<Regex> = OnceLock::new();
    let function = FUNCTION.get_or_init(|| {
        Regex::new(
            r"^\s*(?:pub(?:\([a-z]+\))?\s+)?(?:async\s+)?(?:export\s+)?(?:defp?|defmacrop?|defguardp?|fn|function|func)\s+([A-Za-z_][A-Za-z0-9_?!]*)",
        )
        .expect("a valid regex")
    });
    let module = MODULE.get_or_init(|| {
        Regex::new(r"^\s*(?:defmodule|class|impl|mod)\s+([A-Za-z_][A-Za-z0-9_.:]*)")
            .expect("a valid regex")
    });
    let at = at.min(lines.len().saturating_sub(1));
    let indent = |l: &str| l.len() - l.trim_start().len();
    let quiet = |l: &str| {
        let t = l.trim_start();
        t.is_empty() || t.starts_with('#') || t.starts_with("//") || t.starts_with('@')
    };
    // A definition holds line `at` when every line between is indented
    // deeper than it: a line as shallow (an `end`, a sibling, a
    // top-level statement) closes the definitions above it.
    let mut shallowest = usize::MAX;
    let mut name = None;
    for i in (0..=at).rev() {
        let Some(line) = lines.get(i) else { continue };
        if quiet(line) && i != at {
            continue;
        }
        let d = indent(line);
        let holds = i == at || d < shallowest;
        if holds && name.is_none() {
            if let Some(c) = function.captures(line) {
                name = Some(c[1].to_owned());
                shallowest = d;
                continue;
            }
        }
        if holds {
            if let Some(c) = module.captures(line) {
                let m = c[1].trim_end_matches(':');
                return Some(match name {
                    Some(n) => format!("{m}.{n}"),
                    None => m.to_owned(),
                });
            }
        }
        if !quiet(line) {
            shallowest = shallowest.min(d);
        }
    }
    name
}

/// `base` with the hunks `chosen` (indices into `all`, the hunks of the
/// diff from `base`) applied.
pub fn apply(base: &Snapshot, all: &[Hunk], chosen: &[usize]) -> Snapshot {
    let mut out = base.clone();
    let mut by_file: std::collections::BTreeMap<&str, Vec<&Hunk>> = Default::default();
    for &i in chosen {
        if let Some(h) = all.get(i) {
            by_file.entry(h.path.as_str()).or_default().push(h);
        }
    }
    for (path, mut hs) in by_file {
        if let Some(whole) = hs.iter().find_map(|h| h.whole.as_ref()) {
            match whole {
                Whole::Content(c) => out.files.insert(path.to_owned(), c.clone()),
                Whole::Deleted => out.files.remove(path),
            };
            continue;
        }
        let text = base
            .files
            .get(path)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let old = lines(&text);
        hs.sort_by_key(|h| h.old.start);
        let mut new = String::with_capacity(text.len());
        let mut at = 0;
        for h in hs {
            for l in &old[at.min(old.len())..h.old.start.min(old.len())] {
                new.push_str(l);
            }
            for l in &h.lines {
                new.push_str(l);
            }
            at = h.old.end;
        }
        for l in &old[at.min(old.len())..] {
            new.push_str(l);
        }
        out.files.insert(path.to_owned(), new.into_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(files: &[(&str, &str)]) -> Snapshot {
        Snapshot {
            files: files
                .iter()
                .map(|(p, c)| ((*p).to_owned(), c.as_bytes().to_vec()))
                .collect(),
        }
    }

    #[test]
    fn changes_apart_are_hunks_apart_and_every_subset_applies() {
        let a = snap(&[(
            "m.ex",
            "defmodule M do\n  def f, do: 1\n\n  def g, do: 2\nend\n",
        )]);
        let b = snap(&[
            (
                "m.ex",
                "defmodule M do\n  def f, do: 10\n\n  def g, do: 2\n  def h, do: 3\nend\n",
            ),
            ("new.ex", "x\n"),
        ]);
        let hs = hunks(&a, &b);
        assert_eq!(hs.len(), 3, "{hs:#?}");
        assert_eq!(hs[0].function.as_deref(), Some("M.f"));
        assert_eq!(hs[1].function.as_deref(), Some("M.h"));
        assert!(matches!(hs[2].whole, Some(Whole::Content(_))));
        assert_eq!(apply(&a, &hs, &[0, 1, 2]), b);
        assert_eq!(apply(&a, &hs, &[]), a);
        let only_g = apply(&a, &hs, &[1]);
        assert_eq!(
            std::str::from_utf8(&only_g.files["m.ex"]).ok(),
            Some("defmodule M do\n  def f, do: 1\n\n  def g, do: 2\n  def h, do: 3\nend\n")
        );
        assert!(!only_g.files.contains_key("new.ex"));
    }

    #[test]
    fn a_deleted_file_is_one_hunk() {
        let a = snap(&[("a.py", "x = 1\n"), ("b.py", "y = 2\n")]);
        let b = snap(&[("a.py", "x = 1\n")]);
        let hs = hunks(&a, &b);
        assert_eq!(hs.len(), 1);
        assert_eq!(hs[0].place(), "b.py (deleted)");
        assert_eq!(apply(&a, &hs, &[0]), b);
    }

    #[test]
    fn python_and_rust_functions_are_named() {
        let py = ["class P:\n", "    def go(self):\n", "        return 1\n"];
        assert_eq!(function_at(&py, 2).as_deref(), Some("P.go"));
        let rs = ["pub fn walk(x: u8) {\n", "    x\n", "}\n"];
        assert_eq!(function_at(&rs, 1).as_deref(), Some("walk"));
        assert_eq!(function_at(&["x = 1\n"], 0), None);
        // A top-level table after a function is in no function.
        let table = [
            "def f():\n",
            "    return 1\n",
            "\n",
            "T = {\n",
            "    'a': 1,\n",
            "}\n",
        ];
        assert_eq!(function_at(&table, 4), None);
        // An attribute after a function's `end` is the module's.
        let ex = [
            "defmodule M do\n",
            "  def f(x) do\n",
            "    x\n",
            "  end\n",
            "\n",
            "  @limit 5\n",
            "  defp g, do: @limit\n",
        ];
        assert_eq!(function_at(&ex, 5).as_deref(), Some("M"));
        assert_eq!(function_at(&ex, 2).as_deref(), Some("M.f"));
        assert_eq!(function_at(&ex, 6).as_deref(), Some("M.g"));
    }
}
