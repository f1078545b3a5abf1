//! The operation registry: one row per op, naming the reference function,
//! the Elixir function it ports, its spec rule prefix and how its result is
//! compared. Adding an op is one row here plus its cases in `golden/`.

use crate::term::Term;
use crate::{
    exposure, inspect, json_handler, key_normalizer, lisp_formatter, native_preview, protocol,
    protocol_from_step, protocol_validate, signature, tool, Raised,
};

/// How an op's result is compared with the expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// A term, compared with strict term equality.
    Term,
    /// A rendered JSON string: compared as JSON, and byte for byte at the strict level.
    JsonString,
}

/// One op of the registry.
#[derive(Debug)]
pub struct Op {
    /// The op name used in cases and by adapters, e.g. `key_normalizer.normalize_key`.
    pub name: &'static str,
    /// The Elixir function it ports, `Module.fun`.
    pub elixir: &'static str,
    /// Argument counts it accepts.
    pub arity: &'static [usize],
    /// The prefix of the spec rules for it, e.g. `KN`.
    pub spec_prefix: &'static str,
    /// How results compare.
    pub output: Output,
    /// The reference implementation; `args.len()` is one of `arity`.
    pub call: fn(&[Term]) -> Result<Term, Raised>,
}

/// Every op, sorted by name.
pub static OPS: &[Op] = &[
    Op {
        name: "exposure.effective_expose",
        elixir: "PtcRunner.SubAgent.Exposure.effective_expose",
        arity: &[2],
        spec_prefix: "EX",
        output: Output::Term,
        call: |a| exposure::effective_expose(&a[0], &a[1]),
    },
    Op {
        name: "exposure.filter_by_expose",
        elixir: "PtcRunner.SubAgent.Exposure.filter_by_expose",
        arity: &[3],
        spec_prefix: "EX",
        output: Output::Term,
        call: |a| exposure::filter_by_expose(&a[0], &a[1], &a[2]),
    },
    Op {
        name: "key_normalizer.canonical_cache_key",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.canonical_cache_key",
        arity: &[2],
        spec_prefix: "KN",
        output: Output::Term,
        call: |a| key_normalizer::canonical_cache_key(&a[0], &a[1]),
    },
    Op {
        name: "key_normalizer.normalize_key",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.normalize_key",
        arity: &[1],
        spec_prefix: "KN",
        output: Output::Term,
        call: |a| Ok(key_normalizer::normalize_key(&a[0])),
    },
    Op {
        name: "key_normalizer.normalize_keys",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.normalize_keys",
        arity: &[1],
        spec_prefix: "KN",
        output: Output::Term,
        call: |a| Ok(key_normalizer::normalize_keys(&a[0])),
    },
    Op {
        name: "lisp_formatter.format",
        elixir: "PtcRunner.Lisp.Formatter.format",
        arity: &[1],
        spec_prefix: "LF",
        output: Output::Term,
        call: |a| lisp_formatter::format(&a[0]),
    },
    Op {
        name: "native_preview.build",
        elixir: "PtcRunner.SubAgent.Loop.NativePreview.build",
        arity: &[3],
        spec_prefix: "NP",
        output: Output::Term,
        call: |a| native_preview::build(&a[0], &a[1], &a[2]),
    },
    Op {
        name: "native_preview.cache_hint",
        elixir: "PtcRunner.SubAgent.Loop.NativePreview.cache_hint",
        arity: &[2],
        spec_prefix: "NP",
        output: Output::Term,
        call: |a| native_preview::cache_hint(&a[0], &a[1]),
    },
    Op {
        name: "protocol.atomize_value",
        elixir: "PtcRunner.PtcToolProtocol.atomize_value",
        arity: &[2],
        spec_prefix: "JH",
        output: Output::Term,
        call: |a| json_handler::atomize_value(&a[0], &a[1]),
    },
    Op {
        name: "protocol.parse_signature",
        elixir: "PtcRunner.PtcToolProtocol.parse_signature",
        arity: &[1],
        spec_prefix: "SG",
        output: Output::Term,
        call: |a| signature::parse_signature(&a[0]),
    },
    Op {
        name: "protocol.render_error",
        elixir: "PtcRunner.PtcToolProtocol.render_error",
        arity: &[2, 3],
        spec_prefix: "PP",
        output: Output::JsonString,
        call: |a| protocol::render_error(&a[0], &a[1], a.get(2).unwrap_or(&Term::List(vec![]))),
    },
    Op {
        name: "protocol.render_success",
        elixir: "PtcRunner.PtcToolProtocol.render_success",
        arity: &[1, 2],
        spec_prefix: "PP",
        output: Output::JsonString,
        call: |a| protocol::render_success(&a[0], a.get(1).unwrap_or(&Term::List(vec![]))),
    },
    Op {
        name: "protocol.render_success_from_step",
        elixir: "PtcRunner.PtcToolProtocol.render_success_from_step",
        arity: &[1, 2],
        spec_prefix: "PP",
        output: Output::JsonString,
        call: |a| match a {
            [step] => protocol_from_step::render_success_from_step(step, &Term::List(vec![])),
            [step, opts, ..] => protocol_from_step::render_success_from_step(step, opts),
            [] => Err(Raised::function_clause(
                "PtcRunner.PtcToolProtocol",
                "render_success_from_step",
                0,
            )),
        },
    },
    Op {
        name: "protocol.to_json_value",
        elixir: "PtcRunner.PtcToolProtocol.to_json_value",
        arity: &[1],
        spec_prefix: "PP",
        output: Output::Term,
        call: |a| Ok(protocol::to_json_value(&a[0])),
    },
    Op {
        name: "protocol.tool_description",
        elixir: "PtcRunner.PtcToolProtocol.tool_description",
        arity: &[1],
        spec_prefix: "PP",
        output: Output::Term,
        call: |a| protocol::tool_description(&a[0]),
    },
    Op {
        name: "protocol.validate_program",
        elixir: "PtcRunner.PtcToolProtocol.validate_program",
        arity: &[1],
        spec_prefix: "PP",
        output: Output::Term,
        call: |a| Ok(protocol_validate::validate_program(&a[0])),
    },
    Op {
        name: "protocol.validate_return",
        elixir: "PtcRunner.PtcToolProtocol.validate_return",
        arity: &[2],
        spec_prefix: "JH",
        output: Output::Term,
        call: |a| json_handler::validate_return(&a[0], &a[1]),
    },
    Op {
        name: "term.inspect",
        elixir: "Kernel.inspect",
        arity: &[1],
        spec_prefix: "IN",
        output: Output::Term,
        call: |a| inspect::inspect_checked(&a[0]).map(Term::binary),
    },
    Op {
        name: "tool.new",
        elixir: "PtcRunner.Tool.new",
        arity: &[2],
        spec_prefix: "TL",
        output: Output::Term,
        call: |a| tool::new(&a[0], &a[1]),
    },
    Op {
        name: "tool.private?",
        elixir: "PtcRunner.Tool.private?",
        arity: &[1],
        spec_prefix: "TL",
        output: Output::Term,
        call: |a| tool::private_q(&a[0]),
    },
    Op {
        name: "tool.validate",
        elixir: "PtcRunner.SubAgent.Validator.validate!",
        arity: &[2],
        spec_prefix: "TV",
        output: Output::Term,
        call: |a| tool::validate(&a[0], &a[1]),
    },
];

