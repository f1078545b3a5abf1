//! The corpus, the spec and the porter SDKs this binary was built with,
//! packed into it by `harness/build.rs`: what `ptc-conformance` runs unless
//! `--corpus`/`--spec` name directories, wherever the binary is copied, and
//! what `ptc-conformance export` writes out.

use std::path::Path;

/// The packed files (generated: one `include_bytes!` per file).
mod packed {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}

/// One of the directories packed into the binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Embedded {
    /// `golden/`: the corpus.
    Golden,
    /// `spec/`: the rules, schemas and porter data.
    Spec,
    /// `sdk/`: the porter SDKs (empty when the repository had none at build time).
    Sdk,
}

impl Embedded {
    /// All of them, in the order `export` writes them.
    pub const ALL: [Embedded; 3] = [Embedded::Golden, Embedded::Spec, Embedded::Sdk];

    /// The directory's name in the repository (and in an export).
    pub fn dir_name(self) -> &'static str {
        match self {
            Embedded::Golden => "golden",
            Embedded::Spec => "spec",
            Embedded::Sdk => "sdk",
        }
    }

    /// Its files: (path under the directory, `/`-separated; bytes), sorted by path.
    pub fn files(self) -> &'static [(&'static str, &'static [u8])] {
        match self {
            Embedded::Golden => packed::GOLDEN,
            Embedded::Spec => packed::SPEC,
            Embedded::Sdk => packed::SDK,
        }
    }
}

/// Where embedded files come from, as reports say it: `embedded in ptc-conformance 0.1.0`.
pub fn label() -> String {
    format!("embedded in ptc-conformance {}", env!("CARGO_PKG_VERSION"))
}

/// What `ptc-conformance --version` prints after the name: the version,
/// then the corpus and the spec this binary carries, each with the SHA-256
/// its reports name it by (`corpus: ... sha256 ...`), so that a porter's CI
/// log says what judged the port, whichever way the binary was installed.
pub fn version() -> String {
    let corpus = super::Provenance::of(&[super::tree::Tree::embedded(Embedded::Golden)]);
    let spec = super::Provenance::of(&[super::tree::Tree::embedded(Embedded::Spec)]);
    format!(
        "{}\ncorpus: {} files, sha256 {}\nspec: {} files, sha256 {}",
        env!("CARGO_PKG_VERSION"),
        corpus.files,
        corpus.sha256,
        spec.files,
        spec.sha256
    )
}

/// Writes every embedded directory that has files (`golden/`, `spec/` and,
/// when the binary carries them, `sdk/`) under `dir`, creating it; returns
/// what it wrote and how many files each. It refuses to write into a
/// `dir/golden`, `dir/spec` or `dir/sdk` that already exists, so an export
/// never mixes with older files.
pub fn export(dir: &Path) -> Result<Vec<(Embedded, usize)>, String> {
    let present: Vec<Embedded> = Embedded::ALL
        .into_iter()
        .filter(|e| !e.files().is_empty())
        .collect();
    for e in &present {
        let target = dir.join(e.dir_name());
        if target.exists() {
            return Err(format!(
                "{} already exists: export writes {} afresh; remove it or choose another directory",
                target.display(),
                present
                    .iter()
                    .map(|e| format!("{}/", e.dir_name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let mut written = Vec::new();
    for e in present {
        let root = dir.join(e.dir_name());
        for (rel, bytes) in e.files() {
            let path = rel.split('/').fold(root.clone(), |p, part| p.join(part));
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|err| format!("{}: cannot create: {err}", parent.display()))?;
            }
            std::fs::write(&path, bytes)
                .map_err(|err| format!("{}: cannot write: {err}", path.display()))?;
        }
        written.push((e, e.files().len()));
    }
    Ok(written)
}
