"""The Elixir term model (spec/terms.md), as plain Python values where Python
has one and small classes where it has not:

=====================  ==============================================
Elixir                 Python
=====================  ==============================================
nil / true / false     ``None`` / ``True`` / ``False`` (atoms too)
integer                ``int`` (any size)
float                  ``float`` (finite; ``-0.0`` kept)
UTF-8 binary           ``str``
other binary           ``bytes`` (never valid UTF-8: see `binary`)
atom                   `Atom`
list                   ``list`` (a keyword list is a list of 2-`Tuple`\\ s)
tuple                  `Tuple`
map                    `Map` (any terms as keys)
struct                 `Struct` (module, fields in defstruct order)
Date / Time / ...      `Temporal` (kind and ISO 8601 text)
function               `Fun` (the behaviour spec it was decoded from)
reference / pid / port `Opaque` (kind and label)
=====================  ==============================================

``type(x) is int`` and ``type(x) is float`` tell integers from floats
(``bool`` is a subclass of ``int``: test with ``type``, never
``isinstance``). The classes compare with ``==`` as Erlang's ``=:=``
(`order.equal`); Python's own ``==`` on ``int``/``float``/``list`` does not
(``1 == 1.0``), so compare terms with `order.equal`.
"""

from __future__ import annotations

from .errors import Raised
from .ops import MISSING

_SPECIAL_ATOMS = {"nil": None, "true": True, "false": False}


class _Term:
    """Equality and hashing as `order.equal` / `order.key`."""

    __slots__ = ()

    def __eq__(self, other):
        from . import order

        try:
            return order.equal(self, other)
        except TypeError:  # `other` is no term
            return NotImplemented

    def __hash__(self):
        from . import order

        return hash(order.key(self))


def _no_missing(v):
    """Refuses `MISSING` where a term is meant (`not_a_term`)."""
    if v is MISSING:
        raise not_a_term(v)


def not_a_term(value) -> TypeError:
    """The TypeError for a Python value that is no term, saying what it is
    where that is a likely slip: `MISSING` (a left-out argument or an
    absent key, never a value: the term nil is None), a ``tuple`` (an
    Erlang tuple is `Tuple`), a ``dict`` (a map is `Map`)."""
    if value is MISSING:
        why = "MISSING is no term: it marks a left-out argument or an absent key; the term nil is None"
    elif type(value) is tuple:
        why = f"not a term: {value!r} (a Python tuple; an Erlang tuple is Tuple(...))"
    elif type(value) is dict:
        why = f"not a term: {value!r} (a dict; a map is Map.of(...) or Map.new(...))"
    else:
        why = f"not a term: {value!r}"
    return TypeError(why)


