"""The adapter loop of protocol v1 (spec/adapter_protocol.md): JSON Lines on
stdin/stdout, answered as the Rust harness's own adapter answers
(``harness/src/subject/serve.rs``).

A port gives its functions by op name and says what it carries::

    from ptc_sdk import serve
    sys.exit(serve(name="my-port", version="0.13.0",
                   ops={"key_normalizer.normalize_key": normalize_key},
                   features=["atoms", "floats"]))

What the loop does for it:

* ``hello``: name, version, language, protocol 1, ops and features (AP-2).
* A request is answered with one line with its id (AP-4), in the order
  read; every line read in one go is answered before one flush, so a
  pipelining harness gets batched writes and a lock-step one its answer
  at once (AP-6).
* The arguments are decoded with `tagged.decode`; an argument that does
  not decode, uses a feature the port did not declare, or does not fit the
  function's parameters, and an unknown op, get ``unsupported`` with the
  reason (the JSON pointer of a bad term included) (AP-5).
* The function's result is written canonically (``ok``); `Raised` becomes
  ``raised`` {class, message}; so do the port's own exception classes
  mapped in ``raises``; `Unsupported` becomes ``unsupported``. Any other
  exception is a bug in the port: its traceback goes to stderr and the
  answer is ``raised`` with class ``python:<ExceptionType>``, a failure the
  report shows rather than a crash.
* A line that is not a request gets ``unsupported`` when its id is
  readable (``{"id": 12, ...``), else a note on stderr (AP-5).
* ``bye`` and the end of input end the loop with status 0 (AP-7).

How many arguments an op takes is read from its function's signature
(``inspect.signature``, which follows ``functools.wraps``): parameters
without a default are required, those with one optional. A parameter
whose default is `MISSING` (``ptc_sdk.MISSING``) receives, when the
request leaves it out, the default ``spec/data/ops.json`` gives for that
argument (``opts=MISSING`` gets ``[]``), since None is the term nil. An
argument count the op does not take is declined naming the op's
arguments (from ``spec/data/ops.json``); an op name that is not the kit's
but close to one is reported on stderr (``did you mean``). A function that
takes ``*args`` says nothing, so `serve` refuses it unless its arity is
given (``arity={"op": 2}`` or ``{"op": (2, 3)}``), rather than skipping the
check.

``release`` names the PtcRunner release the port implements (AP-18): it
is said in ``hello``, and every request is decoded and answered at it
(`ptc_sdk.releases.using`), so the SDK's structs, ``$struct`` decoding,
atom table, ``to_string``, ``inspect``, Jason and exception texts are that
release's. An op the release lacks (``tool.private?`` before 0.13.0,
REL-3) is left out of ``hello`` and answered ``unsupported``, as the
kit's reference at that release answers it, and `serve` says so on
stderr.

``hook(op, args, kind, value)``, when given, sees every request answered
and its answer: `op` (None for a line whose op was unreadable), the
decoded `args` (None when they did not decode), `kind` (``ok``,
``raised`` or ``unsupported``) and `value` (the term, ``(class,
message)``, or the reason): a place to log what the port declines or
raises. An exception in the hook is printed to stderr; the answer stands.

``reach=True`` lists the ``reach`` extension in hello (spec/adapter_protocol.md
AP-19): ``compare`` given the sources of two versions of the port asks,
for each corpus input, which of the functions the diff touches the op's
call reached, and aims its generated inputs there. The SDK answers it by
running the op under ``sys.setprofile`` and naming each function asked
about (``name``, ``Class.name`` or ``module.name``, as ``compare`` names
the function a hunk lies in) whose code was called. Off by default: hello
stays as it was.

``compile=fn`` lists the ``compile`` extension (AP-19): ``compare`` given
the sources of two versions of the port then answers a variant of the
sources (base with some hunks of the diff) without starting the port anew.
``fn(root, paths)`` is called with the directory holding the variant and
the paths (relative to it) of its files that differ from the port's own;
it returns the variant's ops (a mapping like `ops`), or raises:
``Raised("CompileError", why)`` when the variant's files do not build
(``compare`` takes it as a variant that does not build), ``Unsupported``
or any other exception when it cannot answer for it in place (its text is
said, and ``compare`` builds and starts that variant instead). The request is answered with the
ops the variant declares, as hello lists them. Each request starts from
the port's own ops; ``paths == []`` returns to them without calling `fn`.
Off by default.
"""

from __future__ import annotations

