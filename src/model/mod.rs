//! The term model: Elixir terms as Rust values ([`term`]), their lossless
//! tagged JSON form ([`tagged`]), the exceptions the reference raises
//! ([`raised`]), the struct definitions terms may carry ([`structs`]), the
//! term features a port declares ([`features`]) and path-level diffs of
//! two terms ([`diff`]). Nothing here is PtcRunner's behaviour.

pub mod diff;
pub mod features;
pub mod loose;
pub mod raised;
pub mod structs;
pub mod tagged;
pub mod term;