class Atom(_Term):
    """An atom other than nil, true and false (those are None, True, False)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return f"Atom({self.name!r})"


def atom(name: str):
    """The atom called `name`: None/True/False for nil/true/false."""
    if name in _SPECIAL_ATOMS:
        return _SPECIAL_ATOMS[name]
    return Atom(name)


def atom_name(t):
    """The text of an atom term (nil/true/false included), else None."""
    if t is None:
        return "nil"
    if t is True:
        return "true"
    if t is False:
        return "false"
    if type(t) is Atom:
        return t.name
    return None


class Tuple(_Term):
    """An Erlang tuple; `items` is a Python tuple."""

    __slots__ = ("items",)

    def __init__(self, items=()):
        self.items = tuple(items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __iter__(self):
        return iter(self.items)

    def __repr__(self):
        return f"Tuple({list(self.items)!r})"


def binary(data):
    """The canonical binary term of `data`: ``str`` when its bytes are
    valid UTF-8, else ``bytes``. `data` is ``bytes`` (or ``bytearray``,
    ``memoryview``), or a ``str``, returned as it is.

    A binary is ``str`` or ``bytes``, whichever a port holds: every function
    of the SDK that takes a binary takes either (``b"caf\\xc3\\xa9"`` and
    ``"café"`` are one term: equal, one map key, one encoding), and every
    function that returns one returns this canonical form. `to_bytes` and
    `binary_text` give the other views.

    >>> binary(b"caf\\xc3\\xa9"), binary(b"\\xff"), binary("x")
    ('café', b'\\xff', 'x')
    """
    if type(data) is str:
        return data
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return bytes(data)


def to_bytes(b) -> bytes:
    """The bytes of a binary term (``str`` or ``bytes``)."""
    return b.encode("utf-8") if type(b) is str else bytes(b)


def binary_text(b) -> str:
    """A binary term as a ``str``: a ``str`` as it is, ``bytes`` decoded
    with invalid bytes as ``surrogateescape`` code points (U+DC80 to
    U+DCFF), so that text functions (``inspect_text``, ``escape``) can
    read it; ``to_bytes(...)`` of the result with ``surrogateescape``, or
    `binary` of that, gives the term back.

    >>> binary_text(b"a\\xff"), binary_text("é")
    ('a\\udcff', 'é')
    """
    return b if type(b) is str else bytes(b).decode("utf-8", "surrogateescape")


def text_binary(s: str):
    """The binary term of a text that may hold ``surrogateescape`` code
    points (what `binary_text` and the ``*_text`` functions give): the
    inverse of `binary_text`.

    >>> text_binary("a\\udcff"), text_binary("é")
    (b'a\\xff', 'é')
    """
    if s.isascii():
        return s
    return binary(s.encode("utf-8", "surrogateescape"))


def lossy_text(b) -> str:
    """A binary term or a text as an exception message holds it: invalid
    bytes (or their ``surrogateescape`` code points) replaced by U+FFFD,
    as the reference's answers read them.

    >>> lossy_text(b"a\\xff"), lossy_text("a\\udcff")
    ('a�', 'a�')
    """
    if type(b) is str:
        if b.isascii():
            return b
        return b.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return bytes(b).decode("utf-8", "replace")


def kw(pairs):
    """A keyword list: ``[(name, value), ...]`` to ``[{:name, value}, ...]``."""
    return [Tuple((atom(k), v)) for k, v in pairs]


def kw_pair(t):
    """``(name, value)`` when `t` is a ``{atom, value}`` tuple, else None."""
    if type(t) is Tuple and len(t.items) == 2:
        name = atom_name(t.items[0])
        if name is not None:
            return name, t.items[1]
    return None


def is_keyword(t) -> bool:
    """Whether `t` is a non-empty list of ``{atom, value}`` tuples (the
    lists the canonical encoding writes as ``$kw``)."""
    return type(t) is list and bool(t) and all(kw_pair(x) is not None for x in t)


class DuplicateKey(ValueError):
    """A map given the same key twice where that is an error; `key` is it."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


