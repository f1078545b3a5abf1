//! The exit status of every `ptc-conformance` command, one type for all:
//! 0 passed, 1 failed (a case, a check, an adapter, or reading or writing
//! a file), 2 usage or corpus error (the run could not be set up).

use std::fmt;

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything required passed: status 0.
    Passed,
    /// A case, a check or an adapter failed, or a file could not be read or written: status 1.
    Failed,
    /// The command line or the corpus is wrong: status 2.
    Usage,
}

impl Exit {
    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Passed => 0,
            Exit::Failed => 1,
            Exit::Usage => 2,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

/// A command that did not pass: how it ends and what to print on stderr.
#[derive(Debug, PartialEq, Eq)]
pub struct Failure {
    /// [`Exit::Failed`] or [`Exit::Usage`].
    pub exit: Exit,
    /// What to print (may be empty when the report already said it).
    pub message: String,
}

impl Failure {
    /// Status 1: something checked did not pass, or I/O failed.
    pub fn failed(message: impl Into<String>) -> Failure {
        Failure {
            exit: Exit::Failed,
            message: message.into(),
        }
    }

    /// Status 2: a usage or corpus error.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// Status 1 after a report that already says why.
    pub fn reported() -> Failure {
        Failure::failed("")
    }

    /// Status 1: reading or writing `path` failed.
    pub fn io(path: &std::path::Path, what: &str, e: impl fmt::Display) -> Failure {
        Failure::failed(format!("{}: cannot {what}: {e}", path.display()))
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
