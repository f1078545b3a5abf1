"""Term order, map key order and exact equality (spec/terms.md TJ-4, TJ-11)."""

import unittest

from _util import ptc_sdk  # noqa: F401
from ptc_sdk import Atom, Fun, Map, Opaque, Temporal, Tuple, order
from ptc_sdk.tagged import decode_text, encode


def m(*pairs):
    return Map.strict(pairs)


class EqualityTest(unittest.TestCase):
    def test_exact_equality(self):
        self.assertFalse(order.equal(1, 1.0))
        self.assertTrue(order.equal(0.0, -0.0))
        self.assertFalse(order.equal(True, 1))
        self.assertFalse(order.equal(None, False))
        self.assertTrue(order.equal(None, decode_text('{"$atom":"nil"}')))
        self.assertTrue(order.equal(m(("a", 1), (2, [1])), m((2, [1]), ("a", 1))))
        self.assertFalse(order.equal([1], Tuple([1])))
        self.assertTrue(order.equal("a", b"a"))  # one binary, held as str or bytes
        self.assertFalse(order.equal("a", b"\xff"))

    def test_classes_compare_as_terms(self):
        self.assertEqual(Tuple([1, Atom("a")]), Tuple([1, Atom("a")]))
        self.assertNotEqual(Tuple([1]), Tuple([1.0]))
        self.assertEqual(m((1, "x")), m((1, "x")))
        self.assertNotEqual(m((1, "x")), m((1.0, "x")))
        self.assertEqual(hash(Tuple([0.0])), hash(Tuple([-0.0])))
        self.assertNotEqual(Opaque("ref", "a"), Opaque("pid", "a"))
        self.assertEqual(Fun(arity=1, returns=1), Fun(arity=1, returns=1))
        self.assertNotEqual(Fun(arity=1, returns=1), Fun(arity=1, returns=1.0))
        self.assertNotEqual(Atom("a"), {"a": 1})  # not a term: unequal, no error

    def test_int_and_float_keys_are_two_keys_but_signed_zeros_one(self):
        self.assertEqual(len(m((1, "i"), (1.0, "f"))), 2)
        with self.assertRaises(ValueError):
            m((0.0, "a"), (-0.0, "b"))
        self.assertEqual(Map.new([(0.0, "a"), (-0.0, "b")]).get(0.0), "b")


