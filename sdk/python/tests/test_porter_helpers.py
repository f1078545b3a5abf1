"""The helpers a clean-room port had to write itself (issue 42), held to
the Rust reference on generated inputs, each as the reference shows it
through an op:

* ``elixir.atoms.held`` (JH-6's walk): ``protocol.atomize_value`` of a map
  whose binary keys are candidate names, typed by a list holding the
  generated terms, turns exactly the held names (and the guaranteed ones,
  left out of the candidates) into atoms;
* ``elixir.errors.match_error``: ``protocol.validate_return`` with an
  arity-2 function in place of a map's fields, whose accumulator is the
  generated term, raises that ``MatchError`` at each release;
* ``Temporal``'s parts: ``term.inspect`` of a calendar value is rebuilt
  from `year` ... `zone_abbr` alone;
* binaries of either kind: ``inspect``, ``to_string`` and Jason's text of
  a term whose every binary is ``bytes`` are the reference's answers for
  that term, and the text functions answer alike for both kinds;
* `MISSING`: where nil is meant, it is refused;
* ``graphemes.cut``, `truthy`, ``maps.keys`` and `sort_binaries`:
  ``protocol.render_success_from_step`` cuts the printed text at a
  ``feedback_max_chars`` of any term (PP-102, PP-105: compared by term
  order, sliced with ``String.slice/3``'s guards), carries the memory
  exactly when ``include_memory`` is truthy, shows its block only then and
  for a memory that is no empty map (PP-104), and lists ``stored_keys`` as
  ``Map.keys/1`` through ``to_string/1`` in byte order (PP-110);
* ``enumerable.sort_by``: ``exposure.filter_by_expose`` of a map of tools
  gives them in ``Enum.sort_by/2`` order of keys that tie in term order
  (``1`` and ``1.0``, ``{1}`` and ``{1.0}``).

One ``ptc-conformance adapter --release R`` process per release answers
every request, pipelined; needs a built binary ($PTC_CONFORMANCE_BIN, or
target/release or target/debug), else the reference parts are skipped and
say so.
"""

import json
import os
import random
import re
import subprocess
import unittest

from _util import ptc_sdk, rust_binary  # noqa: F401
import ptc_sdk.features  # noqa: E402
from _terms import _ATOMS, _CAPTURE_FUNCTIONS, _CAPTURE_MODULES, Gen  # noqa: E402
from ptc_sdk import (
    MISSING,
    Adapter,
    Atom,
    Fun,
    Map,
    Raised,
    Struct,
    Temporal,
    Tuple,
    atom,
    binary,
    binary_text,
    compare,
    decode,
    decode_text,
    encode,
    lossy_text,
    structs,
    text_binary,
    sort_binaries,
    to_bytes,
    truthy,
)
from ptc_sdk.elixir import atoms, enumerable, errors, graphemes, identifier, inspect, jason, jason_encode, maps, normalize, strings, to_string
from ptc_sdk.elixir import inspect as _inspect_fn  # noqa: F401
from ptc_sdk.elixir.inspect import atom_literal, classify_atom, escape, inspect_checked, printable, remote_call
from ptc_sdk.elixir.messages import get as template
from ptc_sdk.releases import RELEASES, using
from ptc_sdk.temporal import year_text

SEED = int(os.environ.get("PTC_SDK_SEED", "42"))


def ask(release, requests):
    """The reference's answers, in order, to `requests` ((op, args) pairs),
    from one ``ptc-conformance adapter`` at `release`: each as ("ok", term),
    ("raised", (class, message)) or ("unsupported", why)."""
    binary_path = rust_binary()
    lines = [f'{{"id":{i},"op":{json.dumps(op)},"args":[{",".join(map(encode, args))}]}}' for i, (op, args) in enumerate(requests)]
    lines.append(json.dumps({"id": len(requests), "op": "bye"}))
    done = subprocess.run(
        [binary_path, "adapter", "--release", release],
        input="\n".join(lines) + "\n",
        capture_output=True,
        encoding="utf-8",
        timeout=600,
        check=True,
    )
    answers = []
    for i, line in enumerate(done.stdout.split("\n")[:-1]):
        got = json.loads(line)
        assert got["id"] == i, line[:200]
        if "ok" in got:
            answers.append(("ok", decode_text(json.dumps(got["ok"]))))
        elif "raised" in got:
            answers.append(("raised", (got["raised"]["class"], got["raised"]["message"])))
        else:
            answers.append(("unsupported", got["unsupported"]))
    assert len(answers) == len(requests), done.stderr[-2000:]
    return answers


