"""ptc_sdk: what every Python port of PtcRunner's tool boundary needs before
its first function, for testing it with ptc-conformance.

* `terms`: the Elixir term model (Atom, Tuple, Map with term keys, Struct,
  Temporal, Fun, Opaque; ``int``/``float``/``str``/``bytes``/``list`` as
  themselves).
* `order`: Erlang term order, map key order and exact equality (``=:=``).
* `tagged`: tagged term JSON, a lossless reader and the canonical writer.
* `structs`: the boundary's structs, fields and defaults, read from
  ``spec/data/structs.json``.
* `features`: which features (spec/terms.md) a term uses.
* `adapter`: the adapter protocol v1 loop; a port calls `serve`.
* `elixir`: the Elixir layer PtcRunner shows through: `inspect`,
  `to_string` and chardata, Jason's text (`jason_encode`, `jason_str`),
  float texts, grapheme clusters and NFC, the message templates of
  ``spec/data/messages.json`` and the exceptions built from them.
* `data`: where the porter data files (``spec/data``) are read from.
* `releases`: the PtcRunner releases a port can implement (0.11.0, 0.12.0,
  0.13.0) and the one the SDK answers at; every function whose answer
  differs between releases takes ``release``, else answers at the served
  port's (``serve(..., release=...)``).
* `ops`: the kit's ops as data (``spec/data/ops.json``): function, arities,
  argument names and defaults; `MISSING`, the default `serve` fills in.

`__version__` is the SDK's version (CHANGELOG.md says what each changed).

`json_str` writes a JSON string as serde_json (and so the tagged term
writer) does, ``\u001f``; `jason_str` as Jason does, ``\u001F``.

Standard library only, Python 3.11 or newer. See README.md next to this
package.
"""

__version__ = "0.2.1"

from . import data, elixir, ops, releases, structs
from .adapter import PROTOCOL, RELEASES, Adapter, serve
from .ops import MISSING
from .elixir import inspect, inspect_message, jason_encode, to_string
from .elixir.jason import escape_string as jason_str
from .errors import DecodeError, Raised, Unsupported
from .order import compare, equal, key_compare, key_sort, map_view, sort, sort_binaries
from .tagged import ImproperList, decode, decode_text, encode, json_str, parse, short_float, unsupported_improper
from .terms import (
    Atom,
    DuplicateKey,
    Fun,
    Map,
    Opaque,
    Struct,
    Temporal,
    Tuple,
    atom,
    atom_name,
    binary,
    binary_text,
    concat,
    is_atom,
    is_binary,
    is_keyword,
    is_map,
    kw,
    kw_pair,
    lossy_text,
    text_binary,
    to_bytes,
    truthy,
)

__all__ = [
    "MISSING",
    "ImproperList",
    "inspect_message",
    "unsupported_improper",
    "PROTOCOL",
    "RELEASES",
    "Adapter",
    "Atom",
    "DecodeError",
    "DuplicateKey",
    "Fun",
    "Map",
    "Opaque",
    "Raised",
    "Struct",
    "Temporal",
    "Tuple",
    "Unsupported",
    "atom",
    "atom_name",
    "binary",
    "binary_text",
    "compare",
    "concat",
    "decode",
    "decode_text",
    "encode",
    "equal",
    "is_atom",
    "is_binary",
    "is_keyword",
    "is_map",
    "inspect",
    "jason_encode",
    "jason_str",
    "json_str",
    "key_compare",
    "key_sort",
    "kw",
    "kw_pair",
    "lossy_text",
    "map_view",
    "ops",
    "parse",
    "releases",
    "serve",
    "short_float",
    "sort",
    "sort_binaries",
    "text_binary",
    "to_bytes",
    "to_string",
    "truthy",
]
