"""The structs of the boundary (spec/terms.md TJ-7): their fields in
defstruct order and their defaults, read from the data file
``spec/data/structs.json`` rather than copied here.

The file is found as `data` finds every porter data file: in the directory
named by the environment variable ``PTC_CONFORMANCE_DATA``, else in the
checkout or export this package sits in (``<repo>/spec/data``), else in the
package's own copy. Neither: `StructsUnavailable` says where it looked.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import data
from .terms import Struct

ENV = data.ENV
FILE = "structs.json"


class StructsUnavailable(data.DataUnavailable):
    """``structs.json`` could not be found or read."""


class _Table:
    """The parsed data file: module -> ([(field, default)], inspect_optional)."""

    def __init__(self):
        self._rows = None

    def rows(self):
        if self._rows is None:
            self._rows = _load(data_path())
        return self._rows


_TABLE = _Table()


def data_path() -> Path:
    """Where ``structs.json`` is read from (`data.path`)."""
    try:
        return data.path(FILE)
    except data.DataUnavailable as e:
        raise StructsUnavailable(str(e)) from None


def _load(path: Path):
    from .tagged import DecodeError, decode_text

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise StructsUnavailable(f"reading {path}: {e}") from None
    rows = {}
    try:
        for i, entry in enumerate(data["structs"]):
            fields = [
                (
                    f["name"],
                    decode_text(json.dumps(f["default"]), f"/structs/{i}/fields/{j}/default"),
                )
                for j, f in enumerate(entry["fields"])
            ]
            rows[entry["module"]] = (fields, tuple(entry.get("inspect_optional", ())))
    except (KeyError, TypeError, DecodeError) as e:
        raise StructsUnavailable(f"reading {path}: not the structs table: {e}") from None
    return rows


def modules():
    """The struct modules of the boundary, in the data file's order."""
    return list(_TABLE.rows())


def fields_of(module: str):
    """``[(field, default term)]`` of `module` in defstruct order, or None
    when it is not a struct of the boundary."""
    row = _TABLE.rows().get(module)
    return None if row is None else list(row[0])


def inspect_optional(module: str):
    """Fields a derived ``Inspect`` leaves out while they hold their
    default (``@derive {Inspect, optional: [...]}``)."""
    row = _TABLE.rows().get(module)
    return () if row is None else row[1]


def complete(module: str, given) -> Struct:
    """The struct `module` with the fields `given` (a dict or pairs) and
    defaults for the rest, as ``struct!/2`` builds it. Raises ValueError for
    a module that is not a struct of the boundary, a field it lacks, or a
    ``URI`` that ``URI.parse/1`` could not have made (TJ-7)."""
    rows = fields_of(module)
    if rows is None:
        raise ValueError(f"$struct module {module} is not a struct of the boundary")
    given = dict(given)
    names = {name for name, _ in rows}
    for k in given:
        if k not in names:
            raise ValueError(f"{module} has no field {json.dumps(k, ensure_ascii=False)}")
    if module == "URI":
        for k, v in given.items():
            if v is None:
                continue
            if k == "port" and type(v) is not int:
                raise ValueError(f'URI field "{k}" must be an integer or nil')
            if k != "port" and type(v) not in (str, bytes):
                raise ValueError(f'URI field "{k}" must be a binary or nil')
    return Struct(module, {name: given.get(name, default) for name, default in rows})


def new(module: str, **fields) -> Struct:
    """`complete` with keyword arguments: ``new("PtcRunner.Tool", name="x")``."""
    return complete(module, fields)
