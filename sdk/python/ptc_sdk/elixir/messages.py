"""The exception texts the boundary raises, as the templates of
``spec/data/messages.json`` (``src/elixir/messages.rs`` in the reference):
one home per text, read from the data file rather than copied here.

A placeholder is ``{`` + a lower-case name + ``}``; any other brace is
literal text (``@derive {Jason.Encoder, only: [....]}``)::

    messages.get("bad_map").render(term="1")      # 'expected a map, got: 1'
    messages.get("bad_map").raised(term="1")      # Raised("BadMapError", ...)

A text an older release writes otherwise has a second template, its id
suffixed with that release (``protocol_implementations_string_chars_v0_11``);
`get` with a release picks it there (``spec/releases.md``).
"""

from __future__ import annotations

import re

from .. import data, releases
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

    def render(self, **values):
        """The text with each ``{name}`` replaced by ``values[name]`` (a
        binary term, ``str`` or ``bytes``, or a text from a ``*_text``
        function); a placeholder without a value is left as it is. A binary
        term, canonical: ``str`` unless a value held bytes that are not
        UTF-8.

        >>> get("bad_map").render(term=b"<<255>>"), get("bad_map").render(term=b"\\xff")
        ('expected a map, got: <<255>>', b'expected a map, got: \\xff')
        """
        from ..terms import text_binary

        return text_binary(self.render_text(**values))

    def render_text(self, **values) -> str:
        """`render` as text, invalid bytes as ``surrogateescape`` code
        points (``binary_text``), to build further text from."""
        from ..terms import binary_text

        def fill(m):
            v = values.get(m.group(1))
            return m.group(0) if v is None else binary_text(v)

        return _PLACEHOLDER.sub(fill, self.text)

    def raised(self, **values) -> Raised:
        """The exception whose message this template renders (a fragment,
        `cls` None, counts as ``RuntimeError``)."""
        return Raised(self.cls or "RuntimeError", self.render_text(**values))

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


def get(id: str, release=None) -> Template:
    """The template `id` (``key_error``, ``protocol_undefined``) as
    `release` writes it: the first of ``id`` suffixed with `release` or a
    later one (``_v0_11``, ``_v0_12``, ...) that the data file has, else
    ``id`` itself. Left out, the release is the served port's
    (`ptc_sdk.releases`). KeyError for an id the data file lacks.

    >>> "PtcRunner.Lisp.Format.Fn" in get("protocol_implementations_string_chars", "0.11.0").text
    False
    >>> get("protocol_implementations_string_chars", "0.12.0").id
    'protocol_implementations_string_chars'
    """
    if _TEMPLATES is None:
        all_templates()
    rel = releases.resolve(release)
    for later in releases.RELEASES[releases.RELEASES.index(rel) :]:
        found = _TEMPLATES.get(id + releases.suffix(later))
        if found is not None:
            return found
    return _TEMPLATES[id]


def text(id: str, release=None) -> str:
    """The text of a template without placeholders (a hint, a list), as
    `release` writes it (`get`)."""
    return get(id, release).text
