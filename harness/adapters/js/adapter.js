#!/usr/bin/env node
// A JavaScript port of PtcRunner 0.13.0's KeyNormalizer
// (PtcRunner.SubAgent.KeyNormalizer, spec/key_normalizer.md), its Lisp
// formatter (PtcRunner.Lisp.Formatter, spec/lisp_formatter.md), the
// native preview's cache_hint (spec/native_preview.md) and term.inspect
// (Kernel.inspect/1, spec/inspect.md), served over adapter protocol v1
// with the porter SDK in sdk/js/:
//
//   node harness/adapters/js/adapter.js < requests.jsonl
//
// The SDK does the JSON, the terms, their order, the protocol and
// Elixir's own text (inspect, to_string, float text, Enumerable); this
// file is PtcRunner's functions. See README.md next to it.

import { fileURLToPath } from "node:url";
import {
  Atom,
  Bytes,
  Float,
  TermMap,
  Tuple,
  Unsupported,
  atom,
  atomName,
  binary,
  functionClause,
  int,
  isBinary,
  isMap,
  serve,
  elixir,
} from "../../../sdk/js/index.js";

const { binaryOfRaw, floatToBinaryCompact10, inspectBinary, mapJoinRaw, message, rawOf, toStringRaw } = elixir;

const MODULE = "PtcRunner.SubAgent.KeyNormalizer";

/**
 * Map.new/2 over a map's pairs in iteration order, a later pair winning
 * over an earlier one with the same key (KN-6). Past 32 keys Elixir
 * iterates in hash order, which this port does not model: a collision
 * there is answered `unsupported` rather than guessed.
 */
function rebuild(m, fun) {
  const collisions = { count: 0 };
  const out = TermMap.from(
    m.pairs.map(([k, v]) => fun(k, v)),
    collisions,
  );
  if (collisions.count > 0 && m.size > 32) {
    throw new Unsupported(
      "keys that collide after normalization in a map of more than 32 keys: which one wins follows Erlang's hash order",
    );
  }
  return out;
}

/** KN-1..3: atoms and binaries become binaries with every `-` replaced by `_`; other keys stay. */
export function normalizeKey(key) {
  const name = atomName(key);
  if (name !== undefined) return name.replaceAll("-", "_");
  if (typeof key === "string") return key.replaceAll("-", "_");
  if (key instanceof Bytes) return binary(key.bytes.map((b) => (b === 0x2d ? 0x5f : b)));
  return key;
}

/** KN-4, KN-5: normalize the keys of every map, through map values and lists; nothing else is entered. */
export function normalizeKeys(term) {
  if (term instanceof TermMap) return rebuild(term, (k, v) => [normalizeKey(k), normalizeKeys(v)]);
  if (Array.isArray(term)) return term.map(normalizeKeys);
  return term;
}

/** KN-7: `{tool_name, canonical}` for map args, `{tool_name, {:non_map, args}}` otherwise. */
export function canonicalCacheKey(toolName, args) {
  if (!isBinary(toolName)) throw functionClause(MODULE, "canonical_cache_key", 2);
  const key = isMap(args) ? canonicalize(args) : new Tuple([atom("non_map"), args]);
  return new Tuple([toolName, key]);
}

/** KN-8..11: the canonical form of one value. */
function canonicalize(term) {
  if (term instanceof TermMap) return rebuild(term, (k, v) => [stringifyKey(k), canonicalize(v)]);
  if (Array.isArray(term)) return term.map(canonicalize);
  if (term instanceof Tuple) return term.items.map(canonicalize);
  // KN-10: trunc(x) == x gives the exact integer the double holds; -0.0 becomes 0.
  if (term instanceof Float && Number.isInteger(term.value)) return int(BigInt(term.value));
  return term;
}

function stringifyKey(key) {
  return atomName(key) !== undefined || isBinary(key) ? normalizeKey(key) : key;
}

// ---- PtcRunner.Lisp.Formatter (LF-) ----------------------------------------

const FORMATTER = "PtcRunner.Lisp.Formatter";
const noClause = () => functionClause(FORMATTER, "format", 1);
const FRAMES = {
  string: ['"', '"'], regex_literal: ['#"', '"'], keyword: [":", ""], symbol: ["", ""], quoted_symbol: ["'", ""], var: ["#'", ""],
  turn_history: ["*", ""], vector: ["[", "]"], map: ["{", "}"], set: ["#{", "}"], list: ["(", ")"], short_fn: ["#(", ")"],
};
const NAMES = new Set(["keyword", "symbol", "quoted_symbol", "var", "turn_history"]);
const SPECIAL_FLOATS = { infinity: "##Inf", negative_infinity: "##-Inf", nan: "##NaN" };

