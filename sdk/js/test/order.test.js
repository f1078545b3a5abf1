// Erlang term order, map key order and exact equality (order.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { compare, compareCodePoints, equal, mapKeyCompare, sortTerms } from "../order.js";
import { Bytes, Float, Fun, Opaque, Temporal, TermMap, Tuple, atom, binary, map, tuple } from "../terms.js";

const f = (x) => new Float(x);
const sign = (n) => Math.sign(n);

function assertAscending(terms, cmp = compare) {
  for (let i = 1; i < terms.length; i++) {
    assert.equal(sign(cmp(terms[i - 1], terms[i])), -1, `item ${i - 1} < item ${i}`);
    assert.equal(sign(cmp(terms[i], terms[i - 1])), 1, `item ${i} > item ${i - 1}`);
  }
}

test("number < atom < reference < fun < port < pid < tuple < map < list < binary", () => {
  assertAscending([
    1,
    atom("a"),
    new Opaque("ref", "r"),
    new Fun({ name: "&M.f/1" }),
    new Opaque("port", "p"),
    new Opaque("pid", "p"),
    tuple(),
    map([]),
    [],
    "",
  ]);
});

test("numbers compare by value, exactly, but map keys put every integer before every float", () => {
  assert.equal(sign(compare(2, f(1.5))), 1);
  assert.equal(compare(1, f(1.0)), 0);
  assert.equal(sign(mapKeyCompare(2, f(1.5))), -1);
  assert.equal(sign(mapKeyCompare(f(1.0), 1)), 1);
  assert.equal(compare(10n ** 20n, f(1e20)), 0);
  assert.equal(sign(compare(10n ** 20n, f(1e19))), 1);
  // 2^53 + 1 is no double: the float 2^53 is below it, exactly.
  assert.equal(sign(compare(2n ** 53n + 1n, f(2 ** 53))), 1);
  assert.equal(sign(compare(-(2n ** 70n), f(-1.5))), -1);
  assert.equal(compare(5, 5n), 0);
  assert.equal(compare(f(0), f(-0)), 0);
  assert.equal(mapKeyCompare(f(0), f(-0)), 0);
});

test("atoms sort by name, nil, true and false among them", () => {
  assert.equal(sign(compare(atom("b"), null)), -1);
  assert.equal(sign(compare(null, atom("o"))), -1);
  assert.equal(sign(compare(false, true)), -1);
});

test("maps order by size, then keys in key order, then values", () => {
  assertAscending([
    map([["z", 1]]),
    map([["a", 1], ["b", 1]]),
    map([["a", 1], ["c", 0]]),
    map([["a", 2], ["c", 0]]),
  ]);
  assert.equal(sign(compare(map([[1, f(1.0)]]), map([[1, 2]]))), -1);
});

test("lists compare element by element, tuples by size first", () => {
  assert.equal(sign(compare(tuple(9), tuple(1, 1))), -1);
  assert.equal(sign(compare([1, 1], [9])), -1);
  assert.equal(sign(compare([1], [1, 0])), -1);
});

test("binaries compare bytewise: code point order for strings, bytes otherwise", () => {
  assertAscending(["", "a", "a-", "a_", "b", "\uffff", "\u{10000}"]);
  assert.equal(sign(compareCodePoints("\ue000", "\u{1f600}")), -1); // UTF-16 order says the opposite
  assert.equal(sign(compare("\u00ff", binary(Uint8Array.of(0xff)))), -1); // "ÿ" is c3 bf
  assert.equal(sign(compare(binary(Uint8Array.of(0xc3)), "\u00ff")), -1);
});

test("structs order as the maps they are: dates by day first (TJ-11)", () => {
  assertAscending([
    new Temporal("date", "2024-01-01"),
    new Temporal("date", "2023-05-01"),
    new Temporal("date", "2024-01-02"),
    new Temporal("time", "09:30:00.5"),
    new Temporal("time", "10:00:00"),
    new Temporal("naive_datetime", "2024-01-01T10:00:00"),
    new Temporal("naive_datetime", "2023-12-31T23:00:00"),
    new Temporal("datetime", "2024-01-01T10:00:00+02:00"),
    new Temporal("datetime", "2024-01-01T10:00:00Z"),
  ]);
});

test("equality is OTP 25's =:=", () => {
  assert.equal(equal(1, f(1.0)), false);
  assert.equal(equal(f(0), f(-0)), true);
  assert.equal(equal(7, 7n), true);
  assert.equal(equal(2n ** 64n, 2n ** 64n), true);
  assert.equal(equal(atom("a"), atom("a")), true);
  assert.equal(equal(atom("a"), "a"), false);
  assert.equal(equal(null, atom("nil")), true);
  assert.equal(equal(tuple(1, [2]), new Tuple([1, [2]])), true);
  assert.equal(equal([1], tuple(1)), false);
  assert.equal(equal(new Bytes(Uint8Array.of(0xff)), binary(Uint8Array.of(0xff))), true);
  assert.equal(equal(new Temporal("time", "12:00:00.120"), new Temporal("time", "12:00:00.12")), false);
  assert.equal(equal(new Fun({ arity: 1, returns: 1 }), new Fun({ arity: 1, returns: f(1) })), false);
});

test("maps: equality ignores construction order, Map.new keeps the last of equal keys", () => {
  const a = map([["x", 1], [atom("y"), null]]);
  const b = map([[atom("y"), null], ["x", 1]]);
  assert.equal(equal(a, b), true);
  const m = TermMap.from([["b", 1], ["a", 2], ["b", 3]]);
  assert.deepEqual(m.pairs, [["a", 2], ["b", 3]]);
  assert.equal(m.get("b"), 3);
  assert.equal(map([[1, "int"], [f(1), "float"]]).size, 2);
  assert.equal(map([[f(0), "zero"], [f(-0), "minus zero"]]).size, 1);
  assert.throws(() => TermMap.strict([["a", 1], ["a", 2]]), { name: "DuplicateKeyError" });
});

test("map key order: integers, floats, atoms, tuples, maps, lists, binaries", () => {
  const keys = ["b", [1], map([]), tuple(1), atom("a"), f(0.5), 3, 1n];
  assert.deepEqual(map(keys.map((k) => [k, null])).keys(), [1n, 3, f(0.5), atom("a"), tuple(1), map([]), [1], "b"].map((k) => keys.find((x) => equal(x, k))));
  assert.deepEqual(sortTerms([3, f(2.5), 1]), [1, f(2.5), 3]);
});

test("a JavaScript number that is no integer is not a term", () => {
  assert.throws(() => compare(1.5, 1), /not a term/);
  assert.throws(() => compare(undefined, 1), /not a term: undefined/);
});
