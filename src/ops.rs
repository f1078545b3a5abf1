//! The operation registry: one row per op, naming the reference function,
//! the Elixir function it ports, its spec rule prefix and how its result is
//! compared. Adding an op is one row here plus its cases in `golden/`.

use crate::release::Release;
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
    /// The first release that has it: a release before it lacks the
    /// function, so the op is absent there (declared by no subject at that
    /// release, answered `unsupported`), never faked.
    pub since: Release,
    /// The reference implementation at a release this op exists in;
    /// `args.len()` is one of `arity`.
    pub call: fn(Release, &[Term]) -> Result<Term, Raised>,
}

/// Every op, sorted by name.
pub static OPS: &[Op] = &[
    Op {
        name: "exposure.effective_expose",
        elixir: "PtcRunner.SubAgent.Exposure.effective_expose",
        arity: &[2],
        spec_prefix: "EX",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| exposure::effective_expose(&a[0], &a[1]),
    },
    Op {
        name: "exposure.filter_by_expose",
        elixir: "PtcRunner.SubAgent.Exposure.filter_by_expose",
        arity: &[3],
        spec_prefix: "EX",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| exposure::filter_by_expose(&a[0], &a[1], &a[2]),
    },
    Op {
        name: "key_normalizer.canonical_cache_key",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.canonical_cache_key",
        arity: &[2],
        spec_prefix: "KN",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| key_normalizer::canonical_cache_key(&a[0], &a[1]),
    },
    Op {
        name: "key_normalizer.normalize_key",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.normalize_key",
        arity: &[1],
        spec_prefix: "KN",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| Ok(key_normalizer::normalize_key(&a[0])),
    },
    Op {
        name: "key_normalizer.normalize_keys",
        elixir: "PtcRunner.SubAgent.KeyNormalizer.normalize_keys",
        arity: &[1],
        spec_prefix: "KN",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| Ok(key_normalizer::normalize_keys(&a[0])),
    },
    Op {
        name: "lisp_formatter.format",
        elixir: "PtcRunner.Lisp.Formatter.format",
        arity: &[1],
        spec_prefix: "LF",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| lisp_formatter::format(rel, &a[0]),
    },
    Op {
        name: "native_preview.build",
        elixir: "PtcRunner.SubAgent.Loop.NativePreview.build",
        arity: &[3],
        spec_prefix: "NP",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| native_preview::build(rel, &a[0], &a[1], &a[2]),
    },
    Op {
        name: "native_preview.cache_hint",
        elixir: "PtcRunner.SubAgent.Loop.NativePreview.cache_hint",
        arity: &[2],
        spec_prefix: "NP",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| native_preview::cache_hint(rel, &a[0], &a[1]),
    },
    Op {
        name: "protocol.atomize_value",
        elixir: "PtcRunner.PtcToolProtocol.atomize_value",
        arity: &[2],
        spec_prefix: "JH",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| json_handler::atomize_value(rel, &a[0], &a[1]),
    },
    Op {
        name: "protocol.parse_signature",
        elixir: "PtcRunner.PtcToolProtocol.parse_signature",
        arity: &[1],
        spec_prefix: "SG",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| signature::parse_signature(&a[0]),
    },
    Op {
        name: "protocol.render_error",
        elixir: "PtcRunner.PtcToolProtocol.render_error",
        arity: &[2, 3],
        spec_prefix: "PP",
        output: Output::JsonString,
        since: Release::V0_11_0,
        call: |rel, a| {
            protocol::render_error(rel, &a[0], &a[1], a.get(2).unwrap_or(&Term::List(vec![])))
        },
    },
    Op {
        name: "protocol.render_success",
        elixir: "PtcRunner.PtcToolProtocol.render_success",
        arity: &[1, 2],
        spec_prefix: "PP",
        output: Output::JsonString,
        since: Release::V0_11_0,
        call: |rel, a| {
            protocol::render_success(rel, &a[0], a.get(1).unwrap_or(&Term::List(vec![])))
        },
    },
    Op {
        name: "protocol.render_success_from_step",
        elixir: "PtcRunner.PtcToolProtocol.render_success_from_step",
        arity: &[1, 2],
        spec_prefix: "PP",
        output: Output::JsonString,
        since: Release::V0_11_0,
        call: |rel, a| match a {
            [step] => protocol_from_step::render_success_from_step(rel, step, &Term::List(vec![])),
            [step, opts, ..] => protocol_from_step::render_success_from_step(rel, step, opts),
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
        since: Release::V0_11_0,
        call: |_, a| Ok(protocol::to_json_value(&a[0])),
    },
    Op {
        name: "protocol.tool_description",
        elixir: "PtcRunner.PtcToolProtocol.tool_description",
        arity: &[1],
        spec_prefix: "PP",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |_, a| protocol::tool_description(&a[0]),
    },
    Op {
        name: "protocol.validate_program",
        elixir: "PtcRunner.PtcToolProtocol.validate_program",
        arity: &[1],
        spec_prefix: "PP",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| Ok(protocol_validate::validate_program(rel, &a[0])),
    },
    Op {
        name: "protocol.validate_return",
        elixir: "PtcRunner.PtcToolProtocol.validate_return",
        arity: &[2],
        spec_prefix: "JH",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| json_handler::validate_return(rel, &a[0], &a[1]),
    },
    Op {
        name: "term.inspect",
        elixir: "Kernel.inspect",
        arity: &[1],
        spec_prefix: "IN",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| inspect::inspect_checked(rel, &a[0]).map(Term::binary),
    },
    Op {
        name: "tool.new",
        elixir: "PtcRunner.Tool.new",
        arity: &[2],
        spec_prefix: "TL",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| tool::new(rel, &a[0], &a[1]),
    },
    Op {
        name: "tool.private?",
        elixir: "PtcRunner.Tool.private?",
        arity: &[1],
        spec_prefix: "TL",
        output: Output::Term,
        // REL-3: `Tool.private?/1` came with tool visibility in v0.13.0.
        since: Release::V0_13_0,
        call: |_, a| tool::private_q(&a[0]),
    },
    Op {
        name: "tool.validate",
        elixir: "PtcRunner.SubAgent.Validator.validate!",
        arity: &[2],
        spec_prefix: "TV",
        output: Output::Term,
        since: Release::V0_11_0,
        call: |rel, a| tool::validate(rel, &a[0], &a[1]),
    },
];

/// The op named `name`, at whichever release has it (a case or a report
/// names ops of every release); [`find_at`] asks for one release.
pub fn find(name: &str) -> Option<&'static Op> {
    OPS.iter().find(|op| op.name == name)
}

