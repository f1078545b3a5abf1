//! # ptc-conformance-harness: the harness
//!
//! Runs the golden corpus (the data: cases in `golden/`, rules in `spec/`,
//! both packed into the `ptc-conformance` binary at build time) against a
//! [`subject::Subject`]: the in-process reference from the
//! `ptc-conformance` crate (`src/`), or an external implementation.
//!
//! - [`corpus`]: discovery and loading of case files and spec rules.
//!   - [`corpus::embedded`]: the corpus, spec and SDKs packed into the binary
//!     (by `harness/build.rs`), the default wherever it runs, and `export`.
//!   - [`corpus::tree`]: a directory held in memory, embedded or read from
//!     disk, and the provenance (source, files, SHA-256) reports name.
//!   - [`corpus::lint`]: checks across the corpus (rules cited, ops covered).
//!   - [`corpus::select`]: which cases a command takes, and shards.
//! - [`subject`]: the thing under test, one small trait, with its request and answer.
//!   - [`subject::reference`]: the in-process reference as a subject.
//!   - [`subject::adapter`]: an external implementation over adapter protocol v1
//!     (`spec/adapter_protocol.md`).
//!   - [`subject::wire`]: the protocol's lines, encoded and decoded.
//!   - [`subject::serve`]: the reference served as an adapter.
//! - [`judging`]: deciding a run.
//!   - [`judging::outcome`]: what happened to a case (the leaf the others share).
//!   - [`judging::judge`]: comparing an answer with a case's expectation.
//!   - [`judging::known`]: known-failures files.
//!   - [`judging::runner`]: running cases against a subject.
//!   - [`judging::report`]: the run's summary, verdict and skips by reason,
//!     and the pretty, JSON, JUnit and HTML formats, and the conformance
//!     matrix of several JSON reports.
//! - [`review`]: tools beyond a run.
//!   - [`review::gen`]: generators of realistic terms and op arguments.
//!   - [`review::fuzz`]: differential fuzzing against the reference, with shrinking.
//!   - [`review::laws`]: the laws of canonicalization (`spec/laws.md`), checked on any subject.
//!   - [`review::compare`]: two builds side by side, on the corpus and the fuzzer.
//!   - [`review::culprits`]: with the two builds' sources, which change of the code made each difference, by test (commits bisected, hunks delta-debugged).
//!   - [`review::kinds`]: differences grouped into kinds (op, where, how).
//!   - [`review::attribution`]: differences a struct's change of shape explains, counted under it.
//!   - [`review::show`]: answers and arguments as a report shows them, abbreviated.
//!   - [`review::bless`]: recomputing expectations, rewriting only `expect`.
//!   - [`review::bench`]: cases per second through each path.
//! - [`cli`]: the `ptc-conformance` command line (arguments, dispatch, printing).
//! - [`exit`]: the exit status of every command.
//! - [`paths`]: paths as reports show them.
//! - [`links`]: the link check: every path the Markdown and doc comments
//!   cite exists, in a checkout and in an export.
//! - [`quote`]: another program's output quoted in a message, cut per line and in total.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod corpus;
pub mod exit;
pub mod judging;
pub mod links;
pub mod paths;
pub mod quote;
pub mod review;
pub mod subject;
