//! The PtcRunner v0.13.0 ports: one module per upstream module, functions
//! named after the upstream functions, built on the term model
//! (`src/model/`) and the Elixir layer (`src/elixir/`).

pub mod exposure;
pub mod json_handler;
pub mod key_normalizer;
pub mod lisp_format;
pub mod lisp_formatter;
pub mod native_preview;
pub mod protocol;
pub mod protocol_from_step;
pub mod protocol_validate;
pub mod signature;
pub mod signature_validator;
pub mod tool;
pub mod turn_feedback;
pub mod untrusted_renderer;