/// The op named `name`.
pub fn find(name: &str) -> Option<&'static Op> {
    OPS.iter().find(|op| op.name == name)
}

impl Op {
    /// Calls the reference. A wrong argument count raises
    /// `UndefinedFunctionError`, as calling a missing arity would.
    pub fn invoke(&self, args: &[Term]) -> Result<Term, Raised> {
        if !self.arity.contains(&args.len()) {
            let (module, fun) = self.elixir.rsplit_once('.').unwrap_or(("", self.elixir));
            return Err(crate::errors::raise(
                &crate::elixir::messages::UNDEFINED_FUNCTION_OR_PRIVATE,
                &[
                    ("module", module),
                    ("function", fun),
                    ("arity", &args.len().to_string()),
                ],
            ));
        }
        (self.call)(args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_sorted_and_unique() {
        for w in OPS.windows(2) {
            assert!(
                w[0].name < w[1].name,
                "{} must sort before {}",
                w[0].name,
                w[1].name
            );
        }
    }

    #[test]
    fn wrong_arity_raises_undefined_function() {
        let op = find("key_normalizer.normalize_key").expect("registered");
        let err = op.invoke(&[]).expect_err("arity 0 is not defined");
        assert_eq!(err.class, "UndefinedFunctionError");
        assert_eq!(
            err.message,
            "function PtcRunner.SubAgent.KeyNormalizer.normalize_key/0 is undefined or private"
        );
    }
}