/// The op named `name` if `rel` has it.
pub fn find_at(name: &str, rel: Release) -> Option<&'static Op> {
    find(name).filter(|op| op.exists_at(rel))
}

/// The ops `rel` has, sorted by name: what the reference at `rel` declares.
pub fn at(rel: Release) -> impl Iterator<Item = &'static Op> {
    OPS.iter().filter(move |op| op.exists_at(rel))
}

impl Op {
    /// Whether release `rel` has this op's function.
    pub fn exists_at(&self, rel: Release) -> bool {
        rel.since(self.since)
    }

    /// Calls the reference as release `rel` answers. A wrong argument count
    /// raises `UndefinedFunctionError`, as calling a missing arity would;
    /// so does an op `rel` lacks ([`Op::since`]), as calling the function
    /// on that release's build would (subjects at `rel` do not declare it,
    /// so no runner sends it).
    pub fn invoke(&self, rel: Release, args: &[Term]) -> Result<Term, Raised> {
        if !self.exists_at(rel) || !self.arity.contains(&args.len()) {
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
        (self.call)(rel, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// REL-3: `tool.private?` is an op of v0.13.0 only; every other op is
    /// in every release. v0.12.0's and v0.11.0's builds export no
    /// `PtcRunner.Tool.private?/1` (their adapters' `hello` leaves it out).
    #[test]
    fn ops_absent_before_their_release() {
        let names = |rel| at(rel).map(|o| o.name).collect::<Vec<_>>();
        assert_eq!(names(Release::V0_13_0).len(), OPS.len());
        for rel in [Release::V0_11_0, Release::V0_12_0] {
            let have = names(rel);
            assert_eq!(have.len(), OPS.len() - 1, "{rel}: {have:?}");
            assert!(!have.contains(&"tool.private?"), "{rel}");
            assert!(find_at("tool.private?", rel).is_none());
            let op = find("tool.private?").expect("registered");
            let err = op
                .invoke(rel, &[Term::Nil])
                .expect_err("absent before 0.13.0");
            assert_eq!(
                err.message,
                "function PtcRunner.Tool.private?/1 is undefined or private"
            );
        }
        assert!(find_at("tool.private?", Release::V0_13_0).is_some());
    }

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
        let err = op
            .invoke(Release::default(), &[])
            .expect_err("arity 0 is not defined");
        assert_eq!(err.class, "UndefinedFunctionError");
        assert_eq!(
            err.message,
            "function PtcRunner.SubAgent.KeyNormalizer.normalize_key/0 is undefined or private"
        );
    }
}
