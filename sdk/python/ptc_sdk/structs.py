"""The structs of the boundary (spec/terms.md TJ-7): their fields in
defstruct order and their defaults, read from the data file
``spec/data/structs.json`` rather than copied here, as each release
defines them: a field marked ``since`` there came in that release, and an
older release's struct lacks it (``spec/releases.md`` REL-1). Every
function takes the release (`ptc_sdk.releases`); left out, the served
port's, else 0.13.0.

The file is found as `data` finds every porter data file: in the directory
named by the environment variable ``PTC_CONFORMANCE_DATA``, else in the
checkout or export this package sits in (``<repo>/spec/data``), else in the
package's own copy. Neither: `StructsUnavailable` says where it looked.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import data, releases
from .terms import Map, Struct

ENV = data.ENV
FILE = "structs.json"


class StructsUnavailable(data.DataUnavailable):
    """``structs.json`` could not be found or read."""


class FieldError(ValueError):
    """A struct refused for its fields (a name its struct lacks, a value
    TJ-7 refuses) rather than its module: a decoder names the ``fields``
    object for it, the ``$struct`` object for the module
    (``spec/terms.md`` TJ-10)."""


class _Table:
    """The parsed data file: module -> ([(field, default, since)],
    inspect_optional), `since` None for a field every release has."""

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
                    decode_text(json.dumps(f["default"]), f"/structs/{i}/fields/{j}/default", release=releases.DEFAULT),
                    _since(f.get("since"), f"/structs/{i}/fields/{j}/since"),
                )
                for j, f in enumerate(entry["fields"])
            ]
            rows[entry["module"]] = (fields, tuple(entry.get("inspect_optional", ())))
    except (KeyError, TypeError, ValueError, DecodeError) as e:
        raise StructsUnavailable(f"reading {path}: not the structs table: {e}") from None
    return rows


def _since(release, where):
    if release is None:
        return None
    try:
        return releases.check(release)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def modules():
    """The struct modules of the boundary, in the data file's order."""
    return list(_TABLE.rows())


def fields_of(module: str, release=None):
    """``[(field, default term)]`` of `module` in defstruct order as
    `release` defines it, or None when it is not a struct of the boundary."""
    rel = releases.resolve(release)
    row = _TABLE.rows().get(module)
    if row is None:
        return None
    return [(name, default) for name, default, since in row[0] if since is None or releases.since(rel, since)]


def inspect_optional(module: str):
    """Fields a derived ``Inspect`` leaves out while they hold their
    default (``@derive {Inspect, optional: [...]}``)."""
    row = _TABLE.rows().get(module)
    return () if row is None else row[1]


def complete(module: str, given, release=None) -> Struct:
    """The struct `module` with the fields `given` (a dict or pairs) and
    defaults for the rest, as ``struct!/2`` builds it on `release`'s build.
    Raises ValueError for a module that is not a struct of the boundary, and
    its subclass `FieldError` for a field the release's struct lacks
    (REL-1), a ``URI`` that ``URI.parse/1`` could not have made or a
    ``MapSet`` that ``MapSet.new/1`` could not (TJ-7)."""
    rel = releases.resolve(release)
    rows = fields_of(module, rel)
    if rows is None:
        raise ValueError(f"$struct module {module} is not a struct of the boundary")
    given = dict(given)
    names = {name for name, _ in rows}
    for k in given:
        if k not in names:
            at = "" if rel == releases.DEFAULT else f" at release {rel}"
            raise FieldError(f"{module} has no field {json.dumps(k, ensure_ascii=False)}{at}")
    if module == "URI":
        for k, v in given.items():
            if v is None:
                continue
            if k == "port" and type(v) is not int:
                raise FieldError(f'URI field "{k}" must be an integer or nil')
            if k != "port" and type(v) not in (str, bytes):
                raise FieldError(f'URI field "{k}" must be a binary or nil')
    if module == "MapSet" and "map" in given:
        m = given["map"]
        if not (isinstance(m, Map) and all(type(v) is list and not v for _, v in m.items())):
            raise FieldError('MapSet field "map" must be a map of members to [] (as MapSet.new/1 makes it)')
    return Struct(module, {name: given.get(name, default) for name, default in rows})


def new(module: str, *, release=None, **fields) -> Struct:
    """`complete` with keyword arguments: ``new("PtcRunner.Tool", name="x")``
    (no struct of the boundary has a field named ``release``)."""
    return complete(module, fields, release)
