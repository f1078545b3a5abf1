// The SDK at each release (0.11.0, 0.12.0, 0.13.0), held to the golden
// corpus, whose answers were blessed from each release's build: a case's
// `expect` is 0.13.0's, `expect_by_release` an older release's where it
// differs, and `releases` the releases whose build has its input.
//
// Where an op's answer is one SDK function of its arguments, a port of it
// in a line or two is served by createAdapter at each release and must give
// that release's answer (term.inspect; normalize_key, which gives a struct
// back as it came; the Lisp formatter's names, which go through toString;
// render_error's payload, which is Jason's text). What the judge compares
// loosely is masked as it masks it: an #Inspect.Error's stack frames
// (LOOSE-4), an opaque term's text (LOOSE-2), a protocol's implementations
// (LOOSE-1). But where the expectation is the release's own (its
// expect_by_release entry, or expect at 0.13.0) the implementations must
// be the release's exactly, and so must the first format.ex line of each
// stack trace (the failing display struct's Inspect, which moved in
// v0.12.0): an older release reads expect only where its answer differs in
// nothing but these.
//
// The struct fields the release's answers write are the release's table;
// an input whose struct names a field the release lacks does not decode
// there; an op no case of a release runs is no op of it. Python's SDK has
// the same tests (sdk/python/tests/test_releases.py).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "../json.js";
import {
  Atom,
  Bytes,
  DEFAULT_RELEASE,
  RELEASES,
  Raised,
  Struct,
  TermDecodeError,
  Tuple,
  Unsupported,
  atomName,
  createAdapter,
  decodeValue,
  encode,
  FEATURES,
  knownStructs,
  map,
  opExistsAt,
  opNames,
  structFields,
  withRelease,
} from "../index.js";
import * as E from "../elixir/index.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const GOLDEN = join(repo, "golden");

function caseFiles(dir = GOLDEN) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...caseFiles(path));
    else if (entry.name.endsWith(".json")) out.push(path);
  }
  return out.sort();
}

const CASES = caseFiles().map((file) => {
  const doc = parse(readFileSync(file, "utf8"));
  return {
    file: relative(repo, file),
    op: doc.get("op"),
    args: doc.get("args"),
    expect: doc.get("expect"),
    byRelease: doc.get("expect_by_release") ?? new Map(),
    releases: doc.get("releases"),
  };
});

/** The case's expectation at `release` (parsed JSON), or undefined when its input does not exist there. */
function expected(c, release) {
  if (c.releases && !c.releases.includes(release)) return undefined;
  return c.byRelease.get(release) ?? c.expect;
}

const STACKTRACE = /Stacktrace:\n\n[\s\S]*?\n\n( *)>/g;
const FORMAT_FRAME = /lib\/ptc_runner\/lisp\/format\.ex:[0-9]+: Inspect\.[A-Za-z.]+\.inspect\/2/;
const IMPLEMENTATIONS = /^(protocol [\s\S]*?)\. This protocol is implemented for the following type\(s\): [\s\S]*?(\n\nGot value:)/;
const OPAQUE = /#(Function|PID|Reference|Port)<[^>]*>/g;

/** A term with its texts masked as the judge masks them (`own`: the expectation is the release's own, so the implementations stay). */
function masked(t, own) {
  const mask = (text) => {
    let out = text.replace(STACKTRACE, (m) => ["Stacktrace:", ...(own ? (m.match(FORMAT_FRAME) ?? []) : []), ">"].join(" "));
    if (!own) out = out.replace(IMPLEMENTATIONS, "$1. _$2");
    const opaque = OPAQUE.test(out);
    out = out.replace(OPAQUE, "#$1<_>");
    return opaque ? out.replace(/\s+/g, "") : out;
  };
  if (typeof t === "string") return mask(t);
  if (t instanceof Bytes) return E.binaryOfRaw(mask(E.rawOf(t)));
  if (Array.isArray(t)) return t.map((x) => masked(x, own));
  if (t instanceof Tuple) return new Tuple(t.items.map((x) => masked(x, own)));
  return t;
}

/** (module, sorted field names) of every $struct in parsed JSON, as written. */
function structsIn(v, out = []) {
  if (v instanceof Map) {
    if (v.size === 1 && v.has("$struct")) {
      const s = v.get("$struct");
      const fields = s.get("fields") ?? new Map();
      out.push(`${s.get("module")}: ${[...fields.keys()].sort().join(",")}`);
      for (const x of fields.values()) structsIn(x, out);
    } else for (const x of v.values()) structsIn(x, out);
  } else if (Array.isArray(v)) for (const x of v) structsIn(x, out);
  return out;
}

