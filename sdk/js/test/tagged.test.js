// Tagged term JSON (tagged.js): decoding errors name their JSON pointer,
// encoding is canonical (the Rust encoder's bytes).
import assert from "node:assert/strict";
import { test } from "node:test";
import { decode, encode, shortFloat } from "../tagged.js";
import { equal } from "../order.js";
import { Atom, Bytes, Float, Fun, Opaque, Struct, Temporal, TermMap, Tuple, atom, kw, map, tuple } from "../terms.js";

const err = (json) => {
  try {
    decode(json, "/args");
  } catch (e) {
    assert.equal(e.name, "TermDecodeError", e.stack);
    return e.message;
  }
  assert.fail(`expected an error for ${json}`);
};

test("TJ-2, TJ-10: an unknown tag names its path", () => {
  assert.equal(err('[1, {"$map": [[{"$atm": "a"}, 1]]}]'), '/args/1/$map/0/0: unknown tag "$atm"');
});

test("TJ-4: duplicated keys are errors", () => {
  assert.equal(err('[{"a": 1, "a": 2}]'), '/args/0: duplicated map key "a"');
  assert.equal(err('[{"$map": [[1, "x"], [2, "y"], [1, "z"]]}]'), "/args/0/$map: duplicated map key 1");
  assert.equal(err('[{"$map": [[{"$atom": "a"}, 1], [{"$atom": "a"}, 2]]}]'), '/args/0/$map: duplicated map key {"$atom":"a"}');
  assert.equal(err('{"$map": [[{"$float": 0.0}, 1], [{"$float": -0.0}, 2]]}'), '/args/$map: duplicated map key {"$float":0.0}');
  assert.equal(encode(decode('{"$map": [[1, "i"], [{"$float": 1.0}, "f"]]}')), '{"$map":[[1,"i"],[{"$float":1.0},"f"]]}');
});

test("TJ-3: $int needs a decimal string, $float a JSON number, bare floats are errors", () => {
  assert.equal(err('{"$int": "12a"}'), '/args/$int: "12a" is not a decimal integer');
  assert.equal(err('{"$int": 12}'), "/args/$int: expected a decimal integer string, got a number");
  assert.equal(err('{"$int": ""}'), '/args/$int: "" is not a decimal integer');
  assert.equal(err('[{"$float": "1.5"}]'), '/args/0/$float: $float must be a JSON number, got the string "1.5"');
  assert.equal(err('[{"$float": null}]'), "/args/0/$float: $float must be a JSON number, got null");
  assert.equal(err('{"$float": 1e400}'), "/args/$float: $float is out of the finite range");
  assert.match(err("[1.5]"), /^\/args\/0: bare number 1.5 is not a term/);
  assert.match(err("[18446744073709551616]"), /^\/args\/0: bare number 18446744073709552000 is not a term/);
  assert.equal(err("[18446744073709551615]"), '/args/0: bare integer 18446744073709551615 is beyond 2^53-1: it is written {"$int": "18446744073709551615"} (TJ-3)');
  assert.equal(decode("9007199254740991"), 9007199254740991);
  assert.equal(decode('{"$int": "18446744073709551615"}'), 18446744073709551615n);
  assert.equal(decode('{"$int": "-9007199254740991"}'), -9007199254740991);
  assert.ok(decode('{"$float": 1}') instanceof Float);
  assert.ok(Object.is(decode('{"$float": -0.0}').value, -0));
});

test("TJ-1: $bytes is strict standard base64; valid UTF-8 is the string", () => {
  assert.match(err('{"$bytes": "!!"}'), /^\/args\/\$bytes: bad base64/);
  assert.match(err('{"$bytes": "/w"}'), /bad base64/); // padding required
  assert.match(err('{"$bytes": "/x=="}'), /non-zero trailing bits/);
  assert.equal(decode('{"$bytes": "aGk="}'), "hi");
  const b = decode('{"$bytes": "/w=="}');
  assert.ok(b instanceof Bytes);
  assert.deepEqual([...b.bytes], [255]);
});

