//! # ptc-conformance-harness: the harness
//!
//! Runs the golden corpus (`golden/`, rules in `spec/`) against a
//! [`subject::Subject`]: the in-process reference from the
//! `ptc-conformance` crate (`src/`), or an external implementation.
//!
//! - [`corpus`]: discovery and loading of case files, spec rules, lint.
//! - [`select`]: which cases a command takes, and shards.
//! - [`subject`]: the thing under test, one small trait.
//! - [`judge`]: comparing an answer with a case's expectation.
//! - [`runner`]: running cases against a subject.
//! - [`report`]: the run's summary, its verdict, and the report formats.
//! - [`exit`]: the exit status of every command.
//! - [`paths`]: paths as reports show them.
//! - [`adapter`]: an external implementation over adapter protocol v1 ([`wire`],
//!   `spec/adapter_protocol.md`).
//! - [`serve`]: the reference served as an adapter.
//! - [`known`]: known-failures files.
//! - [`fuzz`]: differential fuzzing against the reference, with shrinking.
//! - [`compare`]: two builds side by side, on the corpus and the fuzzer.
//! - [`laws`]: the laws of canonicalization (`spec/laws.md`), checked on any subject.
//! - [`gen`]: generators of realistic terms and op arguments.
//! - [`bench`]: cases per second through each path.
//! - [`bless`]: recomputing expectations, rewriting only `expect`.
//! - [`cli`]: the `ptc-conformance` command line.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapter;
pub mod bench;
pub mod bless;
pub mod cli;
pub mod compare;
pub mod corpus;
pub mod exit;
pub mod fuzz;
pub mod gen;
pub mod judge;
pub mod known;
pub mod laws;
pub mod paths;
pub mod report;
pub mod runner;
pub mod select;
pub mod serve;
pub mod subject;
pub mod wire;
