"""The exception texts the boundary raises, as the templates of
``spec/data/messages.json`` (``src/elixir/messages.rs`` in the reference):
one home per text, read from the data file rather than copied here.

A placeholder is ``{`` + a lower-case name + ``}``; any other brace is
literal text (``@derive {Jason.Encoder, only: [....]}``)::

    messages.get("bad_map").render(term="1")      # 'expected a map, got: 1'
    messages.get("bad_map").raised(term="1")      # Raised("BadMapError", ...)
"""

from __future__ import annotations

import re

from .. import data
from ..errors import Raised

FILE = "messages.json"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class Template:
    """One message: `id`, `cls` (the exception's class, or None for a
    fragment other templates embed), `text` with ``{name}`` placeholders,
    `placeholders` (name -> what it holds), `source`, `rules`."""

    __slots__ = ("id", "cls", "text", "placeholders", "source", "rules")

    def __init__(self, id, cls, text, placeholders, source, rules):
        self.id = id
        self.cls = cls
        self.text = text
        self.placeholders = placeholders
        self.source = source
        self.rules = rules

    def render(self, **values) -> str:
        """The text with each ``{name}`` replaced by ``values[name]`` (a
        str); a placeholder without a value is left as it is."""

        def fill(m):
            v = values.get(m.group(1))
            return m.group(0) if v is None else v

        return _PLACEHOLDER.sub(fill, self.text)

    def raised(self, **values) -> Raised:
        """The exception whose message this template renders (a fragment,
        `cls` None, counts as ``RuntimeError``)."""
        return Raised(self.cls or "RuntimeError", self.render(**values))

    def __repr__(self):
        return f"Template({self.id!r})"


_TEMPLATES = None


def all_templates():
    """Every template, in the data file's order."""
    global _TEMPLATES
    if _TEMPLATES is None:
        table = data.load(FILE)
        try:
            _TEMPLATES = {
                m["id"]: Template(
                    m["id"],
                    m["class"],
                    m["template"],
                    dict(m["placeholders"]),
                    m["source"],
                    tuple(m.get("rules", ())),
                )
                for m in table["messages"]
            }
        except (KeyError, TypeError) as e:
            raise data.DataUnavailable(f"reading {data.path(FILE)}: not the messages table: {e}")
    return list(_TEMPLATES.values())


def get(id: str) -> Template:
    """The template `id` (``key_error``, ``protocol_undefined``); KeyError
    for an id the data file lacks."""
    if _TEMPLATES is None:
        all_templates()
    return _TEMPLATES[id]


def text(id: str) -> str:
    """The text of a template without placeholders (a hint, a list)."""
    return get(id).text