test("TJ-2: a tag is a one-key object; a plain key may not start with $", () => {
  assert.equal(err('{"$atom": "a", "b": 1}'), '/args: tag object "$atom" has a second key "b": a tag is a one-key object');
  assert.match(err('{"a": 1, "$b": 1}'), /starts with '\$'/);
  assert.equal(err('{"$tuple": {"a": 1}}'), "/args/$tuple: expected an array, got map");
  assert.equal(err('{"$map": {}}'), "/args/$map: expected an array of [key, value] pairs, got an object");
  assert.equal(err('{"$map": [[1]]}'), "/args/$map/0: expected a [key, value] pair");
  assert.equal(err('{"$kw": [[1, 2]]}'), "/args/$kw/0/0: a $kw key must be a string (the atom's name)");
});

test("TJ-7: structs take their defaults, in defstruct order, and reject unknown fields and modules", () => {
  const s = decode('{"$struct": {"module": "PtcRunner.Tool", "fields": {"name": "x"}}}');
  assert.ok(s instanceof Struct);
  assert.deepEqual([...s.fields.keys()], ["name", "function", "signature", "description", "type", "expose", "native_result", "visibility", "cache"]);
  assert.equal(s.get("cache"), false);
  assert.ok(equal(s.get("visibility"), atom("public")));
  assert.equal(s.get("name"), "x");
  assert.match(err('{"$struct": {"module": "PtcRunner.Tool", "fields": {"nam": "x"}}}'), /^\/args\/\$struct\/fields: PtcRunner.Tool has no field "nam"/);
  assert.equal(err('{"$struct": {"module": "Range", "fields": {}}}'), "/args/$struct: $struct module Range is not a struct of the boundary");
  assert.equal(err('{"$struct": {"fields": {}}}'), '/args/$struct: $struct needs "module"');
  assert.equal(err('{"$struct": {"module": "URI", "fields": {"port": "80"}}}'), '/args/$struct/fields: URI field "port" must be an integer or nil');
  assert.equal(err('{"$struct": {"module": "URI", "fields": {"host": 1}}}'), '/args/$struct/fields: URI field "host" must be a binary or nil');
  assert.match(err('{"$struct": {"module": "MapSet", "fields": {"map": {"$atm": 1}}}}'), /^\/args\/\$struct\/fields\/map: unknown tag/);
  const d = decode('{"$struct": {"module": "PtcRunner.SubAgent.Definition"}}');
  assert.equal(encode(d.get("format_options")), '{"$kw":[["feedback_limit",10],["feedback_max_chars",512],["history_max_bytes",512],["result_limit",50],["result_max_chars",500],["max_print_length",2000]]}');
});

test("TJ-6, TJ-8, TJ-9: temporal text, function specs and opaque labels survive as written", () => {
  for (const json of [
    '{"$datetime":"2026-05-07T12:00:00.120+02:00"}',
    '{"$time":"12:00:00"}',
    '{"$naive_datetime":"2026-05-07T12:00:00.000001"}',
    '{"$date":"2026-05-07"}',
    '{"$fn":{"arity":1,"returns":{"$atom":"ok"}}}',
    '{"$fn":{"arity":2,"raises":"boom"}}',
    '{"$fn":{"name":"&PtcRunner.Tool.new/2"}}',
    '{"$pid":"worker"}',
    '{"$ref":"r1"}',
    '{"$port":"p"}',
  ]) {
    assert.equal(encode(decode(json)), json);
  }
  assert.match(err('{"$date": "2026-5-7"}'), /not an ISO 8601 date/);
  assert.match(err('{"$datetime": "2026-05-07T12:00:00"}'), /not an ISO 8601 datetime as Elixir writes it: no offset/);
  assert.match(err('{"$fn": {"arity": 1}}'), /^\/args\/\$fn: a \$fn is/);
  assert.equal(err('{"$fn": {"arity": 256, "returns": 1}}'), "/args/$fn/arity: arity must be an integer from 0 to 255");
  assert.match(err('{"$ref": 1}'), /expected a label string/);
});

