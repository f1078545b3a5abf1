// The JavaScript KeyNormalizer port: its functions (spec/key_normalizer.md)
// and a session with the adapter as a child process, as the harness runs it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Bytes, Float, Raised, Tuple, Unsupported, atom, binary, decode, encode, map } from "../../../../sdk/js/index.js";
import { cacheHint, canonicalCacheKey, format, normalizeKey, normalizeKeys } from "../adapter.js";

const adapter = join(dirname(fileURLToPath(import.meta.url)), "..", "adapter.js");
const t = (json) => decode(json);

test("KN-1, KN-2, KN-3: normalize_key", () => {
  assert.equal(normalizeKey(atom("was-improved")), "was_improved");
  assert.equal(normalizeKey(null), "nil");
  assert.equal(normalizeKey("a-b-c"), "a_b_c");
  assert.equal(normalizeKey("a\u2010b"), "a\u2010b");
  const bytes = normalizeKey(binary(Uint8Array.of(0xff, 0x2d)));
  assert.ok(bytes instanceof Bytes);
  assert.deepEqual([...bytes.bytes], [0xff, 0x5f]);
  assert.equal(normalizeKey(1), 1);
});

test("KN-4..6: normalize_keys rebuilds maps and lists, not tuples, the later key winning", () => {
  assert.equal(encode(normalizeKeys(t('[{"a-b": {"c-d": "e-f"}}, {"$tuple": [{"x-y": 1}]}]'))), '[{"a_b":{"c_d":"e-f"}},{"$tuple":[{"x-y":1}]}]');
  assert.equal(encode(normalizeKeys(t('{"a-b": 1, "a_b": 2}'))), '{"a_b":2}');
  assert.equal(encode(normalizeKeys(t('{"$map": [[{"$atom": "foo"}, 1], ["foo", 2]]}'))), '{"foo":2}');
  assert.equal(encode(normalizeKeys(t('{"$kw": [["a-b", 1]]}'))), '{"$kw":[["a-b",1]]}');
});

test("KN-6: a collision in a map past 32 keys is unsupported, not guessed", () => {
  const pairs = Array.from({ length: 33 }, (_, i) => [`k_${i}`, i]);
  assert.equal(normalizeKeys(map(pairs)).size, 33);
  assert.throws(() => normalizeKeys(map([...pairs, ["k-0", 0]])), Unsupported);
});

test("KN-7..11: canonical_cache_key", () => {
  assert.equal(encode(canonicalCacheKey("t", t('{"n": {"$float": 1.0}, "f": {"$float": 1.5}, "z": {"$float": -0.0}}'))), '{"$tuple":["t",{"f":{"$float":1.5},"n":1,"z":0}]}');
  assert.equal(encode(canonicalCacheKey("t", map([[atom("a-b"), new Tuple([new Float(1e20), []])]]))), '{"$tuple":["t",{"a_b":[{"$int":"100000000000000000000"},[]]}]}');
  assert.equal(encode(canonicalCacheKey("t", map([[new Float(1), "float key stays"]]))), '{"$tuple":["t",{"$map":[[{"$float":1.0},"float key stays"]]}]}');
  assert.equal(encode(canonicalCacheKey("t", [new Float(2)])), '{"$tuple":["t",{"$tuple":[{"$atom":"non_map"},[{"$float":2.0}]]}]}');
  const big = canonicalCacheKey("t", map([["x", new Float(1e300)]])).items[1].get("x");
  assert.equal(big, BigInt(1e300));
  assert.throws(() => canonicalCacheKey(atom("t"), map([])), (e) => e instanceof Raised && e.class === "FunctionClauseError" && e.message === "no function clause matching in PtcRunner.SubAgent.KeyNormalizer.canonical_cache_key/2");
});