def needs_reference(test):
    def run(self):
        if rust_binary() is None:
            self.skipTest("no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)")
        test(self)

    run.__name__ = test.__name__
    run.__doc__ = test.__doc__
    return run


def _names_pool(release):
    """Names an atom of a generated term can have: the generator's atoms,
    every struct's module and fields, the calendar structs', captures'."""
    pool = set(_ATOMS)
    for module in structs.modules():
        pool.add("Elixir." + module)
        pool.update(f for f, _ in structs.fields_of(module) or ())
    for module in ("Date", "Time", "DateTime", "NaiveDateTime", "Calendar.ISO"):
        pool.add("Elixir." + module)
    pool.update(
        "calendar year month day hour minute second microsecond time_zone zone_abbr utc_offset std_offset __struct__".split()
    )
    for m in _CAPTURE_MODULES:
        pool.add(m[1:] if m.startswith(":") else "Elixir." + m)
    pool.update(_CAPTURE_FUNCTIONS)
    pool.update(("String", "Elixir.String", "upcase", "lists", "reverse", "Elixir.Enum", "map", "erlang", "+", "Elixir.Foo", "bar"))
    return pool


def as_bytes(t):
    """`t` with every binary written as ``bytes`` (the same term)."""
    ty = type(t)
    if ty is str:
        return t.encode("utf-8")
    if ty is list:
        return [as_bytes(x) for x in t]
    if ty is Tuple:
        return Tuple(as_bytes(x) for x in t)
    if ty is Map:
        return Map.new((as_bytes(k), as_bytes(v)) for k, v in t.items())
    if ty is Struct:
        return Struct(t.module, {k: as_bytes(v) for k, v in t.fields.items()})
    return t


def _result(fun, *args):
    try:
        return "ok", fun(*args)
    except Raised as e:
        return "raised", (e.cls, e.message)


class HeldAtoms(unittest.TestCase):
    @needs_reference
    def test_held_is_the_reference_walk(self):
        """2,000 generated pairs of arguments at each release: the keys
        atomize_value turns into atoms are exactly `held`'s names."""
        for release in RELEASES:
            g = Gen(SEED)
            with using(release):
                pool = _names_pool(release)
                table = atoms.table(release)
                requests, expected = [], []
                for _ in range(2000):
                    args = [g.term(), g.term()]
                    held = atoms.held(*args)
                    names = sorted(n for n in pool | held if n not in table and len(n) <= 255)
                    value = Map.new((n, None) for n in names)
                    requests.append(("protocol.atomize_value", [value, args]))
                    expected.append(Map.new(((atom(n) if n in held else n), None) for n in names))
            answers = ask(release, requests)
            differ = [
                (requests[i][1][1], sorted(set(map(str, expected[i].keys())) ^ set(map(str, a[1].keys()))))
                for i, a in enumerate(answers)
                if a[0] != "ok" or a[1] != expected[i]
            ]
            self.assertFalse(differ, f"{len(differ)} differ at {release}, first: {differ[:3]}")


