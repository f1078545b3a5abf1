//! `ptc-conformance export`: the corpus, spec and SDKs the binary carries,
//! written out for a porter to read.

use crate::cli::out::outln;
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
    /// Write the corpus as it holds at this release alone: only its cases,
    /// each with that release's answer as `expect` and `releases` naming
    /// it (for a runner that reads `expect` alone). Default: the corpus
    /// as it is, every release.
    #[command(flatten)]
    pub release: crate::cli::args::ReleaseArg,
}

/// Writes the embedded trees under DIR and names what was written.
pub fn exec(args: ExportArgs) -> Result<(), Failure> {
    let written = embedded::export(&args.dir).map_err(Failure::failed)?;
    let loaded = corpus::load(&Sources::embedded());
    outln!("{}", loaded.describe());
    if let Some(at) = args.release.release {
        let (mut kept, mut left) = (0usize, 0usize);
        for case in &loaded.cases {
            // `ID.json`: an id's last segment may hold dots
            // (`cover-a0-struct-PtcRunner.Tool`), which `with_extension`
            // would take for an extension.
            let path = args.dir.join("golden").join(format!("{}.json", case.id));
            match crate::review::bless::at_release(case, at)
                .map_err(|e| Failure::failed(format!("{}: {e}", case.file.display())))?
            {
                Some(text) => {
                    kept += 1;
                    std::fs::write(&path, text).map_err(|e| Failure::io(&path, "write", e))?;
                }
                None => {
                    left += 1;
                    std::fs::remove_file(&path).map_err(|e| Failure::io(&path, "remove", e))?;
                }
            }
        }
        outln!(
            "golden/ as it holds at {at}: {kept} cases with {at}'s answer as expect, {left} that do not hold there left out"
        );
    }
    for (e, n) in &written {
        outln!(
            "wrote {}/ ({n} files)",
            args.dir.join(e.dir_name()).display()
        );
    }
    outln!(
        "start at {}",
        args.dir.join("spec").join("README.md").display()
    );
    if written.iter().any(|(e, _)| *e == Embedded::Sdk) {
        // The example ports run as they are from the export's directory.
        outln!("example ports, run from {}:", args.dir.display());
        let python = format!("{} sdk/python/example_port.py", python_with_sdk());
        for port in [python.as_str(), "node sdk/js/example-port.js"] {
            outln!("  ptc-conformance run --adapter -- {port}");
        }
    }
    Ok(())
}

/// The Python to name in the example commands: the interpreter beside this
/// binary when there is one (the venv the wheel was installed into, whose
/// Python has `ptc_sdk` wherever the port is run from), else `python3`,
/// which finds `ptc_sdk` beside the exported `example_port.py` only.
fn python_with_sdk() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("python")))
        .filter(|python| python.is_file())
        .map_or_else(
            || "python3".to_string(),
            |python| python.display().to_string(),
        )
}
