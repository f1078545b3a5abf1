"""Unit tests of the Elixir layer (``ptc_sdk.elixir``) on texts Elixir
1.18.4 / OTP 25 print; `test_elixir_reference` holds it to the Rust
reference over generated terms. Also: the porter data the package carries
is the repository's."""

import unittest

from _util import REPO, ptc_sdk  # noqa: F401
from ptc_sdk import Atom, Fun, Map, Raised, Temporal, Tuple, data, structs
from ptc_sdk.elixir import (
    float_to_binary_compact_10,
    graphemes,
    inspect,
    jason_encode,
    messages,
    normalize,
    reduce_fun,
    to_string,
)
from ptc_sdk.elixir import capture_parts, remote_call
from ptc_sdk.elixir.inspect import atom_key, atom_literal


def m(*pairs):
    return Map.strict(pairs)


class FloatTextTest(unittest.TestCase):
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
                self.assertEqual(float_to_binary_compact_10(x), text)

    def test_compact_float_too_long(self):
        with self.assertRaises(Raised) as cm:
            float_to_binary_compact_10(1.0e250)
        self.assertEqual(cm.exception.cls, "ArgumentError")
        self.assertEqual(float_to_binary_compact_10(9.9e243)[-2:], ".0")

    def test_inspect_float(self):
        self.assertEqual(inspect(1000.0), "1000.0")
        self.assertEqual(inspect(1.0e16), "1.0e16")
        self.assertEqual(inspect(0.5), "0.5")
        self.assertEqual(inspect(-0.0), "-0.0")


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
            ("e\u0301cole", ':"e\u0301cole"', '"e\u0301cole":'),  # not NFC
            ("\u03a9mega", ':"\u03a9mega"', '"\u03a9mega":'),  # mixed scripts
            ("\u00b5s", ':"\u00b5s"', '"\u00b5s":'),  # µ is read as μ
            ("abc_\u0430\u0431\u0432", ":abc_\u0430\u0431\u0432", "abc_\u0430\u0431\u0432:"),
        ]:
            with self.subTest(name=name):
                self.assertEqual(atom_literal(name), literal)
                self.assertEqual(atom_key(name), key)

    def test_strings_and_binaries(self):
        self.assertEqual(inspect('a"b\\c\n#{x}\u2028'), '"a\\"b\\\\c\\n\\#{x}\\u2028"')
        self.assertEqual(inspect("a\u0001"), "<<97, 1>>")

    def test_binary_printable_past_the_limit_then_invalid_reads_as_a_cut_string(self):
        # PP-44: String.printable?/2 looks at 4096 characters only.
        self.assertEqual(inspect(b"a" * 5000 + b"\xff"), '"' + "a" * 4096 + '" <> ...')
        self.assertTrue(inspect(b"a" * 10 + b"\xff").startswith("<<97, 97,"))
        self.assertEqual(inspect(b"\xff"), "<<255>>")
        self.assertEqual(
            inspect(bytes(range(128, 180))),
            "<<" + ", ".join(map(str, range(128, 178))) + ", ...>>",
        )

    def test_lists(self):
        self.assertEqual(inspect([104, 105]), '~c"hi"')
        self.assertEqual(inspect([Tuple((Atom("a"), 1)), Tuple((Atom("b-c"), 2))]), '[a: 1, "b-c": 2]')
        self.assertEqual(
            inspect(list(range(100, 160))), "[" + ", ".join(map(str, range(100, 150))) + ", ...]"
        )
        self.assertEqual(inspect([1, [2, Tuple([])], m()]), "[1, [2, {}], %{}]")

    def test_maps(self):
        self.assertEqual(inspect(m((Atom("a"), 1), (Atom("b"), "x"))), '%{a: 1, b: "x"}')
        self.assertEqual(inspect(m((1, 2), ("k", None))), '%{1 => 2, "k" => nil}')

    def test_pretty(self):
        t = Tuple(["a" * 30, "b" * 30, m((Atom("key"), list(range(10))))])
        self.assertEqual(
            inspect(t, pretty=True),
            '{"' + "a" * 30 + '", "' + "b" * 30 + '",\n %{key: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}}',
        )
        self.assertEqual(inspect(t, pretty=True, width=200), inspect(t))

    def test_options(self):
        self.assertEqual(inspect([1, 2, 3], limit=2), "[1, 2, ...]")
        self.assertEqual(inspect(list(range(60)), limit=None), "[" + ", ".join(map(str, range(60))) + "]")
        self.assertEqual(inspect("abcdef", printable_limit=3), '"abc" <> ...')
        self.assertEqual(inspect([97, 98, 99], printable_limit=2), '~c"ab" ++ ...')

    def test_structs_temporals_functions(self):
        self.assertEqual(inspect(structs.new("URI", host="h")), "%URI{scheme: nil, userinfo: nil, host: \"h\", port: nil, path: nil, query: nil, fragment: nil}")
        self.assertEqual(inspect(structs.new("MapSet", map=m((1, []), (Atom("a"), [])))), "MapSet.new([1, :a])")
        self.assertEqual(inspect(structs.new("PtcRunner.Lisp.Format.Var", name="x")), "#'x")
        self.assertEqual(inspect(Temporal("datetime", "2024-01-02T03:04:05+05:30")), "#DateTime<2024-01-02 03:04:05+05:30 +05:30 +05:30>")
        self.assertEqual(inspect(Temporal("naive_datetime", "2024-01-02T03:04:05")), "~N[2024-01-02 03:04:05]")
        self.assertEqual(inspect(Fun(name="&String.upcase/1")), "&String.upcase/1")
        self.assertEqual(inspect(Fun(arity=2, returns=1)), "#Function<anonymous/2>")

    def test_named_captures_read_back_literally_and_print_the_function_as_a_remote_call(self):
        # TJ-8, IN-18: Macro.inspect_atom(:remote_call, f) after the module atom.
        calls = {
            "f": "f", "foo?": "foo?", "+": "+", "::": "::", "<|>": "<|>", "when": "when", "%{}": '"%{}"', "..": '".."',
            "Elixir.Foo": '"Elixir.Foo"', "Foo": '"Foo"', "foo@bar": '"foo@bar"', "f g": '"f g"', "": '""',
            'a"b': '"a\\"b"', "a#{b}": '"a\\#{b}"', "ф": "ф", "µ": '"µ"', "Ωmega": '"Ωmega"',
        }
        for name, text in calls.items():
            with self.subTest(name=name):
                self.assertEqual(remote_call(name), text)
        self.assertEqual(capture_parts("&Foo.Bar.f/2"), ("Elixir.Foo.Bar", "f", "2"))
        self.assertEqual(capture_parts("&:a.b.c/2"), ("a.b", "c", "2"))
        self.assertEqual(capture_parts('&:"a b".f/2'), ('"a b"', "f", "2"))
        self.assertEqual(capture_parts("&Foo.f g/2"), ("Elixir.Foo", "f g", "2"))
        self.assertEqual(capture_parts("&Foo.a/b/2"), ("Elixir.Foo", "a/b", "2"))
        for other in ("Foo.f/2", "&Foo/2", "&.f/2", "&Foo./2", "&Foo.f"):
            self.assertIsNone(capture_parts(other), other)
        for name, text in [
            ("&Foo.f g/2", '&Foo."f g"/2'),
            ("&:a.b.c/2", '&:"a.b".c/2'),
            ("&:lists.foldl/3", "&:lists.foldl/3"),
            ("&Kernel.+/2", "&Kernel.+/2"),
            ("&Elixir.Foo.f/1", "&Elixir.Elixir.Foo.f/1"),
            ("&foo.bar/1", '&:"Elixir.foo".bar/1'),
            ("&Foo.%{}/1", '&Foo."%{}"/1'),
            ("&Foo", "&Foo"),
        ]:
            with self.subTest(name=name):
                self.assertEqual(inspect(Fun(name=name)), text)

    def test_a_display_struct_that_cannot_convert_prints_an_inspect_error(self):
        text = inspect(structs.new("PtcRunner.Lisp.Format.Var", name=[Atom("id")]))
        self.assertTrue(text.startswith("#Inspect.Error<\n  got ArgumentError with message:\n"), text)
        self.assertIn("      %{__struct__: PtcRunner.Lisp.Format.Var, name: [:id]}\n", text)
        # IN-15: the message keeps the struct's invalid bytes.
        var = structs.new("PtcRunner.Lisp.Format.Var", name=b"a\xff")
        raw = inspect(structs.new("PtcRunner.Lisp.Format.Fn", params=m((Atom("a"), var))))
        self.assertIs(type(raw), bytes)
        self.assertIn(b"Got value:\n\n          %{a: #'a\xff}\n", raw)


