//! An exception the reference raises, as the adapter protocol carries it.

use std::fmt;

/// An Elixir exception: its module name without `Elixir.` and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raised {
    /// e.g. `ArgumentError`, `FunctionClauseError`.
    pub class: String,
    /// `Exception.message/1` of the exception.
    pub message: String,
}

/// The class of [`Raised::no_tagged_form`]: no Elixir module is named so.
const NO_TAGGED_FORM: &str = "(no tagged form)";

impl Raised {
    /// An exception of `class` with `message`.
    pub fn new(class: &str, message: impl Into<String>) -> Raised {
        Raised {
            class: class.to_owned(),
            message: message.into(),
        }
    }

    /// Not an exception: the result v0.13.0 computes has no tagged form
    /// (an improper list, `spec/terms.md`), so a subject answers
    /// `unsupported` with `cannot encode result: <why>`, as the Elixir
    /// adapter does (AP-5). The harness turns it into that answer.
    /// (TJ-12: a port answers such a request `unsupported` too.)
    pub fn no_tagged_form(why: impl Into<String>) -> Raised {
        Raised::new(NO_TAGGED_FORM, why)
    }

    /// Whether this is [`Raised::no_tagged_form`]'s marker.
    pub fn is_no_tagged_form(&self) -> bool {
        self.class == NO_TAGGED_FORM
    }

    /// `ArgumentError` with `message`.
    pub fn argument(message: impl Into<String>) -> Raised {
        Raised::new("ArgumentError", message)
    }

    /// `FunctionClauseError` for `Module.fun/arity`, with Elixir's message.
    pub fn function_clause(module: &str, fun: &str, arity: usize) -> Raised {
        Raised::function_clause_in(&format!("{module}.{fun}/{arity}"))
    }

    /// `FunctionClauseError` for `function` as Elixir names it
    /// (`:lists.reverse/1`, `anonymous fn/1 in Mod.fun/2`).
    pub fn function_clause_in(function: &str) -> Raised {
        let t = &crate::elixir::messages::FUNCTION_CLAUSE;
        Raised::new(
            t.class.unwrap_or("FunctionClauseError"),
            t.render(&[("function", function)]),
        )
    }
}

impl fmt::Display for Raised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "** ({}) {}", self.class, self.message)
    }
}

impl std::error::Error for Raised {}