/** Every case of `op` that holds at `release`, asked of `fun` served at `release`: [case, expectation, answer] for those it answers. */
function serveAt(release, op, fun) {
  const adapter = createAdapter({ name: "t", version: "1", ops: { [op]: fun }, features: [...FEATURES], release });
  const out = [];
  CASES.filter((c) => c.op === op).forEach((c, i) => {
    const want = expected(c, release);
    if (want === undefined) return;
    const { answer } = adapter.handleLine(`{"id":${i},"op":${JSON.stringify(op)},"args":${stringify(c.args)}}`);
    const got = parse(answer);
    got.delete("id");
    if (!got.has("unsupported")) out.push([c, want, got]);
  });
  return out;
}

/** `fun` served at each release answers every case of `op` it answers as that release's build: at least `atLeast`, `older` of them with an older release's own answer. */
function check(op, fun, atLeast, older) {
  for (const rel of RELEASES) {
    const answered = serveAt(rel, op, fun);
    let own = 0;
    for (const [c, want, got] of answered) {
      own += c.byRelease.has(rel) ? 1 : 0;
      const mine = c.byRelease.has(rel) || rel === DEFAULT_RELEASE;
      const where = `${c.file} at ${rel}`;
      if (want.has("ok") && got.has("ok")) {
        const w = masked(decodeValue(want.get("ok"), "/expect/ok", rel), mine);
        const g = masked(decodeValue(got.get("ok"), "/ok", rel), mine);
        assert.equal(encode(g), encode(w), where);
        // The fields as written, not as the SDK's table completes them.
        assert.deepEqual(structsIn(got.get("ok")).sort(), structsIn(want.get("ok")).sort(), where);
      } else if (want.has("raised") && got.has("raised")) {
        const [w, g] = [want, got].map((x) => x.get("raised"));
        assert.equal(g.get("class"), w.get("class"), where);
        assert.equal(masked(g.get("message"), mine), masked(w.get("message"), mine), where);
      } else {
        assert.fail(`${where}: answered ${stringify(got).slice(0, 300)}, expected ${stringify(want).slice(0, 300)}`);
      }
    }
    assert.ok(answered.length >= atLeast, `${op} at ${rel}: ${answered.length} cases answered`);
    if (rel !== DEFAULT_RELEASE) assert.ok(own >= older, `${op} at ${rel}: ${own} cases with its own answer`);
  }
}

test("term.inspect at each release: struct fields, display structs' String.Chars, 0.11.0's frames", () => {
  check("term.inspect", (t) => E.inspectChecked(t), 143, 6);
});

test("normalize_key gives a struct back with the release's fields", () => {
  // The README's example port, which leaves binaries that are not UTF-8 alone (it declares no "binaries").
  const normalizeKey = (k) => {
    if (k instanceof Bytes) throw new Unsupported("not UTF-8");
    return atomName(k)?.replaceAll("-", "_") ?? (typeof k === "string" ? k.replaceAll("-", "_") : k);
  };
  check("key_normalizer.normalize_key", normalizeKey, 24, 1);
});

test("the Lisp formatter's names go through the release's toString", () => {
  const frames = { keyword: ":", symbol: "" };
  const unported = () => {
    throw new Unsupported("an element to format");
  };
  const formatName = (ast) => {
    if (!(ast instanceof Tuple) || ast.items.length !== 2 || !(ast.items[0] instanceof Atom)) throw new Unsupported("not a name node");
    const [tag, arg] = [ast.items[0].name, ast.items[1]];
    if (Object.hasOwn(frames, tag)) return E.binaryOfRaw(frames[tag] + E.toStringRaw(arg));
    if (tag === "vector" && !Array.isArray(arg)) return E.binaryOfRaw(`[${E.mapJoinRaw(arg, " ", unported)}]`);
    throw new Unsupported("not a name node");
  };
  check("lisp_formatter.format", formatName, 30, 2);
});

test("render_error's payload is the release's Jason text", () => {
  // PP-4 to PP-9, for well-formed arguments.
  const renderError = (reason, message, opts) => {
    if (atomName(reason) === undefined || typeof message !== "string" || !Array.isArray(opts)) throw new Unsupported("not ported here");
    const given = new Map();
    for (const item of opts) {
      const key = item instanceof Tuple && item.items.length > 0 ? atomName(item.items[0]) : undefined;
      if (key !== "feedback" && key !== "result") continue;
      if (item.items.length !== 2) throw new Unsupported("not ported here");
      if (!given.has(key)) given.set(key, item.items[1]);
    }
    const payload = [["status", "error"], ["reason", atomName(reason)], ["message", message], ["feedback", given.has("feedback") ? given.get("feedback") : message]];
    if (reason instanceof Atom && reason.name === "fail") payload.push(["result", given.get("result") ?? null]);
    return E.jasonEncode(map(payload));
  };
  check("protocol.render_error", renderError, 5, 1);
});

