"""Unit tests for the Python port (standard library only):

    python3 -m unittest discover -s harness/adapters/python -p 'test_*.py'

Expected values are what PtcRunner 0.13.0 on Elixir 1.18.4 / OTP 25 gives.
The term model, the codec, the protocol loop and the Elixir layer (float
texts, inspect, to_string) are the SDK's, tested in sdk/python/tests; here
are the port's own pieces and the port as served.
"""

import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import adapter as A  # noqa: E402  (puts the SDK on sys.path too)
from ptc_sdk import Adapter, Atom, Map, Raised, Tuple, Unsupported, encode  # noqa: E402
from ptc_sdk.tagged import decode_text as dec  # noqa: E402


def m(*pairs):
    return Map.strict(pairs)



class KeyNormalizerTest(unittest.TestCase):
    def test_normalize_key(self):
        self.assertEqual(A.normalize_key(Atom("was-improved")), "was_improved")
        self.assertEqual(A.normalize_key("foo-bar"), "foo_bar")
        self.assertEqual(A.normalize_key(None), "nil")
        self.assertEqual(A.normalize_key(b"\xff-"), b"\xff_")
        self.assertEqual(A.normalize_key(1.5), 1.5)
        self.assertEqual(
            encode(A.normalize_key(Tuple([Atom("a-b")]))), '{"$tuple":[{"$atom":"a-b"}]}'
        )

    def test_normalize_keys_recurses_through_maps_and_lists_only(self):
        t = dec(
            '{"$map":[[{"$atom":"nested"},{"foo-bar":1}],["xs",[{"a-b":{"$tuple":[{"c-d":1}]}}]]]}'
        )
        self.assertEqual(
            encode(A.normalize_keys(t)),
            '{"nested":{"foo_bar":1},"xs":[{"a_b":{"$tuple":[{"c-d":1}]}}]}',
        )

    def test_the_later_key_in_map_key_order_wins(self):
        t = dec('{"$map":[[{"$atom":"a-b"},1],["a_b",2],["a-b",3]]}')
        self.assertEqual(encode(A.normalize_keys(t)), '{"a_b":2}')

    def test_collisions_in_large_maps_are_unsupported(self):
        pairs = [(f"k{i}", i) for i in range(32)] + [(Atom("k0"), -1)]
        with self.assertRaises(Unsupported):
            A.normalize_keys(Map.strict(pairs))
        A.normalize_keys(Map.strict([(f"k{i}", i) for i in range(40)]))  # no collision: fine

    def test_canonical_cache_key(self):
        cases = [
            ('["search",{"$map":[[{"$atom":"q"},"x"]]}]', '{"$tuple":["search",{"q":"x"}]}'),
            (
                '["t",{"n":{"$float":1.0},"m":{"$float":1.5},"z":{"$float":-0.0}}]',
                '{"$tuple":["t",{"m":{"$float":1.5},"n":1,"z":0}]}',
            ),
            ('["t",{"p":{"$tuple":[1,{"$float":2.0}]}}]', '{"$tuple":["t",{"p":[1,2]}]}'),
            (
                '["t",{"b":{"$float":1.0e20}}]',
                '{"$tuple":["t",{"b":{"$int":"100000000000000000000"}}]}',
            ),
            (
                '["t",{"$map":[[{"$float":1.0},1]]}]',
                '{"$tuple":["t",{"$map":[[{"$float":1.0},1]]}]}',
            ),
            ('["t",[1,2,3]]', '{"$tuple":["t",{"$tuple":[{"$atom":"non_map"},[1,2,3]]}]}'),
        ]
        for args, expect in cases:
            with self.subTest(args=args):
                self.assertEqual(encode(A.canonical_cache_key(*dec(args))), expect)

    def test_canonical_cache_key_needs_a_binary_name(self):
        with self.assertRaises(Raised) as cm:
            A.canonical_cache_key(Atom("t"), m())
        self.assertEqual(cm.exception.cls, "FunctionClauseError")
        self.assertEqual(
            cm.exception.message,
            "no function clause matching in PtcRunner.SubAgent.KeyNormalizer.canonical_cache_key/2",
        )


