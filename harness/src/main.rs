//! The `ptc-conformance` command: see `ptc-conformance --help`.

#![forbid(unsafe_code)]

/// mimalloc: the harness allocates many small short-lived terms and
/// generator trees; the system allocator was over half the fuzzer's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    ptc_conformance_harness::cli::main()
}
