//! Packs the golden corpus (`golden/`), the spec (`spec/`) and, when the
//! repository has them, the porter SDKs (`sdk/`) into the binary, so that
//! `ptc-conformance` runs the corpus it was built with wherever it is copied
//! (`harness/src/corpus/embedded.rs` reads them).
//!
//! It writes `$OUT_DIR/embedded.rs`: one `include_bytes!` per file, sorted by
//! path, and tells cargo to run again when anything under those directories
//! changes (a case added or removed, not only one edited), which a macro
//! that embeds a directory cannot do on stable Rust.

use std::fmt::Write as _;
use std::path::Path;

/// Names that are never packed: version control, editor and tool droppings
/// (a `__pycache__` from running the Python SDK's tests, `node_modules`).
fn skipped(name: &str) -> bool {
    name.starts_with('.')
        || name == "__pycache__"
        || name == "node_modules"
        || name.ends_with(".pyc")
}

/// `static NAME: &[(&str, &[u8])]`, the files under `dir` by path under it.
fn pack(out: &mut String, name: &str, dir: &Path) {
    let mut files: Vec<(String, String)> = Vec::new();
    if dir.is_dir() {
        println!("cargo:rerun-if-changed={}", dir.display());
        let walk = walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_entry(|e| !e.file_name().to_str().is_some_and(skipped));
        for entry in walk {
            let entry = entry.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
            if !entry.file_type().is_file() {
                continue;
            }
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            let rel = parts
                .unwrap_or_else(|| panic!("{}: the path is not UTF-8", path.display()))
                .join("/");
            let abs = path
                .to_str()
                .unwrap_or_else(|| panic!("{}: the path is not UTF-8", path.display()));
            files.push((rel, abs.to_owned()));
        }
    }
    files.sort();
    let _ = writeln!(out, "/// `{name}`: (path under it, bytes), sorted by path.");
    let _ = writeln!(
        out,
        "pub static {}: &[(&str, &[u8])] = &[",
        name.to_uppercase()
    );
    for (rel, abs) in &files {
        let _ = writeln!(out, "    ({rel:?}, include_bytes!({abs:?})),");
    }
    let _ = writeln!(out, "];");
}

fn main() {
    let root =
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|e| panic!("CARGO_MANIFEST_DIR: {e}"));
    let root = Path::new(&root);
    println!("cargo:rerun-if-changed=harness/build.rs");
    let mut out = String::new();
    for name in ["golden", "spec", "sdk"] {
        pack(&mut out, name, &root.join(name));
    }
    let dir = std::env::var("OUT_DIR").unwrap_or_else(|e| panic!("OUT_DIR: {e}"));
    let file = Path::new(&dir).join("embedded.rs");
    std::fs::write(&file, out).unwrap_or_else(|e| panic!("writing {}: {e}", file.display()));
}
