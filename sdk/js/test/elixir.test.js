// The Elixir layer's own cases, the reference's unit-test vectors
// (src/elixir/*.rs): these run without a built binary;
// elixir.reference.test.js compares generated terms with the binary.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as A from "../elixir/algebra.js";
import {
  atomKey,
  atomLiteral,
  captureParts,
  floatToBinaryCompact10,
  floatToString,
  graphemes,
  inspect,
  inspectBinary,
  inspectFloat,
  jasonEncode,
  jasonString,
  length,
  lengthRaw,
  mapJoinRaw,
  message,
  nfc,
  raw,
  remoteCall,
  take,
  takeRaw,
  toList,
  toString,
  tokenize,
  trunc,
  walk,
} from "../elixir/index.js";
import { quote } from "../json.js";
import { makeStruct } from "../structs.js";
import { decode } from "../tagged.js";
import { Bytes, Float, Fun, atom, binary, kw, map, tuple } from "../terms.js";

const t = (json) => decode(json);

test("float text follows Erlang's short form, Inspect.Float and compact 10", () => {
  for (const [x, text] of [
    [1.0, "1.0"], [-0.0, "-0.0"], [1.5, "1.5"], [100.0, "100.0"], [1000.0, "1.0e3"], [9007199254740994.0, "9.007199254740994e15"],
    [0.00012, "1.2e-4"], [2.0455837792400002, "2.0455837792400002"], [1.0e20, "1.0e20"], [0.0001, "0.0001"], [0.00001, "1.0e-5"],
    [1.2345e-7, "1.2345e-7"], [0.1 + 0.2, "0.30000000000000004"], [5.0e-324, "5.0e-324"], [1234567890123456.8, "1234567890123456.8"],
  ]) assert.equal(floatToString(x), text, String(x));
  assert.equal(inspectFloat(1000), "1000.0");
  assert.equal(inspectFloat(1e15), "1000000000000000.0");
  assert.equal(inspectFloat(1e16), "1.0e16");
  assert.equal(inspectFloat(-0.0), "-0.0");
  for (const [x, text] of [[0.1 + 0.2, "0.3"], [-0.0, "-0.0"], [-1.0e-11, "-0.0"], [0.00048828125, "0.0004882813"], [9.99999999999, "10.0"], [123456789.12345679, "123456789.123456791"], [1.0e20, "100000000000000000000.0"], [5.0e-11, "0.0000000001"]]) {
    assert.equal(floatToBinaryCompact10(x), text, String(x));
  }
  assert.throws(() => floatToBinaryCompact10(1.0e244), { class: "ArgumentError", message: "errors were found at the given arguments:\n\n  * 2nd argument: invalid option in list\n" });
  assert.equal(floatToBinaryCompact10(9.9e243).length, 246);
  assert.equal(trunc(1.0e20), 100000000000000000000n);
  assert.equal(trunc(-2.5), -2n);
});

test("atoms: quoted as Macro.classify_atom decides (IN-3, IN-4)", () => {
  const cases = {
    foo: ":foo", "foo?": ":foo?", "foo?x": ':"foo?x"', Foo: ":Foo", "Elixir.Foo.Bar": "Foo.Bar", "Elixir.Elixir": "Elixir.Elixir", "Elixir.foo": ':"Elixir.foo"',
    "a b": ':"a b"', "": ':""', "foo@bar": ":foo@bar", "::": ':"::"', "%{}": ":%{}", "+": ":+", "ф": ":ф", "Ф": ":Ф", "Ωmega": ':"Ωmega"', "abc_абв": ":abc_абв",
    "µ": ':"µ"', "a\u0301": ':"a\u0301"', "a#{b}": ':"a\\#{b}"', 'a"': ':"a\\""', nil: "nil",
  };
  for (const [name, text] of Object.entries(cases)) assert.equal(atomLiteral(name), text, name);
  assert.equal(atomKey("a b"), '"a b":');
  assert.equal(atomKey("Elixir.Foo"), '"Elixir.Foo":');
  assert.equal(atomKey("ok"), "ok:");
  assert.deepEqual(tokenize("Ф"), { kind: "atom", whole: true, at: false, nfkc: false });
  assert.equal(tokenize("Ωmega"), undefined);
});

