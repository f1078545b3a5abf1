"""The Elixir layer: the Elixir, OTP and Jason behaviour that shows through
PtcRunner's boundary, ported once from the Rust reference (``src/elixir/``)
so that no port writes it again. One module per borrowed behaviour:

* `inspect`: ``Kernel.inspect/2`` (limits, printable limit, pretty width),
  on `algebra`, ``Inspect.Algebra``'s layout;
* `chars`: ``String.Chars.to_string/1``, chardata (``List.to_string/1``),
  iodata, ``URI`` and the display structs;
* `jason`: ``Jason.encode/1``'s text and its exceptions;
* `num`: float texts (``Float.to_string/1``, ``inspect``, compact);
* `graphemes`: grapheme clusters as OTP 25 splits them;
* `normalize`: NFC as OTP 25 composes, cluster by cluster;
* `identifier`: Elixir's identifier tokenizer (whether an atom is quoted);
* `messages`: the exception texts of ``spec/data/messages.json``;
* `errors`: the exceptions built from them (``KeyError``,
  ``Protocol.UndefinedError``, ``FunctionClauseError``, ...);
* `enumerable`: ``Enum`` over lists, maps, sets and arity-2 reducers,
  ``Enum.take/2``;
* `lists`: ``++``, improper lists (`lists.Improper`), ``Enum.flat_map/2``;
* `keyword`: ``Keyword.get/fetch/fetch!/take`` with their exceptions;
* `maps`: ``Map.get/has_key?/new``, ``term.field``, ``MapSet.member?``;
* `strings`: ``String.trim/1``'s white space;
* `atoms`: ``String.to_existing_atom/1`` over ``spec/data/atoms.json``;
* `datetime`: ``DateTime.from_iso8601/1`` shifted to UTC (JH-9).

The Unicode tables and templates are read from ``spec/data/`` (`ptc_sdk.data`).
"""

from . import (
    atoms,
    chars,
    datetime,
    enumerable,
    errors,
    graphemes,
    identifier,
    jason,
    keyword,
    lists,
    maps,
    messages,
    normalize,
    num,
    strings,
)
from .chars import iodata_to_binary, list_to_string, to_string
from .enumerable import reduce_fun
from .inspect import capture_parts, inspect, inspect_binary, inspect_checked, inspect_lossy, inspect_message, inspect_text, remote_call
from .jason import encode as jason_encode
from .num import float_to_binary_compact_10, inspect_float, short_float

__all__ = [
    "atoms",
    "capture_parts",
    "datetime",
    "keyword",
    "lists",
    "maps",
    "strings",
    "chars",
    "enumerable",
    "errors",
    "float_to_binary_compact_10",
    "graphemes",
    "identifier",
    "inspect",
    "inspect_binary",
    "inspect_checked",
    "inspect_float",
    "inspect_lossy",
    "inspect_message",
    "inspect_text",
    "iodata_to_binary",
    "jason",
    "jason_encode",
    "list_to_string",
    "messages",
    "normalize",
    "num",
    "reduce_fun",
    "remote_call",
    "short_float",
    "to_string",
]