class Map(_Term):
    """An immutable Erlang map with any terms as keys. Keys match as map keys
    do on OTP 25 (`order.key`): ``1`` and ``1.0`` are two keys, ``0.0`` and
    ``-0.0`` one. `items` iterates in map key order, the order Elixir
    iterates maps of up to 32 keys; bigger maps iterate in the VM's hash
    order, which a port must not rely on (answer `Unsupported` where it
    shows)."""

    __slots__ = ("_entries", "_sorted")

    def __init__(self, entries=None):
        # order.key(k) -> (k, v); use the constructors below.
        self._entries = entries if entries is not None else {}
        self._sorted = None

    @classmethod
    def strict(cls, pairs):
        """The map of `pairs`; a repeated key raises `DuplicateKey`, naming
        the least repeated key in map key order (as the Rust harness's
        reader names it)."""
        from .order import key, key_sort

        entries = {}
        repeated = []
        for k, v in pairs:
            ek = key(k)
            if ek in entries:
                repeated.append(entries[ek][0])
            else:
                _no_missing(v)
                entries[ek] = (k, v)
        if repeated:
            raise DuplicateKey(key_sort(repeated)[0])
        return cls(entries)

    @classmethod
    def new(cls, pairs=()):
        """``Map.new/1`` (``:maps.from_list/1``): a later pair replaces an
        earlier one with the same key. ``len(result) < len(pairs)`` tells
        that some key repeated."""
        from .order import key

        entries = {}
        for k, v in pairs:
            _no_missing(v)
            entries[key(k)] = (k, v)
        return cls(entries)

    @classmethod
    def of(cls, mapping):
        """The map of a Python dict (string keys, usually)."""
        return cls.strict(mapping.items())

    def __len__(self):
        return len(self._entries)

    def __contains__(self, k):
        from .order import key

        return key(k) in self._entries

    @classmethod
    def atoms(cls, fields=None, /, **kw):
        """A map whose keys are atoms: ``Map.atoms(a=1, b=2)`` is
        ``%{a: 1, b: 2}``; a dict gives keys that are not Python names,
        ``Map.atoms({"a-b": 1})``. (`Map.of` takes a dict of term keys, so
        its strings are binaries.)

        >>> Map.atoms(a=1, b=None), Map.atoms({"a-b": 1}).keys()
        (Map([(Atom('a'), 1), (Atom('b'), None)]), [Atom('a-b')])
        """
        pairs = list((fields or {}).items()) + list(kw.items())
        return cls.strict([(atom(k), v) for k, v in pairs])

    def get(self, k, default=None):
        """The value under key `k` (matched as Erlang matches map keys), or
        `default` (None) when the map has no such key, as ``dict.get`` and
        as SDK 0.1.0 answered. None is also the term nil, so where a nil
        value and an absent key must differ, ask ``k in m``, pass the
        default (``m.get(k, MISSING)``), or call `find`. (Between SDK 0.1.0
        and 0.2.0 the default was `MISSING` for a while: ports written
        against 0.1.0 then read an absent key as present, and 19
        ``native_preview.build`` cases of one failed; CHANGELOG.md.)

        >>> from ptc_sdk import MISSING
        >>> m = Map.of({"a": None})
        >>> m.get("a"), m.get("b"), m.get("b", MISSING) is MISSING, m.get("b", 0)
        (None, None, True, 0)
        """
        from .order import key

        entry = self._entries.get(key(k))
        return default if entry is None else entry[1]

    def find(self, k):
        """The value under key `k`, or `MISSING` when the map has no such
        key: `get` with the default that cannot be mistaken for nil.

        >>> from ptc_sdk import MISSING
        >>> Map.of({"a": None}).find("a"), Map.of({"a": None}).find("b") is MISSING
        (None, True)
        """
        return self.get(k, MISSING)

    def put(self, k, v):
        """A new map with `k` set to `v` (``Map.put/3``)."""
        from .order import key

        _no_missing(v)
        entries = dict(self._entries)
        entries[key(k)] = (k, v)
        return Map(entries)

    def items(self):
        """The ``(key, value)`` pairs in map key order."""
        if self._sorted is None:
            from .order import key_sort

            self._sorted = key_sort(list(self._entries.values()), key=lambda kv: kv[0])
        return self._sorted

    def keys(self):
        """The keys in map key order."""
        return [k for k, _ in self.items()]

    def values(self):
        """The values in map key order."""
        return [v for _, v in self.items()]

    def __iter__(self):
        return iter(self.keys())

    def __repr__(self):
        return f"Map({self.items()!r})"


class Struct(_Term):
    """A struct other than the four calendar ones: `module` without
    ``Elixir.`` and `fields`, a dict of every field (``__struct__`` aside)
    in defstruct order. Build one with `structs.new` so that omitted fields
    take their defaults."""

    __slots__ = ("module", "fields")

    def __init__(self, module: str, fields: dict):
        self.module = module
        self.fields = fields

    def __getitem__(self, name):
        return self.fields[name]

    def __repr__(self):
        return f"Struct({self.module!r}, {self.fields!r})"


TEMPORAL_KINDS = {
    "date": "Date",
    "time": "Time",
    "datetime": "DateTime",
    "naive_datetime": "NaiveDateTime",
}