test("named captures: read back literally (TJ-8), the function printed as a remote call (IN-18)", () => {
  const calls = {
    f: "f", "foo?": "foo?", "+": "+", "::": "::", "<|>": "<|>", when: "when", "%{}": '"%{}"', "..": '".."', "Elixir.Foo": '"Elixir.Foo"',
    Foo: '"Foo"', "foo@bar": '"foo@bar"', "f g": '"f g"', "": '""', 'a"b': '"a\\"b"', "a#{b}": '"a\\#{b}"', "ф": "ф", "µ": '"µ"', "Ωmega": '"Ωmega"',
  };
  for (const [name, text] of Object.entries(calls)) assert.equal(remoteCall(name), text, name);
  assert.deepEqual(captureParts("&Foo.Bar.f/2"), ["Elixir.Foo.Bar", "f", "2"]);
  assert.deepEqual(captureParts("&:a.b.c/2"), ["a.b", "c", "2"]);
  assert.deepEqual(captureParts('&:"a b".f/2'), ['"a b"', "f", "2"]);
  assert.deepEqual(captureParts("&Foo.f g/2"), ["Elixir.Foo", "f g", "2"]);
  assert.deepEqual(captureParts("&Foo.a/b/2"), ["Elixir.Foo", "a/b", "2"]);
  for (const other of ["Foo.f/2", "&Foo/2", "&.f/2", "&Foo./2", "&Foo.f"]) assert.equal(captureParts(other), undefined, other);
  const fn = (name) => inspect(new Fun({ name }));
  assert.equal(fn("&Foo.f g/2"), '&Foo."f g"/2');
  assert.equal(fn("&:a.b.c/2"), '&:"a.b".c/2');
  assert.equal(fn("&:lists.foldl/3"), "&:lists.foldl/3");
  assert.equal(fn("&Kernel.+/2"), "&Kernel.+/2");
  assert.equal(fn("&Elixir.Foo.f/1"), "&Elixir.Elixir.Foo.f/1");
  assert.equal(fn("&foo.bar/1"), '&:"Elixir.foo".bar/1');
  assert.equal(fn("&Foo.%{}/1"), '&Foo."%{}"/1');
  assert.equal(fn("&Foo"), "&Foo");
  assert.throws(() => walk(new Fun({ name: "&Foo.f g/2" })), { class: "UndefinedFunctionError", message: /^function Foo\."f g"\/2 is undefined \(module Foo is not available\)\. Make sure/ });
  assert.throws(() => walk(new Fun({ name: "&:a b.f/2" })), { class: "UndefinedFunctionError", message: 'function :"a b".f/2 is undefined (module :"a b" is not available)' });
  assert.throws(() => walk(new Fun({ name: "&.f/2" })), { class: "Protocol.UndefinedError" });
});

test("inspect: containers, limits, printable limits, charlists, binaries and pretty layout (IN-)", () => {
  assert.equal(inspect(t('[1, {"$atom": "a"}, "x", [104, 105], {"$bytes": "/w=="}]')), '[1, :a, "x", ~c"hi", <<255>>]');
  assert.equal(inspect(kw([["a", 1], ["b c", new Float(2)]])), '[a: 1, "b c": 2.0]');
  assert.equal(inspect(map([[atom("a"), 1], ["b", 2]])), '%{:a => 1, "b" => 2}');
  assert.equal(inspect(Array.from({ length: 60 }, (_, i) => i)).endsWith("49, ...]"), true);
  assert.equal(inspect([1, 2, 3], { limit: 2 }), "[1, 2, ...]");
  assert.equal(inspect("abcdef", { printableLimit: 3 }), '"abc" <> ...');
  assert.equal(inspect([104, 105, 106], { printableLimit: 2 }), '~c"hi" ++ ...');
  assert.equal(inspect("a".repeat(4097)), `"${"a".repeat(4096)}" <> ...`);
  assert.equal(inspect(Array.from({ length: 30 }, () => 1000), { pretty: true }), `[${Array(13).fill("1000").join(", ")},\n ${Array(13).fill("1000").join(", ")},\n 1000, 1000, 1000, 1000]`);
  assert.equal(inspect(Array.from({ length: 30 }, () => 1000), { pretty: true, width: 40 }).split("\n")[0], `[${Array(6).fill("1000").join(", ")},`);
  assert.equal(inspect(kw([["a", "x".repeat(40)], ["b", "y".repeat(40)]]), { pretty: true }), `[\n  a: "${"x".repeat(40)}",\n  b: "${"y".repeat(40)}"\n]`);
  assert.equal(inspect(makeStruct("URI", { host: "h" })), '%URI{scheme: nil, userinfo: nil, host: "h", port: nil, path: nil, query: nil, fragment: nil}');
  assert.equal(inspect(t('{"$datetime": "2024-01-02T03:04:05+01:00"}')), "#DateTime<2024-01-02 03:04:05+01:00 +01:00 +01:00>");
  assert.equal(inspect(new Fun({ arity: 2, returns: 1 })), "#Function<anonymous/2>");
  assert.equal(inspect("\u200b\u00ff\x7f\x1b#{"), String.raw`"\u200Bÿ\d\e\#{"`);
  assert.equal(inspect("\u0000"), "<<0>>");
});

