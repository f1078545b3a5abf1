//! Every command block of the README and of `docs/` runs here, and the
//! output a block shows is checked, so that no example can go stale (what
//! cargo and clap do with `trycmd`; the matching is snapbox's). One trial
//! per block, named by its file and line.
//!
//! A block is a fenced code block whose language is `sh` (commands only:
//! run as one bash script under `set -eo pipefail`, which must exit 0) or
//! `console` (`$ command` lines, a trailing `\` continuing one, each
//! followed by the output it prints, stdout and stderr as a terminal shows
//! them; `...` on a line of its own stands for any lines, `[..]` for any
//! text within a line). Words after the language:
//!
//! - `status=N`: the block (each command of a `console` block) exits N;
//! - `ci`: a set-up command this test cannot run from inside `cargo test`
//!   (`cargo test` itself): `.ci/run` runs each of its lines, checked here
//!   (a line of `.ci/run` is the command, or starts with it and a space);
//! - `not-run="why"`: not run (it needs a PtcRunner build, Chromium, or a
//!   campaign's time); listed as an ignored trial with the reason, and
//!   counted in the closing line.
//!
//! Each block runs in a scratch directory of its own that links the
//! repository's top-level files and folders (so `harness/adapters/...` and
//! `golden/` resolve, and what a command writes stays out of the
//! checkout), with the `ptc-conformance` that cargo built first on `PATH`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A command block of a Markdown file.
#[derive(Clone, Debug)]
struct Block {
    /// Path from the repository root, and the line of the opening fence.
    file: String,
    line: usize,
    /// `sh` or `console`.
    lang: String,
    /// The exit status every command must give.
    status: i32,
    /// Run by `.ci/run`, not here.
    ci: bool,
    /// Why it is not run, if it is not.
    not_run: Option<String>,
    body: String,
}

/// The Markdown files whose commands run: the README and `docs/*.md`.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The command blocks of `text` (file `file`), or what is malformed: an
/// unknown attribute, an unclosed fence, a `$ ptc-conformance` line in a
/// block that is not a command block.
fn blocks(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        let mut closed = false;
        for (_, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            body.push_str(l);
            body.push('\n');
        }
        if !closed {
            return Err(format!("{file}:{}: a fence that is never closed", i + 1));
        }
        let words =
            shlex::split(info).ok_or_else(|| format!("{file}:{}: bad fence info", i + 1))?;
        let lang = words.first().cloned().unwrap_or_default();
        if lang != "sh" && lang != "console" {
            if body.lines().any(|l| l.starts_with("$ ptc-conformance")) {
                return Err(format!(
                    "{file}:{}: commands in a `{lang}` block: make it `console` (or `sh`) so that it runs",
                    i + 1
                ));
            }
            continue;
        }
        let mut block = Block {
            file: file.to_owned(),
            line: i + 1,
            lang,
            status: 0,
            ci: false,
            not_run: None,
            body,
        };
        for w in &words[1..] {
            match w.split_once('=') {
                Some(("status", n)) => {
                    block.status = n
                        .parse()
                        .map_err(|_| format!("{file}:{}: status={n} is not a number", i + 1))?
                }
                Some(("not-run", why)) if !why.is_empty() => block.not_run = Some(why.to_owned()),
                None if w == "ci" => block.ci = true,
                _ => {
                    return Err(format!(
                        "{file}:{}: unknown fence attribute {w:?} (status=N, ci, not-run=\"why\")",
                        i + 1
                    ))
                }
            }
        }
        out.push(block);
    }
    Ok(out)
}

/// The commands of a `console` block, each with the output it shows.
fn console_commands(body: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut continuing = false;
    for line in body.lines() {
        if continuing {
            let (cmd, _) = out.last_mut().unwrap();
            cmd.push('\n');
            cmd.push_str(line);
            continuing = line.ends_with('\\');
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            out.push((cmd.to_owned(), String::new()));
            continuing = line.ends_with('\\');
        } else if let Some((_, shown)) = out.last_mut() {
            shown.push_str(line);
            shown.push('\n');
        }
    }
    out
}

/// A scratch directory that links the repository's top-level entries.
fn scratch(block: &Block) -> PathBuf {
    let name = format!(
        "ptc-docs-{}-{}-{}",
        std::process::id(),
        block.file.replace(['/', '.'], "-"),
        block.line
    );
    let dir = std::env::temp_dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(repo()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        if name == "harness" || name == "sdk" {
            // Copied: the JavaScript adapters serve only when run by their
            // real path, which a symlink would change.
            copy_tree(&e.path(), &dir.join(&name));
        } else {
            std::os::unix::fs::symlink(e.path(), dir.join(&name)).unwrap();
        }
    }
    dir
}