class Temporal(_Term):
    """``Date``, ``Time``, ``DateTime`` or ``NaiveDateTime``: the ISO 8601
    text ``to_iso8601/1`` prints (TJ-6) and the parts it holds. `kind` is
    the tag name without ``$`` (date, time, datetime or naive_datetime),
    `iso` the text; the text is checked when the value is made (ValueError
    saying why, as `temporal.parse`), and its parts are attributes named
    as the struct's fields: `year`, `month`, `day` (dates), `hour`,
    `minute`, `second`, `microsecond` (the value) and `precision` (its
    digits, Elixir's ``microsecond: {value, precision}``) (times), and for
    a ``DateTime`` `time_zone` (``"Etc/UTC"`` or the offset text),
    `zone_abbr`, `utc_offset` (seconds) and `std_offset` (0). A part the
    kind lacks is None, so that a year check needs no parsing and cannot
    mistake a ``Time`` for year 0; `parts` is the `temporal.Parts` they
    are read from.

    >>> d = Temporal("datetime", "-0001-12-31T23:00:00.50+05:30")
    >>> d.year, d.month, d.day, d.hour, d.microsecond, d.precision, d.utc_offset, d.time_zone
    (-1, 12, 31, 23, 500000, 2, 19800, '+05:30')
    >>> Temporal("time", "10:00:00").year is None, Temporal("datetime", "2024-01-01T00:00:00Z").time_zone
    (True, 'Etc/UTC')
    >>> Temporal("date", "2023-02-29")
    Traceback (most recent call last):
    ValueError: not an ISO 8601 date as Elixir writes it: '2023-02-29': the day is not -01 to -28 (that month's length) (TJ-6)
    """

    __slots__ = ("kind", "iso", "parts")

    def __init__(self, kind: str, iso: str, _parts=None):
        if kind not in TEMPORAL_KINDS:
            raise ValueError(f"not a temporal kind: {kind!r}")
        if _parts is None:
            from . import temporal

            try:
                _parts = temporal.parse(kind, iso)
            except ValueError as e:
                what = kind.replace("_", " ")
                raise ValueError(f"not an ISO 8601 {what} as Elixir writes it: {iso!r}: {e} (TJ-6)") from None
        self.kind = kind
        self.iso = iso
        self.parts = _parts  # temporal.Parts: every part, 0 where the kind lacks it

    @property
    def module(self) -> str:
        """The struct's module: Date, Time, DateTime or NaiveDateTime."""
        return TEMPORAL_KINDS[self.kind]

    def _date(self, v):
        return None if self.kind == "time" else v

    def _time(self, v):
        return None if self.kind == "date" else v

    def _zone(self, v):
        return v if self.kind == "datetime" else None

    year = property(lambda self: self._date(self.parts.year), doc="The year (negative before year 1); None for a Time.")
    month = property(lambda self: self._date(self.parts.month), doc="The month, 1 to 12; None for a Time.")
    day = property(lambda self: self._date(self.parts.day), doc="The day of the month; None for a Time.")
    hour = property(lambda self: self._time(self.parts.hour), doc="The hour, 0 to 23; None for a Date.")
    minute = property(lambda self: self._time(self.parts.minute), doc="The minute; None for a Date.")
    second = property(lambda self: self._time(self.parts.second), doc="The second; None for a Date.")
    microsecond = property(
        lambda self: self._time(self.parts.microsecond), doc="The microseconds' value; None for a Date."
    )
    precision = property(
        lambda self: self._time(self.parts.precision), doc="The fraction's digits, 0 to 6; None for a Date."
    )
    utc_offset = property(
        lambda self: self._zone(0 if self.parts.offset is None else self.parts.offset[0]),
        doc="A DateTime's offset from UTC in seconds (0 for Z); None for the other kinds.",
    )
    std_offset = property(lambda self: self._zone(0), doc="0 for a DateTime; None for the other kinds.")
    time_zone = property(
        lambda self: self._zone("Etc/UTC" if self.parts.offset is None else self.parts.offset[1]),
        doc="A DateTime's zone: Etc/UTC for Z, else the offset text; None for the other kinds.",
    )
    zone_abbr = property(
        lambda self: self._zone("UTC" if self.parts.offset is None else self.parts.offset[1]),
        doc="A DateTime's zone abbreviation: UTC for Z, else the offset text; None for the other kinds.",
    )

    def __repr__(self):
        return f"Temporal({self.kind!r}, {self.iso!r})"


