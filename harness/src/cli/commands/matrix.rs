//! `ptc-conformance matrix`: several JSON reports as one HTML page.

use crate::cli::out::{errln, out};
use crate::exit::Failure;
use crate::judging::report::matrix;
use clap::Args;
use std::path::PathBuf;

/// `matrix` arguments.
#[derive(Args, Debug)]
pub struct MatrixArgs {
    /// JSON reports (`run --format json` output), one column each, in this order.
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,
    /// Write the page here (default: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Draw reports of different corpora, or judged at different
    /// releases, side by side (warned about on the page).
    #[arg(long)]
    pub allow_mixed_corpora: bool,
    /// Require every report to have judged this release.
    #[command(flatten)]
    pub release: crate::cli::args::ReleaseArg,
}

/// Reads the reports and writes the matrix page.
pub fn exec(args: MatrixArgs) -> Result<(), Failure> {
    for path in &args.reports {
        std::fs::metadata(path).map_err(|e| Failure::io(path, "read", e))?;
    }
    let (columns, warnings) = matrix::read(
        &args.reports,
        args.allow_mixed_corpora,
        args.release.release,
    )
    .map_err(Failure::usage)?;
    for w in &warnings {
        errln!("warning: {w}");
    }
    let page = matrix::render(&columns, &warnings);
    match &args.output {
        Some(path) => {
            std::fs::write(path, page).map_err(|e| Failure::io(path, "write", e))?;
            errln!(
                "wrote the matrix of {} report(s) to {}",
                columns.len(),
                path.display()
            );
        }
        None => out!("{page}"),
    }
    Ok(())
}