class CharsTest(unittest.TestCase):
    def test_to_string(self):
        self.assertEqual(to_string(None), "")
        self.assertEqual(to_string(Atom("a")), "a")
        self.assertEqual(to_string(1.0e3), "1.0e3")
        self.assertEqual(to_string([97, "b", [b"\xc3", b"\xa9"]]), "abé")
        self.assertEqual(to_string(Temporal("time", "01:02:03")), "01:02:03")
        self.assertEqual(to_string(structs.new("URI", scheme="http", host="::1", port=80, path="/p")), "http://[::1]/p")

    def test_to_string_raises_as_elixir(self):
        for term, cls, start in [
            (Tuple((1,)), "Protocol.UndefinedError", "protocol String.Chars not implemented for type Tuple. "),
            ([Atom("a")], "ArgumentError", "cannot convert the given list to a string."),
            ([0x110000], "UnicodeConversionError", "invalid code point 1114112"),
            ([b"\xe2\x82"], "UnicodeConversionError", "incomplete encoding starting at <<226, 130>>"),
            ([b"\xff"], "UnicodeConversionError", "invalid encoding starting at <<255>>"),
        ]:
            with self.subTest(term=term):
                with self.assertRaises(Raised) as cm:
                    to_string(term)
                self.assertEqual(cm.exception.cls, cls)
                self.assertTrue(cm.exception.message.startswith(start), cm.exception.message)


