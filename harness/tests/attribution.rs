//! Attribution by test (`compare` with sources): a Python subject, the
//! kit's own Python port (harness/adapters/python/adapter.py), copied into
//! a temporary git repository whose commits plant changes of several
//! kinds, one commit holding two, one that does not build, one that
//! changes nothing a wire shows, and one whose two hunks need each other
//! to build. `compare --git REPO --range A..B` must name each change once,
//! by its commit and hunks; `compare --base-src --head-src` must name one
//! cause per changed hunk with a wire effect and list the control as
//! without one. No Elixir is needed: "building" a tree is importing it.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn kit() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "ptc-attribution-{name}-{}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// One planted commit: its subject and its edits of adapter.py, each an
/// exact text and its replacement (the text must occur once).
struct Plant {
    subject: &'static str,
    edits: &'static [(&'static str, &'static str)],
}

/// The marker of each change with a wire effect: a text of its `+` lines.
const HINT: &str = "Call lisp_eval, then call (tool/";
const SPACES: &str = r#".replace(" ", "_")"#;
const TABS: &str = "tabs are kept";
const SIGN: &str = "t >= 0";
const SIGIL: &str = "KEYWORD_SIGIL";
const ORDER: &str = "reverse=True";
const CONTROL: &str = "a pair is two nodes";

const PLANTS: &[Plant] = &[
    Plant {
        subject: "Reword the cache hint",
        edits: &[(
            r#"parts = ["Call lisp_eval and then call (tool/", tool_name, " "]"#,
            r#"parts = ["Call lisp_eval, then call (tool/", tool_name, " "]"#,
        )],
    },
    Plant {
        subject: "Spaces in string keys, and tabs in strings left alone",
        edits: &[
            (
                "    if ty is str:\n        return k.replace(\"-\", \"_\")",
                "    if ty is str:\n        return k.replace(\"-\", \"_\").replace(\" \", \"_\")",
            ),
            (
                r#"(b"\n", b"\\n"), (b"\t", b"\\t"), (b"\r", b"\\r")):"#,
                "(b\"\\n\", b\"\\\\n\"), (b\"\\r\", b\"\\\\r\")):  # tabs are kept",
            ),
        ],
    },
    Plant {
        subject: "Collapse only non-negative integral floats (work in progress)",
        edits: &[
            (
                "if ty is float and t.is_integer():  # trunc(t) == t",
                "if ty is float and t.is_integer() and t >= 0:  # trunc(t) == t",
            ),
            ("\ndef _stringify_key(k):", "\ndef broken(:\n    pass\n\n\ndef _stringify_key(k):"),
        ],
    },
    Plant {
        subject: "Fix the build",
        edits: &[("def broken(:\n    pass\n\n\n", "")],
    },
    Plant {
        subject: "Comment the pair formatter",
        edits: &[(
            "def _pair(p) -> bytes:\n",
            "def _pair(p) -> bytes:\n    # a pair is two nodes, a space between\n",
        )],
    },
    Plant {
        subject: "Keywords take a double colon",
        edits: &[
            (
                "NATIVE_PREVIEW = \"PtcRunner.SubAgent.Loop.NativePreview\"\n",
                "NATIVE_PREVIEW = \"PtcRunner.SubAgent.Loop.NativePreview\"\nKEYWORD_SIGIL = \"::\"\n",
            ),
            (r#""keyword": (":", ""),"#, r#""keyword": (KEYWORD_SIGIL, ""),"#),
        ],
    },
    Plant {
        subject: "Hint keys in descending order",
        edits: &[(
            "        texts.sort(key=lambda tv: tv[0])\n",
            "        texts.sort(key=lambda tv: tv[0], reverse=True)\n",
        )],
    },
];

fn edit(text: &str, (old, new): (&str, &str)) -> String {
    assert_eq!(text.matches(old).count(), 1, "{old:?} must occur once");
    text.replacen(old, new, 1)
}

/// A git repository holding the port at its first commit and one commit
/// per plant; its first commit's id.
fn planted_repo(dir: &Path) -> String {
    let port = std::fs::read_to_string(kit().join("harness/adapters/python/adapter.py"))
        .expect("the Python port");
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("adapter.py"), &port).expect("write");
    std::fs::write(dir.join("README.md"), "a port\n").expect("write");
    // A file the build needs that is no source (--src leaves it out), as
    // mix.exs is to a PtcRunner build: every lane must still have it.
    std::fs::write(dir.join("build.sh"), "python3 -c 'import adapter'\n").expect("write");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "The port as the kit has it"]);
    let first = git(dir, &["rev-parse", "HEAD"]);
    let mut text = port;
    for p in PLANTS {
        for &e in p.edits {
            text = edit(&text, e);
        }
        std::fs::write(dir.join("adapter.py"), &text).expect("write");
        git(dir, &["commit", "-q", "-am", p.subject]);
    }
    first
}

