//! `ptc-conformance export`: the corpus, spec and SDKs the binary carries,
//! written out for a porter to read.

use crate::corpus::embedded::{self, Embedded};
use crate::corpus::{self, Sources};
use crate::exit::Failure;
use clap::Args;
use std::path::PathBuf;

/// `export` arguments.
#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The directory to write `golden/`, `spec/` (and `sdk/`) into; created if needed.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Writes the embedded trees under DIR and names what was written.
pub fn exec(args: ExportArgs) -> Result<(), Failure> {
    let written = embedded::export(&args.dir).map_err(Failure::failed)?;
    println!("{}", corpus::load(&Sources::embedded()).describe());
    for (e, n) in &written {
        println!(
            "wrote {}/ ({n} files)",
            args.dir.join(e.dir_name()).display()
        );
    }
    println!(
        "start at {}",
        args.dir.join("spec").join("README.md").display()
    );
    if written.iter().any(|(e, _)| *e == Embedded::Sdk) {
        // The example ports run as they are from the export's directory.
        println!("example ports, run from {}:", args.dir.display());
        for port in [
            "python3 sdk/python/example_port.py",
            "node sdk/js/example-port.js",
        ] {
            println!("  ptc-conformance run --adapter -- {port}");
        }
    }
    Ok(())
}