class MatchErrors(unittest.TestCase):
    @needs_reference
    def test_match_error_is_the_reference_message(self):
        """2,000 generated accumulators that are no 2-tuple at each release:
        validate_return's MatchError is `match_error`'s."""
        for release in RELEASES:
            g = Gen(SEED + 1)
            requests, expected = [], []
            with using(release):
                while len(requests) < 2000:
                    t = g.term()
                    if type(t) is Tuple and len(t) == 2:
                        continue
                    fields = Fun(arity=2, returns=Tuple((Atom("done"), t)))
                    sig = Map.of({Atom("parsed_signature"): Tuple((Atom("signature"), [], Tuple((Atom("map"), fields))))})
                    requests.append(("protocol.validate_return", [sig, Map()]))
                    e = errors.match_error(t)
                    expected.append(("raised", (e.cls, e.message)))
            answers = ask(release, requests)
            differ = [(encode(requests[i][1][0])[:300], expected[i], a) for i, a in enumerate(answers) if a != expected[i]]
            self.assertFalse(differ, f"{len(differ)} differ at {release}, first: {differ[:2]}")

    def test_match_error_raises_as_elixir_writes_it(self):
        with self.assertRaises(Raised) as cm:
            raise errors.match_error([1, Atom("a")])
        self.assertEqual((cm.exception.cls, cm.exception.message), ("MatchError", "no match of right hand side value: [1, :a]"))


def _temporal_gen(r):
    """A calendar value of any kind, year, precision and offset TJ-6 allows."""
    y = r.choice((r.randint(0, 9999), r.randint(-9999, -1), r.randint(10000, 999_999_999), -r.randint(10000, 999_999_999)))
    m = r.randint(1, 12)
    d = r.randint(1, 28 if m == 2 else 30)
    date = f"{year_text(y)}-{m:02d}-{d:02d}"
    p = r.randint(0, 6)
    time = f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"
    if p:
        time += "." + "".join(r.choice("0123456789") for _ in range(p))
    kind = r.choice(("date", "time", "naive_datetime", "datetime"))
    if kind == "date":
        return Temporal(kind, date)
    if kind == "time":
        return Temporal(kind, time)
    if kind == "naive_datetime":
        return Temporal(kind, f"{date}T{time}")
    if r.random() < 0.3:
        return Temporal(kind, f"{date}T{time}Z")
    sign = r.choice("+-")
    h, mi = r.randint(0, 23), r.randint(0, 59)
    if sign == "-" and h == 0 and mi == 0:
        sign = "+"
    return Temporal(kind, f"{date}T{time}{sign}{h:02d}:{mi:02d}")


def _from_parts(t: Temporal) -> str:
    """``inspect/1`` of a calendar value (IN-, Elixir 1.18.4) built from
    its parts alone, never from its text."""
    wide = t.year is not None and not -9999 <= t.year <= 9999
    if t.year is not None:
        date = f"{year_text(t.year)}-{t.month:02d}-{t.day:02d}"
    if t.hour is not None:
        frac = "." + f"{t.microsecond:06d}"[: t.precision] if t.precision else ""
        time = f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}{frac}"
    if t.kind == "date":
        return f"Date.new!({t.year}, {t.month}, {t.day})" if wide else f"~D[{date}]"
    if t.kind == "time":
        return f"~T[{time}]"
    if t.kind == "naive_datetime":
        if wide:
            return f"NaiveDateTime.new!({t.year}, {t.month}, {t.day}, {t.hour}, {t.minute}, {t.second}, {{{t.microsecond}, {t.precision}}})"
        return f"~N[{date} {time}]"
    assert t.std_offset == 0
    if t.time_zone == "Etc/UTC":
        assert (t.utc_offset, t.zone_abbr) == (0, "UTC")
        return f"#DateTime<{date} {time}Z>" if wide else f"~U[{date} {time}Z]"
    o = abs(t.utc_offset)
    offset = f"{'-' if t.utc_offset < 0 else '+'}{o // 3600:02d}:{o % 3600 // 60:02d}"
    return f"#DateTime<{date} {time}{offset} {t.zone_abbr} {t.time_zone}>"