/// `compare … --format json` with `extra` arguments, its attribution.
fn attribute(extra: &[&str], scratch_dir: &Path) -> Value {
    attribute_built("python3 -c 'import adapter'", extra, scratch_dir)
}

/// [`attribute`] with another build command.
fn attribute_built(build: &str, extra: &[&str], scratch_dir: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ptc-conformance"))
        .arg("compare")
        .args(extra)
        .args([
            "--build",
            build,
            "--base",
            "python3 {dir}/adapter.py",
            "--seed",
            "1",
            "--cases-per-op",
            "400",
            "--format",
            "json",
            "--scratch",
        ])
        .arg(scratch_dir)
        .env("PYTHONPATH", kit().join("sdk/python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let v: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            &stdout[..stdout.len().min(2000)],
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(out.status.code(), Some(1), "differences found: exit 1");
    v["attribution"].clone()
}

/// The `+`/`-` lines of each cause, joined.
fn cause_texts(a: &Value) -> Vec<(String, Value)> {
    a["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .map(|c| {
            let text: Vec<String> = c["hunks"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|h| h["patch"].as_array().into_iter().flatten())
                .filter_map(|l| l.as_str().map(str::to_owned))
                .collect();
            (text.join("\n"), c.clone())
        })
        .collect()
}

/// The one cause whose hunks hold `marker`.
fn the_cause<'a>(causes: &'a [(String, Value)], marker: &str) -> &'a Value {
    let found: Vec<&Value> = causes
        .iter()
        .filter(|(t, _)| t.contains(marker))
        .map(|(_, c)| c)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "one cause with {marker:?}: {:#?}",
        causes.iter().map(|(_, c)| &c["title"]).collect::<Vec<_>>()
    );
    found[0]
}

