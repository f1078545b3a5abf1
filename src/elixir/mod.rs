//! The Elixir layer: the Elixir, OTP and Jason behaviour that shows through
//! PtcRunner's boundary, ported once and called by every PtcRunner port
//! (`src/ptc/`). One home per borrowed function: `Kernel.inspect/2`
//! ([`inspect`]) and the `Inspect.Algebra` layout it uses ([`algebra`]),
//! `Jason.encode/1` ([`jason`]), `String.Chars`, chardata and iodata ([`chars`]),
//! `Enumerable` and the `Enum` traversals the boundary uses ([`enumerable`]),
//! float text and exact truncation ([`num`]), `Keyword` and `term.field`
//! ([`keyword`]), exception messages ([`errors`], their texts as templates
//! in [`messages`]), the identifier tokenizer ([`identifier`]), grapheme clusters as
//! OTP 25 splits them ([`string`]), the VM's atom table as
//! `String.to_existing_atom/1` meets it ([`atom_table`]), `DateTime.from_iso8601/1`
//! shifted to UTC ([`datetime`]). Erlang term order is the term model's
//! (`crate::term`).

pub mod algebra;
pub mod atom_table;
pub mod chars;
pub mod datetime;
pub mod enumerable;
pub mod errors;
pub mod identifier;
pub mod inspect;
pub mod jason;
pub mod keyword;
pub mod messages;
pub mod num;
pub mod string;