class TemporalParts(unittest.TestCase):
    @needs_reference
    def test_parts_rebuild_the_reference_inspect(self):
        """5,000 calendar values: term.inspect is rebuilt from the parts."""
        import random

        r = random.Random(SEED)
        values = [_temporal_gen(r) for _ in range(5000)]
        answers = ask("0.13.0", [("term.inspect", [t]) for t in values])
        differ = [(t, _from_parts(t), a) for t, a in zip(values, answers, strict=True) if a != ("ok", _from_parts(t))]
        self.assertFalse(differ, f"{len(differ)} differ, first: {differ[:3]}")

    def test_parts_a_kind_lacks_are_none(self):
        t = Temporal("time", "10:00:00.120")
        self.assertEqual((t.year, t.month, t.day, t.utc_offset, t.time_zone), (None,) * 5)
        self.assertEqual((t.hour, t.microsecond, t.precision), (10, 120000, 3))
        d = Temporal("date", "-0004-02-29")
        self.assertEqual((d.year, d.hour, d.std_offset), (-4, None, None))
        self.assertEqual(decode_text('{"$datetime": "2024-01-01T00:00:00-05:30"}').utc_offset, -19800)

    def test_a_text_elixir_does_not_write_is_refused(self):
        for kind, iso in (("date", "2024-1-01"), ("datetime", "2024-01-01T00:00:00-00:00"), ("time", "24:00:00"), ("nope", "x")):
            with self.assertRaises(ValueError):
                Temporal(kind, iso)


class Binaries(unittest.TestCase):
    @needs_reference
    def test_bytes_answer_as_strings_do(self):
        """A term whose every binary is bytes: inspect, to_string and
        Jason's text are the reference's answers for that term."""
        g = Gen(SEED + 2)
        requests, expected = [], []
        for _ in range(3000):
            t = as_bytes(g.term())
            requests.append(("term.inspect", [t]))
            expected.append(_result(inspect_checked, t))
            x = as_bytes(g.chardata() if g.r.random() < 0.5 else g.display_field(1))
            requests.append(("lisp_formatter.format", [Tuple((Atom("symbol"), x))]))
            expected.append(_result(to_string, x))
            m = as_bytes(g.string())
            opts = [Tuple((Atom("result"), t))]
            requests.append(("protocol.render_error", [Atom("fail"), m, opts]))
            expected.append(
                _result(lambda: jason_encode(Map.of({"status": "error", "reason": "fail", "message": m, "feedback": m, "result": t})))
            )
        answers = ask("0.13.0", requests)
        differ = []
        for i, a in enumerate(answers):
            mine = expected[i]
            if mine[0] == "ok":
                mine = ("ok", binary(mine[1]))  # the reference's answer decodes canonically
            if a != mine:
                differ.append((requests[i][0], encode(requests[i][1][0])[:200], mine, a))
        self.assertFalse(differ, f"{len(differ)} of {len(requests)} differ, first: {differ[:3]}")

    def test_text_functions_take_either_kind(self):
        """Every function of the layer that takes a binary answers alike for
        the str and the bytes of generated text, and returns canonical
        binaries (str unless not UTF-8)."""
        g = Gen(SEED + 3)
        funs = {
            "graphemes": graphemes.graphemes,
            "length": graphemes.length,
            "take": lambda b: graphemes.take(b, 2),
            "nfc": normalize.nfc,
            "tokenize": lambda b: repr(identifier.tokenize(b)),
            "trim": strings.trim,
            "printable": printable,
            "escape": lambda b: escape(b, '"', 10),
            "inspect": inspect,
            "to_string": to_string,
            "jason": lambda b: _result(jason.escape_string, b) if type(binary(b)) is str else None,
            "atoms.exists": atoms.exists,
            "render": lambda b: template("bad_map").render(term=b),
            "Raised": lambda b: Raised("X", b).message,
        }
        names = {"atom_literal": atom_literal, "classify_atom": classify_atom, "remote_call": remote_call}
        for _ in range(1500):
            s = g.string() if g.r.random() < 0.7 else g.atom_name()
            b = s.encode("utf-8")
            invalid = g.bytes_()
            for name, f in {**funs, **names}.items():
                self.assertEqual(_canon(f(s)), _canon(f(b)), f"{name}({s!r})")
                self.assertTrue(_is_canonical(f(b)), f"{name}({b!r}) = {f(b)!r}")
            for name, f in funs.items():
                self.assertTrue(_is_canonical(f(invalid)), f"{name}({invalid!r}) = {f(invalid)!r}")

    def test_the_conversions(self):
        self.assertEqual(binary(bytearray(b"\xc3\xa9")), "é")
        self.assertEqual(to_bytes("é"), b"\xc3\xa9")
        self.assertEqual(binary_text(b"a\xff"), "a\udcff")
        self.assertEqual(text_binary("a\udcff"), b"a\xff")
        self.assertEqual(lossy_text(b"a\xff"), "a\ufffd")
        self.assertEqual(encode([b"ok", b"\xff"]), '["ok",{"$bytes":"/w=="}]')
        self.assertEqual(Map.of({"k": 1}).get(b"k"), 1)
        self.assertNotIn("binaries", ptc_sdk.features.used_by(b"ok"))


