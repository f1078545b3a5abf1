//! The Elixir layer: the Elixir, OTP and Jason behaviour that shows through
//! PtcRunner's boundary, ported once and called by every PtcRunner port
//! (`src/ptc/`). One home per borrowed function: `Kernel.inspect/2`
//! ([`inspect`]), `Jason.encode/1` ([`jason`]), `String.Chars` and chardata
//! ([`chars`]), float text and exact truncation ([`num`]), grapheme
//! clusters as OTP 25 splits them ([`string`]).

pub mod algebra;
pub mod chars;
pub mod errors;
pub mod inspect;
pub mod jason;
pub mod keyword;
pub mod num;
pub mod string;