import os
import difflib
import inspect
import json
import os
import re
import sys
import traceback

from . import features as _features
from . import ops as _ops
from . import releases as _releases
from ._warn import warn_once
from .ops import MISSING
from .errors import DecodeError, Raised, Unsupported
from .tagged import ImproperList, JObj, decode, encode, improper_reason, json_str, parse, pointer, too_deep
from .terms import Map

PROTOCOL = 1
"""The protocol version this SDK speaks."""

RELEASES = _releases.RELEASES
"""The PtcRunner releases a port can implement (spec/releases.md); a port
that names none is judged as 0.13.0 (AP-18)."""

_ID_RE = re.compile(r'\s*\{\s*"id"\s*:\s*([0-9]+)')


def sniff_id(line: bytes):
    """The id at the start of an otherwise unreadable line (``{"id": 12,
    ...``), as the harness reads it, or None."""
    m = _ID_RE.match(line[:64].decode("utf-8", "ignore"))
    return int(m.group(1)) if m else None


class _BadRequest(Exception):
    """A request line that cannot be read; `id` and `op` when they were read."""

    def __init__(self, why, id_=None, op=None):
        super().__init__(why)
        self.id = id_
        self.op = op


def _arity(op, fun, given=None):
    """(least, most) positional arguments `fun` takes: `given` (an int or a
    pair) when the port says so, else its signature's. A signature with
    ``*args`` (or none Python can read) without `given` is refused."""
    if given is not None:
        least, most = (given, given) if type(given) is int else tuple(given)
        if type(least) is not int or type(most) is not int or not 0 <= least <= most:
            raise ValueError(f"op {op!r}: arity must be n or (least, most), got {given!r}")
        return least, most
    try:
        params = inspect.signature(fun).parameters.values()
    except (TypeError, ValueError):
        raise ValueError(
            f"op {op!r}: cannot read the signature of {fun!r}; give its arity "
            f"(serve(..., arity={{{op!r}: n}}))"
        ) from None
    least, most = 0, 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            raise ValueError(
                f"op {op!r}: {getattr(fun, '__name__', fun)!r} takes *args, so its arity "
                f"cannot be read; give it (serve(..., arity={{{op!r}: n}})) or wrap "
                "with functools.wraps"
            )
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            if p.default is p.empty:
                least += 1
            most += 1
    return least, most