class TermOrderTest(unittest.TestCase):
    def test_across_types(self):
        ordered = [
            1,
            Atom("a"),
            Opaque("ref", "r"),
            Fun(name="&M.f/1"),
            Opaque("port", "p"),
            Opaque("pid", "p"),
            Tuple([]),
            m(),
            [],
            "",
        ]
        for a, b in zip(ordered, ordered[1:], strict=False):
            with self.subTest(a=a, b=b):
                self.assertEqual(order.compare(a, b), -1)
                self.assertEqual(order.compare(b, a), 1)

    def test_numbers_compare_by_value_but_map_keys_put_integers_first(self):
        self.assertEqual(order.compare(2, 1.5), 1)
        self.assertEqual(order.compare(1, 1.0), 0)
        self.assertEqual(order.key_compare(2, 1.5), -1)
        self.assertEqual(order.key_compare(1.0, 1), 1)
        self.assertEqual(order.compare(10**20, 1.0e20), 0)
        self.assertEqual(order.compare(10**20 + 1, 1.0e20), 1)
        self.assertEqual(order.compare(2**53 + 1, float(2**53)), 1)
        # integers before floats inside containers too, for map keys only
        self.assertEqual(order.key_compare(Tuple([2]), Tuple([1.5])), -1)
        self.assertEqual(order.compare(Tuple([2]), Tuple([1.5])), 1)

    def test_atoms_sort_by_name_and_nil_true_false_among_them(self):
        self.assertEqual(order.compare(Atom("b"), None), -1)
        self.assertEqual(order.compare(None, Atom("o")), -1)
        self.assertEqual(order.compare(False, True), -1)

    def test_tuples_by_size_lists_by_elements(self):
        self.assertEqual(order.compare(Tuple([9]), Tuple([1, 1])), -1)
        self.assertEqual(order.compare([1, 1], [9]), -1)
        self.assertEqual(order.compare([1], [1, 0]), -1)

    def test_binaries_by_bytes(self):
        self.assertEqual(order.compare("\uffff", "\U00010000"), -1)
        self.assertEqual(order.compare("\u00e9", b"\xff"), -1)
        self.assertEqual(order.compare("a", b"a\xff"), -1)

    def test_maps_by_size_then_keys_then_values(self):
        self.assertEqual(order.compare(m((9, 9)), m((1, 1), (2, 2))), -1)
        self.assertEqual(order.compare(m((1, 2)), m((2, 1))), -1)
        self.assertEqual(order.compare(m((1, 2)), m((1, 1))), 1)
        self.assertEqual(order.compare(m((1, 1)), m((1, 1.0))), 0)
        self.assertEqual(order.key_compare(m((1, 1)), m((1, 1.0))), -1)

    def test_calendar_structs_order_as_the_maps_they_are(self):
        # TJ-11's own example, and the Rust model's test of it
        ordered = [
            Temporal("date", "2024-01-01"),
            Temporal("date", "2023-05-01"),
            Temporal("date", "2024-01-02"),
            Temporal("time", "09:30:00.5"),
            Temporal("time", "10:00:00"),
            Temporal("naive_datetime", "2024-01-01T10:00:00"),
            Temporal("naive_datetime", "2023-12-31T23:00:00"),
            Temporal("datetime", "2024-01-01T10:00:00+02:00"),
            Temporal("datetime", "2024-01-01T10:00:00Z"),
        ]
        for a, b in zip(ordered, ordered[1:], strict=False):
            with self.subTest(a=a, b=b):
                self.assertEqual(order.compare(a, b), -1)

    def test_structs_order_by_their_field_count_first(self):
        tool = decode_text('{"$struct":{"module":"PtcRunner.Tool","fields":{}}}')
        keyword = decode_text('{"$struct":{"module":"PtcRunner.Lisp.Keyword","fields":{}}}')
        self.assertEqual(order.compare(keyword, tool), -1)  # 2 keys < 10 keys
        self.assertEqual(order.compare(m(*[(i, i) for i in range(3)]), keyword), 1)

    def test_sort_is_stable(self):
        self.assertEqual(order.sort([1.0, 1, 0]), [0, 1.0, 1])
        self.assertEqual([type(x) for x in order.sort([1.0, 1])], [float, int])
        self.assertEqual([type(x) for x in order.key_sort([1.0, 1])], [int, float])


class MapKeyOrderTest(unittest.TestCase):
    def test_maps_iterate_and_encode_in_map_key_order(self):
        t = decode_text(
            '{"$map":[["b",1],[{"$float":1.0},2],[{"$atom":"z"},3],[2,4],'
            '[{"$tuple":[1]},5],[[1],6],[{"$atom":"a"},7],[-5,8],["a",9],[{"$bytes":"/w=="},10],'
            '[{"$ref":"r"},11],[{"$fn":{"name":"&M.f/0"}},12],[{"$pid":"p"},13],[{"$port":"p"},14],'
            '[{"a":1},15],[null,16]]}'
        )
        self.assertEqual(
            encode(t),
            '{"$map":[[-5,8],[2,4],[{"$float":1.0},2],[{"$atom":"a"},7],[null,16],[{"$atom":"z"},3],'
            '[{"$ref":"r"},11],[{"$fn":{"name":"&M.f/0"}},12],[{"$port":"p"},14],[{"$pid":"p"},13],'
            '[{"$tuple":[1]},5],[{"a":1},15],[[1],6],["a",9],["b",1],[{"$bytes":"/w=="},10]]}',
        )
        self.assertEqual(t.keys()[0], -5)
        self.assertEqual(t.get(Atom("z")), 3)


if __name__ == "__main__":
    unittest.main()