class CacheHintTest(unittest.TestCase):
    def hint(self, args_json):
        return A.cache_hint(*dec(args_json))

    def test_renders_sorted_keywords(self):
        self.assertEqual(
            self.hint(
                '["t",{"$map":[[{"$atom":"q"},"x"],["a-b",[1,{"$float":2.5},null,{"$atom":"k"}]]]}]'
            ),
            'Call lisp_eval and then call (tool/t {:a_b [1 2.5 nil :k] :q "x"}) '
            "to process the full cached result.",
        )

    def test_key_texts_sort_stably(self):
        self.assertEqual(
            self.hint(
                '["t",{"$map":[[1,"i"],["1","s"],[{"$float":1.5},"f"],["1.5","g"],[[49],"l"]]}]'
            ),
            'Call lisp_eval and then call (tool/t {:1 "i" :1 "l" :1 "s" :1.5 "f" :1.5 "g"}) '
            "to process the full cached result.",
        )

    def test_float_keys_use_float_to_string(self):
        self.assertIn(
            "{:-0.0 2 :1.0e-5 2 :1.0e3 1}",
            self.hint(
                '["t",{"$map":[[{"$float":1000.0},1],[{"$float":1e-5},2],[{"$float":-0.0},2]]}]'
            ),
        )

    def test_string_escapes(self):
        self.assertIn(
            '{:a "x\\"y\\\\z\\n\\r\\t\u0001#{"}',
            self.hint('["t",{"a":"x\\"y\\\\z\\n\\r\\t\\u0001#{"}]'),
        )

    def test_binary_parts_give_a_binary(self):
        self.assertEqual(
            A.cache_hint(b"\xff-", m(("a-b", Atom("x-y")))),
            b"Call lisp_eval and then call (tool/\xff- {:a_b :x-y}) "
            b"to process the full cached result.",
        )

    def test_function_clause(self):
        for args in ('[{"$atom":"t"},{}]', '["t",[]]'):
            with self.assertRaises(Raised) as cm:
                self.hint(args)
            self.assertEqual(
                cm.exception.message,
                "no function clause matching in PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2",
            )

    def test_tuple_key(self):
        with self.assertRaises(Raised) as cm:
            self.hint('["t",{"$map":[[{"$tuple":[1,2]},1]]}]')
        self.assertEqual(cm.exception.cls, "Protocol.UndefinedError")
        self.assertTrue(
            cm.exception.message.startswith(
                "protocol String.Chars not implemented for type Tuple. "
            )
        )
        self.assertTrue(
            cm.exception.message.endswith("Version.Requirement\n\nGot value:\n\n    {1, 2}\n")
        )

    def test_list_keys(self):
        cases = [
            ('[104,[105,"\u00e9"]]', None, "h", ":hi\u00e9 1"),
            ("[-1]", "UnicodeConversionError", "invalid code point -1", None),
            ('[55296,{"$atom":"a"}]', "ArgumentError", "got:\n\n[55296, :a]\n", None),
            (
                '[{"$int":"576460752303423488"},{"$atom":"a"}]',
                "UnicodeConversionError",
                "invalid code point 576460752303423488",
                None,
            ),
            ('[{"$bytes":"4g=="},{"$bytes":"gqw="}]', None, None, ":\u20ac 1"),
            (
                '[{"$bytes":"4g=="},{"$bytes":"gg=="}]',
                "UnicodeConversionError",
                "incomplete encoding starting at <<226, 130>>",
                None,
            ),
            (
                '[{"$bytes":"4oKs4g=="},{"$bytes":"QQ=="}]',
                "UnicodeConversionError",
                "invalid encoding starting at <<226, 65>>",
                None,
            ),
            (
                '["a",{"$bytes":"8A=="},{"$bytes":"n5g="},{"$bytes":"QQ=="}]',
                "UnicodeConversionError",
                "invalid encoding starting at <<240, 159, 152>>",
                None,
            ),
            (
                '[{"$bytes":"4g=="},65]',
                "UnicodeConversionError",
                "invalid encoding starting at <<226>>",
                None,
            ),
            (
                '[{"$bytes":"9Q=="}]',
                "UnicodeConversionError",
                "incomplete encoding starting at <<245>>",
                None,
            ),
            (
                '[{"$bytes":"wb8="}]',
                "UnicodeConversionError",
                "invalid encoding starting at <<193, 191>>",
                None,
            ),
        ]
        for key, cls, text, rendered in cases:
            with self.subTest(key=key):
                args = '["t",{"$map":[[' + key + ",1]]}]"
                if cls is None:
                    self.assertIn(rendered, self.hint(args))
                    continue
                with self.assertRaises(Raised) as cm:
                    self.hint(args)
                self.assertEqual(cm.exception.cls, cls)
                self.assertIn(text, cm.exception.message)


class LispFormatterTest(unittest.TestCase):
    def test_nodes(self):
        t = lambda tag, arg: Tuple((Atom(tag), arg))  # noqa: E731
        for ast, text in [
            (None, "nil"),
            (1.5, "1.5"),
            (Atom("infinity"), "##Inf"),
            (t("string", 'a"b\n'), '"a\\"b\\n"'),
            (t("keyword", Atom("k")), ":k"),
            (t("vector", [1, t("symbol", "x")]), "[1 x]"),
            (t("map", [Tuple((1, t("string", "v")))]), '{1 "v"}'),
            (Tuple((Atom("ns_symbol"), "ns", 1)), "ns/1"),
        ]:
            with self.subTest(ast=ast):
                self.assertEqual(A.lisp_format(ast), text)

    def test_no_clause(self):
        for ast in (Atom("x"), Tuple(()), Tuple((Atom("nope"), 1)), Tuple((Atom("string"), 1))):
            with self.subTest(ast=ast), self.assertRaises(Raised) as cm:
                A.lisp_format(ast)
            self.assertEqual(cm.exception.cls, "FunctionClauseError")


