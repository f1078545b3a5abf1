#!/usr/bin/env node
// A JavaScript port of PtcRunner 0.13.0's KeyNormalizer
// (PtcRunner.SubAgent.KeyNormalizer, spec/key_normalizer.md), served over
// adapter protocol v1 with the porter SDK in sdk/js/:
//
//   node harness/adapters/js/adapter.js < requests.jsonl
//
// The SDK does the JSON, the terms, their order and the protocol; this
// file is the three functions. See README.md next to it.

import { fileURLToPath } from "node:url";
import {
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
} from "../../../sdk/js/index.js";

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

/** The port as the SDK serves it. */
export const PORT = {
  name: "ptc_runner-javascript-port",
  version: "0.13.0",
  language: "javascript",
  ops: {
    "key_normalizer.normalize_key": normalizeKey,
    "key_normalizer.normalize_keys": normalizeKeys,
    "key_normalizer.canonical_cache_key": canonicalCacheKey,
  },
  // The SDK's term model carries every kind of term faithfully, and these
  // functions pass what they do not rewrite through untouched.
  features: ["atoms", "tuples", "floats", "bigints", "binaries", "term-keys", "structs", "temporal", "functions", "opaque"],
};

if (process.argv[1] === fileURLToPath(import.meta.url)) serve(PORT);