def _canon(x):
    """A value with its binaries made canonical, to compare answers."""
    if type(x) in (str, bytes):
        return binary(x) if type(x) is bytes else x
    if type(x) in (list, tuple):
        return type(x)(_canon(y) for y in x)
    return x


def _is_canonical(x):
    if type(x) is bytes:
        return type(binary(x)) is bytes
    if type(x) in (list, tuple):
        return all(_is_canonical(y) for y in x)
    return True


class Missing(unittest.TestCase):
    def test_a_default_other_than_missing_is_kept_with_a_warning_printed_once(self):
        # SDK 0.1.0 accepted it and the function got its own default; a
        # while before 0.2.0 serve refused it, which stopped an older port
        # (issue 50). Now it is served as 0.1.0 served it, and said once.
        import contextlib
        import io

        from ptc_sdk import _warn

        unset = object()

        def render_error(reason, message, opts=unset):
            return [] if opts is unset else opts

        def with_none(reason, message, opts=None):
            return opts

        _warn.reset()
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            a = Adapter("p", "1", {"protocol.render_error": render_error}, ["atoms"])
            Adapter("p", "1", {"protocol.render_error": render_error}, ["atoms"])
            b = Adapter("p", "1", {"term.inspect": inspect, "protocol.render_error": with_none}, ["atoms"])
        self.assertEqual(a.call("protocol.render_error", [Atom("r"), "m"]), ("ok", []))
        self.assertEqual(a.call("protocol.render_error", [Atom("r"), "m", [1]]), ("ok", [1]))
        self.assertEqual(b.call("protocol.render_error", [Atom("r"), "m"]), ("ok", None))
        lines = err.getvalue().splitlines()
        self.assertEqual(len(lines), 2, lines)  # once for each function, however many adapters serve it
        for line in lines:
            self.assertIn("ptc_sdk: warning: op 'protocol.render_error': parameter 'opts' defaults to", line)
            self.assertIn("opts=MISSING", line)
            self.assertNotIn(" at 0x", line)
        self.assertIn("defaults to None (None is the term nil", lines[1])

    def test_missing_fills_the_default_and_nil_stays_nil(self):
        def render_error(reason, message, opts=MISSING):
            return opts

        a = Adapter("p", "1", {"protocol.render_error": render_error}, ["atoms"])
        self.assertEqual(a.call("protocol.render_error", [Atom("r"), "m"]), ("ok", []))
        self.assertEqual(a.call("protocol.render_error", [Atom("r"), "m", None]), ("ok", None))

    def test_an_absent_key_is_none_from_get_and_missing_from_find(self):
        # Map.get's absent result is None, as in SDK 0.1.0 (a port of
        # native_preview.build reads a schema's absent type as nil); find
        # tells an absent key from a nil value.
        m = Map.of({"a": None})
        self.assertIsNone(m.get("a"))
        self.assertIsNone(m.get("b"))
        self.assertIs(m.get("b", MISSING), MISSING)
        self.assertIsNone(m.find("a"))
        self.assertIs(m.find("b"), MISSING)

    def test_missing_is_no_term(self):
        for build in (lambda: encode([MISSING]), lambda: Map.of({"a": MISSING}), lambda: Map().put(1, MISSING), lambda: inspect(MISSING)):
            with self.assertRaises(TypeError) as cm:
                build()
            self.assertIn("MISSING is no term", str(cm.exception))
        a = Adapter("p", "1", {"term.inspect": lambda t: [MISSING]})
        line, _ = a.answer_line(b'{"id":1,"op":"term.inspect","args":[1]}')
        self.assertIn('"class":"python:TypeError"', line)
        self.assertIn("MISSING is no term", line)


