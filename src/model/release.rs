//! The PtcRunner releases the boundary lived in, each a target of the kit
//! (`spec/releases.md`): v0.11.0, v0.12.0 and v0.13.0, the default. Upstream
//! main removed the boundary's modules, so the set is closed.
//!
//! A behaviour that differs between releases is one switch on a
//! [`Release`] where the behaviour lives, named by the spec rule that says
//! so; nothing else in the reference is copied per release.

use std::fmt;
use std::str::FromStr;

/// One release of PtcRunner whose boundary the reference can answer as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Release {
    /// v0.11.0 (2026-05-25): the boundary's first release; `ptc_runner_mcp` 0.1.0.
    V0_11_0,
    /// v0.12.0.
    V0_12_0,
    /// v0.13.0 (2026-06-24): the default target; `ptc_runner_mcp` 0.2.0.
    #[default]
    V0_13_0,
}

impl Release {
    /// Every release, oldest first.
    pub const ALL: [Release; 3] = [Release::V0_11_0, Release::V0_12_0, Release::V0_13_0];

    /// The version as written in `--release` and in cases: `0.13.0`.
    pub fn version(self) -> &'static str {
        match self {
            Release::V0_11_0 => "0.11.0",
            Release::V0_12_0 => "0.12.0",
            Release::V0_13_0 => "0.13.0",
        }
    }

    /// Whether this release is `other` or a later one: the form every
    /// switch takes (`rel.since(Release::V0_13_0)`), so a switch reads as
    /// the release that brought the change.
    pub fn since(self, other: Release) -> bool {
        self >= other
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.version())
    }
}

impl FromStr for Release {
    type Err = String;

    /// Reads `0.13.0` or `v0.13.0`; anything else is an error listing the
    /// releases.
    fn from_str(s: &str) -> Result<Release, String> {
        let bare = s.strip_prefix('v').unwrap_or(s);
        Release::ALL
            .into_iter()
            .find(|r| r.version() == bare)
            .ok_or_else(|| {
                format!(
                    "unknown release {s:?}: the boundary's releases are {}",
                    Release::ALL.map(|r| r.version()).join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_print_and_order() {
        for r in Release::ALL {
            assert_eq!(r.version().parse::<Release>(), Ok(r));
            assert_eq!(format!("v{r}").parse::<Release>(), Ok(r));
        }
        assert_eq!(Release::default(), Release::V0_13_0);
        assert!(Release::V0_13_0.since(Release::V0_12_0));
        assert!(Release::V0_12_0.since(Release::V0_12_0));
        assert!(!Release::V0_11_0.since(Release::V0_12_0));
        let err = "0.14.0".parse::<Release>().unwrap_err();
        assert!(err.contains("0.11.0, 0.12.0, 0.13.0"), "{err}");
    }
}