test("LF-: the Lisp formatter over the SDK's to_string, float text and Enumerable", () => {
  assert.equal(format(t('{"$tuple": [{"$atom": "map"}, [{"$tuple": [{"$tuple": [{"$atom": "keyword"}, "a"]}, {"$tuple": [{"$atom": "vector"}, [1, {"$float": 0.30000000000000004}, null]]}]}]]}')), "{:a [1 0.3 nil]}");
  assert.equal(format(new Tuple([atom("string"), 'a"b\n'])), String.raw`"a\"b\n"`);
  assert.equal(format(t('{"$tuple": [{"$atom": "ns_symbol"}, {"$atom": "tool"}, "x"]}')), "tool/x");
  assert.equal(format(atom("nan")), "##NaN");
  assert.throws(() => format(atom("x")), { class: "FunctionClauseError", message: "no function clause matching in PtcRunner.Lisp.Formatter.format/1" });
  assert.throws(() => format(t('{"$tuple": [{"$atom": "map"}, [1]]}')), { message: "no function clause matching in anonymous fn/1 in PtcRunner.Lisp.Formatter.format_pairs/1" });
  assert.throws(() => format(t('{"$tuple": [{"$atom": "keyword"}, {"$tuple": []}]}')), { class: "Protocol.UndefinedError" });
});

test("NP-: cache_hint renders the canonical args, keys sorted by to_string/1", () => {
  assert.equal(cacheHint("search", t('{"$map": [[{"$atom": "b-c"}, {"$float": 2.0}], ["a", ["x", {"$atom": "y"}]]]}')), 'Call lisp_eval and then call (tool/search {:a ["x" :y] :b_c 2}) to process the full cached result.');
  assert.throws(() => cacheHint("search", []), { class: "FunctionClauseError", message: "no function clause matching in PtcRunner.SubAgent.Loop.NativePreview.cache_hint/2" });
});

test("a session through the adapter process: hello, pipelined requests, errors, bye", () => {
  const requests = [
    '{"id":0,"op":"hello","args":[{"protocol":1}]}',
    '{"id":1,"op":"key_normalizer.normalize_key","args":[{"$atom":"was-improved"}]}',
    '{"id":18446744073709551615,"op":"key_normalizer.canonical_cache_key","args":["t",{"$map":[[{"$atom":"a"},{"$float":1.0}],["a",{"$float":2.0}]]}]}',
    '{"id":3,"op":"key_normalizer.canonical_cache_key","args":[1,{}]}',
    '{"id":4,"op":"key_normalizer.normalize_keys","args":[{"$struct":{"module":"Range","fields":{}}}]}',
    '{"id":5,"op":"protocol.render_success","args":["t",{}]}',
    '{"id":6,"op":"key_normalizer.normalize_keys","args":[{"$struct":{"module":"URI","fields":{"host":"h-1"}}}]}',
    '{"id":7,"op":"bye"}',
    '{"id":8,"op":"key_normalizer.normalize_key","args":["after bye"]}',
  ];
  const run = spawnSync(process.execPath, [adapter], { input: `${requests.join("\n")}\n`, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  const hello = decode(lines[0].slice(lines[0].indexOf('"ok":') + 5, -1));
  assert.equal(hello.get("protocol"), 1);
  assert.equal(hello.get("language"), "javascript");
  assert.deepEqual(hello.get("ops"), [
    "key_normalizer.canonical_cache_key",
    "key_normalizer.normalize_key",
    "key_normalizer.normalize_keys",
    "lisp_formatter.format",
    "native_preview.cache_hint",
    "term.inspect",
  ]);
  assert.deepEqual(lines.slice(1), [
    '{"id":1,"ok":"was_improved"}',
    '{"id":18446744073709551615,"ok":{"$tuple":["t",{"a":2}]}}',
    '{"id":3,"raised":{"class":"FunctionClauseError","message":"no function clause matching in PtcRunner.SubAgent.KeyNormalizer.canonical_cache_key/2"}}',
    '{"id":4,"unsupported":"cannot decode request: /args/0/$struct: $struct module Range is not a struct of the boundary"}',
    '{"id":5,"unsupported":"unknown op \\"protocol.render_success\\""}',
    '{"id":6,"ok":{"$struct":{"module":"URI","fields":{"authority":null,"fragment":null,"host":"h-1","path":null,"port":null,"query":null,"scheme":null,"userinfo":null}}}}',
  ]);
});

test("the end of input ends the adapter with status 0", () => {
  const run = spawnSync(process.execPath, [adapter], { input: '{"id":1,"op":"key_normalizer.normalize_key","args":["a-b"]}', encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '{"id":1,"ok":"a_b"}\n');
});