test("TJ-5: encoding is canonical", () => {
  assert.equal(encode(decode('{"b": 1, "a": [true, null, {"$float": 1.0}]}')), '{"a":[true,null,{"$float":1.0}],"b":1}');
  assert.equal(encode(decode('{"$int": "9007199254740992"}')), '{"$int":"9007199254740992"}');
  assert.equal(encode(decode('{"$int": "9007199254740991"}')), "9007199254740991");
  assert.equal(encode(decode('{"$kw": [["a", 1]]}')), '{"$kw":[["a",1]]}');
  assert.equal(encode([tuple(null, 1)]), '{"$kw":[["nil",1]]}');
  assert.equal(encode([]), "[]");
  assert.equal(encode(map([])), "{}");
  assert.equal(encode(map([["$a", 1]])), '{"$map":[["$a",1]]}');
  assert.equal(encode(map([[atom("a"), 1], ["a", 2]])), '{"$map":[[{"$atom":"a"},1],["a",2]]}');
  assert.equal(encode(kw([["x-y", new Float(2)]])), '{"$kw":[["x-y",{"$float":2.0}]]}');
  assert.equal(encode(2n ** 64n - 1n), '{"$int":"18446744073709551615"}');
  assert.equal(encode(-0), "0");
  assert.equal(encode(new Opaque("ref", "r")), '{"$ref":"r"}');
  assert.equal(encode(new Atom("a\"b")), '{"$atom":"a\\"b"}');
  assert.equal(encode(new Bytes(Uint8Array.of(0xff, 0xfe))), '{"$bytes":"//4="}');
  assert.equal(encode(new Tuple([])), '{"$tuple":[]}');
  assert.equal(encode(new Temporal("naive_datetime", "2024-01-01T00:00:00")), '{"$naive_datetime":"2024-01-01T00:00:00"}');
  assert.equal(encode(new Fun({ arity: 0, returns: [] })), '{"$fn":{"arity":0,"returns":[]}}');
  assert.ok(decode("{}") instanceof TermMap);
});

test("a value that is not a term does not encode", () => {
  assert.throws(() => encode(1.5), { name: "EncodeError", message: /new Float\(1.5\)/ });
  assert.throws(() => encode([undefined]), { name: "EncodeError", message: /not a term: undefined/ });
  assert.throws(() => encode(new Date()), { name: "EncodeError", message: /a Date/ });
});

test("floats are written in Erlang's shortest form", () => {
  for (const [x, text] of [
    [1.0, "1.0"],
    [-0.0, "-0.0"],
    [1.5, "1.5"],
    [100.0, "100.0"],
    [1000.0, "1.0e3"],
    [9007199254740994.0, "9.007199254740994e15"],
    [0.00012, "1.2e-4"],
    [2.0455837792400002, "2.0455837792400002"],
    [10000.0, "1.0e4"],
    [123456.0, "123456.0"],
    [1.0e20, "1.0e20"],
    [0.1, "0.1"],
    [0.0001, "0.0001"],
    [0.00001, "1.0e-5"],
    [1.2345e-7, "1.2345e-7"],
    [-2.5, "-2.5"],
    [1.0e100, "1.0e100"],
    [0.1 + 0.2, "0.30000000000000004"],
    [5e-324, "5.0e-324"],
    [Number.MAX_VALUE, "1.7976931348623157e308"],
    [2 ** 53, "9.007199254740992e15"],
    [2 ** 53 - 1, "9007199254740991.0"],
  ]) {
    assert.equal(shortFloat(x), text, String(x));
  }
});
