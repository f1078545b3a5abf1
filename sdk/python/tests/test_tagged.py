"""The tagged term JSON codec (spec/terms.md TJ-1..TJ-10): what it reads,
what it refuses and where it says the error is, and its canonical text."""

import unittest

from _util import ptc_sdk  # noqa: F401
from ptc_sdk import Atom, DecodeError, Fun, Map, Opaque, Struct, Temporal, Tuple, equal
from ptc_sdk.tagged import decode_text, encode, short_float


class RoundTripTest(unittest.TestCase):
    def test_canonical_texts_round_trip(self):
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
            '{"$float":1.0e3}',
            '{"$float":100.0}',
            '{"$float":0.0001}',
            '{"$float":1.0e-5}',
            '{"$float":0.30000000000000004}',
            '"h\u00e9 \u2028 \x7f"',
            '"q\\"b\\\\n\\n\\t\\r\\b\\f\\u0001\\u001f"',
            '{"$bytes":"/y0="}',
            '{"$atom":"a-b"}',
            '{"$atom":"$x"}',
            '{"$tuple":[1,{"$atom":"x"},[]]}',
            '{"$kw":[["a",1],["nil",2]]}',
            '[{"$tuple":[1,2]}]',
            "[]",
            "{}",
            '{"$map":[["$x",1]]}',
            '{"$map":[[1,{}],["a",{"$map":[[{"$bytes":"/w=="},null]]}]]}',
            '{"$date":"2024-01-02"}',
            '{"$time":"12:00:00.120"}',
            '{"$datetime":"2026-05-07T12:00:00.120+02:00"}',
            '{"$naive_datetime":"2026-05-07T12:00:00.000001"}',
            '{"$fn":{"arity":1,"returns":{"$atom":"ok"}}}',
            '{"$fn":{"arity":2,"raises":"boom"}}',
            '{"$fn":{"name":"&PtcRunner.Tool.new/2"}}',
            '{"$ref":"r1"}',
            '{"$pid":"worker"}',
            '{"$port":"p"}',
            '{"$struct":{"module":"PtcRunner.Lisp.Keyword","fields":{"name":"x"}}}',
        ]:
            with self.subTest(text=text):
                t = decode_text(text)
                self.assertEqual(encode(t), text)
                self.assertTrue(equal(decode_text(encode(t)), t))

    def test_what_decodes_to_what(self):
        self.assertIsNone(decode_text('{"$atom":"nil"}'))
        self.assertIs(decode_text('{"$atom":"true"}'), True)
        self.assertEqual(decode_text('{"$bytes":"aMOp"}'), "h\u00e9")  # valid UTF-8 is a string
        self.assertEqual(decode_text('{"$bytes":"/w=="}'), b"\xff")
        self.assertEqual(decode_text('{"$kw":[["a",1]]}'), [Tuple((Atom("a"), 1))])
        self.assertEqual(decode_text('{"$map":[["a",1]]}'), Map.of({"a": 1}))
        self.assertEqual(encode(decode_text('{"$map":[["a",1]]}')), '{"a":1}')
        self.assertEqual(encode(decode_text('{"$kw":[]}')), "[]")
        self.assertEqual(decode_text('{"$int":"12"}'), 12)
        self.assertEqual(encode(decode_text('{"$int":"9007199254740991"}')), "9007199254740991")
        x = decode_text('{"$float":3}')
        self.assertIs(type(x), float)
        self.assertEqual(encode(x), '{"$float":3.0}')
        self.assertEqual(encode(decode_text('{"$float":1e+16}')), '{"$float":1.0e16}')
        self.assertEqual(decode_text('{"$fn":{"name":"&M.f/2"}}').arity, 2)
        self.assertEqual(type(decode_text('{"$date":"2024-01-02"}')), Temporal)
        self.assertEqual(decode_text('{"$pid":"w"}'), Opaque("pid", "w"))
        self.assertEqual(decode_text('{"$fn":{"arity":0,"raises":"x"}}'), Fun(arity=0, raises="x"))

    def test_struct_fields_take_defaults_in_defstruct_order_and_encode_sorted(self):
        t = decode_text('{"$struct":{"module":"PtcRunner.Tool","fields":{"name":"x"}}}')
        self.assertIs(type(t), Struct)
        self.assertEqual(list(t.fields)[:3], ["name", "function", "signature"])
        self.assertEqual(t["cache"], False)
        self.assertEqual(t["visibility"], Atom("public"))
        self.assertEqual(
            encode(t),
            '{"$struct":{"module":"PtcRunner.Tool","fields":{"cache":false,"description":null,'
            '"expose":null,"function":null,"name":"x","native_result":null,"signature":null,'
            '"type":null,"visibility":{"$atom":"public"}}}}',
        )

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
            (1.7976931348623157e308, "1.7976931348623157e308"),
        ]:
            with self.subTest(x=x):
                self.assertEqual(short_float(x), text)

    def test_encode_refuses_what_is_not_a_term(self):
        for bad in [float("nan"), float("inf"), object(), {"a": 1}, (1, 2)]:
            with self.subTest(bad=bad), self.assertRaises(TypeError):
                encode(bad)


