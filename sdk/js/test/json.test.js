// The lossless JSON reader and writer (json.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonError, JsonNumber, MAX_DEPTH, parse, quote, stringify } from "../json.js";

test("integers are BigInts, exact past 2^53 and up to 2^64-1 and beyond", () => {
  assert.equal(parse("18446744073709551615"), 18446744073709551615n);
  assert.equal(parse("9007199254740993"), 9007199254740993n);
  assert.equal(parse("-170141183460469231731687303715884105728"), -(2n ** 127n));
  assert.equal(parse("-0"), 0n);
});

test("numbers with a fraction or exponent keep their text, so 1.0 is not 1", () => {
  const one = parse("1.0");
  assert.ok(one instanceof JsonNumber);
  assert.equal(one.text, "1.0");
  assert.equal(parse("1e+300").text, "1e+300");
  assert.equal(parse("-0.0").text, "-0.0");
  assert.ok(Object.is(parse("-0.0").toNumber(), -0));
  assert.deepEqual(parse('[1, 1.0, 1E2]').map((x) => typeof x === "bigint" ? x : x.text), [1n, "1.0", "1E2"]);
});

test("objects are Maps in written order, integer-like keys included", () => {
  const m = parse('{"b": 1, "2": 2, "a": {"1": null}}');
  assert.ok(m instanceof Map);
  assert.deepEqual([...m.keys()], ["b", "2", "a"]);
  assert.deepEqual([...m.get("a")], [["1", null]]);
});

test("a duplicated key is an error naming the object's JSON pointer", () => {
  assert.throws(() => parse('{"a": 1, "a": 2}'), { name: "JsonError", message: '/: duplicated key "a"' });
  assert.throws(() => parse('{"x": [0, {"b": 1, "b": 2}]}'), { message: '/x/1: duplicated key "b"' });
  assert.throws(() => parse('{"a/b": {"c~": {"k": 1, "k": 2}}}'), { message: '/a~1b/c~0: duplicated key "k"' });
  assert.throws(() => parse('[{"k": 1, "k": 2}]', "/args"), (e) => e.pointer === "/args/0" && e.why === 'duplicated key "k"');
});

test("strings: escapes, surrogate pairs, and errors for lone surrogates and raw control characters", () => {
  assert.equal(parse('"a\\u00e9\\ud83d\\ude00\\n\\/"'), "a\u00e9\u{1f600}\n/");
  assert.equal(parse('"\u{1f600}"'), "\u{1f600}");
  assert.throws(() => parse('"\\ud800"'), /lone leading surrogate/);
  assert.throws(() => parse('"\\udc00x"'), /lone trailing surrogate/);
  assert.throws(() => parse('"a\u0001"'), /control character/);
  assert.throws(() => parse('"\\x"'), /invalid escape/);
  assert.throws(() => parse('"\\u12g4"'), /invalid \\u escape/);
});

test("bad input is an error with a line and column, never a value", () => {
  for (const [text, why] of [
    ["", /EOF while parsing a value at line 1 column 1/],
    ["[1,]", /expected a value/],
    ["[1 2]", /expected `,` or `]`/],
    ['{"a" 1}', /expected `:`/],
    ["{a: 1}", /expected a string key/],
    ["01", /leading zero/],
    ["-", /expected a digit/],
    ["1.", /after the decimal point/],
    ["1e", /in the exponent/],
    ["NaN", /expected a value/],
    ["tru", /expected true/],
    ["[1]\n x", /trailing characters after the JSON value at line 2 column 2/],
    ['"abc', /EOF while parsing a string/],
    ["\ufeff1", /expected a value/],
  ]) {
    assert.throws(() => parse(text), (e) => e instanceof JsonError && why.test(e.message), JSON.stringify(text));
  }
});

test("nesting deeper than serde_json's limit is an error, not a stack overflow", () => {
  const ok = "[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH);
  assert.equal(parse(ok).length, 1);
  assert.throws(() => parse("[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1)), /recursion limit/);
  assert.throws(() => parse('{"a":'.repeat(100000)), /recursion limit/);
});

test("quote escapes as serde_json does", () => {
  assert.equal(quote('a"b\\c\n\r\t\b\f\u0000\u001f\u007f\u2028é'), '"a\\"b\\\\c\\n\\r\\t\\b\\f\\u0000\\u001f\u007f\u2028é"');
});

test("stringify writes back what parse read", () => {
  const text = '{"id":18446744073709551615,"x":[1.0,-0.0,1e+300,null,true,"\\u0001"],"2":{}}';
  assert.equal(stringify(parse(text)), text);
  assert.equal(stringify({ a: [1, 2n] }), '{"a":[1,2]}');
  assert.throws(() => stringify(1.5), /not a safe integer/);
});
