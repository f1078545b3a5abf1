// The edge terms every codec of the kit reads (spec/data/tagged_edges.json,
// also read by the Rust codec's tests, the Python SDK's and the Elixir
// adapter's): each accepted text decodes and encodes back byte for byte,
// each accepted_args decodes, and each refused args gives exactly the error
// the Rust codec gives, here and through the SDK's adapter (unsupported,
// "cannot decode request: " and the same text).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { FEATURES, createAdapter } from "../adapter.js";
import { decode, encode } from "../tagged.js";

const here = dirname(fileURLToPath(import.meta.url));
const EDGES = JSON.parse(readFileSync(resolve(here, "..", "data", "tagged_edges.json"), "utf8"));

test("TJ edge terms: every accepted text round-trips byte for byte", () => {
  assert.ok(EDGES.accepted.length > 50);
  for (const text of EDGES.accepted) assert.equal(encode(decode(text, "")), text, text.slice(0, 80));
});

test("TJ-10: args at the nesting limit decode", () => {
  for (const text of EDGES.accepted_args) assert.ok(Array.isArray(decode(text, "/args")), text.slice(0, 80));
});

test("TJ edge terms: every refusal names what the Rust codec names", () => {
  assert.ok(EDGES.refused.length > 50);
  for (const { args, error } of EDGES.refused) {
    assert.throws(() => decode(args, "/args"), (e) => e.name === "TermDecodeError" && e.message === error, `${args.slice(0, 80)}: ${error}`);
  }
});

test("TJ edge terms: the adapter declines each refusal with the same text, and answers each accepted args", () => {
  const adapter = createAdapter({ name: "edges", version: "0", ops: { "term.inspect": () => "x" }, features: [...FEATURES] });
  EDGES.refused.forEach(({ args, error }, i) => {
    const { answer } = adapter.handleLine(`{"id":${i},"op":"term.inspect","args":${args}}`);
    assert.deepEqual(JSON.parse(answer), { id: i, unsupported: `cannot decode request: ${error}` }, args.slice(0, 80));
  });
  for (const args of EDGES.accepted_args) {
    const { answer } = adapter.handleLine(`{"id":1,"op":"term.inspect","args":${args}}`);
    assert.equal(answer, '{"id":1,"ok":"x"}', args.slice(0, 80));
  }
});