class BugSwitchTest(unittest.TestCase):
    def with_bug(self, bug, fun, *args):
        saved = A.BUG
        A.BUG = bug
        try:
            return fun(*args)
        finally:
            A.BUG = saved

    def test_bugs(self):
        args = dec('["t",{"a":{"$float":-0.0},"b":{"$float":1.0e19},"c":1}]')
        self.assertEqual(
            encode(A.canonical_cache_key(*args)),
            '{"$tuple":["t",{"a":0,"b":{"$int":"10000000000000000000"},"c":1}]}',
        )
        self.assertEqual(
            encode(self.with_bug("neg-zero", A.canonical_cache_key, *args)),
            '{"$tuple":["t",{"a":{"$float":-0.0},"b":{"$int":"10000000000000000000"},"c":1}]}',
        )
        self.assertEqual(
            encode(self.with_bug("big-float", A.canonical_cache_key, *args)),
            '{"$tuple":["t",{"a":0,"b":{"$float":1.0e19},"c":1}]}',
        )
        hint = self.with_bug("hint-order", A.cache_hint, "t", m(("a", 1), ("b", 2)))
        self.assertIn("{:b 2 :a 1}", hint)



class ProtocolTest(unittest.TestCase):
    """The port as the SDK serves it: its handshake and its answers."""

    def answer(self, line):
        answer, bye = Adapter(A.NAME, A.VERSION, A.OPS, A.FEATURES).answer_line(line)
        self.assertFalse(bye)
        return answer

    def test_hello(self):
        hello = dec(self.answer(b'{"id":0,"op":"hello","args":[{"protocol":1}]}')).get("ok")
        self.assertEqual(hello.get("protocol"), 1)
        self.assertEqual(hello.get("name"), "ptc_runner-python-port")
        self.assertEqual(hello.get("ops"), sorted(A.OPS))
        self.assertEqual(hello.get("features"), sorted(A.FEATURES))

    def test_answers(self):
        for line, expect in [
            (
                b'{"id":3,"op":"key_normalizer.normalize_key","args":[{"$atom":"a-b"}]}',
                '{"id":3,"ok":"a_b"}',
            ),
            (b'{"id":4,"op":"nope","args":[]}', '{"id":4,"unsupported":"unknown op \\"nope\\""}'),
            (
                b'{"id":4,"op":"key_normalizer.normalize_key","args":[]}',
                '{"id":4,"unsupported":"key_normalizer.normalize_key takes 1 argument(s) (k), got 0"}',
            ),
            (b'{"id":5,"op":"key_normalizer.normalize_key","args":[1.5]}', None),
            (b'{"id":6,"op":"key_normalizer.normalize_key","args":[{"$date":"2024-01-01"}]}', None),
            (
                b'{"id":7,"op":"native_preview.cache_hint","args":["t",[]]}',
                '{"id":7,"raised":{"class":"FunctionClauseError","message":"no function clause '
                'matching in PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2"}}',
            ),
            (b'{"id":8,"op":', None),
        ]:
            with self.subTest(line=line):
                answer = self.answer(line)
                if expect is None:
                    self.assertIn('"unsupported":', answer)
                    self.assertTrue(answer.startswith('{"id":' + line.split(b",")[0][6:].decode()))
                else:
                    self.assertEqual(answer, expect)

    def test_large_maps_whose_order_shows_are_unsupported(self):
        pairs = ",".join(f'["k{i}",{i}]' for i in range(32))
        line = (
            '{"id":9,"op":"key_normalizer.normalize_keys","args":[{"$map":['
            + pairs
            + ',[{"$atom":"k0"},-1]]}]}'
        )
        answer = self.answer(line.encode())
        self.assertTrue(answer.startswith('{"id":9,"unsupported":"keys that collide'), answer)

    def test_serve_answers_in_order_and_stops_at_bye(self):
        out = io.BytesIO()
        status = A.serve(
            name=A.NAME,
            version=A.VERSION,
            ops=A.OPS,
            features=A.FEATURES,
            stdin=io.BytesIO(
                b'{"id":1,"op":"key_normalizer.normalize_key","args":["a-b"]}\n\n'
                b'{"id":2,"op":"bye"}\n{"id":3,"op":"hello"}\n'
            ),
            stdout=out,
        )
        self.assertEqual(status, 0)
        self.assertEqual(out.getvalue(), b'{"id":1,"ok":"a_b"}\n')


if __name__ == "__main__":
    unittest.main()
