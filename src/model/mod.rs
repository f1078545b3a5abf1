//! The term model: Elixir terms as Rust values ([`term`]), their lossless
//! tagged JSON form ([`tagged`]), the exceptions the reference raises
//! ([`raised`]), the struct definitions terms may carry ([`structs`]), the
//! term features a port declares ([`features`]), path-level diffs of
//! two terms ([`diff`]), the calendar structs' ISO 8601 texts ([`temporal`])
//! and the PtcRunner releases a target names ([`release`]). Nothing here is PtcRunner's behaviour.

pub mod diff;
pub mod features;
pub mod loose;
pub mod raised;
pub mod release;
pub mod structs;
pub mod tagged;
pub mod temporal;
pub mod term;
