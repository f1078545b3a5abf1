//! The `ptc-conformance` command: see `ptc-conformance --help`.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    ptc_conformance_harness::cli::main()
}