# Texts whose clusters and bytes decide a cut and a byte order: combining
# marks, CR LF, ZWJ sequences, flags, Hangul, a BMP char above the
# surrogates against an astral one.
_PIECES = ["a", "b", "é", "e\u0301", "\r\n", "\U0001F600", "\U0001F468\u200d\U0001F469", "\U0001F1EB\U0001F1F7",
           "\u1100\u1161\u11a8", "\uffff", "\U00010000", "\ue000", "\u0915\u094d"]
_PRINTLN = re.compile(r'<untrusted_ptc_output source="println">\n(.*?)\n</untrusted_ptc_output>', re.S)


class FromStepHelpers(unittest.TestCase):
    @needs_reference
    def test_cut_truthy_keys_and_byte_order_are_the_reference(self):
        """cut, truthy, maps.keys and sort_binaries through
        render_success_from_step (PP-102, PP-104, PP-105, PP-110)."""
        r = random.Random(SEED + 7)
        text = lambda n: "".join(r.choice(_PIECES) for _ in range(r.randrange(n)))  # noqa: E731
        limits = lambda: r.choice(  # noqa: E731
            [r.randrange(14), r.randrange(14), -1 - r.randrange(3), r.randrange(12) + 0.5, float(r.randrange(12)), Atom("a"),
             None, "3", [51], Tuple((3,)), 2**70, -(2**70)]
        )
        keys = lambda: r.choice([text(4), text(4), Atom(r.choice(["a", "b-c", "ok", "Ω"])), r.randrange(100), r.randrange(4) + 0.5, True, None])  # noqa: E731
        cases = []
        for _ in range(3000):
            memory = Map.new([(keys(), r.randrange(3)) for _ in range(r.randrange(6))])
            include = r.choice([True, False, None, 0, "", [], Atom("x"), 0.0, Tuple(())])
            c = {"text": text(12), "limit": limits(), "memory": memory, "include": include}
            step = structs.new("PtcRunner.Step", prints=[c["text"]], memory=memory)
            opts = [
                Tuple((Atom("include_memory"), include)),
                Tuple((Atom("prior_memory"), memory)),
                Tuple((Atom("format_options"), [Tuple((Atom("feedback_max_chars"), c["limit"]))])),
            ]
            c["args"] = [step, opts]
            cases.append(c)
        answers = ask("0.13.0", [("protocol.render_success_from_step", c["args"]) for c in cases])
        cut_count = raised = 0
        for i, (c, (kind, got)) in enumerate(zip(cases, answers)):
            what = f"case {i}: {c['text']!r} limit {encode(c['limit'])} include_memory {encode(c['include'])} memory {encode(c['memory'])}"
            mine = _result(graphemes.cut, c["text"], c["limit"])
            if kind == "raised" or mine[0] == "raised":
                raised += 1
                self.assertEqual(mine, (kind, got), what)
                continue
            cut_text, was_cut = mine[1]
            cut_count += was_cut
            payload = json.loads(got)
            println = f"{cut_text}\n... (truncated at {to_string(c['limit'])} chars; print specific fields instead)" if was_cut else cut_text
            m = _PRINTLN.search(payload["feedback"])
            self.assertEqual(m.group(1) if m else "", println, what)
            self.assertEqual('<untrusted_ptc_output source="memory">' in payload["feedback"], truthy(c["include"]) and len(c["memory"]) > 0, what)
            self.assertEqual("memory" in payload, truthy(c["include"]), what)
            if "memory" in payload:
                self.assertEqual(payload["memory"]["stored_keys"], sort_binaries([to_string(k) for k in maps.keys(c["memory"])]), what)
        self.assertTrue(cut_count > 100 and raised > 100, f"{cut_count} cut, {raised} raised: the generator should meet both")

    @needs_reference
    def test_sort_by_is_the_reference(self):
        """sort_by through filter_by_expose of a map of tools, keys tying in term order."""
        r = random.Random(SEED + 8)
        pool = [1, 1.0, 0, 0.0, 2, 1.5, Tuple((1,)), Tuple((1.0,)), [1], [1.0], Map.new([(1, 1)]), Map.new([(1.0, 1)]), "a",
                "\U00010000", "\uffff", Atom("a"), None, True]
        cases = []
        for _ in range(2000):
            tools = Map.new([(r.choice(pool), structs.new("PtcRunner.Tool", name=f"t{j}", expose=Atom("native"))) for j in range(r.randrange(9))])
            cases.append(tools)
        answers = ask("0.13.0", [("exposure.filter_by_expose", [t, Tuple((Atom("text"), Atom("content"))), [Atom("native")]]) for t in cases])
        ties = 0
        for tools, (kind, got) in zip(cases, answers):
            mine = [p.items[1] for p in enumerable.sort_by(tools, lambda p: p.items[0])]
            ks = tools.keys()
            ties += any(compare(a, b) == 0 for i, a in enumerate(ks) for b in ks[i + 1 :])
            self.assertEqual((kind, encode(got)), ("ok", encode(mine)), encode(tools))
        self.assertGreater(ties, 200)