/// Copies the files of `from` to `to`, less `node_modules/`.
fn copy_tree(from: &Path, to: &Path) {
    let walk = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| e.file_name() != "node_modules");
    for e in walk {
        let e = e.unwrap();
        let target = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if e.file_type().is_file() {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Runs `script` with bash in `dir`, stderr into stdout: its status and output.
fn bash(script: &str, dir: &Path) -> (i32, String) {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_ptc-conformance"))
        .parent()
        .unwrap()
        .to_owned();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("set -eo pipefail\n{{\n{script}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("CARGO_MANIFEST_DIR")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Runs a block and checks what it shows.
fn check(block: &Block) -> Result<(), Failed> {
    let at = format!("{}:{}", block.file, block.line);
    if block.ci {
        let ci = std::fs::read_to_string(repo().join(".ci/run")).unwrap();
        for line in block.body.lines() {
            let cmd = line.split(" #").next().unwrap_or("").trim();
            let runs = |l: &str| {
                let l = l.trim();
                l == cmd
                    || l.strip_prefix(cmd)
                        .is_some_and(|rest| rest.starts_with(' '))
            };
            if !cmd.is_empty() && !ci.lines().any(runs) {
                return Err(format!(
                    "{at}: `{cmd}` is marked ci but no line of .ci/run runs it (a line that is the command, or starts with it and a space)"
                )
                .into());
            }
        }
        return Ok(());
    }
    let dir = scratch(block);
    if block.lang == "sh" {
        let (status, text) = bash(&block.body, &dir);
        if status != block.status {
            return Err(format!(
                "{at}: exited {status}, not {}:\n{}",
                block.status,
                tail(&text)
            )
            .into());
        }
    } else {
        let assert = snapbox::Assert::new();
        let commands = console_commands(&block.body);
        if commands.is_empty() {
            return Err(format!("{at}: a console block with no `$ ` command").into());
        }
        for (cmd, shown) in commands {
            let (status, text) = bash(&cmd, &dir);
            if status != block.status {
                return Err(format!(
                    "{at}: `{cmd}` exited {status}, not {}:\n{}",
                    block.status,
                    tail(&text)
                )
                .into());
            }
            let text = text.replace(&dir.display().to_string(), "[ROOT]");
            assert
                .try_eq(
                    Some(&format!("`{cmd}` ({at})")),
                    snapbox::Data::text(text),
                    snapbox::Data::text(shown),
                )
                .map_err(|e| format!("{at}: `{cmd}` shows other output than the docs:\n{e}"))?;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The last lines of a long output.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut not_run = Vec::new();
    let mut errors = Vec::new();
    let mut files = 0;
    for path in markdown_files() {
        let file = path.strip_prefix(repo()).unwrap().display().to_string();
        files += 1;
        match blocks(&file, &std::fs::read_to_string(&path).unwrap()) {
            Ok(found) => {
                for b in found {
                    let name = format!("{}:{}", b.file, b.line);
                    match &b.not_run {
                        Some(why) => {
                            not_run.push(format!("{name} ({why})"));
                            trials.push(
                                Trial::test(format!("{name} not run: {why}"), || Ok(()))
                                    .with_ignored_flag(true),
                            );
                        }
                        None => {
                            let kind = if b.ci { "ci" } else { b.lang.as_str() };
                            trials.push(Trial::test(format!("{name} {kind}"), move || check(&b)));
                        }
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    let run = trials.len() - not_run.len();
    trials.push(Trial::test(
        "markdown is well formed and has commands",
        move || {
            if !errors.is_empty() {
                return Err(errors.join("\n").into());
            }
            if run < 10 {
                return Err(format!(
                    "only {run} command blocks in {files} files: is the scan broken?"
                )
                .into());
            }
            Ok(())
        },
    ));
    let conclusion = libtest_mimic::run(&args, trials);
    if !not_run.is_empty() && !args.list {
        println!(
            "docs: {run} command block(s) run; {} not run here, each with why (the ignored trials above):",
            not_run.len()
        );
        for n in &not_run {
            println!("  {n}");
        }
    }
    conclusion.exit_code()
}
