// Every term of the golden corpus (each case's args and its expected ok
// value) survives decode -> canonical encode -> decode, equal to itself,
// and encoding again gives the same bytes; and those bytes are the Rust
// harness's (src/model/tagged.rs `encode`), checked against the reference
// adapter when a built ptc-conformance is at hand.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "../json.js";
import { equal } from "../order.js";
import { decode, decodeValue, encode } from "../tagged.js";
import { Float } from "../terms.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const GOLDEN = join(repo, "golden");

/** Every case file under golden/, sorted. */
function caseFiles(dir = GOLDEN) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...caseFiles(path));
    else if (entry.name.endsWith(".json")) out.push(path);
  }
  return out.sort();
}

/** The terms of one case file: [JSON pointer, parsed JSON value]. */
function caseTerms(file) {
  const doc = parse(readFileSync(file, "utf8"));
  const args = doc.get("args");
  assert.ok(Array.isArray(args), `${file}: "args" is not an array`);
  const terms = args.map((a, i) => [`/args/${i}`, a]);
  const expect = doc.get("expect");
  if (expect instanceof Map && expect.has("ok")) terms.push(["/expect/ok", expect.get("ok")]);
  return terms;
}

const files = caseFiles();

test("the corpus is found", () => {
  assert.ok(files.length > 1000, `expected the golden corpus under ${GOLDEN}, found ${files.length} case files`);
});

for (const file of files) {
  const id = relative(GOLDEN, file).replace(/\.json$/, "");
  test(`round trip: ${id}`, () => {
    for (const [pointer, value] of caseTerms(file)) {
      const term = decodeValue(value, pointer);
      const bytes = encode(term);
      const again = decode(bytes, pointer);
      assert.ok(equal(term, again), `${id} ${pointer}: decoding ${bytes} gives another term`);
      assert.equal(encode(again), bytes, `${id} ${pointer}: encoding is not stable`);
    }
  });
}

// The reference adapter hands `canonical_cache_key("t", args)` a non-map
// `args` back untouched: each golden term goes out inside a one-element
// tuple, and the bytes it comes back as are compared with ours. Needs a
// built ptc-conformance: PTC_CONFORMANCE_BIN, or target/debug or
// target/release of this repository; skipped otherwise.
function referenceBinary() {
  if (process.env.PTC_CONFORMANCE_BIN) return process.env.PTC_CONFORMANCE_BIN;
  return ["debug", "release"].map((p) => join(repo, "target", p, "ptc-conformance")).find(existsSync);
}

const bin = referenceBinary();
const skip = bin ? false : "no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)";

test("canonical encoding is byte for byte the Rust encoder's", { skip }, () => {
  const sent = [];
  const lines = ['{"id":0,"op":"hello","args":[{"protocol":1}]}'];
  for (const file of files) {
    for (const [pointer, value] of caseTerms(file)) {
      sent.push({ where: `${relative(GOLDEN, file)} ${pointer}`, ours: encode(decodeValue(value, pointer)) });
      lines.push(`{"id":${sent.length},"op":"key_normalizer.canonical_cache_key","args":["t",{"$tuple":[${stringify(value)}]}]}`);
    }
  }
  lines.push(`{"id":${sent.length + 1},"op":"bye"}`);
  const run = spawnSync(bin, ["adapter"], { input: `${lines.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, `${bin} adapter failed: ${run.stderr}`);
  const answers = run.stdout.split("\n").filter((l) => l !== "");
  assert.equal(answers.length, sent.length + 1, "one answer per request, hello included");
  const suffix = "]}]}]}}";
  answers.slice(1).forEach((line, i) => {
    const prefix = `{"id":${i + 1},"ok":{"$tuple":["t",{"$tuple":[{"$atom":"non_map"},{"$tuple":[`;
    const { where, ours } = sent[i];
    assert.ok(line.startsWith(prefix) && line.endsWith(suffix), `${where}: unexpected answer ${line.slice(0, 200)}`);
    assert.equal(ours, line.slice(prefix.length, line.length - suffix.length), `${where}: our canonical encoding differs from the Rust encoder's`);
  });
  assert.ok(sent.length > 2000, `compared ${sent.length} terms`);
});

test("float text is the Rust encoder's on 20,000 doubles drawn from every exponent", { skip }, () => {
  // xorshift64*, seeded: the same doubles on every run.
  let state = 0x9e3779b97f4a7c15n;
  const view = new DataView(new ArrayBuffer(8));
  const doubles = [];
  while (doubles.length < 20000) {
    state ^= state >> 12n;
    state ^= (state << 25n) & 0xffffffffffffffffn;
    state ^= state >> 27n;
    view.setBigUint64(0, (state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn);
    const x = view.getFloat64(0);
    // Every third one rounded to six decimals, for short digit strings too.
    const rounded = Math.round(x * 1e6) / 1e6;
    if (Number.isFinite(x)) doubles.push(doubles.length % 3 === 0 && Number.isFinite(rounded) ? rounded : x);
  }
  const lines = doubles.map((x, i) => `{"id":${i + 1},"op":"key_normalizer.normalize_key","args":[${encode(new Float(x))}]}`);
  const run = spawnSync(bin, ["adapter"], { input: `${lines.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 26 });
  assert.equal(run.status, 0, run.stderr);
  const answers = run.stdout.split("\n").filter((l) => l !== "");
  assert.equal(answers.length, doubles.length);
  answers.forEach((line, i) => {
    assert.equal(line, `{"id":${i + 1},"ok":${encode(new Float(doubles[i]))}}`, `the double ${doubles[i]}`);
  });
});
