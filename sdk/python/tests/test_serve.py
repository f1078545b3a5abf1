"""The adapter loop (spec/adapter_protocol.md), driven through in-memory
streams as the harness drives it through pipes."""

import contextlib
import io
import json
import unittest

from _util import ptc_sdk  # noqa: F401
from ptc_sdk import Adapter, Raised, Tuple, Unsupported, serve


class PortError(Exception):
    """A port's own exception class, mapped to an Elixir one."""


def normalize_key(k):
    if type(k) is str:
        return k.replace("-", "_")
    return k


def explode(x):
    raise Raised("ArgumentError", f"bad {x}")


def shrug(x):
    raise Unsupported("hash order past 32 keys")


def port_error(x):
    raise PortError("no such key")


def buggy(x):
    return {}["missing"]


def not_a_term(x):
    return object()


def pair(a, b=0):
    return Tuple((a, b))


OPS = {
    "key_normalizer.normalize_key": normalize_key,
    "t.explode": explode,
    "t.shrug": shrug,
    "t.port_error": port_error,
    "t.buggy": buggy,
    "t.not_a_term": not_a_term,
    "t.pair": pair,
}


def session(text, **kw):
    """Serves `text` (request lines); returns (status, answer lines, stderr)."""
    out, err = io.BytesIO(), io.StringIO()
    kw.setdefault("features", ["atoms", "tuples"])
    with contextlib.redirect_stderr(err):
        status = serve(
            name="test-port",
            version="1",
            ops=OPS,
            raises={PortError: "KeyError"},
            stdin=io.BytesIO(text.encode("utf-8")),
            stdout=out,
            **kw,
        )
    lines = out.getvalue().decode("utf-8").split("\n")
    assert lines[-1] == "", "every answer line ends in a newline"
    return status, lines[:-1], err.getvalue()


def ask(op, args, **kw):
    request = json.dumps({"id": 7, "op": op, "args": args})
    _, lines, err = session(request + "\n", **kw)
    assert len(lines) == 1, (lines, err)
    return json.loads(lines[0])


class HelloTest(unittest.TestCase):
    def test_hello_says_who_and_what(self):
        status, lines, _ = session('{"id":0,"op":"hello","args":[{"protocol":1}]}\n')
        self.assertEqual(status, 0)
        self.assertEqual(
            lines,
            [
                '{"id":0,"ok":{"features":["atoms","tuples"],"language":"python","name":"test-port",'
                '"ops":' + json.dumps(sorted(OPS), separators=(",", ":")) + ',"protocol":1,"version":"1"}}'
            ],
        )

    def test_hello_names_the_release_only_when_the_port_chooses_one(self):
        # AP-18: a port that says nothing is judged at 0.13.0.
        self.assertNotIn("release", Adapter("p", "1", OPS, ["atoms"]).hello())
        hello = Adapter("p", "1", OPS, ["atoms"], release="0.12.0").hello()
        self.assertEqual(hello.get("release"), "0.12.0")
        with self.assertRaisesRegex(ValueError, "unknown release '0.12' \\(did you mean '0.12.0'\\?\\)"):
            Adapter("p", "1", OPS, release="0.12")

    def test_an_unknown_feature_is_refused_at_start(self):
        with self.assertRaisesRegex(ValueError, "unknown feature 'tuple' \\(did you mean 'tuples'\\?\\)"):
            Adapter("p", "1", OPS, ["tuple"])