test("inspect: a display struct that cannot convert prints an Inspect.Error, invalid bytes kept (IN-15)", () => {
  const text = inspect(makeStruct("PtcRunner.Lisp.Format.Var", { name: [atom("id")] }));
  assert.ok(text.startsWith("#Inspect.Error<\n  got ArgumentError with message:\n\n      \"\"\"\n      cannot convert the given list to a string.\n"), text);
  assert.ok(text.includes("      [:id]\n      \"\"\"\n\n  while inspecting:\n\n      %{__struct__: PtcRunner.Lisp.Format.Var, name: [:id]}\n\n  Stacktrace:\n\n    (elixir 1.18.4) lib/list.ex:1124: List.to_string/1\n"), text);
  assert.ok(text.endsWith("adapter.exs:545: (file)\n\n>"), text);
  const v = makeStruct("PtcRunner.Lisp.Format.Var", { name: binary(Uint8Array.of(0x61, 0xff)) });
  const f = makeStruct("PtcRunner.Lisp.Format.Fn", { params: map([[atom("a"), v]]) });
  const bytes = inspectBinary(f);
  assert.ok(bytes instanceof Bytes);
  const latin1 = Buffer.from(bytes.bytes).toString("latin1");
  assert.ok(latin1.startsWith("#Inspect.Error<\n  got Protocol.UndefinedError with message:\n\n      \"\"\"\n      protocol String.Chars not implemented for type Map."));
  assert.ok(latin1.includes("Got value:\n\n          %{a: #'a\xff}\n      \"\"\"\n\n  while inspecting:\n\n      %{__struct__: PtcRunner.Lisp.Format.Fn, params: %{a: #'a\xff}}\n\n  Stacktrace:"));
});

test("algebra: groups break only when they do not fit; flex containers fill lines", () => {
  const doc = A.group(A.glue(raw("hello"), " ", raw("world")));
  assert.equal(A.format(doc, 30), "hello world");
  assert.equal(A.format(doc, 10), "hello\nworld");
  assert.equal(A.format(doc), "hello world");
  const items = ["1", "2", "3", "4", "5"];
  assert.equal(A.format(A.containerDoc("[", items, "]", 50, "maybe", (s) => s), 8), "[1, 2,\n 3, 4,\n 5]");
  assert.equal(A.format(A.containerDoc("[", items, "]", 3, "strict", (s) => s), 8), "[\n  1,\n  2,\n  3,\n  ...\n]");
});

