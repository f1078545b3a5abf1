//! # ptc-conformance: the model and the reference
//!
//! A faithful Rust port of PtcRunner v0.13.0's tool boundary, as pure
//! functions over Elixir terms ([`term::Term`]). It has no I/O: the golden
//! corpus lives in `golden/`, the normative rules in `spec/`, and the
//! harness that runs the corpus against this reference or against any
//! external implementation lives in the `ptc-conformance-harness` crate
//! (`harness/`).
//!
//! - [`term`]: the term model, with Erlang's equality and ordering rules.
//! - [`tagged`]: the tagged term JSON codec (`spec/terms.md`).
//! - [`ops`]: the operation registry, one row per op.
//! - one module per reference module: [`key_normalizer`], ...

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod chars;
pub mod diff;
pub mod elixir_string;
pub mod exposure;
pub mod features;
pub mod inspect;
pub mod jason;
pub mod key_normalizer;
pub mod lisp_format;
pub mod lisp_formatter;
pub mod native_preview;
pub mod num;
pub mod ops;
pub mod protocol;
pub mod protocol_from_step;
pub mod protocol_validate;
pub mod raised;
pub mod signature;
pub mod structs;
pub mod tagged;
pub mod term;
pub mod tool;
pub mod turn_feedback;
pub mod untrusted_renderer;

pub use raised::Raised;
pub use term::{Int, Map, Term};