class AnswerTest(unittest.TestCase):
    def test_ok_is_the_canonical_term(self):
        self.assertEqual(ask("key_normalizer.normalize_key", ["a-b"]), {"id": 7, "ok": "a_b"})
        _, lines, _ = session('{"id":1,"op":"t.pair","args":[{"$atom":"x"},{"b":1,"a":2}]}\n')
        self.assertEqual(lines, ['{"id":1,"ok":{"$tuple":[{"$atom":"x"},{"a":2,"b":1}]}}'])

    def test_raised_unsupported_and_mapped_exceptions(self):
        self.assertEqual(
            ask("t.explode", [1]), {"id": 7, "raised": {"class": "ArgumentError", "message": "bad 1"}}
        )
        self.assertEqual(ask("t.shrug", [1]), {"id": 7, "unsupported": "hash order past 32 keys"})
        self.assertEqual(
            ask("t.port_error", [1]), {"id": 7, "raised": {"class": "KeyError", "message": "no such key"}}
        )

    def test_a_bug_in_the_port_is_a_visible_failure_with_its_traceback(self):
        _, lines, err = session('{"id":3,"op":"t.buggy","args":[1]}\n')
        self.assertEqual(lines, ['{"id":3,"raised":{"class":"python:KeyError","message":"\'missing\'"}}'])
        self.assertIn("Traceback", err)
        answer = ask("t.not_a_term", [1])
        self.assertEqual(answer["raised"]["class"], "python:TypeError")

    def test_unsupported_requests_say_why(self):
        for op, args, why in [
            ("nope", [], 'unknown op "nope"'),
            ("key_normalizer.normalize_key", [], "key_normalizer.normalize_key takes 1 argument(s) (k), got 0"),
            ("t.pair", [1, 2, 3], "t.pair takes 1 to 2 argument(s), got 3"),
            ("t.pair", [1, {"$float": 1.5}], "/args/1: needs feature 'floats', which this port does not declare"),
            (
                "t.pair",
                [1, {"$map": [[{"$tuple": [{"$date": "2024-01-01"}]}, 1]]}],
                "/args/1/$map/0/0: needs feature 'term-keys', which this port does not declare",
            ),
            (
                "t.pair",
                [1, [{"$struct": {"module": "URI", "fields": {}}}]],
                "/args/1/0: needs feature 'structs', which this port does not declare",
            ),
            ("t.pair", [1, {"$atm": "x"}], 'cannot decode request: /args/1: unknown tag "$atm"'),
            ("t.pair", [1, [1.5]], "cannot decode request: /args/1/0: bare number 1.5 is not a term"),
        ]:
            with self.subTest(op=op, args=args):
                answer = ask(op, args)
                self.assertEqual(answer["id"], 7)
                self.assertTrue(answer["unsupported"].startswith(why), answer)
        answer = ask("t.pair", [1, {"$date": "2024-01-01"}], features=["temporal"])
        self.assertEqual(answer["ok"], {"$tuple": [1, {"$date": "2024-01-01"}]})

    def test_partial_arity_is_fine(self):
        self.assertEqual(ask("t.pair", [1])["ok"], {"$tuple": [1, 0]})


class ArityTest(unittest.TestCase):
    def test_a_star_args_wrapper_is_refused_unless_its_arity_is_given(self):
        def logged(*args):
            return normalize_key(*args)

        with self.assertRaisesRegex(ValueError, "'t.logged': 'logged' takes \\*args"):
            Adapter("p", "1", {"t.logged": logged})
        adapter = Adapter("p", "1", {"t.logged": logged}, arity={"t.logged": 1})
        self.assertEqual(adapter.call("t.logged", ["a-b"]), ("ok", "a_b"))
        kind, why = adapter.call("t.logged", ["a", "b"])
        self.assertEqual((kind, why), ("unsupported", "t.logged takes 1 argument(s), got 2"))
        adapter = Adapter("p", "1", {"t.logged": logged}, arity={"t.logged": (1, 2)})
        self.assertEqual(adapter.call("t.logged", [])[1], "t.logged takes 1 to 2 argument(s), got 0")

    def test_functools_wraps_keeps_the_wrapped_arity(self):
        import functools

        @functools.wraps(pair)
        def logged(*args):
            return pair(*args)

        adapter = Adapter("p", "1", {"t.pair": logged})
        self.assertEqual(adapter.call("t.pair", [1, 2, 3])[1], "t.pair takes 1 to 2 argument(s), got 3")

    def test_bad_arities_are_refused(self):
        for arity in ({"t.none": 1}, {"t.pair": (2, 1)}, {"t.pair": "2"}):
            with self.subTest(arity=arity), self.assertRaises(ValueError):
                Adapter("p", "1", {"t.pair": pair}, arity=arity)


