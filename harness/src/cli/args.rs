//! Arguments shared by several commands (where the corpus is, which cases,
//! how to reach an adapter), and turning them into the library's settings.

use crate::corpus::select::{Selection, Shard};
use crate::corpus::{self, Corpus, Level, Origin, Sources};
use crate::exit::Failure;
use crate::subject::adapter::{Adapter, AdapterConfig};
use clap::{Args, ValueEnum};

use std::path::PathBuf;
use std::time::Duration;

// shim until rel-ref merges: the shared `--release` argument. It keeps
// whether the flag was given (`Option`): `run` and `bless` tell "asked for
// 0.13.0" from "asked nothing" when an adapter's hello names its release.
/// `--release`: the PtcRunner release to judge, generate or write for.
#[derive(Args, Debug, Clone, Default)]
pub struct ReleaseArg {
    /// The PtcRunner release: 0.11.0, 0.12.0 or 0.13.0 (default 0.13.0,
    /// or the release an adapter's hello names).
    #[arg(long = "release", value_name = "RELEASE")]
    pub release: Option<ptc_conformance::Release>,
}

impl ReleaseArg {
    /// The release asked for, 0.13.0 when none was.
    pub fn get(&self) -> ptc_conformance::Release {
        self.release.unwrap_or_default()
    }
}

/// Where the corpus and spec are.
#[derive(Args, Debug, Clone)]
pub struct CorpusArgs {
    /// A corpus root on disk (repeatable); default: the corpus embedded in
    /// this binary (`ptc-conformance export` writes it out).
    #[arg(long = "corpus", value_name = "DIR")]
    pub corpus: Vec<PathBuf>,
    /// The spec directory on disk; default: the spec embedded in this binary.
    #[arg(long = "spec", value_name = "DIR")]
    pub spec: Option<PathBuf>,
}

impl CorpusArgs {
    /// Where the corpus and spec are: the directories given, else the
    /// copies embedded in the binary (each on its own: `--corpus review/`
    /// alone checks its cases against the embedded spec).
    pub fn sources(&self) -> Sources {
        Sources {
            roots: if self.corpus.is_empty() {
                vec![Origin::Embedded]
            } else {
                self.corpus.iter().cloned().map(Origin::Dir).collect()
            },
            spec: self.spec.clone().map_or(Origin::Embedded, Origin::Dir),
        }
    }
}

/// Which cases to take.
#[derive(Args, Debug, Clone, Default)]
pub struct Filter {
    /// Only cases of this op, or of every op a glob matches (`protocol.*`; repeatable).
    #[arg(long = "op", value_name = "OP")]
    pub op: Vec<String>,
    /// Only cases whose id matches this glob (repeatable; `*` stays within a `/` segment, `**` crosses them).
    #[arg(long = "id", value_name = "GLOB")]
    pub id: Vec<String>,
    /// Only cases that need this feature (repeatable).
    #[arg(long = "feature", value_name = "FEATURE")]
    pub feature: Vec<String>,
    /// Only cases of this level.
    #[arg(long = "case-level", value_name = "LEVEL")]
    pub case_level: Option<CaseLevel>,
}

impl Filter {
    /// The selection it asks for, in shard `shard` if given.
    pub fn selection(&self, shard: Option<Shard>) -> Selection {
        Selection {
            ops: self.op.clone(),
            ids: self.id.clone(),
            features: self.feature.clone(),
            level: self.case_level.map(|l| match l {
                CaseLevel::Required => Level::Required,
                CaseLevel::Pinned => Level::Pinned,
            }),
            shard,
        }
    }
}

/// A case level, as a CLI value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CaseLevel {
    /// `required` cases.
    Required,
    /// `pinned` cases.
    Pinned,
}

/// How to reach an external implementation.
#[derive(Args, Debug, Clone)]
pub struct AdapterArgs {
    /// Use the adapter command given after `--` instead of the reference.
    #[arg(long)]
    pub adapter: bool,
    /// Seconds one request may take.
    #[arg(long, value_name = "SECS", default_value = "5")]
    pub timeout: f64,
    /// Seconds start-up and the handshake may take.
    #[arg(long, value_name = "SECS", default_value = "30")]
    pub startup_timeout: f64,
    /// Requests in flight at once (1 = one at a time).
    #[arg(long, value_name = "N", default_value = "64")]
    pub window: usize,
    /// Longest answer line accepted, in bytes.
    #[arg(long, value_name = "BYTES", default_value = "16777216")]
    pub max_line_bytes: usize,
    /// The adapter command and its arguments (after `--`).
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

impl AdapterArgs {
    /// The adapter configuration, or `None` for the reference.
    pub fn config(&self) -> Result<Option<AdapterConfig>, Failure> {
        match (self.adapter, self.command.is_empty()) {
            (false, true) => Ok(None),
            (true, true) => Err(Failure::usage("--adapter needs the command after `--`: ptc-conformance run --adapter -- CMD [ARGS...]")),
            (false, false) => Err(Failure::usage("a command after `--` needs --adapter")),
            (true, false) => {
                if self.window == 0 {
                    return Err(Failure::usage("--window must be at least 1"));
                }
                Ok(Some(AdapterConfig {
                    command: self.command.clone(),
                    timeout: seconds("timeout", self.timeout)?,
                    startup_timeout: seconds("startup-timeout", self.startup_timeout)?,
                    window: self.window,
                    max_line: self.max_line_bytes,
                    max_restarts: 3,
                    cwd: None,
                }))
            }
        }
    }
}

/// `--NAME SECS` as a duration; it must be positive.
pub fn seconds(name: &str, v: f64) -> Result<Duration, Failure> {
    if v.is_finite() && v > 0.0 {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(Failure::usage(format!(
            "--{name} must be a positive number of seconds, got {v}"
        )))
    }
}

/// Loads the corpus; any corpus error stops with status 2.
pub fn load_clean(args: &CorpusArgs) -> Result<Corpus, Failure> {
    corpus::load_clean(&args.sources()).map_err(Failure::usage)
}

/// Starts an adapter; a failure to start stops with status 1.
pub fn start(cfg: AdapterConfig) -> Result<Adapter, Failure> {
    Adapter::start(cfg).map_err(|e| Failure::failed(format!("adapter: {e}")))
}
