// The rest of the Elixir layer held to Elixir 1.18.4 itself: the 9,200
// seeded cases of sdk/testdata/elixir_cases.json (made by
// sdk/testdata/elixir_cases.exs, which says how to read them), each
// answered by the SDK and compared exactly (class and message of an
// exception too); and the examples of README.md § The rest of Elixir.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Raised, Tuple, atomName, decodeValue, elixir, equal, parse, sortBinaries, truthy } from "../index.js";

const { Improper } = elixir;
// Read losslessly (json.js), so that -0.0 and big integers survive; a case is then a plain object.
const CASES = parse(readFileSync(new URL("../../testdata/elixir_cases.json", import.meta.url), "utf8"))
  .get("cases")
  .map((c) => Object.fromEntries(c));

function term(v) {
  if (v instanceof Map && v.size === 1) {
    if (v.has("$improper")) return new Improper(v.get("$improper")[0].map(term), term(v.get("$improper")[1]));
    if (v.has("$tuple")) return new Tuple(v.get("$tuple").map(term));
  }
  if (Array.isArray(v)) return v.map(term);
  return decodeValue(v, "");
}

const FUNS = {
  append: (a, b) => elixir.append(a, b),
  flat_map: (items, results) => elixir.flatMap(items, (i) => results[i]),
  mapset_member: (s, v) => elixir.maps.member(s, v),
  keyword_get: (k, key) => elixir.keyword.get(k, atomName(key)),
  keyword_fetch: (k, key) => elixir.keyword.fetch(k, atomName(key)),
  "keyword_fetch!": (k, key) => elixir.keyword.fetchBang(k, atomName(key)),
  keyword_take: (k, keys) => elixir.keyword.take(k, keys.map(atomName)),
  map_get: (m, k) => elixir.maps.get(m, k),
  map_has_key: (m, k) => elixir.maps.hasKey(m, k),
  dot: (m, f) => elixir.maps.dot(m, atomName(f)),
  map_new: (p) => elixir.maps.mapNew(p),
  trim: (s) => elixir.trim(s),
  take: (l, n) => elixir.enumTake(l, n),
  to_existing_atom: (n) => elixir.toExistingAtom(n),
  datetime: (s) => elixir.fromIso8601Utc(s)?.iso ?? null,
  string_slice: (s, start, len) => elixir.slice(s, start, len),
  cut: (s, limit) => new Tuple(elixir.cut(s, limit)),
  sort_by: (t) => elixir.sortBy(t, (p) => p.items[1]),
  sort_binaries: (bins) => sortBinaries(bins),
  truthy: (t) => truthy(t),
  map_keys: (m) => elixir.maps.keys(m),
  jason_encode: (t) => {
    const r = elixir.jasonTryEncode(t);
    return r.error ? { error: r.error } : r.ok;
  },
};

function answer(fun, args) {
  try {
    const v = FUNS[fun](...args);
    if (v?.error instanceof Raised) return ["error", [v.error.class, v.error.message]];
    return ["ok", v];
  } catch (e) {
    if (e instanceof Raised) return ["raised", [e.class, e.message]];
    throw e;
  }
}

function expected(c) {
  if ("ok" in c) return ["ok", c.fun === "jason_encode" ? c.ok : term(c.ok)];
  const kind = "error" in c ? "error" : "raised";
  return [kind, [c[kind].get("class"), c[kind].get("message")]];
}

const same = (a, b) => a[0] === b[0] && (a[1] instanceof Improper ? a[1].equals(b[1]) : a[0] === "ok" ? equal(a[1], b[1]) : a[1][0] === b[1][0] && a[1][1] === b[1][1]);

test("every case answers as Elixir 1.18.4", () => {
  assert.ok(CASES.length > 6000);
  assert.deepEqual(new Set(CASES.map((c) => c.fun)), new Set(Object.keys(FUNS)));
  const differ = [];
  let gaps = 0;
  for (const c of CASES) {
    const mine = answer(c.fun, c.args.map(term));
    if ("gap" in c) {
      // Elixir raised ArgumentError where the reference reads on (the row's reason), and so does the SDK.
      gaps++;
      if (mine[0] === "raised" && mine[1][0] === "ArgumentError") differ.push(`${c.fun} ${String(c.args).slice(0, 300)}\n  sdk    ${mine[0]}\n  gap    ${c.gap}`);
      continue;
    }
    const want = expected(c);
    if (!same(mine, want)) differ.push(`${c.fun} ${String(c.args).slice(0, 300)}\n  sdk    ${JSON.stringify(mine, (k, v) => (typeof v === "bigint" ? String(v) : v)).slice(0, 300)}\n  elixir ${JSON.stringify(expected(c), (k, v) => (typeof v === "bigint" ? String(v) : v)).slice(0, 300)}`);
  }
  assert.equal(differ.length, 0, `${differ.length} of ${CASES.length} differ:\n${differ.slice(0, 8).join("\n")}`);
  assert.ok(gaps > 0 && gaps < 100, `${gaps} rows of a known gap`);
});

test("README: the rest of Elixir, and the SDK's frictions fixed", async () => {
  const { Atom, TermMap, functionClause, opRow, createAdapter } = await import("../index.js");
  // ++ and improper lists; Keyword and Map access; String.trim; Enum.take.
  assert.ok(elixir.append([1], 2).equals(new Improper([1], 2)));
  assert.equal(elixir.keyword.get([new Tuple([new Atom("limit"), 5])], "limit"), 5);
  assert.throws(() => elixir.maps.dot(5, "a"), /KeyError|dot syntax/);
  assert.equal(elixir.trim("\u2003x "), "x");
  assert.deepEqual(elixir.enumTake([1, 2, 3], -2), [2, 3]);
  assert.equal(elixir.fromIso8601Utc("2024-01-01 01:00:00+01").iso, "2024-01-01T00:00:00Z");
  assert.equal(elixir.maps.member(new (await import("../index.js")).Struct("MapSet", new Map([["map", TermMap.from([[1, []]])]])), 1), true);
  // A map key String.Chars refuses escapes Jason.encode/1 (NP-23); Jason's own refusals are {error}.
  assert.throws(() => elixir.jasonTryEncode(TermMap.from([[new Tuple([1]), 1]])), (e) => e.class === "Protocol.UndefinedError");
  assert.equal(elixir.jasonTryEncode(new Tuple([1])).error.class, "Protocol.UndefinedError");
  // functionClause with one argument: the function's whole text.
  assert.equal(functionClause("anonymous fn/1 in M.f/3").message, "no function clause matching in anonymous fn/1 in M.f/3");
  assert.equal(functionClause("M", "f", 3).message, "no function clause matching in M.f/3");
  // The ops as data; the loop's own declines name the arguments and tell the hook why.
  assert.deepEqual(opRow("protocol.render_error").args.map((a) => a.name), ["reason", "message", "opts"]);
  const seen = [];
  const a = createAdapter({ name: "p", version: "1", ops: { "tool.new": (n, f) => n }, hook: (e) => seen.push(e) });
  assert.equal(a.handleLine('{"id":1,"op":"tool.new","args":[1]}').answer, '{"id":1,"unsupported":"tool.new takes 2 argument(s) (name, format), got 1"}');
  a.handleLine('{"id":2,"op":"nope","args":[]}');
  assert.deepEqual(seen.map((e) => e.error), ["tool.new takes 2 argument(s) (name, format), got 1", 'unknown op "nope"']);
});