class HookTest(unittest.TestCase):
    def test_the_hook_sees_every_request_and_answer(self):
        seen = []
        _, lines, err = session(
            '{"id":0,"op":"hello","args":[{"protocol":1}]}\n'
            '{"id":1,"op":"t.explode","args":[1]}\n'
            '{"id":2,"op":"t.shrug","args":[1]}\n'
            '{"id":3,"op":"t.pair","args":[1]}\n'
            '{"id":4,"op":"t.pair","args":[{"$atm":1}]}\n'
            '{"id":5,"op":"t.nope","args":[]}\n'
            '{"id":6,"op":"bye"}\n',
            hook=lambda op, args, kind, value: seen.append((op, args, kind, value)),
        )
        self.assertEqual(len(lines), 6, err)
        self.assertEqual([(op, kind) for op, _, kind, _ in seen], [
            ("hello", "ok"), ("t.explode", "raised"), ("t.shrug", "unsupported"),
            ("t.pair", "ok"), ("t.pair", "unsupported"), ("t.nope", "unsupported"),
        ])
        self.assertEqual(seen[1][1:], ([1], "raised", ("ArgumentError", "bad 1")))
        self.assertEqual(seen[2][3], "hash order past 32 keys")
        self.assertEqual(seen[3][3], Tuple((1, 0)))
        self.assertIsNone(seen[4][1])
        self.assertIn('unknown tag "$atm"', seen[4][3])

    def test_a_hook_that_raises_changes_no_answer(self):
        def hook(*_):
            raise RuntimeError("log full")

        _, lines, err = session('{"id":1,"op":"t.pair","args":[1]}\n', hook=hook)
        self.assertEqual(lines, ['{"id":1,"ok":{"$tuple":[1,0]}}'])
        self.assertIn("the hook raised", err)
        self.assertIn("log full", err)


class LoopTest(unittest.TestCase):
    def test_answers_in_order_and_stops_at_bye_without_answering_it(self):
        status, lines, _ = session(
            '{"id":1,"op":"key_normalizer.normalize_key","args":["a-b"]}\n\n'
            '{"id":2,"op":"key_normalizer.normalize_key","args":["c-d"]}\r\n'
            '{"id":3,"op":"bye"}\n{"id":4,"op":"hello"}\n'
        )
        self.assertEqual(status, 0)
        self.assertEqual(lines, ['{"id":1,"ok":"a_b"}', '{"id":2,"ok":"c_d"}'])

    def test_a_last_line_without_newline_is_answered(self):
        _, lines, _ = session('{"id":1,"op":"key_normalizer.normalize_key","args":[1]}')
        self.assertEqual(lines, ['{"id":1,"ok":1}'])

    def test_unreadable_lines_get_unsupported_when_their_id_is_readable(self):
        _, lines, err = session(
            '{"id":8,"op":\n'
            "[1]\n"
            '{"id":"x","op":"hello"}\n'
            '{"id":9,"op":"t.pair","args":[1],"extra":1}\n'
            '{"id":10,"op":"t.pair"}\n'
            '{"id":11,"op":"t.pair","args":{}}\n'
            '{"op":"t.pair","args":[{"$atm":1}],"id":12}\n'
        )
        self.assertEqual(
            lines,
            [
                '{"id":8,"unsupported":"cannot decode request: Expecting value: line 1 column 14 (char 13)"}',
                '{"id":9,"unsupported":"cannot decode request: unexpected key \\"extra\\""}',
                '{"id":10,"unsupported":"cannot decode request: no \\"args\\""}',
                '{"id":11,"unsupported":"cannot decode request: \\"args\\" is not an array"}',
                '{"id":12,"unsupported":"cannot decode request: /args/0: unknown tag \\"$atm\\""}',
            ],
        )
        self.assertIn("ignoring a line without a readable id: cannot decode request: not a request object", err)
        self.assertIn('"id" must be a non-negative integer', err)

    def test_invalid_utf8_is_answered_not_fatal(self):
        out = io.BytesIO()
        with contextlib.redirect_stderr(io.StringIO()):
            serve("p", "1", OPS, stdin=io.BytesIO(b'{"id":5,"op":"\xff"}\n'), stdout=out)
        self.assertEqual(out.getvalue(), b'{"id":5,"unsupported":"request line is not UTF-8"}\n')

    def test_big_integers_of_any_size(self):
        digits = "9" * 5000
        answer = ask("key_normalizer.normalize_key", [{"$int": digits}], features=["bigints"])
        self.assertEqual(answer["ok"], {"$int": digits})


if __name__ == "__main__":
    unittest.main()