def _missing_defaults(op, fun):
    """``{position: default}`` for the parameters of `fun` whose default is
    `MISSING`: the default ``spec/data/ops.json`` gives that argument."""
    try:
        params = [
            p for p in inspect.signature(fun).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        return {}
    fill = {}
    row = _ops.get(op)
    for i, p in enumerate(params):
        given = row is not None and i < len(row["args"]) and "default" in row["args"][i]
        if p.default is MISSING:
            if not given:
                raise ValueError(
                    f"op {op!r}: parameter {p.name!r} defaults to MISSING, but spec/data/ops.json gives "
                    "no default for that argument"
                )
            fill[i] = row["args"][i]["default"]
        elif p.default is not p.empty and given and not _same_term(p.default, row["args"][i]["default"]):
            # SDK 0.1.0 served such a parameter with its own default, and a
            # port with a sentinel of its own (opts=_UNSET, then opts = []
            # inside) was right; refusing it (as the SDK did for a while
            # before 0.2.0) stopped such ports at start. So the default is
            # kept, as 0.1.0 kept it, and serve says once what it means.
            want = row["args"][i]["default"]
            nil = " (None is the term nil, not a left-out argument)" if p.default is None else ""
            warn_once(
                ("default", op, p.name, getattr(fun, "__module__", None), getattr(fun, "__qualname__", None)),
                f"op {op!r}: parameter {p.name!r} defaults to {_shown(p.default)}{nil}, but a request that "
                f"leaves {row['args'][i]['name']} out means {encode(want)} (spec/data/ops.json); the "
                f"function gets its own default then, as in SDK 0.1.0; write {p.name}=MISSING and serve "
                "passes the op's default",
            )
    return fill


def _shown(v) -> str:
    """`v` as the warning names it: a term as its tagged text, anything
    else (a sentinel ``object()``) by its type, without an address that
    would differ on every run."""
    if v is None:
        return "None"
    try:
        return encode(v)
    except TypeError:
        return f"a value of type {type(v).__name__}, no term"


def _same_term(a, b) -> bool:
    from .order import equal

    try:
        return equal(a, b)
    except TypeError:  # the default is no term
        return False


class Adapter:
    """A port served over protocol v1: see the module's doc and `serve`."""

    def __init__(
        self,
        name,
        version,
        ops,
        features=(),
        language="python",
        raises=None,
        arity=None,
        hook=None,
        release=None,
        reach=False,
        compile=None,
    ):
        if release is None:
            # The release set once for every command: PTC_CONFORMANCE_RELEASE
            # names it to the port, whose hello names it to the harness.
            release = os.environ.get("PTC_CONFORMANCE_RELEASE") or None
        if release is not None:
            _releases.check(release)
        for f in features:
            if f not in _features.ALL:
                close = difflib.get_close_matches(f, _features.ALL, 1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                known = ", ".join(_features.ALL)
                raise ValueError(f"unknown feature {f!r}{hint}; spec/terms.md lists {known}")
        for op, fun in ops.items():
            if not callable(fun):
                raise TypeError(f"op {op!r}: {fun!r} is not callable")
        self.name = name
        self.version = version
        self.language = language
        self.ops = dict(ops)
        self.features = frozenset(features)
        self.raises = dict(raises or {})
        arity = dict(arity or {})
        for op in arity:
            if op not in self.ops:
                raise ValueError(f"arity given for {op!r}, which is not among the ops")
        self._arity = {op: _arity(op, fun, arity.get(op)) for op, fun in self.ops.items()}
        self._fill = {op: _missing_defaults(op, fun) for op, fun in self.ops.items()}
        self.hook = hook
        self.reach = bool(reach)
        if compile is not None and not callable(compile):
            raise TypeError(f"compile: {compile!r} is not callable")
        self.compile = compile
        self._own = (self.ops, self._arity, self._fill)
        self.release = release
        self._rel = _releases.DEFAULT if release is None else release
        self._absent = {}
        for op in self.ops:
            if _ops.get(op) is None:
                close = difflib.get_close_matches(op, _ops.names(_releases.DEFAULT), 1)
                if close:
                    print(f"{name}: op {op!r} is not an op of the kit (spec/data/ops.json); did you mean {close[0]!r}?", file=sys.stderr)
            elif not _ops.exists_at(op, self._rel):
                row = _ops.get(op)
                since = _ops.since(op)
                self._absent[op] = f"{op}: no {row['function']} at release {self._rel} (it came in {since})"
                print(
                    f"{name}: op {op!r} is no op of release {self._rel} (it came in {since}, "
                    "spec/data/ops.json): left out of hello and answered unsupported",
                    file=sys.stderr,
                )

    def hello(self):
        """The ``hello`` answer's term; it names the release only when the
        port chose one (AP-18)."""
        body = {
            "name": self.name,
            "version": self.version,
            "language": self.language,
            "protocol": PROTOCOL,
            "ops": self._declared(),
            "features": sorted(self.features),
        }
        if self.release is not None:
            body["release"] = self.release
        extensions = [e for e, on in (("compile", self.compile is not None), ("reach", self.reach)) if on]
        if extensions:
            body["extensions"] = extensions
        return Map.of(body)

    def compiled(self, root, paths):
        """The ``compile`` extension (AP-19): the variant in `root` whose
        files `paths` differ from the port's answers from now on, or the
        port's own ops again for ``[]``."""
        self.ops, self._arity, self._fill = self._own
        if type(root) is not str or type(paths) is not list or any(type(p) is not str for p in paths):
            return "unsupported", "compile takes a directory and a list of file paths"
        if not paths:
            return "ok", self._declared()
        try:
            ops = dict(self.compile(root, paths))
            for op, fun in ops.items():
                if not callable(fun):
                    raise TypeError(f"op {op!r}: {fun!r} is not callable")
            arity = {op: _arity(op, fun, None) for op, fun in ops.items()}
            fill = {op: _missing_defaults(op, fun) for op, fun in ops.items()}
        except Raised as e:  # Raised("CompileError", why): the variant does not build
            return "raised", (e.cls, e.message)
        except Exception as e:  # the variant is built and started instead
            return "unsupported", f"does not compile in place: {type(e).__name__}: {e}"
        self.ops, self._arity, self._fill = ops, arity, fill
        return "ok", self._declared()

    def _declared(self):
        """The ops hello lists now: what a compile request answers."""
        return sorted(op for op in self.ops if op not in self._absent)

    def traced(self, names, op, args):
        """The ``reach`` extension (AP-19): which of `names` the answer to
        `op` on `args` called, sorted; the answer itself is dropped."""
        if type(names) is not list or any(type(n) is not str for n in names):
            return "unsupported", "reach takes a list of function names, an op and its args"
        if type(op) is not str or type(args) is not list:
            return "unsupported", "reach takes a list of function names, an op and its args"
        wanted = {}
        for n in names:
            last = n.rsplit(".", 1)[-1]
            wanted.setdefault(last, []).append(n)
        seen = set()

        def profile(frame, event, _arg):
            if event != "call":
                return
            code = frame.f_code
            for n in wanted.get(code.co_name, ()):
                if n in seen:
                    continue
                qual = getattr(code, "co_qualname", code.co_name)
                stem = os.path.splitext(os.path.basename(code.co_filename))[0]
                if n == code.co_name or n == qual or qual.endswith("." + n) or n == f"{stem}.{code.co_name}":
                    seen.add(n)

        previous = sys.getprofile()
        sys.setprofile(profile)
        try:
            self.call(op, args)
        finally:
            sys.setprofile(previous)
        return "ok", sorted(seen)

    def call(self, op, args):
        """Answers `op` on decoded `args` at the port's release:
        ``("ok", term)``, ``("raised", (class, message))`` or
        ``("unsupported", why)``."""
        fun = self.ops.get(op)
        if fun is None:
            return "unsupported", f"unknown op {json.dumps(op, ensure_ascii=False)}"
        if op in self._absent:
            return "unsupported", self._absent[op]
        least, most = self._arity[op]
        if not least <= len(args) <= most:
            takes = str(least) if least == most else f"{least} to {most}"
            row = _ops.get(op)
            named = f" ({', '.join(_ops.arg_names(op))})" if row else ""
            return "unsupported", f"{op} takes {takes} argument(s){named}, got {len(args)}"
        fill = self._fill[op]
        if fill and len(args) < most:
            args = list(args) + [fill[i] for i in range(len(args), most) if i in fill]
        missing = _features.first_missing(args, self.features, "/args")
        if missing:
            where, feature = missing
            why = f"{where}: needs feature {feature!r}, which this port does not declare"
            return "unsupported", why
        try:
            with _releases.using(self._rel):
                return "ok", fun(*args)
        except Raised as e:
            return "raised", (e.cls, e.message)
        except Unsupported as e:
            return "unsupported", str(e)
        except RecursionError:
            return "unsupported", "nested too deeply for this port"
        except Exception as e:
            for cls in type(e).__mro__:
                if cls in self.raises:
                    return "raised", (self.raises[cls], str(e))
            return _port_bug(e)

    def answer_line(self, line: bytes):
        """One request line to ``(answer line or None, whether it was bye)``."""
        try:
            id_, op, args = self._read(line)
        except _BadRequest as e:
            id_ = e.id if e.id is not None else sniff_id(line)
            if id_ is None:
                print(f"{self.name}: ignoring a line without a readable id: {e}", file=sys.stderr)
                return None, False
            self._tell(e.op, None, "unsupported", str(e))
            return _line(id_, "unsupported", json_str(str(e))), False
        if op == "bye":
            return None, True
        if op == "hello":
            hello = self.hello()
            self._tell(op, args, "ok", hello)
            return _line(id_, "ok", encode(hello)), False
        if type(args) is not list:
            why = 'cannot decode request: no "args"'
            if args is not None:
                why = 'cannot decode request: "args" is not an array'
            self._tell(op, None, "unsupported", why)
            return _line(id_, "unsupported", json_str(why)), False
        if op == "reach" and self.reach and "reach" not in self.ops:
            if len(args) != 3:
                key, value = "unsupported", "reach takes 3 arguments (names, op, args)"
            else:
                key, value = self.traced(*args)
        elif op == "compile" and self.compile is not None and "compile" not in self.ops:
            if len(args) != 2:
                key, value = "unsupported", "compile takes 2 arguments (a directory, file paths)"
            else:
                key, value = self.compiled(*args)
        else:
            key, value = self.call(op, args)
        if key == "ok":
            try:
                body = encode(value)
            except ImproperList as e:  # TJ-12: no tagged form, so unsupported
                key, value = "unsupported", improper_reason(e.tail)
            except (TypeError, ValueError, RecursionError) as e:
                key, value = _port_bug(e)
        if key == "raised":
            body = f'{{"class":{json_str(value[0])},"message":{json_str(value[1])}}}'
        elif key == "unsupported":
            body = json_str(value)
        self._tell(op, args, key, value)
        return _line(id_, key, body), False

    def _tell(self, op, args, kind, value):
        """Shows the hook a request and its answer."""
        if self.hook is None:
            return
        try:
            self.hook(op, args, kind, value)
        except Exception as e:  # the hook's bug must not change the answer
            print(f"{self.name}: the hook raised:", file=sys.stderr)
            traceback.print_exception(e, file=sys.stderr)

    def _read(self, line: bytes):
        """(id, op, decoded args or None) of a request line."""
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise _BadRequest("request line is not UTF-8") from None
        try:
            request = parse(text)
        except RecursionError:
            why = f"cannot decode request: {too_deep(text, '', 1)}"
            raise _BadRequest(why, sniff_id(line)) from None
        except ValueError as e:
            raise _BadRequest(f"cannot decode request: {e}") from None
        if type(request) is not JObj:
            raise _BadRequest("cannot decode request: not a request object")
        fields = {}
        for k, v in request.pairs:
            if k not in ("id", "op", "args") or k in fields:
                name = json.dumps(k, ensure_ascii=False)
                raise _BadRequest(f"cannot decode request: unexpected key {name}")
            fields[k] = v
        id_, op, args = fields.get("id"), fields.get("op"), fields.get("args")
        if type(id_) is not int or id_ < 0:
            raise _BadRequest('cannot decode request: "id" must be a non-negative integer')
        if type(op) is not str:
            raise _BadRequest('cannot decode request: "op" must be a string')
        if type(args) is list:
            try:
                args = [decode(a, pointer("/args", i), 1, self._rel) for i, a in enumerate(args)]
            except DecodeError as e:
                raise _BadRequest(f"cannot decode request: {e}", id_, op) from None
            except RecursionError:
                why = "cannot decode request: /args: nested too deeply"
                raise _BadRequest(why, id_, op) from None
        return id_, op, args

    def serve(self, stdin=None, stdout=None) -> int:
        """Answers request lines from `stdin` (a binary stream) on `stdout`
        until ``bye`` or end of input; returns the exit status, 0."""
        stdin = stdin if stdin is not None else sys.stdin.buffer
        stdout = stdout if stdout is not None else sys.stdout.buffer
        if hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(0)  # integers of any size, as Erlang's
        read = getattr(stdin, "read1", stdin.read)
        pending = b""
        while True:
            chunk = read(1 << 16)
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop() if chunk else b""
            answers = []
            bye = False
            for raw in lines:
                raw = raw.removesuffix(b"\r")
                if not raw.strip():
                    continue
                answer, bye = self.answer_line(raw)
                if answer is not None:
                    answers.append(answer)
                if bye:
                    break
            if answers:
                stdout.write(("\n".join(answers) + "\n").encode("utf-8"))
            stdout.flush()
            if bye or not chunk:
                return 0


def _line(id_, key, body) -> str:
    return f'{{"id":{id_},"{key}":{body}}}'


def _port_bug(e):
    traceback.print_exception(e, file=sys.stderr)
    return "raised", (f"python:{type(e).__name__}", str(e))


def serve(
    name,
    version,
    ops,
    features=(),
    language="python",
    raises=None,
    stdin=None,
    stdout=None,
    arity=None,
    hook=None,
    release=None,
    reach=False,
    compile=None,
) -> int:
    """Serves a port over protocol v1 until ``bye``; returns the exit status.

    `ops` maps op names (``ptc-conformance list`` shows them) to functions
    taking the decoded arguments and returning a term; `features` are those
    of spec/terms.md the port carries; `raises` maps the port's own
    exception classes to the Elixir exception they stand for
    (``{KeyError: "KeyError"}``; the message is ``str(e)``); `arity` gives
    an op's argument count (n or (least, most)) where its signature cannot
    (``*args``); `hook(op, args, kind, value)` sees every answer; `release`
    is the PtcRunner release the port implements (one of `RELEASES`), said
    in hello so that ``ptc-conformance run`` judges it at that release, and
    the release every request is decoded and answered at; None (the
    default) says nothing, and the port is judged and answered at 0.13.0;
    `reach` lists the ``reach`` extension and `compile` (a function) the
    ``compile`` extension (AP-19, see the module's text)."""
    adapter = Adapter(name, version, ops, features, language, raises, arity, hook, release, reach, compile)
    return adapter.serve(stdin, stdout)
