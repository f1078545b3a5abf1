//! # ptc-conformance: the model and the reference
//!
//! A faithful Rust port of PtcRunner v0.13.0's tool boundary, as pure
//! functions over Elixir terms ([`term::Term`]). It has no I/O: the golden
//! corpus lives in `golden/`, the normative rules in `spec/`, and the
//! harness that runs the corpus against this reference or against any
//! external implementation lives in the `ptc-conformance-harness` crate
//! (`harness/`, built from the repository root's `Cargo.toml`; this crate's
//! manifest is `src/Cargo.toml`).
//!
//! Three groups, one folder each:
//!
//! - [`model`] (`src/model/`), the term model: [`term`] (terms, Erlang's
//!   equality and term order), [`tagged`] (the tagged term JSON codec,
//!   `spec/terms.md`), [`raised`] (exceptions), [`loose`] (message comparison with the VM's parts masked), [`structs`] (struct fields
//!   and defaults), [`release`] (the PtcRunner releases a target names), [`features`] (what a port must represent), [`diff`]
//!   (path-level differences).
//! - [`elixir`] (`src/elixir/`), the Elixir layer, each borrowed function
//!   ported once: [`inspect`] (`Kernel.inspect/2`), [`algebra`]
//!   (`Inspect.Algebra`'s layout), [`jason`] (`Jason.encode/1`), [`chars`]
//!   (`String.Chars`, chardata), [`num`] (float text, exact truncation),
//!   [`keyword`] (`Keyword` and `term.field`), [`errors`] (exception
//!   messages; their texts are templates in [`elixir::messages`], which
//!   `spec/data/messages.json` is rendered from), [`elixir_string`]
//!   (grapheme clusters, `src/elixir/string/`), [`atom_table`] (the atoms
//!   `String.to_existing_atom/1` finds), [`datetime`] (`DateTime.from_iso8601/1`).
//!   Erlang term order lives with the terms, in [`term`].
//! - [`ptc`] (`src/ptc/`), the PtcRunner ports: [`key_normalizer`],
//!   [`lisp_formatter`], [`lisp_format`], [`native_preview`], [`protocol`],
//!   [`protocol_from_step`], [`protocol_validate`], [`signature`],
//!   [`signature_validator`], [`json_handler`],
//!   [`turn_feedback`], [`untrusted_renderer`], [`exposure`], [`tool`].
//!
//! [`ops`] is the operation registry: one row per op, naming the port
//! function that answers it.
//!
//! Every module is also reachable at the crate root (`ptc_conformance::term`),
//! the paths the harness and the tests use.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod elixir;
pub mod model;
pub mod ops;
pub mod ptc;

pub use elixir::string as elixir_string;
pub use elixir::{algebra, atom_table, chars, datetime, errors, inspect, jason, keyword, num};
pub use model::{diff, features, loose, raised, release, structs, tagged, temporal, term};
pub use ptc::{
    exposure, json_handler, key_normalizer, lisp_format, lisp_formatter, native_preview, protocol,
    protocol_from_step, protocol_validate, signature, signature_validator, tool, turn_feedback,
    untrusted_renderer,
};

pub use raised::Raised;
pub use release::Release;
pub use term::{Int, Map, Term};