class DecodeErrorTest(unittest.TestCase):
    def error(self, text, root="/args"):
        with self.assertRaises(DecodeError) as cm:
            decode_text(text, root)
        return str(cm.exception)

    def test_errors_name_their_path(self):
        for text, message in [
            ('[1, {"$map": [[{"$atm": "a"}, 1]]}]', '/args/1/$map/0/0: unknown tag "$atm"'),
            ('[{"a": 1, "a": 2}]', '/args/0: duplicated map key "a"'),
            ('[{"$map": [[1, "x"], [2, "y"], [1, "z"]]}]', "/args/0/$map: duplicated map key 1"),
            (
                '[{"$map": [[{"$atom": "a"}, 1], [{"$atom": "a"}, 2]]}]',
                '/args/0/$map: duplicated map key {"$atom":"a"}',
            ),
            (
                '[{"$map":[[{"$float":0.0},1],[{"$float":-0.0},2]]}]',
                '/args/0/$map: duplicated map key {"$float":0.0}',
            ),
            ('{"$int": "12a"}', '/args/$int: "12a" is not a decimal integer'),
            ('{"$int": "1.0"}', '/args/$int: "1.0" is not a decimal integer'),
            ('{"$int": 12}', "/args/$int: expected a decimal integer string, got a number"),
            ('{"$int": ""}', '/args/$int: "" is not a decimal integer'),
            ('[{"$float": "1.5"}]', '/args/0/$float: $float must be a JSON number, got the string "1.5"'),
            ('[{"$float": null}]', "/args/0/$float: $float must be a JSON number, got null"),
            ('{"$float": 1e999}', "/args/$float: $float is out of the finite range"),
            (
                '{"$atom": "a", "b": 1}',
                '/args: tag object "$atom" has a second key "b": a tag is a one-key object',
            ),
            ('{"$tuple": {}}', "/args/$tuple: expected an array, got map"),
            ('{"$kw": [[1, 2]]}', "/args/$kw/0/0: a $kw key must be a string (the atom's name)"),
            ('{"$map": [[1]]}', "/args/$map/0: expected a [key, value] pair"),
            (
                '{"$date": "2026-5-7"}',
                '/args/$date: "2026-5-7": not an ISO 8601 date as Elixir writes it: '
                "the month is not -01 to -12 (TJ-6)",
            ),
            (
                '{"$datetime": "2026-05-07T12:00:00"}',
                '/args/$datetime: "2026-05-07T12:00:00": not an ISO 8601 datetime as Elixir '
                "writes it: no offset: a datetime ends in Z or ±HH:MM (TJ-6)",
            ),
            ('{"$ref": 1}', "/args/$ref: expected a label string, got a number"),
            ('{"$fn": {"arity": 1}}', "/args/$fn: a $fn is"),
            ('{"$fn": {"arity": 256, "returns": 1}}', "/args/$fn/arity: arity must be an integer from 0 to 255"),
            (
                '{"$struct": {"module": "PtcRunner.Tool", "fields": {"nam": "x"}}}',
                '/args/$struct/fields: PtcRunner.Tool has no field "nam"',
            ),
            (
                '{"$struct": {"module": "Range", "fields": {}}}',
                "/args/$struct: $struct module Range is not a struct of the boundary",
            ),
            (
                '{"$struct": {"module": "URI", "fields": {"port": "80"}}}',
                '/args/$struct/fields: URI field "port" must be an integer or nil',
            ),
            ('{"$struct": {"fields": {}}}', '/args/$struct: $struct needs "module"'),
            ('{"$bytes": "!!"}', "/args/$bytes: bad base64"),
            ('{"$bytes": "/x=="}', "/args/$bytes: bad base64"),
            ('{"$atom":"' + "a" * 256 + '"}', "/args/$atom: an atom has at most 255 characters"),
            ('"\\ud800"', "/args: string holds a lone surrogate"),
            ('{"a/b~": {"$x": 1}}', '/args/a~1b~0: unknown tag "$x"'),
            ("[1.5]", "/args/0: bare number 1.5 is not a term"),
            ("[1e3]", "/args/0: bare number 1000 is not a term"),
            ('{"$float": NaN}', "/args: not JSON"),
            ("[1,", "/args: not JSON"),
        ]:
            with self.subTest(text=text[:60]):
                self.assertTrue(self.error(text).startswith(message), self.error(text))

    def test_plain_objects_refuse_dollar_keys_anywhere(self):
        self.assertIn("starts with '$'", self.error('{"a": 1, "$b": 1}'))

    def test_root_path_shows_as_slash(self):
        self.assertEqual(self.error('{"$atm": 1}', ""), '/: unknown tag "$atm"')

    def test_nesting_limit_as_the_rust_harness(self):
        # TJ-10: 120 arrays and objects pass, the value's own counted.
        self.assertIs(type(decode_text("[" * 120 + "]" * 120, "")), list)
        self.assertIn("nested deeper than 120", self.error("[" * 121 + "]" * 121))
        self.assertIs(type(decode_text('{"$tuple":[' * 60 + "]}" * 60, "")), Tuple)
        self.assertIn("nested deeper", self.error('{"$tuple":[' * 61 + "]}" * 61))
        self.assertIn("nested deeper", self.error("[" * 100_000 + "]" * 100_000))


if __name__ == "__main__":
    unittest.main()
