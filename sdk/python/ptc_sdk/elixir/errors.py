"""The messages of the Elixir exceptions the boundary raises, as Elixir
1.18.4 writes them (``src/elixir/errors.rs``), each built from its template
in `messages` and returned as a `Raised` for the port to raise. Most embed
``inspect`` of the offending term, which prints as the release's build
does (a display struct's ``String.Chars``, REL-7); a protocol's
implementations are the release's. Each function takes the release
(`ptc_sdk.releases`); left out, the served port's.
"""

from __future__ import annotations

from .. import releases
from ..errors import Raised
from ..terms import Atom, Fun, Struct, Temporal, Tuple, atom, atom_name  # noqa: F401  (Atom: the doctests')
from . import messages as M


def _inspect(t, **opts):
    from .inspect import inspect_lossy

    return inspect_lossy(t, **opts)


def key_error(key: str, term, release=None) -> Raised:
    """``KeyError`` for a missing atom `key` in a keyword list or map:
    ``key :k not found in: <inspect(term, pretty: true, limit: :infinity)>``."""
    rel = releases.resolve(release)
    return M.get("key_error", rel).raised(
        key=_inspect(atom(key), release=rel),
        term=_inspect(term, pretty=True, limit=None, release=rel),
    )


def bad_map(term, release=None) -> Raised:
    """``BadMapError``: ``expected a map, got: <inspect(term)>``."""
    rel = releases.resolve(release)
    return M.get("bad_map", rel).raised(term=_inspect(term, release=rel))


def case_clause(term, release=None) -> Raised:
    """``CaseClauseError``: ``no case clause matching: <inspect(term)>``."""
    rel = releases.resolve(release)
    return M.get("case_clause", rel).raised(term=_inspect(term, release=rel))


def match_error(term, release=None) -> Raised:
    """``MatchError``: ``no match of right hand side value:
    <inspect(term)>``, what a pattern match such as ``{errors, consumed} =
    acc`` raises when `term` does not fit it (JH-15's accumulator that is
    no 2-tuple).

    >>> match_error(Tuple((Atom("done"), 1, 2))).message
    'no match of right hand side value: {:done, 1, 2}'
    >>> raise match_error(Atom("halted"))
    Traceback (most recent call last):
    ptc_sdk.errors.Raised: MatchError: no match of right hand side value: :halted
    """
    rel = releases.resolve(release)
    return M.get("match_error", rel).raised(term=_inspect(term, release=rel))


def function_clause(function: str) -> Raised:
    """``FunctionClauseError``: ``no function clause matching in
    <function>`` (``PtcRunner.Tool.new/2``, ``:lists.reverse/1``)."""
    return M.get("function_clause").raised(function=function)


def badarg(position: str, reason: str) -> Raised:
    """``ArgumentError`` of an Erlang BIF as Elixir normalizes ``badarg``:
    `position` ``1st``/``2nd``, `reason` (``not a tuple``)."""
    return M.get("erlang_badarg").raised(position=position, reason=reason)


def module_not_available(module: str, function: str, arity: int) -> Raised:
    """``UndefinedFunctionError`` for a call into the module named by the
    atom `module` (``Elixir.Foo``, ``foo``), which the VM cannot load
    (``spec/README.md`` LOOSE-5); the alias hint when it is ``Elixir.X``."""
    from .inspect import atom_literal, remote_call

    hint = ""
    if module.startswith("Elixir.") and "." not in module[7:]:
        hint = M.text("undefined_function_alias_hint")
    return M.get("undefined_function_module_not_available").raised(
        module=atom_literal(module), function=remote_call(function), arity=str(arity), hint=hint
    )


PROTOCOLS = ("String.Chars", "Jason.Encoder", "Enumerable")
_IMPLEMENTATIONS = {
    "String.Chars": "protocol_implementations_string_chars",
    "Jason.Encoder": "protocol_implementations_jason_encoder",
    "Enumerable": "protocol_implementations_enumerable",
}