if __name__ == "__main__":
    unittest.main()


class Frictions(unittest.TestCase):
    """The frictions issue 50's ports met, each with its helper (0.2.0)."""

    def test_inspect_message_is_always_text(self):
        from ptc_sdk import inspect_message

        self.assertEqual(inspect_message(b"\xff"), "<<255>>")
        self.assertEqual("got: " + inspect_message([Atom("a")]), "got: [:a]")

    def test_an_improper_result_is_unsupported_with_tj12s_reason(self):
        from ptc_sdk import ImproperList, unsupported_improper
        from ptc_sdk.elixir.lists import Improper

        a = Adapter("p", "1", {"term.inspect": lambda t: Tuple((Atom("error"), Improper([1], Atom("t"))))}, ["atoms", "tuples"])
        line, _ = a.answer_line(b'{"id":1,"op":"term.inspect","args":[1]}')
        self.assertEqual(line, '{"id":1,"unsupported":"cannot encode result: improper list tail :t"}')
        with self.assertRaises(ImproperList):
            encode([Improper([1], 2)])
        self.assertEqual(unsupported_improper(2).args[0], "cannot encode result: improper list tail 2")

    def test_atom_keyed_maps(self):
        from ptc_sdk import equal

        self.assertTrue(equal(Map.atoms(a=1, b=2), Map.strict([(Atom("a"), 1), (Atom("b"), 2)])))
        self.assertEqual(Map.atoms({"a-b": 1}).keys(), [Atom("a-b")])

    def test_keyword_find_names_get3_unless_told(self):
        from ptc_sdk.elixir import keyword

        with self.assertRaises(Raised) as cm:
            keyword.find(1, "a")
        self.assertEqual(cm.exception.message, "no function clause matching in Keyword.get/3")

    def test_profiles(self):
        from ptc_sdk import data

        p = data.profiles()
        self.assertEqual(len(p), len(data.load("profiles.json")["profiles"]))
        self.assertTrue(all(type(v) is str and v for v in p.values()))

    def test_the_release_from_the_environment(self):
        import os
        from unittest import mock

        with mock.patch.dict(os.environ, {"PTC_CONFORMANCE_RELEASE": "0.12.0"}):
            self.assertEqual(Adapter("p", "1", {"term.inspect": inspect}).hello().get("release"), "0.12.0")
            self.assertEqual(Adapter("p", "1", {"term.inspect": inspect}, release="0.11.0").hello().get("release"), "0.11.0")
        with mock.patch.dict(os.environ, {"PTC_CONFORMANCE_RELEASE": ""}):
            self.assertNotIn("release", Adapter("p", "1", {"term.inspect": inspect}).hello())
