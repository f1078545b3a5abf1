//! The edge terms of `spec/data/tagged_edges.json` (read by every codec of
//! the kit) through an adapter, over protocol v1:
//!
//! - each `accepted` term, sent inside a 1-tuple to
//!   `key_normalizer.normalize_key` (which answers a tuple as it is, KN-3),
//!   comes back as it went;
//! - each `accepted_args` (the nesting limit's edge, TJ-10) gets an answer;
//! - each `refused` `args` gets `unsupported`.
//!
//! `ptc-conformance adapter` is always checked, and its `unsupported` text
//! must be `cannot decode request: ` and the exact error the file states.
//! The Elixir adapter runs when `PTC_ELIXIR_ADAPTER` names its command (CI
//! has no Elixir): `PTC_ELIXIR_ADAPTER='/work/builds/adapter v0.13.0' cargo
//! test --test adapter_edges`, from the repository root; otherwise it is
//! reported ignored, with a note that says so.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed setup is a failed test

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};

fn edges() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/data/tagged_edges.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn strings(doc: &Value, key: &str) -> Vec<String> {
    doc[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// What the request lines are for.
enum Expect {
    /// `ok` with this term (JSON text).
    Ok(String),
    /// Any `ok` answer.
    Answered,
    /// `unsupported`, with this text when given.
    Unsupported(Option<String>),
}

/// Sends `hello`, then each line, then `bye`; the answers by id.
fn exchange(argv: &[String], lines: &[String]) -> HashMap<u64, Value> {
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("starting {argv:?}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let out = child.stdout.take().unwrap();
    let writer_lines: Vec<String> = lines.to_vec();
    let writer = std::thread::spawn(move || {
        writeln!(
            stdin,
            r#"{{"id":0,"op":"hello","args":[{{"protocol":1}}]}}"#
        )
        .unwrap();
        for l in writer_lines {
            writeln!(stdin, "{l}").unwrap();
        }
        writeln!(stdin, r#"{{"id":999999,"op":"bye","args":[]}}"#).unwrap();
    });
    let mut answers = HashMap::new();
    for line in BufReader::new(out).lines() {
        let line = line.unwrap();
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("answer is not JSON ({e}): {line}"));
        let id = v["id"].as_u64().unwrap();
        answers.insert(id, v);
        if answers.len() == lines.len() + 1 {
            break;
        }
    }
    writer.join().unwrap();
    let _ = child.wait();
    answers
}

/// Checks every edge through the adapter `argv`; `texts`: compare the
/// `unsupported` texts too.
fn check_adapter(argv: &[String], texts: bool) -> Result<(), String> {
    let doc = edges();
    let mut lines = Vec::new();
    let mut expect = Vec::new();
    for t in strings(&doc, "accepted") {
        let wrapped = format!(r#"{{"$tuple":[{t}]}}"#);
        lines.push(format!(
            r#"{{"id":{},"op":"key_normalizer.normalize_key","args":[{wrapped}]}}"#,
            lines.len() + 1
        ));
        expect.push(Expect::Ok(wrapped));
    }
    for args in strings(&doc, "accepted_args") {
        lines.push(format!(
            r#"{{"id":{},"op":"term.inspect","args":{args}}}"#,
            lines.len() + 1
        ));
        expect.push(Expect::Answered);
    }
    for entry in doc["refused"].as_array().unwrap() {
        let args = entry["args"].as_str().unwrap();
        let error = entry["error"].as_str().unwrap();
        lines.push(format!(
            r#"{{"id":{},"op":"term.inspect","args":{args}}}"#,
            lines.len() + 1
        ));
        expect.push(Expect::Unsupported(
            texts.then(|| format!("cannot decode request: {error}")),
        ));
    }
    let answers = exchange(argv, &lines);
    let mut wrong = Vec::new();
    for (i, (line, want)) in lines.iter().zip(&expect).enumerate() {
        let got = answers.get(&(i as u64 + 1));
        let ok = match (want, got) {
            (Expect::Ok(term), Some(a)) => {
                a.get("ok") == Some(&serde_json::from_str::<Value>(term).unwrap())
            }
            (Expect::Answered, Some(a)) => a.get("ok").is_some(),
            (Expect::Unsupported(None), Some(a)) => a.get("unsupported").is_some(),
            (Expect::Unsupported(Some(text)), Some(a)) => {
                a.get("unsupported").and_then(Value::as_str) == Some(text)
            }
            (_, None) => false,
        };
        if !ok {
            let shown: String = line.chars().take(160).collect();
            let answer: String = got.map(|a| a.to_string()).unwrap_or_default();
            wrong.push(format!(
                "{shown}\n    got {}",
                answer.chars().take(300).collect::<String>()
            ));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} edge requests answered wrongly by {argv:?}:\n{}",
            wrong.len(),
            lines.len(),
            wrong.join("\n")
        ))
    }
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let elixir = std::env::var("PTC_ELIXIR_ADAPTER").ok();
    let trials = vec![
        Trial::test(
            "the_reference_adapter_reads_and_refuses_the_edges_as_the_codec",
            || {
                let bin = env!("CARGO_BIN_EXE_ptc-conformance").to_owned();
                check_adapter(&[bin, "adapter".to_owned()], true).map_err(Failed::from)
            },
        ),
        Trial::ignorable_test("the_elixir_adapter_reads_and_refuses_the_edges", {
            let elixir = elixir.clone();
            move || match &elixir {
                Some(command) => {
                    let argv = shlex::split(command)
                        .ok_or_else(|| format!("PTC_ELIXIR_ADAPTER: cannot split {command:?}"))?;
                    check_adapter(&argv, false)?;
                    Ok(Completion::Completed)
                }
                None => Ok(Completion::ignored_with("needs PTC_ELIXIR_ADAPTER")),
            }
        }),
    ];
    if elixir.is_none() && !args.list {
        println!(
            "note: adapter_edges did not check the Elixir adapter: set PTC_ELIXIR_ADAPTER to its \
             command (PTC_ELIXIR_ADAPTER='/work/builds/adapter v0.13.0', from the repository root)"
        );
    }
    libtest_mimic::run(&args, trials).exit_code()
}