def implementations(protocol: str, release=None) -> list:
    """The modules (and types) implementing `protocol` (one of
    `PROTOCOLS`) on `release`'s build, as its ``Protocol.UndefinedError``
    lists them (``spec/data/messages.json``).

    >>> "PtcRunner.Lisp.Format.Var" in implementations("String.Chars", "0.11.0")
    False
    >>> "PtcRunner.Lisp.Format.Var" in implementations("Jason.Encoder", "0.12.0")
    True
    """
    return M.text(_IMPLEMENTATIONS[protocol], release).split(", ")


def implements(protocol: str, module: str, release=None) -> bool:
    """Whether the struct `module` implements `protocol` on `release`'s
    build: ``String.Chars`` and ``Jason.Encoder`` of ``PtcRunner.Lisp.Format``'s
    display structs came in v0.12.0 (REL-7)."""
    return module in implementations(protocol, release)


def protocol_undefined(protocol: str, value, release=None) -> Raised:
    """``Protocol.UndefinedError`` for `protocol` (one of `PROTOCOLS`) and
    `value`: its type, the description, the implementations as the
    release's build lists them (compared loosely, LOOSE-1) and
    ``inspect(value, pretty: true)`` indented by four spaces."""
    text = protocol_undefined_text(protocol, value, release)
    if not text.isascii():
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return Raised("Protocol.UndefinedError", text)


def protocol_undefined_text(protocol: str, value, release=None) -> str:
    """`protocol_undefined`'s message with a display struct's invalid
    bytes kept (as surrogates), as an ``Inspect.Error`` shows them."""
    from .inspect import LIMIT, inspect_text

    rel = releases.resolve(release)
    ty = type(value)
    description = ""
    if protocol == "Jason.Encoder":
        if ty is Struct or ty is Temporal:
            description = M.text("jason_encoder_struct_description")
        else:
            description = M.text("jason_encoder_description")
    elif protocol == "Enumerable" and ty is Fun and value.arity != 2:
        description = M.text("enumerable_function_description")
    if description:
        description = ", " + description
    inspected = inspect_text(value, pretty=True, limit=LIMIT, release=rel)
    shown = "\n".join("    " + line if line else "" for line in inspected.split("\n"))
    return M.get("protocol_undefined", rel).render_text(
        protocol=protocol,
        type=value_type(value),
        description=description,
        implementations=M.text(_IMPLEMENTATIONS[protocol], rel),
        value=shown,
    )


def value_type(value) -> str:
    """``Protocol.UndefinedError``'s name for the type of a value."""
    from .inspect import atom_literal

    ty = type(value)
    if ty is Struct:
        return M.get("protocol_undefined_struct_type").render_text(
            module=atom_literal("Elixir." + value.module)
        )
    if ty is Temporal:
        return M.get("protocol_undefined_struct_type").render_text(module=value.module)
    if atom_name(value) is not None:
        return "Atom"
    if ty is str or ty is bytes:
        return "BitString"
    if ty is list:
        return "List"
    if ty is Tuple:
        return "Tuple"
    from ..terms import Map, Opaque

    if ty is Map:
        return "Map"
    if ty is Opaque:
        return {"pid": "PID", "port": "Port", "ref": "Reference"}[value.kind]
    return {int: "Integer", float: "Float", Fun: "Function"}[ty]


def inspect_error(cls: str, message: str, inspected_struct: str, frames) -> str:
    """The text of an ``#Inspect.Error<...>`` (IN-15): the exception's
    class and message, the struct inspected as a map, the stack frames
    (LOOSE-4), each indented as ``Inspect.Error.pad/2`` does."""
    body = M.get("inspect_error_body").render_text(
        **{"class": cls, "message": _pad(message.rstrip("\n"), 4), "struct": _pad(inspected_struct, 4)}
    )
    stacktrace = "".join(f"    {f}\n" for f in frames)
    return M.get("inspect_error").render_text(body=_pad(body, 2), frames=stacktrace)


def _pad(text: str, n: int) -> str:
    """Every non-empty line indented by `n` spaces, trailing newlines dropped."""
    indent = " " * n
    return "\n".join(indent + line if line else "" for line in text.split("\n")).rstrip("\n")
