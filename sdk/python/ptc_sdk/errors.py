"""The exceptions a port and the SDK raise."""

from __future__ import annotations


class Raised(Exception):
    """An Elixir exception a port function raises on purpose: its module name
    without ``Elixir.`` (``ArgumentError``, ``FunctionClauseError``, ...) and
    the message ``Exception.message/1`` gives. The adapter answers it as
    ``raised``. The message may be built from binaries of any kind (``str``,
    ``bytes``, text holding ``surrogateescape`` code points): `message` holds
    it as text, invalid bytes replaced by U+FFFD, as the reference's answers
    read them."""

    def __init__(self, cls: str, message):
        from .terms import lossy_text

        message = lossy_text(message)
        super().__init__(cls, message)
        self.cls = cls
        self.message = message

    def __str__(self):
        return f"{self.cls}: {self.message}"


class Unsupported(Exception):
    """An input whose answer depends on something the port does not model
    (e.g. Erlang's hash order of maps past 32 keys). The adapter answers it
    as ``unsupported`` with the exception's text: the case is skipped, not
    failed."""


class DecodeError(ValueError):
    """Text that is not tagged term JSON (spec/terms.md); the message starts
    with the JSON-pointer path where it went wrong (TJ-10)."""
