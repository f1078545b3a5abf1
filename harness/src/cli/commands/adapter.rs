//! `ptc-conformance adapter`: the reference served over adapter protocol v1,
//! answering as the release `--release` names.

use crate::cli::args::ReleaseArg;
use crate::exit::Failure;
use clap::Args;

/// `adapter` arguments.
#[derive(Args, Debug, Clone, Default)]
pub struct AdapterServeArgs {
    /// The release the served reference answers as (its `hello` says it).
    #[command(flatten)]
    pub release: ReleaseArg,
}

/// Serves the reference on stdin/stdout until `bye` or end of input.
pub fn exec(args: AdapterServeArgs) -> Result<(), Failure> {
    match crate::subject::serve::serve(args.release.get(), std::io::stdin(), std::io::stdout()) {
        // The harness went away: nothing is left to answer.
        Err(e) if crate::cli::out::is_closed(&e) => Ok(()),
        other => other.map_err(|e| Failure::failed(format!("adapter: {e}"))),
    }
}