test("to_string: chardata, URI, calendar values and what String.Chars refuses", () => {
  assert.equal(toString(["a", 98, ["c", [0x1f600]]]), "abc😀");
  assert.equal(toString(null), "");
  assert.equal(toString(new Float(1e16)), "1.0e16");
  assert.equal(toString(makeStruct("URI", { scheme: "http", host: "::1", port: 80, path: "/a" })), "http://[::1]/a");
  assert.equal(toString(t('{"$datetime": "2024-01-02T03:04:05Z"}')), "2024-01-02 03:04:05Z");
  assert.throws(() => toString([0x110000]), { class: "UnicodeConversionError", message: "invalid code point 1114112" });
  assert.throws(() => toString([binary(Uint8Array.of(0xe2, 0x82))]), { class: "UnicodeConversionError", message: 'incomplete encoding starting at <<226, 130>>' });
  assert.throws(() => toString([binary(Uint8Array.of(0xe2)), 97]), { class: "UnicodeConversionError", message: "invalid encoding starting at <<226>>" });
  assert.throws(() => toString(tuple(1)), { class: "Protocol.UndefinedError" });
  assert.throws(() => toString([atom("x")]), { class: "ArgumentError", message: /got:\n\n\[:x\]\n$/ });
  assert.throws(() => toString(makeStruct("URI", { host: "h", path: "a" })), { class: "ArgumentError", message: /^:path in URI must be empty or an absolute path if URL has a :host, got: %URI\{/ });
});

test("Jason: map order, keys that stringify alike, escaping with upper-case hex, refusals", () => {
  assert.equal(jasonEncode(t('{"$map": [["a", 1], [{"$atom": "a"}, 2], [1, 3], [null, 4]]}')), '{"1":3,"a":2,"nil":4,"a":1}');
  assert.equal(jasonEncode('a"\\\n\u0001/é\u2028\u001f'), '"a\\"\\\\\\n\\u0001/é\u2028\\u001F"');
  assert.equal(jasonString("\u001f"), '"\\u001F"');
  assert.equal(quote("\u001f"), '"\\u001f"', "json.js quote is serde_json's, not Jason's");
  assert.equal(jasonEncode(makeStruct("PtcRunner.Lisp.Format.Var", { name: "x" })), '"#\'x"');
  assert.throws(() => jasonEncode(tuple(1)), { class: "Protocol.UndefinedError", message: /^protocol Jason\.Encoder not implemented for type Tuple, Jason\.Encoder protocol must always be explicitly implemented\./ });
  assert.throws(() => jasonEncode(binary(Uint8Array.of(0x61, 0xff))), { class: "Jason.EncodeError", message: "invalid byte 0xFF in <<97, 255>>" });
});

test("graphemes and NFC as OTP 25 (Unicode 14.0) counts them", () => {
  assert.equal(length("e\u0301x"), 2);
  assert.equal(length("\r\n"), 1);
  assert.equal(length("🇫🇷🇩🇪"), 2);
  assert.equal(length("\u231a\u200d\u{1f3fb}"), 2, "a ZWJ not followed by a pictograph ends the cluster");
  assert.equal(length("\u231a\u0e33\ufe0f\u200d\u2640\u0e33"), 1, "spacing marks extend a pictograph's cluster");
  assert.equal(take("e\u0301x", 1), "e\u0301");
  assert.deepEqual(graphemes("ab\u0308"), ["a", "b\u0308"]);
  assert.equal(lengthRaw("a\xffb"), 3);
  assert.equal(takeRaw("\xc3\xa9\xffx", 2), "\xc3\xa9\xff");
  assert.equal(nfc("a\u0301"), "\u00e1");
  assert.equal(nfc("\u1100\u1161"), "\uac00");
  assert.equal(nfc("\u00e1"), "\u00e1");
});

test("messages: templates from spec/data/messages.json, literal braces kept, unknown ids refused", () => {
  assert.equal(message("key_error").render({ key: ":a", term: "[]" }), "key :a not found in: []");
  assert.equal(message("key_error").class, "KeyError");
  assert.equal(message("key_error").render({ key: ":a" }), "key :a not found in: {term}");
  assert.ok(message("jason_encoder_struct_description").render().includes("@derive {Jason.Encoder, only: [....]}"));
  assert.throws(() => message("no_such"), { name: "DataError", message: 'messages.json has no template "no_such"' });
  const e = message("bad_map").raise({ term: "1" });
  assert.deepEqual([e.class, e.message], ["BadMapError", "expected a map, got: 1"]);
});

test("Enumerable: arity-2 functions are reducers (EX-8, LF-14)", () => {
  assert.deepEqual(walk([1, 2]), { elements: [1, 2] });
  assert.deepEqual(walk(new Fun({ arity: 2, returns: tuple(atom("done"), [1, 2]) })), { accumulator: [1, 2] });
  assert.deepEqual(toList(new Fun({ arity: 2, returns: tuple(atom("done"), [1, 2]) })), [2, 1]);
  assert.equal(mapJoinRaw(new Fun({ arity: 2, returns: tuple(atom("done"), atom("first")) }), " ", () => "x"), "");
  assert.equal(mapJoinRaw(new Fun({ arity: 2, returns: tuple(atom("done"), ["b", " ", "a"]) }), " ", () => "x"), "a b");
  assert.throws(() => walk(new Fun({ arity: 2, returns: 1 })), { class: "ArgumentError", message: "errors were found at the given arguments:\n\n  * 2nd argument: not a tuple\n" });
  assert.throws(() => walk(new Fun({ arity: 2, returns: tuple(1) })), { message: /1st argument: out of range/ });
  assert.throws(() => walk(new Fun({ arity: 2, raises: "boom" })), { class: "RuntimeError", message: "boom" });
  assert.throws(() => walk(new Fun({ arity: 1, returns: 1 })), { class: "Protocol.UndefinedError", message: /, only anonymous functions of arity 2 are enumerable\./ });
  assert.throws(() => walk(new Fun({ name: "&Foo.bar/2" })), { class: "UndefinedFunctionError", message: /^function Foo\.bar\/2 is undefined \(module Foo is not available\)\. Make sure/ });
});