class Fun(_Term):
    """A function known by the behaviour spec it was decoded from (TJ-8):
    ``Fun(arity=1, returns=t)``, ``Fun(arity=1, raises="msg")`` or
    ``Fun(name="&Mod.fun/1")``."""

    __slots__ = ("arity", "returns", "raises", "name")

    _NO = object()

    def __init__(self, arity=None, returns=_NO, raises=None, name=None):
        if name is not None:
            if arity is not None or returns is not Fun._NO or raises is not None:
                raise ValueError("a named Fun has only a name")
            _, _, n = name.rpartition("/")
            arity = int(n) if n.isdigit() else None
        elif arity is None or (returns is Fun._NO) == (raises is None):
            raise ValueError("a Fun has arity with returns or raises, or a name")
        self.arity = arity
        self.returns = None if returns is Fun._NO else returns
        self.raises = raises
        self.name = name

    @property
    def kind(self) -> str:
        """returns, raises or name: which spec this is."""
        if self.name is not None:
            return "name"
        return "raises" if self.raises is not None else "returns"

    def apply(self, *args):
        """Calls the function as its spec says: the `returns` term, or
        ``RuntimeError`` with the `raises` message. A named capture has no
        behaviour here: calling it fails as calling a module the VM cannot
        load (``UndefinedFunctionError``, LOOSE-5), as the reference does. A
        call with the wrong number of arguments is the port's mistake
        (``TypeError``).

        >>> Fun(arity=1, returns=2).apply(0)
        2
        >>> Fun(name="&:mymod.f/1").apply("a")
        Traceback (most recent call last):
        ptc_sdk.errors.Raised: UndefinedFunctionError: function :mymod.f/1 is undefined (module :mymod is not available)
        """
        if self.name is not None:
            from .elixir.enumerable import _call_capture

            if len(args) == self.arity:
                raise _call_capture(self, len(args))
            raise TypeError(f"cannot call {self.name} with {len(args)} argument(s)")
        if len(args) != self.arity:
            raise TypeError(f"a Fun of arity {self.arity} called with {len(args)} argument(s)")
        if self.raises is not None:
            raise Raised("RuntimeError", self.raises)
        return self.returns

    def __repr__(self):
        if self.name is not None:
            return f"Fun(name={self.name!r})"
        if self.raises is not None:
            return f"Fun(arity={self.arity}, raises={self.raises!r})"
        return f"Fun(arity={self.arity}, returns={self.returns!r})"


OPAQUE_KINDS = ("ref", "pid", "port")


class Opaque(_Term):
    """A reference, pid or port (`kind` ref, pid or port), known by the
    label it was given (TJ-9)."""

    __slots__ = ("kind", "label")

    def __init__(self, kind: str, label: str):
        if kind not in OPAQUE_KINDS:
            raise ValueError(f"not an opaque kind: {kind!r}")
        self.kind = kind
        self.label = label

    def __repr__(self):
        return f"Opaque({self.kind!r}, {self.label!r})"


def is_map(t) -> bool:
    """``is_map/1``: maps, structs and calendar structs."""
    return type(t) in (Map, Struct, Temporal)


def is_binary(t) -> bool:
    """``is_binary/1``."""
    return type(t) in (str, bytes)


def is_atom(t) -> bool:
    """``is_atom/1`` (nil, true and false included)."""
    return atom_name(t) is not None


def concat(*parts):
    """A binary term made of `parts` (``str``, ``bytes``, or binary terms),
    as Elixir's ``<>`` joins binaries: ``str`` when the bytes are valid
    UTF-8, else ``bytes``. Spares a port the ``str``/``bytes`` conversions
    of building text from binaries that need not be UTF-8. A ``str`` part
    may be text with ``surrogateescape`` code points (what `binary_text`,
    ``inspect_text`` and the other ``*_text`` functions give for invalid
    bytes): they are its bytes again, so text and binaries of either kind
    mix. Anything else is a TypeError.

    >>> concat("a", b"\\xc3", b"\\xa9"), concat("x", b"\\xff"), concat(binary_text(b"\\xff"), "!")
    ('aé', b'x\\xff', b'\\xff!')
    """
    out = []
    for i, p in enumerate(parts):
        ty = type(p)
        if ty is str:
            out.append(p.encode("utf-8", "surrogateescape"))
        elif ty is bytes or ty is bytearray or ty is memoryview:
            out.append(bytes(p))
        else:
            raise TypeError(f"concat: part {i} is no binary or text: {p!r}")
    return binary(b"".join(out))


def truthy(t) -> bool:
    """Elixir truthiness: every term is true but nil (None) and false
    (``Atom("nil")`` and ``Atom("false")`` are those atoms too).
    `MISSING` is no term (an absent map key, a left-out argument) and is a
    TypeError rather than true.

    >>> truthy(None), truthy(False), truthy(0), truthy(""), truthy([]), truthy(Atom("false"))
    (False, False, True, True, True, False)
    """
    if t is MISSING:
        raise TypeError("truthy: MISSING is no term (an absent key, as Map.find gives it; Map.get(k) reads one as nil)")
    if t is None or t is False:
        return False
    return type(t) is not Atom or t.name not in ("nil", "false")  # Atom("nil") is nil too