#[test]
fn a_range_names_each_change_by_its_commit_and_hunks() {
    let dir = scratch("range");
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).expect("repo dir");
    let first = planted_repo(&repo);
    let a = attribute_built(
        "sh build.sh",
        &[
            "--git",
            &repo.to_string_lossy(),
            "--range",
            &format!("{first}..main"),
            "--src",
            "*.py",
        ],
        &dir.join("scratch"),
    );
    let causes = cause_texts(&a);
    let subject = |c: &Value| -> Vec<String> {
        c["commits"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x["subject"].as_str().map(str::to_owned))
            .collect()
    };
    for (marker, commit) in [
        (HINT, "Reword the cache hint"),
        (
            SPACES,
            "Spaces in string keys, and tabs in strings left alone",
        ),
        (
            TABS,
            "Spaces in string keys, and tabs in strings left alone",
        ),
        (SIGIL, "Keywords take a double colon"),
        (ORDER, "Hint keys in descending order"),
    ] {
        let c = the_cause(&causes, marker);
        assert_eq!(subject(c), vec![commit.to_owned()], "{marker}: {c:#}");
        let title = c["title"].as_str().unwrap_or_default();
        assert!(title.contains("adapter.py:"), "{title}");
        assert!(title.contains(commit), "{title}");
    }
    // The commit that does not build and the one that fixes it: one of the two.
    let sign = the_cause(&causes, SIGN);
    assert_eq!(
        subject(sign),
        vec![
            "Collapse only non-negative integral floats (work in progress)".to_owned(),
            "Fix the build".to_owned()
        ]
    );
    // The two hunks that need each other: one cause of both.
    assert_eq!(
        the_cause(&causes, SIGIL)["hunks"].as_array().map(Vec::len),
        Some(2)
    );
    assert_eq!(
        causes.len(),
        6,
        "{:#?}",
        causes.iter().map(|(_, c)| &c["title"]).collect::<Vec<_>>()
    );
    assert!(causes
        .iter()
        .all(|(t, _)| !t.contains(CONTROL) && !t.contains("broken")));
    assert!(
        a["quiet_commits"].as_u64() >= Some(1),
        "the comment commit made nothing"
    );
    assert!(
        a["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|t| t["unresolved"].is_string()),
        "the commit that does not build was tried and could not be asked"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_trees_give_one_cause_per_hunk_and_the_control_no_effect() {
    let dir = scratch("trees");
    let (base, head) = (dir.join("base"), dir.join("head"));
    let port = std::fs::read_to_string(kit().join("harness/adapters/python/adapter.py"))
        .expect("the Python port");
    let mut text = port.clone();
    for p in PLANTS {
        for &e in p.edits {
            text = edit(&text, e);
        }
    }
    for (d, t) in [(&base, &port), (&head, &text)] {
        std::fs::create_dir_all(d).expect("tree");
        std::fs::write(d.join("adapter.py"), t).expect("write");
    }
    let a = attribute(
        &[
            "--base-src",
            &base.to_string_lossy(),
            "--head-src",
            &head.to_string_lossy(),
        ],
        &dir.join("scratch"),
    );
    let causes = cause_texts(&a);
    for marker in [HINT, SPACES, TABS, SIGN, SIGIL, ORDER] {
        let c = the_cause(&causes, marker);
        assert!(c["commits"].as_array().is_some_and(Vec::is_empty));
        let title = c["title"].as_str().unwrap_or_default();
        assert!(
            title.contains("adapter.py:")
                && (title.contains(" in ") || title.contains("(top level)")),
            "{title}"
        );
    }
    assert_eq!(
        causes.len(),
        6,
        "{:#?}",
        causes.iter().map(|(_, c)| &c["title"]).collect::<Vec<_>>()
    );
    let no_effect: Vec<String> = a["no_wire_effect"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| x["hunk"]["patch"].to_string())
        .collect();
    assert_eq!(no_effect.len(), 1, "{no_effect:#?}");
    assert!(no_effect[0].contains(CONTROL), "{no_effect:#?}");
    // The port lists `compile`: variants were compiled in place, and each
    // cause confirmed built.
    assert_in_place(&a);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Variants were compiled in place, those that would not were built, and
/// the causes were confirmed by a build without turning in place off.
fn assert_in_place(a: &Value) {
    let tested: Vec<&str> = a["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["tested"].as_str())
        .collect();
    assert!(tested.contains(&"in place"), "{tested:?}");
    assert!(
        tested.contains(&"built"),
        "confirmations are built: {tested:?}"
    );
    let how = a["compiling_in_place"].as_str().unwrap_or_default();
    assert!(how.starts_with("variants compiled in place"), "{how}");
}

/// The two trees of the planted port, with `port`'s text edited by `also`
/// on both sides.
fn planted_trees(dir: &Path, also: &dyn Fn(&str) -> String) -> (PathBuf, PathBuf) {
    let (base, head) = (dir.join("base"), dir.join("head"));
    let port = also(
        &std::fs::read_to_string(kit().join("harness/adapters/python/adapter.py"))
            .expect("the Python port"),
    );
    let mut text = port.clone();
    for p in PLANTS {
        for &e in p.edits {
            text = edit(&text, e);
        }
    }
    for (d, t) in [(&base, &port), (&head, &text)] {
        std::fs::create_dir_all(d).expect("tree");
        std::fs::write(d.join("adapter.py"), t).expect("write");
    }
    (base, head)
}

/// The causes' titles and the hunks said to have no wire effect.
fn findings(a: &Value) -> (Vec<String>, Vec<String>) {
    let mut titles: Vec<String> = a["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c["title"].as_str().unwrap_or_default().to_owned())
        .collect();
    titles.sort();
    let mut quiet: Vec<String> = a["no_wire_effect"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| x["hunk"]["place"].to_string())
        .collect();
    quiet.sort();
    (titles, quiet)
}

/// Compiled in place or every variant built, attribution finds the same;
/// and an adapter whose in-place answers are wrong (it ignores the
/// variant) is caught, in place turned off, and the causes are the
/// builds' all the same.
#[test]
fn in_place_finds_what_builds_find_and_a_wrong_one_is_caught() {
    let dir = scratch("in-place");
    let (base, head) = planted_trees(&dir.join("t"), &|t| t.to_owned());
    let trees = [
        "--base-src".to_owned(),
        base.to_string_lossy().into_owned(),
        "--head-src".to_owned(),
        head.to_string_lossy().into_owned(),
    ];
    let trees: Vec<&str> = trees.iter().map(String::as_str).collect();
    let in_place = attribute(&trees, &dir.join("s1"));
    assert_in_place(&in_place);
    let built = attribute(&[&trees[..], &["--no-in-place"]].concat(), &dir.join("s2"));
    assert!(built["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .all(|t| t["tested"] != "in place"));
    assert!(
        built["compiling_in_place"].is_null(),
        "{}",
        built["compiling_in_place"]
    );
    assert_eq!(findings(&in_place), findings(&built));
    assert_eq!(findings(&built).0.len(), 6);

    // Ports whose compile request is wrong, each caught: in place is
    // turned off and the causes are the builds'. One answers with its own
    // ops whatever the variant; one says every variant fails to compile
    // (CompileError), though each builds.
    let wrong_ones: [(&str, (&str, &str)); 2] = [
        (
            "w",
            ("compile=in_place)", "compile=lambda root, paths: OPS)"),
        ),
        (
            "f",
            (
                r#"run_name="ptc_variant")["OPS"]"#,
                r#"run_name="ptc_variant")["NO_OPS"]"#,
            ),
        ),
    ];
    for (name, change) in wrong_ones {
        let (base, head) = planted_trees(&dir.join(name), &|t| edit(t, change));
        let wrong = attribute(
            &[
                "--base-src",
                &base.to_string_lossy(),
                "--head-src",
                &head.to_string_lossy(),
            ],
            &dir.join(format!("s-{name}")),
        );
        let how = wrong["compiling_in_place"].as_str().unwrap_or_default();
        assert!(
            how.contains("off") && how.contains("built"),
            "{name}: {how}"
        );
        assert_eq!(findings(&wrong), findings(&built), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two changes behind rare inputs: an integer constant in a guard and a
/// list of one size. With the sources, the generator aims at the diff's
/// constants and meets both; without them, at the same seed and budget, it
/// meets neither (issue 49's check, on a subject that needs no Elixir).
#[test]
fn the_diffs_constants_reach_changes_behind_rare_inputs() {
    let dir = scratch("aimed");
    let (base, head) = (dir.join("base"), dir.join("head"));
    let port = std::fs::read_to_string(kit().join("harness/adapters/python/adapter.py"))
        .expect("the Python port");
    let planted = edit(
        &port,
        (
            "def _canonicalize(t):\n    ty = type(t)\n",
            "def _canonicalize(t):\n    ty = type(t)\n    if ty is int and t == 7919:\n        return t + 1\n",
        ),
    );
    let planted = edit(
        &planted,
        (
            "    if ty is list:\n        return [_canonicalize(x) for x in t]\n    if ty is Tuple:",
            "    if ty is list:\n        return [_canonicalize(x) for x in (t[:-1] if len(t) == 37 else t)]\n    if ty is Tuple:",
        ),
    );
    for (d, t) in [(&base, &port), (&head, &planted)] {
        std::fs::create_dir_all(d).expect("tree");
        std::fs::write(d.join("adapter.py"), t).expect("write");
    }
    let run = |sources: bool| -> (Option<i32>, Value) {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptc-conformance"));
        cmd.args(["compare", "--op", "key_normalizer.canonical_cache_key"]);
        if sources {
            cmd.arg("--base-src")
                .arg(&base)
                .arg("--head-src")
                .arg(&head);
            cmd.args(["--base", "python3 {dir}/adapter.py", "--scratch"]);
            cmd.arg(dir.join("scratch"));
        } else {
            cmd.arg("--base")
                .arg(format!("python3 {}/adapter.py", base.display()));
            cmd.arg("--head")
                .arg(format!("python3 {}/adapter.py", head.display()));
        }
        let out = cmd
            .args(["--seed", "1", "--cases-per-op", "3000", "--format", "json"])
            .env("PYTHONPATH", kit().join("sdk/python"))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .expect("the binary runs");
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), v)
    };
    let (code, blind) = run(false);
    assert_eq!(
        code,
        Some(0),
        "without the sources neither change is met: {blind:#}"
    );
    let (code, aimed) = run(true);
    assert_eq!(code, Some(1));
    let causes = cause_texts(&aimed["attribution"]);
    assert_eq!(
        causes.len(),
        2,
        "{:#?}",
        causes.iter().map(|(_, c)| &c["title"]).collect::<Vec<_>>()
    );
    the_cause(&causes, "7919");
    the_cause(&causes, "len(t) == 37");
    // Each cause's example is the rare input, titled by what changed.
    let titles: Vec<&str> = causes
        .iter()
        .filter_map(|(_, c)| c["title"].as_str())
        .collect();
    assert!(
        titles
            .iter()
            .any(|t| t.contains("7919") && t.contains("7920")),
        "{titles:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `reach` extension (AP-19) on the Python port, which lists it: the
/// corpus is traced for the functions the diff touches, the report names
/// each with how many inputs reached it (a new helper nothing calls: none),
/// the op that reaches the changed function gets most of the generated
/// inputs, the change behind a rare length is found there, and the helper's
/// hunk, without wire effect, says that no input reached it.
#[test]
fn the_trace_names_the_inputs_that_reach_each_changed_function() {
    let dir = scratch("reach");
    let (base, head) = (dir.join("base"), dir.join("head"));
    let port = std::fs::read_to_string(kit().join("harness/adapters/python/adapter.py"))
        .expect("the Python port");
    let planted = edit(
        &port,
        (
            "        b = b.replace(old, new)\n    return b\n",
            "        b = b.replace(old, new)\n    if len(b) == 13:\n        b = b + b\" \"\n    return b\n",
        ),
    );
    let planted = edit(
        &planted,
        (
            "\n# ---------------------------------------------------------------------------\n# Served over",
            "\ndef _spare_helper(x):\n    return x + 1\n\n\n# ---------------------------------------------------------------------------\n# Served over",
        ),
    );
    for (d, t) in [(&base, &port), (&head, &planted)] {
        std::fs::create_dir_all(d).expect("tree");
        std::fs::write(d.join("adapter.py"), t).expect("write");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ptc-conformance"))
        .arg("compare")
        .arg("--base-src")
        .arg(&base)
        .arg("--head-src")
        .arg(&head)
        .args(["--base", "python3 {dir}/adapter.py", "--scratch"])
        .arg(dir.join("scratch"))
        .args(["--seed", "1", "--cases-per-op", "400", "--format", "json"])
        .env("PYTHONPATH", kit().join("sdk/python"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("the binary runs");
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(out.status.code(), Some(1), "{v:#}");
    let reach = &v["reach"];
    let function = |name: &str| -> Value {
        reach["functions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["function"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {reach:#}"))
    };
    let escape = function("_escape_string");
    assert!(escape["inputs"].as_u64().unwrap_or(0) > 0, "{reach:#}");
    assert!(
        escape["by_op"]["lisp_formatter.format"]
            .as_u64()
            .unwrap_or(0)
            > 0,
        "{reach:#}"
    );
    assert!(
        escape["by_op"]
            .get("key_normalizer.normalize_key")
            .is_none(),
        "{reach:#}"
    );
    assert_eq!(function("_spare_helper")["inputs"], 0, "{reach:#}");
    // The op that reaches the change gets three quarters of the budget.
    let per_op = &v["fuzz"]["per_op"];
    let hot = per_op["lisp_formatter.format"].as_u64().unwrap_or(0);
    let cold = per_op["key_normalizer.normalize_key"].as_u64().unwrap_or(0);
    assert!(hot > 3 * cold, "{per_op:#}");
    let causes = cause_texts(&v["attribution"]);
    assert_eq!(
        causes.len(),
        1,
        "{:#?}",
        causes.iter().map(|(_, c)| &c["title"]).collect::<Vec<_>>()
    );
    the_cause(&causes, "len(b) == 13");
    let no_effect = v["attribution"]["no_wire_effect"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(no_effect.len(), 1, "{no_effect:#?}");
    assert_eq!(no_effect[0]["hunk"]["function"], "_spare_helper");
    assert_eq!(no_effect[0]["reached_by"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}