class JasonTest(unittest.TestCase):
    def test_escapes_controls_with_upper_case_hex(self):
        self.assertEqual(jason_encode("\x1f\x7f/\u2028\n"), '"\\u001F\x7f/\u2028\\n"')
        self.assertEqual(ptc_sdk.json_str("\x1f"), '"\\u001f"')  # the tagged writer's (serde_json's)

    def test_maps_keep_keys_that_stringify_alike(self):
        self.assertEqual(jason_encode(m(("a", 1), (Atom("a"), 2), (1, 3))), '{"1":3,"a":2,"a":1}')

    def test_refuses_tuples_and_invalid_utf8(self):
        for term, cls in [(Tuple((1,)), "Protocol.UndefinedError"), (b"\xff", "Jason.EncodeError")]:
            with self.assertRaises(Raised) as cm:
                jason_encode(term)
            self.assertEqual(cm.exception.cls, cls)
        with self.assertRaises(Raised) as cm:
            jason_encode(b"a\xc3(")
        self.assertEqual(cm.exception.message, "invalid byte 0xC3 in <<97, 195, 40>>")


class UnicodeTest(unittest.TestCase):
    def test_graphemes_as_otp_25(self):
        self.assertEqual(graphemes.length("e\u0301x"), 2)
        self.assertEqual(graphemes.length("\r\n"), 1)
        self.assertEqual(graphemes.length("\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA"), 2)
        # OTP ends a pictograph's cluster at a ZWJ not followed by a pictograph ...
        self.assertEqual(graphemes.length("\u231a\u200d\U0001F3FB"), 2)
        # ... and lets spacing marks extend it.
        self.assertEqual(graphemes.length("\u231a\u0e33\ufe0f\u200d\u2640\u0e33"), 1)
        self.assertEqual(graphemes.take("e\u0301x", 1), "e\u0301")
        self.assertEqual(graphemes.graphemes(b"a\xffb"), ["a", b"\xff", "b"])
        self.assertEqual(graphemes.length(b"a\xff\xfe"), 3)

    def test_nfc_cluster_by_cluster(self):
        self.assertEqual(normalize.nfc("e\u0301"), "\u00e9")
        self.assertEqual(normalize.nfc("\u1100\u1161"), "\uac00")
        self.assertEqual(normalize.nfc("\u00e9"), "\u00e9")