test("cache_hint reads every key through the release's toString (NP-2)", () => {
  let seen = 0;
  for (const c of CASES.filter((x) => x.op === "native_preview.cache_hint" && x.byRelease.size > 0)) {
    for (const rel of RELEASES) {
      const want = expected(c, rel);
      const args = decodeValue(c.args, "/args", rel);
      const keys = [...args[1].keys()].filter((k) => k instanceof Struct);
      if (keys.length === 0) continue;
      seen += 1;
      try {
        for (const k of keys) E.toString(k, rel);
        assert.ok(want.has("ok"), `${c.file} at ${rel}`);
      } catch (e) {
        if (!(e instanceof Raised)) throw e;
        const w = want.get("raised");
        assert.deepEqual([e.class, e.message], [w.get("class"), w.get("message")], `${c.file} at ${rel}`);
      }
    }
  }
  assert.ok(seen >= 3);
});

test("the struct fields a release's answers write are its table's", () => {
  for (const rel of RELEASES) {
    const widest = new Map();
    for (const c of CASES) {
      const want = expected(c, rel);
      if (want === undefined || !want.has("ok")) continue;
      for (const entry of structsIn(want.get("ok"))) {
        const [module, written] = entry.split(": ");
        const table = structFields(module, rel);
        if (!table) continue;
        const names = written === "" ? [] : written.split(",");
        const extra = names.filter((n) => !table.includes(n));
        assert.deepEqual(extra, [], `${c.file} at ${rel}: ${module} has no such field there`);
        if (names.length > (widest.get(module)?.length ?? -1)) widest.set(module, names);
      }
    }
    for (const [module, names] of widest) assert.deepEqual(names.sort(), [...structFields(module, rel)].sort(), `${module} at ${rel}`);
    assert.ok(widest.has("PtcRunner.Tool"));
  }
});

// A case that holds only from a later release on is left out of an earlier
// one because a struct in it names a later field; a case left out of a later
// release (v0.11.0's atom table) has inputs every release decodes.
test("an input a release lacks does not decode there", () => {
  let leftOut = 0;
  for (const c of CASES) {
    for (const rel of RELEASES) {
      if (expected(c, rel) !== undefined || !opExistsAt(c.op, rel)) continue;
      if (!(c.releases ?? RELEASES).every((r) => RELEASES.indexOf(r) > RELEASES.indexOf(rel))) continue;
      leftOut += 1;
      assert.throws(() => decodeValue(c.args, "/args", rel), (e) => e instanceof TermDecodeError && e.message.includes(`at release ${rel}`), `${c.file} at ${rel}`);
      decodeValue(c.args, "/args", DEFAULT_RELEASE);
    }
  }
  assert.ok(leftOut >= 8);
});

test("an op is a release's when its cases are", () => {
  for (const rel of RELEASES) {
    const ran = new Set(CASES.filter((c) => expected(c, rel) !== undefined).map((c) => c.op));
    assert.deepEqual(opNames(rel), [...ran].sort(), rel);
  }
});

test("at 0.11.0 the display structs have neither String.Chars nor Jason.Encoder (REL-7)", () => {
  const fn = decodeValue(parse('{"$struct": {"module": "PtcRunner.Lisp.Format.Fn", "fields": {"params": "x"}}}'));
  for (const rel of RELEASES) {
    withRelease(rel, () => {
      if (rel === "0.11.0") {
        assert.throws(() => E.toString(fn), (e) => e instanceof Raised && e.message.startsWith("protocol String.Chars not implemented for type PtcRunner.Lisp.Format.Fn (a struct)"));
        assert.throws(() => E.jasonEncode([fn]), /protocol Jason\.Encoder not implemented/);
      } else {
        assert.deepEqual([E.toString(fn), E.jasonEncode([fn])], ["#fn[x]", '["#fn[x]"]']);
      }
      assert.equal(E.inspect(fn), "#fn[x]");
    });
  }
  const display = knownStructs().filter((m) => m.startsWith("PtcRunner.Lisp.Format.")).sort();
  for (const protocol of ["String.Chars", "Jason.Encoder"]) {
    const old = new Set(E.implementations(protocol, "0.11.0"));
    for (const rel of ["0.12.0", "0.13.0"]) assert.deepEqual(E.implementations(protocol, rel).filter((m) => !old.has(m)).sort(), display);
  }
});
