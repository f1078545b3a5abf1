//! Which release a run judges (`spec/adapter_protocol.md` AP-18): the one
//! `--release` asks for, else the one the adapter's `hello` names, else
//! v0.13.0; an adapter naming another release than the one asked for is
//! refused before anything runs, never judged against the wrong answers.

use ptc_conformance::Release;

/// The release a run judged against, and who chose it (`spec/adapter_protocol.md` AP-18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// The release.
    pub release: ptc_conformance::Release,
    /// Who chose it.
    pub from: ReleaseFrom,
}

/// Who chose the release a run judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReleaseFrom {
    /// Nobody: the default, v0.13.0.
    #[default]
    Default,
    /// `--release` on the command line.
    Flag,
    /// The adapter's `hello` (`"release"`), no `--release` given.
    Hello,
}

impl Judged {
    /// `0.12.0 (named by the adapter's hello)`, as reports show it.
    pub fn describe(&self) -> String {
        format!("{} ({})", self.release, self.from.as_str())
    }
}

impl ReleaseFrom {
    /// How reports say it.
    pub fn as_str(self) -> &'static str {
        match self {
            ReleaseFrom::Default => "the default",
            ReleaseFrom::Flag => "--release",
            ReleaseFrom::Hello => "named by the adapter's hello",
        }
    }
}

/// The release to judge, given what `--release` asked (`asked`) and what
/// the adapter's hello named (`named`; `None` for the reference or an
/// adapter that names none). An adapter that names another release than
/// the one asked for is an error saying both: its answers would be judged
/// against another release's expectations.
pub fn resolve(asked: Option<Release>, named: Option<Release>) -> Result<Judged, String> {
    match (asked, named) {
        (Some(a), Some(n)) if a != n => Err(format!(
            "the adapter's hello says it implements release {n}, but --release {a} was asked: \
             run with --release {n} (or without --release) to judge it as {n}, or point --adapter \
             at an implementation of {a}"
        )),
        (Some(release), _) => Ok(Judged {
            release,
            from: ReleaseFrom::Flag,
        }),
        (None, Some(release)) => Ok(Judged {
            release,
            from: ReleaseFrom::Hello,
        }),
        (None, None) => Ok(Judged::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AP-18: the release judged, and the refusal of a mismatch.
    #[test]
    fn the_release_is_asked_named_or_the_default() {
        let (old, new) = (Release::V0_12_0, Release::V0_13_0);
        assert_eq!(resolve(None, None), Ok(Judged::default()));
        assert_eq!(Judged::default().release, new);
        assert_eq!(
            resolve(None, Some(old)),
            Ok(Judged {
                release: old,
                from: ReleaseFrom::Hello
            })
        );
        assert_eq!(
            resolve(Some(old), Some(old)),
            Ok(Judged {
                release: old,
                from: ReleaseFrom::Flag
            })
        );
        assert_eq!(
            resolve(Some(new), None),
            Ok(Judged {
                release: new,
                from: ReleaseFrom::Flag
            })
        );
        let err = resolve(Some(new), Some(old)).unwrap_err();
        assert!(
            err.contains("implements release 0.12.0") && err.contains("--release 0.13.0"),
            "{err}"
        );
        assert_eq!(Judged::default().describe(), "0.13.0 (the default)");
    }
}
