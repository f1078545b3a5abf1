"""Unit tests for the Python port (standard library only):

    python3 -m unittest discover harness/adapters/python

Expected values are what PtcRunner 0.13.0 on Elixir 1.18.4 / OTP 25 gives.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import adapter as A  # noqa: E402
from adapter import Atom, TMap, Tuple  # noqa: E402


def dec(text):
    """Tagged term JSON text to a term."""
    return A.decode(A.parse_json(text))


def m(*pairs):
    return TMap.strict(pairs)


class CodecTest(unittest.TestCase):
    def roundtrip(self, text):
        self.assertEqual(A.encode(dec(text)), text)

    def test_scalars_roundtrip(self):
        for text in [
            "null",
            "true",
            "false",
            "0",
            "-9007199254740991",
            '{"$int":"9007199254740992"}',
            '{"$int":"-100000000000000000000000000000"}',
            '{"$float":1.5}',
            '{"$float":-0.0}',
            '{"$float":0.0}',
            '{"$float":1.0e20}',
            '{"$float":1.0e4}',
            '{"$float":1.0e3}',
            '{"$float":100.0}',
            '{"$float":0.0001}',
            '{"$float":1.0e-5}',
            '{"$float":0.30000000000000004}',
            '"h\\u00e9"'.replace("\\u00e9", "\u00e9"),
            '"q\\"b\\\\n\\n\\t\\u0001"',
            '{"$bytes":"/y0="}',
            '{"$atom":"a-b"}',
            '{"$tuple":[1,{"$atom":"x"},[]]}',
            '{"$kw":[["a",1],["nil",2]]}',
            '[{"$tuple":[1,2]}]',
        ]:
            with self.subTest(text=text):
                self.roundtrip(text)

    def test_special_atoms_are_none_true_false(self):
        self.assertIsNone(dec('{"$atom":"nil"}'))
        self.assertIs(dec('{"$atom":"true"}'), True)
        self.assertEqual(A.encode(dec('{"$kw":[["false",1]]}')), '{"$kw":[["false",1]]}')

    def test_valid_utf8_bytes_are_strings(self):
        self.assertEqual(dec('{"$bytes":"aMOp"}'), "h\u00e9")
        self.assertEqual(dec('{"$bytes":"/w=="}'), b"\xff")

    def test_integer_literal_in_float_tag(self):
        x = dec('{"$float":3}')
        self.assertIs(type(x), float)
        self.assertEqual(A.encode(x), '{"$float":3.0}')

    def test_maps_encode_in_map_key_order(self):
        t = dec(
            '{"$map":[["b",1],[{"$float":1.0},2],[{"$atom":"z"},3],[2,4],'
            '[{"$tuple":[1]},5],[[1],6],[{"$atom":"a"},7],[-5,8],["a",9]]}'
        )
        self.assertEqual(
            A.encode(t),
            '{"$map":[[-5,8],[2,4],[{"$float":1.0},2],[{"$atom":"a"},7],[{"$atom":"z"},3],'
            '[{"$tuple":[1]},5],[[1],6],["a",9],["b",1]]}',
        )

    def test_plain_object_only_for_string_keys_without_dollar(self):
        self.assertEqual(A.encode(dec('{"b":1,"a":2}')), '{"a":2,"b":1}')
        self.assertEqual(A.encode(dec('{"$map":[["$x",1]]}')), '{"$map":[["$x",1]]}')
        self.assertEqual(A.encode(dec('{"$map":[["a",1]]}')), '{"a":1}')

    def test_decode_errors(self):
        for text, what in [
            ("1.5", "bare number"),
            ('{"$float":"1.5"}', "$float"),
            ('{"$atm":"a"}', "unknown tag"),
            ('{"a":1,"a":2}', "duplicate"),
            ('{"$map":[[1,1],[1,2]]}', "duplicate"),
            ('{"$map":[[{"$float":0.0},1],[{"$float":-0.0},2]]}', "duplicate"),
            ('{"a":1,"$b":2}', "starts with $"),
            ('{"$atom":"a","x":1}', "exactly one key"),
            ('{"$int":"1.0"}', "$int"),
            ('{"$int":"1_000"}', "$int"),
            ('{"$bytes":"!!"}', "base64"),
            ('"\\ud800"', "surrogate"),
            ('{"$atom":"' + "a" * 256 + '"}', "255"),
            ("[" * 130 + "]" * 130, "deeper"),
        ]:
            with self.subTest(text=text[:40]):
                with self.assertRaises(A.DecodeError) as cm:
                    dec(text)
                self.assertIn(what, str(cm.exception))

    def test_error_names_the_path(self):
        with self.assertRaises(A.DecodeError) as cm:
            A.decode(A.parse_json('{"$map":[[1,{"$atm":"x"}]]}'), "/args/0")
        self.assertTrue(str(cm.exception).startswith("/args/0/$map/0/1: unknown tag"))

    def test_features_not_carried(self):
        with self.assertRaises(A.NotCarried):
            dec('{"$struct":{"module":"PtcRunner.Tool","fields":{}}}')

    def test_nan_is_not_json(self):
        with self.assertRaises(ValueError):
            A.parse_json('{"$float":NaN}')


class TermModelTest(unittest.TestCase):
    def test_exact_equality(self):
        self.assertFalse(A.term_equal(1, 1.0))
        self.assertTrue(A.term_equal(0.0, -0.0))
        self.assertFalse(A.term_equal(True, 1))
        self.assertFalse(A.term_equal(None, Atom("nil")) and False)
        self.assertTrue(A.term_equal(m(("a", 1), (2, [1])), m((2, [1]), ("a", 1))))
        self.assertFalse(A.term_equal([1], Tuple([1])))

    def test_int_and_float_keys_are_different(self):
        t = m((1, "i"), (1.0, "f"))
        self.assertEqual(len(t), 2)

    def test_term_order(self):
        keys = [b"\xff", "a", [1], m(), Tuple([2]), Tuple([1, 1]), Atom("b"), None, 2.5, 3, -1]
        got = sorted(keys, key=A.functools.cmp_to_key(A.term_cmp))
        expect = [-1, 3, 2.5, Atom("b"), None, Tuple([2]), Tuple([1, 1]), m(), [1], "a", b"\xff"]
        self.assertEqual(A.encode(got), A.encode(expect))

    def test_maps_compare_by_size_then_keys_then_values(self):
        self.assertEqual(A.term_cmp(m((9, 9)), m((1, 1), (2, 2))), -1)
        self.assertEqual(A.term_cmp(m((1, 2)), m((2, 1))), -1)
        self.assertEqual(A.term_cmp(m((1, 2)), m((1, 1))), 1)


class FloatTextTest(unittest.TestCase):
    def test_short_float(self):
        for x, text in [
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (100.0, "100.0"),
            (1000.0, "1.0e3"),
            (1234.0, "1234.0"),
            (123400.0, "1.234e5"),
            (1.0e15, "1.0e15"),
            (1234567890123456.0, "1234567890123456.0"),
            (9007199254740991.0, "9007199254740991.0"),
            (9007199254740992.0, "9.007199254740992e15"),
            (1.0e20, "1.0e20"),
            (0.001234, "0.001234"),
            (0.0001, "0.0001"),
            (1.2e-4, "1.2e-4"),
            (1.0e-5, "1.0e-5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5.0e-324"),
        ]:
            with self.subTest(x=x):
                self.assertEqual(A.short_float(x), text)

    def test_compact_float(self):
        for x, text in [
            (1.5, "1.5"),
            (0.1, "0.1"),
            (1.0e-10, "0.0000000001"),
            (5.0e-11, "0.0000000001"),
            (4.9e-11, "0.0"),
            (-1.0e-11, "-0.0"),
            (-0.0, "-0.0"),
            (123456789.123456789, "123456789.123456791"),
            (0.99999999995, "1.0"),
            (1.0e20, "100000000000000000000.0"),
        ]:
            with self.subTest(x=x):
                self.assertEqual(A.compact_float(x), text)

    def test_compact_float_too_long(self):
        with self.assertRaises(A.Raised) as cm:
            A.compact_float(1.0e250)
        self.assertEqual(cm.exception.cls, "ArgumentError")

    def test_inspect_float(self):
        self.assertEqual(A.inspect(1000.0), "1000.0")
        self.assertEqual(A.inspect(1.0e16), "1.0e16")
        self.assertEqual(A.inspect(0.5), "0.5")


class InspectTest(unittest.TestCase):
    def test_atoms(self):
        for name, literal, key in [
            ("foo", ":foo", "foo:"),
            ("foo?", ":foo?", "foo?:"),
            ("a-b", ':"a-b"', '"a-b":'),
            ("Foo", ":Foo", "Foo:"),
            ("Elixir.Foo.Bar", "Foo.Bar", '"Elixir.Foo.Bar":'),
            ("Foo.Bar", ':"Foo.Bar"', '"Foo.Bar":'),
            ("", ':""', '"":'),
            ("+", ":+", "+:"),
            ("::", ':"::"', '"::":'),
            ("%{}", ":%{}", "%{}:"),
            ("a@b", ":a@b", "a@b:"),
            ("nil", "nil", "nil:"),
            ('a"b', ':"a\\"b"', '"a\\"b":'),
            ("\u00e9cole", ":\u00e9cole", "\u00e9cole:"),
        ]:
            with self.subTest(name=name):
                self.assertEqual(A.inspect_atom(name), literal)
                self.assertEqual(A.inspect_atom(name, key=True), key)

    def test_strings_and_binaries(self):
        self.assertEqual(A.inspect('a"b\\c\n#{x}\u2028'), '"a\\"b\\\\c\\n\\#{x}\\u2028"')
        self.assertEqual(A.inspect("a\u0001"), "<<97, 1>>")
        self.assertEqual(A.inspect(b"\xff"), "<<255>>")
        self.assertEqual(
            A.inspect(bytes(range(128, 180))),
            "<<" + ", ".join(map(str, range(128, 178))) + ", ...>>",
        )

    def test_lists(self):
        self.assertEqual(A.inspect([104, 105]), '~c"hi"')
        self.assertEqual(
            A.inspect([Tuple((Atom("a"), 1)), Tuple((Atom("b-c"), 2))]), '[a: 1, "b-c": 2]'
        )
        self.assertEqual(
            A.inspect(list(range(100, 160))), "[" + ", ".join(map(str, range(100, 150))) + ", ...]"
        )
        self.assertEqual(A.inspect([1, [2, Tuple([])], m()]), "[1, [2, {}], %{}]")

    def test_maps(self):
        self.assertEqual(A.inspect(m((Atom("a"), 1), (Atom("b"), "x"))), '%{a: 1, b: "x"}')
        self.assertEqual(A.inspect(m((1, 2), ("k", None))), '%{1 => 2, "k" => nil}')

    def test_pretty(self):
        t = Tuple(["a" * 30, "b" * 30, m((Atom("key"), list(range(10))))])
        self.assertEqual(
            A.inspect(t, pretty=True),
            '{"' + "a" * 30 + '", "' + "b" * 30 + '",\n %{key: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}}',
        )


class KeyNormalizerTest(unittest.TestCase):
    def test_normalize_key(self):
        self.assertEqual(A.normalize_key(Atom("was-improved")), "was_improved")
        self.assertEqual(A.normalize_key("foo-bar"), "foo_bar")
        self.assertEqual(A.normalize_key(None), "nil")
        self.assertEqual(A.normalize_key(b"\xff-"), b"\xff_")
        self.assertEqual(A.normalize_key(1.5), 1.5)
        self.assertEqual(
            A.encode(A.normalize_key(Tuple([Atom("a-b")]))), '{"$tuple":[{"$atom":"a-b"}]}'
        )

    def test_normalize_keys_recurses_through_maps_and_lists_only(self):
        t = dec(
            '{"$map":[[{"$atom":"nested"},{"foo-bar":1}],["xs",[{"a-b":{"$tuple":[{"c-d":1}]}}]]]}'
        )
        self.assertEqual(
            A.encode(A.normalize_keys(t)),
            '{"nested":{"foo_bar":1},"xs":[{"a_b":{"$tuple":[{"c-d":1}]}}]}',
        )

    def test_the_later_key_in_map_key_order_wins(self):
        t = dec('{"$map":[[{"$atom":"a-b"},1],["a_b",2],["a-b",3]]}')
        self.assertEqual(A.encode(A.normalize_keys(t)), '{"a_b":2}')

    def test_collisions_in_large_maps_are_unsupported(self):
        pairs = [(f"k{i}", i) for i in range(32)] + [(Atom("k0"), -1)]
        with self.assertRaises(A.Unsupported):
            A.normalize_keys(TMap.strict(pairs))
        A.normalize_keys(TMap.strict([(f"k{i}", i) for i in range(40)]))  # no collision: fine

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
                self.assertEqual(A.encode(A.canonical_cache_key(*dec(args))), expect)

    def test_canonical_cache_key_needs_a_binary_name(self):
        with self.assertRaises(A.Raised) as cm:
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
            with self.assertRaises(A.Raised) as cm:
                self.hint(args)
            self.assertEqual(
                cm.exception.message,
                "no function clause matching in PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2",
            )

    def test_tuple_key(self):
        with self.assertRaises(A.Raised) as cm:
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
                '[576460752303423488,{"$atom":"a"}]',
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
                with self.assertRaises(A.Raised) as cm:
                    self.hint(args)
                self.assertEqual(cm.exception.cls, cls)
                self.assertIn(text, cm.exception.message)


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
            A.encode(A.canonical_cache_key(*args)),
            '{"$tuple":["t",{"a":0,"b":{"$int":"10000000000000000000"},"c":1}]}',
        )
        self.assertEqual(
            A.encode(self.with_bug("neg-zero", A.canonical_cache_key, *args)),
            '{"$tuple":["t",{"a":{"$float":-0.0},"b":{"$int":"10000000000000000000"},"c":1}]}',
        )
        self.assertEqual(
            A.encode(self.with_bug("big-float", A.canonical_cache_key, *args)),
            '{"$tuple":["t",{"a":0,"b":{"$float":1.0e19},"c":1}]}',
        )
        hint = self.with_bug("hint-order", A.cache_hint, "t", m(("a", 1), ("b", 2)))
        self.assertIn("{:b 2 :a 1}", hint)


class ProtocolTest(unittest.TestCase):
    def test_hello(self):
        answer, bye = A.handle(b'{"id":0,"op":"hello","args":[{"protocol":1}]}')
        self.assertFalse(bye)
        hello = A.parse_json(answer)
        ok = dict(dict(hello.pairs)["ok"].pairs)
        self.assertEqual(ok["protocol"], 1)
        self.assertEqual(ok["ops"], sorted(A.OPS))
        self.assertEqual(ok["features"], sorted(A.FEATURES))

    def test_answers(self):
        for line, expect in [
            (
                b'{"id":3,"op":"key_normalizer.normalize_key","args":[{"$atom":"a-b"}]}',
                '{"id":3,"ok":"a_b"}',
            ),
            (
                b'{"id":"x","op":"nope","args":[]}',
                '{"id":"x","unsupported":"unknown op \\"nope\\""}',
            ),
            (
                b'{"id":4,"op":"key_normalizer.normalize_key","args":[]}',
                '{"id":4,"unsupported":"key_normalizer.normalize_key takes 1 argument(s), got 0"}',
            ),
            (b'{"id":5,"op":"key_normalizer.normalize_key","args":[1.5]}', None),
            (b'{"id":6,"op":"key_normalizer.normalize_key","args":[{"$date":"2024-01-01"}]}', None),
            (
                b'{"id":7,"op":"native_preview.cache_hint","args":["t",[]]}',
                '{"id":7,"raised":{"class":"FunctionClauseError","message":"no function clause '
                'matching in PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2"}}',
            ),
            (b'{"id":8,"op":', None),
            (b"[1]", '{"id":null,"unsupported":"request line is not a JSON object"}'),
        ]:
            with self.subTest(line=line):
                answer, bye = A.handle(line)
                self.assertFalse(bye)
                if expect is None:
                    self.assertIn('"unsupported":', answer)
                    self.assertTrue(answer.startswith('{"id":' + line.split(b",")[0][6:].decode()))
                else:
                    self.assertEqual(answer, expect)

    def test_serve_answers_in_order_and_stops_at_bye(self):
        r, w = os.pipe()
        os.write(
            w,
            b'{"id":1,"op":"key_normalizer.normalize_key","args":["a-b"]}\n\n'
            b'{"id":2,"op":"bye"}\n{"id":3,"op":"hello"}\n',
        )
        os.close(w)
        import io

        out = io.BytesIO()
        self.assertEqual(A.serve(r, out), 0)
        os.close(r)
        self.assertEqual(out.getvalue(), b'{"id":1,"ok":"a_b"}\n{"id":2,"ok":null}\n')

    def test_serve_handles_a_last_line_without_newline(self):
        r, w = os.pipe()
        os.write(w, b'{"id":1,"op":"key_normalizer.normalize_key","args":[1]}')
        os.close(w)
        import io

        out = io.BytesIO()
        self.assertEqual(A.serve(r, out), 0)
        os.close(r)
        self.assertEqual(out.getvalue(), b'{"id":1,"ok":1}\n')


if __name__ == "__main__":
    unittest.main()
