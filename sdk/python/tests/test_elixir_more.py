"""The rest of the Elixir layer held to Elixir 1.18.4 itself: the 9,200
seeded cases of ``sdk/testdata/elixir_cases.json`` (made by
``sdk/testdata/elixir_cases.exs``, which says how to read them), each
answered by the SDK's function and compared exactly (class and message of
an exception too); the DateTime parsing also against the reference's
``protocol.atomize_value`` (JH-9) when a ptc-conformance binary is built.
And every public function's example (doctests of the modules) runs here.
"""

import doctest
import json
import subprocess
import unittest

from _util import REPO, rust_binary  # noqa: F401
from ptc_sdk import Raised, Tuple, decode, encode, equal, parse, sort_binaries, truthy
from ptc_sdk.elixir import atoms, datetime, enumerable, graphemes, jason, keyword, lists, maps, strings
from ptc_sdk.elixir.lists import Improper
from ptc_sdk.terms import Atom

CASES = REPO / "sdk" / "testdata" / "elixir_cases.json"


def term(v):
    """A case's term: tagged term JSON, or ``{"$improper": [items, tail]}``."""
    if type(v) is dict and list(v) == ["$improper"]:
        items, tail = v["$improper"]
        return Improper([term(i) for i in items], term(tail))
    if type(v) is list:
        return [term(i) for i in v]
    if type(v) is dict and list(v) == ["$tuple"]:
        from ptc_sdk import Tuple

        return Tuple([term(i) for i in v["$tuple"]])
    return decode(parse(json.dumps(v)))


def name(a):
    """An atom argument's name (``nil`` for None)."""
    from ptc_sdk import atom_name

    return atom_name(a)


FUNS = {
    "append": lambda a, b: lists.append(a, b),
    "flat_map": lambda items, results: lists.flat_map(items, lambda i: results[i]),
    "mapset_member": maps.member,
    "keyword_get": lambda k, key: keyword.get(k, name(key)),
    "keyword_fetch": lambda k, key: keyword.fetch(k, name(key)),
    "keyword_fetch!": lambda k, key: keyword.fetch_bang(k, name(key)),
    "keyword_take": lambda k, keys: keyword.take(k, [name(x) for x in keys]),
    "map_get": maps.get,
    "map_has_key": maps.has_key,
    "dot": lambda m, f: maps.dot(m, name(f)),
    "map_new": maps.new,
    "trim": strings.trim,
    "take": enumerable.take,
    "to_existing_atom": atoms.to_existing_atom,
    "datetime": lambda s: (lambda t: None if t is None else t.iso)(datetime.from_iso8601_utc(s)),
    "string_slice": lambda s, start, length: graphemes.slice(s, start, length),
    "cut": lambda s, limit: Tuple(graphemes.cut(s, limit)),
    "sort_by": lambda t: enumerable.sort_by(t, lambda p: p.items[1]),
    "sort_binaries": sort_binaries,
    "truthy": truthy,
    "map_keys": maps.keys,
}


def answer(fun, args):
    try:
        if fun == "jason_encode":
            kind, v = jason.try_encode(args[0])
            return ("ok", v) if kind == "ok" else ("error", (v.cls, v.message))
        return "ok", FUNS[fun](*args)
    except Raised as e:
        return "raised", (e.cls, e.message)


def expected(case):
    for kind in ("ok", "error", "raised"):
        if kind in case:
            v = case[kind]
            if kind == "ok":
                return kind, (v if case["fun"] == "jason_encode" else term(v))
            return kind, (v["class"], v["message"])
    raise ValueError(f"a case without an answer: {case}")


def same(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "ok" and not isinstance(a[1], str | bytes):
        return equal(a[1], b[1]) if type(a[1]) is not Improper else a[1] == b[1]
    return a[1] == b[1]


class ElixirCasesTest(unittest.TestCase):
    def test_every_case_answers_as_elixir(self):
        cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
        self.assertGreater(len(cases), 6000)
        funs = {c["fun"] for c in cases}
        self.assertEqual(funs, set(FUNS) | {"jason_encode"})
        differ = []
        gaps = 0
        for c in cases:
            args = [term(a) for a in c["args"]]
            mine, want = answer(c["fun"], args), expected(c)
            if "gap" in c:
                # Elixir raised ArgumentError where the reference reads on (the row's reason), and so does the SDK.
                gaps += 1
                if mine[0] == "raised" and mine[1][0] == "ArgumentError":
                    differ.append(f"{c['fun']} {json.dumps(c['args'])[:300]}\n  sdk    {mine!r:.400}\n  gap    {c['gap']}")
                continue
            if not same(mine, want):
                differ.append(f"{c['fun']} {json.dumps(c['args'])[:300]}\n  sdk    {mine!r:.400}\n  elixir {want!r:.400}")
        if differ:
            self.fail(f"{len(differ)} of {len(cases)} differ:\n" + "\n".join(differ[:10]))
        self.assertTrue(0 < gaps < 100, f"{gaps} rows of a known gap")

    def test_datetime_answers_as_the_reference(self):
        """JH-9 through the reference: atomize_value(s, :datetime) of the
        cases' texts and of each with one byte changed."""
        binary = rust_binary()
        if binary is None:
            self.skipTest("no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)")
        cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
        texts = [c["args"][0] for c in cases if c["fun"] == "datetime"]
        texts += [t[:i] + ch + t[i + 1 :] for t in texts[:200] for i, ch in ((5, "1"), (len(t) - 1, "0"), (11, "2"))]
        lines = [
            f'{{"id":{i},"op":"protocol.atomize_value","args":[{encode(t)},{{"$atom":"datetime"}}]}}'
            for i, t in enumerate(texts)
        ]
        out = subprocess.run(
            [binary, "adapter"], input="\n".join(lines) + "\n", capture_output=True, encoding="utf-8", timeout=300, check=True
        ).stdout.split("\n")[:-1]
        self.assertEqual(len(out), len(texts))
        parsed = 0
        for t, line in zip(texts, out):
            got = json.loads(line)["ok"]
            mine = datetime.from_iso8601_utc(t)
            want = got["$datetime"] if type(got) is dict else None
            parsed += want is not None
            self.assertEqual(None if mine is None else mine.iso, want, t)
        self.assertGreater(parsed, 100)


def load_tests(loader, tests, ignore):
    from ptc_sdk import order, terms

    for mod in (atoms, datetime, enumerable, graphemes, jason, keyword, lists, maps, order, strings, terms):
        tests.addTests(doctest.DocTestSuite(mod, optionflags=doctest.ELLIPSIS))
    return tests


if __name__ == "__main__":
    unittest.main()
