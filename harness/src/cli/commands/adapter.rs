//! `ptc-conformance adapter`: the reference served over adapter protocol v1.

use crate::exit::Failure;

/// Serves the reference on stdin/stdout until `bye` or end of input.
pub fn exec() -> Result<(), Failure> {
    match crate::subject::serve::serve(std::io::stdin(), std::io::stdout()) {
        // The harness went away: nothing is left to answer.
        Err(e) if crate::cli::out::is_closed(&e) => Ok(()),
        other => other.map_err(|e| Failure::failed(format!("adapter: {e}"))),
    }
}