/** format/1: the source text of an AST node, as a raw string (one char per byte). */
function formatRaw(ast) {
  if (ast === null || ast === true || ast === false) return String(ast ?? "nil");
  if (typeof ast === "number" || typeof ast === "bigint") return String(ast);
  if (ast instanceof Float) return floatToBinaryCompact10(ast.value);
  if (ast instanceof Tuple) return taggedNode(ast.items);
  const name = atomName(ast);
  if (name !== undefined && Object.hasOwn(SPECIAL_FLOATS, name)) return SPECIAL_FLOATS[name];
  throw noClause();
}

function taggedNode(items) {
  const tag = items[0] instanceof Atom ? items[0].name : undefined;
  if (tag === "ns_symbol" && items.length === 3) return `${toStringRaw(items[1])}/${toStringRaw(items[2])}`;
  if (items.length !== 2 || tag === undefined || !Object.hasOwn(FRAMES, tag)) throw noClause();
  const [open, close] = FRAMES[tag];
  const arg = items[1];
  let body;
  if (tag === "string" || tag === "regex_literal") body = escapeString(arg);
  else if (NAMES.has(tag)) body = toStringRaw(arg);
  else if (tag === "map") body = mapJoinRaw(arg, " ", pair);
  else body = mapJoinRaw(arg, " ", formatRaw);
  return open + body + close;
}

function pair(p) {
  if (!(p instanceof Tuple && p.items.length === 2)) throw message("function_clause").raise({ function: `anonymous fn/1 in ${FORMATTER}.format_pairs/1` });
  return `${formatRaw(p.items[0])} ${formatRaw(p.items[1])}`;
}

const ESCAPED = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r" };

function escapeString(s) {
  const r = rawOf(s);
  if (r === undefined) throw functionClause("String", "replace", 4);
  return r.replace(/[\\"\n\t\r]/g, (c) => ESCAPED[c]);
}

/** LF-1..: format/1 as the binary it returns. */
export function format(ast) {
  return binaryOfRaw(formatRaw(ast));
}

// ---- NativePreview.cache_hint/2 (NP-) ----------------------------------------

/** The canonical args as the AST the formatter renders: maps with keys sorted by to_string/1 (stable), lists and tuples as vectors. */
function toAst(t) {
  if (t instanceof TermMap) {
    const keyed = t.pairs.map(([k, v]) => [toStringRaw(k), v]);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return tuple("map", keyed.map(([k, v]) => new Tuple([tuple("keyword", binaryOfRaw(k)), toAst(v)])));
  }
  if (Array.isArray(t)) return tuple("vector", t.map(toAst));
  if (t instanceof Tuple) return tuple("vector", t.items.map(toAst));
  if (isBinary(t)) return tuple("string", t);
  if (t instanceof Atom) return tuple("keyword", t.name);
  return t;
}

const tuple = (tag, arg) => new Tuple([atom(tag), arg]);

/** NP-: "Call lisp_eval and then call (tool/NAME ARGS) to process the full cached result." */
export function cacheHint(toolName, args) {
  if (!isBinary(toolName) || !isMap(args)) throw functionClause("PtcRunner.SubAgent.Loop.NativePreview", "cache_hint", 2);
  const canonical = canonicalCacheKey(toolName, args).items[1];
  return binaryOfRaw(`Call lisp_eval and then call (tool/${rawOf(toolName)} ${formatRaw(toAst(canonical))}) to process the full cached result.`);
}

/** The port as the SDK serves it. */
export const PORT = {
  name: "ptc_runner-javascript-port",
  version: "0.13.0",
  language: "javascript",
  ops: {
    "key_normalizer.normalize_key": normalizeKey,
    "key_normalizer.normalize_keys": normalizeKeys,
    "key_normalizer.canonical_cache_key": canonicalCacheKey,
    "lisp_formatter.format": format,
    "native_preview.cache_hint": cacheHint,
    "term.inspect": (term) => inspectBinary(term),
  },
  // The SDK's term model carries every kind of term faithfully, and these
  // functions pass what they do not rewrite through untouched.
  features: ["atoms", "tuples", "floats", "bigints", "binaries", "term-keys", "structs", "temporal", "functions", "opaque"],
};

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(PORT);
