//! One module per command: its arguments, what it runs (`exec`) and what
//! it prints.

pub mod adapter;
pub mod bench;
pub mod bless;
pub mod compare;
pub mod fuzz;
pub mod laws;
pub mod lint;
pub mod list;
pub mod matrix;
pub mod run;