class MessagesTest(unittest.TestCase):
    def test_templates_render_named_placeholders_and_keep_other_braces(self):
        self.assertEqual(messages.get("key_error").render(key=":a", term="%{}"), "key :a not found in: %{}")
        self.assertEqual(messages.get("bad_map").render(), "expected a map, got: {term}")
        self.assertIn("@derive {Jason.Encoder, only: [....]}", messages.text("jason_encoder_struct_description"))
        e = messages.get("case_clause").raised(term="1")
        self.assertEqual((e.cls, e.message), ("CaseClauseError", "no case clause matching: 1"))

    def test_every_template_is_loaded(self):
        ids = [t.id for t in messages.all_templates()]
        self.assertIn("protocol_undefined", ids)
        self.assertEqual(len(ids), len(set(ids)))
        with self.assertRaises(KeyError):
            messages.get("no_such_message")


class ReducerTest(unittest.TestCase):
    def test_an_arity_2_function_hands_back_its_accumulator(self):
        self.assertEqual(reduce_fun(Fun(arity=2, returns=Tuple((Atom("done"), [1])))), [1])
        for returns, message in [(1, "2nd argument: not a tuple"), (Tuple((1,)), "1st argument: out of range")]:
            with self.assertRaises(Raised) as cm:
                reduce_fun(Fun(arity=2, returns=returns))
            self.assertIn(message, cm.exception.message)
        with self.assertRaises(Raised) as cm:
            reduce_fun(Fun(name="&Foo.bar/2"))
        self.assertEqual(cm.exception.cls, "UndefinedFunctionError")
        self.assertIn("(module Foo is not available). Make sure", cm.exception.message)
        with self.assertRaises(Raised) as cm:
            reduce_fun(Fun(name="&Foo.f g/2"))
        self.assertTrue(cm.exception.message.startswith('function Foo."f g"/2 is undefined (module Foo is not available). Make sure'))
        with self.assertRaises(Raised) as cm:
            reduce_fun(Fun(name="&:a b.f/2"))
        self.assertEqual(cm.exception.message, 'function :"a b".f/2 is undefined (module :"a b" is not available)')
        with self.assertRaises(Raised) as cm:
            reduce_fun(Fun(name="&.f/2"))
        self.assertEqual(cm.exception.cls, "Protocol.UndefinedError")


class PackagedDataTest(unittest.TestCase):
    def test_the_package_carries_spec_data_as_it_is(self):
        names = sorted(p.relative_to(REPO / "spec" / "data").as_posix() for p in (REPO / "spec" / "data").rglob("*.json"))
        self.assertIn("messages.json", names)
        packaged = sorted(p.relative_to(data.PACKAGED).as_posix() for p in data.PACKAGED.rglob("*.json"))
        self.assertEqual(packaged, names, "ptc_sdk/data differs from spec/data: UPDATE_PORTER_DATA=1 cargo test --test porter_data copies it")
        for name in names:
            with self.subTest(name=name):
                same = (REPO / "spec" / "data" / name).read_bytes() == (data.PACKAGED / name).read_bytes()
                self.assertTrue(same, f"sdk/python/ptc_sdk/data/{name} differs from spec/data/{name}: UPDATE_PORTER_DATA=1 cargo test --test porter_data copies it")


if __name__ == "__main__":
    unittest.main()
