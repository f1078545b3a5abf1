// The helpers a clean-room port had to write itself (issue 42), held to
// the Rust reference on generated inputs (termgen.js), each as the
// reference shows it through an op:
//
//   atomsHeld        JH-6's walk: protocol.atomize_value of a map whose
//                    binary keys are candidate names, typed by a list that
//                    holds the generated terms, turns exactly the held
//                    names (the guaranteed ones left out) into atoms
//   matchError       protocol.validate_return with an arity-2 function in
//                    place of a map's fields, whose accumulator is the
//                    generated term (no 2-tuple), raises it, at each release
//   Temporal parts   term.inspect of a calendar value rebuilt from year ...
//                    zoneAbbr alone
//   Bytes            term.inspect, lisp_formatter.format names and
//                    render_error payloads of terms whose every binary is
//                    Bytes answer as the reference does for the term
//
// One `ptc-conformance adapter --release R` per batch. Needs a built
// ptc-conformance (PTC_CONFORMANCE_BIN, or target/debug or target/release
// of this repository); skipped without one. PTC_SDK_SEED picks other terms.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { RELEASES, withRelease } from "../release.js";
import { atomTable, atomsHeld, inspectChecked, jasonEncode, matchError, toString } from "../elixir/index.js";
import { Raised } from "../adapter.js";
import { knownStructs, structFields } from "../structs.js";
import { decode, encode } from "../tagged.js";
import { yearText } from "../temporal.js";
import { termGen } from "../termgen.js";
import { Atom, Bytes, Fun, Struct, Temporal, TermMap, Tuple, atom, binary, binaryBytes } from "../terms.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const bin = process.env.PTC_CONFORMANCE_BIN ?? ["debug", "release"].map((p) => join(repo, "target", p, "ptc-conformance")).find(existsSync);
const skip = bin ? false : "no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)";
const SEED = Number(process.env.PTC_SDK_SEED ?? 42);

/** The reference's answer lines to `requests` ([op, args] pairs) at `release`, in order, each parsed: {ok}, {raised} or {unsupported}. */
function ask(release, requests) {
  const lines = requests.map(([op, args], i) => `{"id":${i},"op":${JSON.stringify(op)},"args":[${args.map(encode).join(",")}]}`);
  lines.push(`{"id":${requests.length},"op":"bye"}`);
  const run = spawnSync(bin, ["adapter", "--release", release], { input: `${lines.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 30 });
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout.split("\n").slice(0, -1);
  assert.equal(out.length, requests.length, run.stderr.slice(-2000));
  return out.map((line, i) => {
    const m = /^\{"id":(\d+),"(ok|raised|unsupported)":(.*)\}$/s.exec(line);
    assert.ok(m && Number(m[1]) === i, line.slice(0, 200));
    if (m[2] === "ok") return { ok: decode(m[3]) };
    if (m[2] === "raised") return { raised: JSON.parse(m[3]) };
    return { unsupported: JSON.parse(m[3]) };
  });
}

const answerOf = (f) => {
  try {
    return { ok: f() };
  } catch (e) {
    if (e instanceof Raised) return { raised: { class: e.class, message: e.message } };
    throw e;
  }
};
const same = (a, b) => encode(a.ok ?? null) === encode(b.ok ?? null) && JSON.stringify(a.raised) === JSON.stringify(b.raised) && a.unsupported === b.unsupported;

/** Names an atom of a generated term can have: termgen's, every struct's module and fields, the calendar's, captures'. */
function namesPool(gen, release) {
  const pool = new Set(["__struct__", "calendar", "year", "month", "day", "hour", "minute", "second", "microsecond", "time_zone", "zone_abbr", "utc_offset", "std_offset"]);
  for (const m of knownStructs()) {
    pool.add(`Elixir.${m}`);
    for (const f of structFields(m, release) ?? []) pool.add(f);
  }
  for (const m of ["Date", "Time", "DateTime", "NaiveDateTime", "Calendar.ISO", "String", "Foo", "Foo.Bar", "Enum"]) pool.add(`Elixir.${m}`);
  for (const n of ["lists", "reverse", "upcase", "map", "bar", "erlang", "foo", "f", "+", "ok", "a.b"]) pool.add(n);
  for (let i = 0; i < 40; i++) pool.add(gen.atomName());
  return pool;
}

test("atomsHeld is the reference's walk of the atoms the arguments hold (JH-6), at each release", { skip }, () => {
  for (const release of RELEASES) {
    const gen = termGen(SEED);
    const requests = [];
    const expected = [];
    withRelease(release, () => {
      const table = atomTable(release);
      for (let i = 0; i < 2000; i++) {
        const args = [gen.term(), gen.term()];
        const held = atomsHeld(args);
        const names = [...new Set([...namesPool(gen, release), ...held])].filter((n) => !table.has(n) && [...n].length <= 255).sort();
        requests.push(["protocol.atomize_value", [TermMap.from(names.map((n) => [n, null])), args]]);
        expected.push({ ok: TermMap.from(names.map((n) => [held.has(n) ? atom(n) : n, null])) });
      }
    });
    const answers = ask(release, requests);
    const differ = answers.map((a, i) => (same(a, expected[i]) ? null : encode(requests[i][1][1]).slice(0, 300))).filter((x) => x !== null);
    assert.deepEqual(differ.slice(0, 3), [], `${differ.length} differ at ${release}`);
  }
});

test("matchError is the reference's MatchError of an accumulator that is no pair (JH-15), at each release", { skip }, () => {
  for (const release of RELEASES) {
    const gen = termGen(SEED + 1);
    const requests = [];
    const expected = [];
    withRelease(release, () => {
      while (requests.length < 2000) {
        const t = gen.term();
        if (t instanceof Tuple && t.items.length === 2) continue;
        const fields = new Fun({ arity: 2, returns: new Tuple([atom("done"), t]) });
        const sig = TermMap.from([[atom("parsed_signature"), new Tuple([atom("signature"), [], new Tuple([atom("map"), fields])])]]);
        requests.push(["protocol.validate_return", [sig, TermMap.from([])]]);
        expected.push(answerOf(() => { throw matchError(t); }));
      }
    });
    const answers = ask(release, requests);
    const differ = answers.map((a, i) => (same(a, expected[i]) ? null : [JSON.stringify(a).slice(0, 300), JSON.stringify(expected[i]).slice(0, 300)])).filter((x) => x !== null);
    assert.deepEqual(differ.slice(0, 2), [], `${differ.length} differ at ${release}`);
  }
});

/** A calendar value of any kind, year (negative, five to nine digits), precision and offset TJ-6 allows. */
function temporalGen(gen) {
  const { below, pick } = gen;
  const y = pick([() => below(10000), () => -1 - below(9999), () => 10000 + below(999989999), () => -10000 - below(999989999)])();
  const two = (n) => String(n).padStart(2, "0");
  const m = 1 + below(12);
  const date = `${yearText(y)}-${two(m)}-${two(1 + below(m === 2 ? 28 : 30))}`;
  const p = below(7);
  let time = `${two(below(24))}:${two(below(60))}:${two(below(60))}`;
  if (p > 0) time += `.${Array.from({ length: p }, () => below(10)).join("")}`;
  switch (below(4)) {
    case 0:
      return new Temporal("date", date);
    case 1:
      return new Temporal("time", time);
    case 2:
      return new Temporal("naive_datetime", `${date}T${time}`);
    default: {
      if (below(10) < 3) return new Temporal("datetime", `${date}T${time}Z`);
      const [h, mi] = [below(24), below(60)];
      const sign = h === 0 && mi === 0 ? "+" : pick(["+", "-"]);
      return new Temporal("datetime", `${date}T${time}${sign}${two(h)}:${two(mi)}`);
    }
  }
}

/** inspect/1 of a calendar value (Elixir 1.18.4) from its parts alone, never its text. */
function fromParts(t) {
  const two = (n) => String(n).padStart(2, "0");
  const wide = t.year !== undefined && (t.year < -9999 || t.year > 9999);
  const date = t.year === undefined ? undefined : `${yearText(t.year)}-${two(t.month)}-${two(t.day)}`;
  const frac = t.precision ? `.${String(t.microsecond).padStart(6, "0").slice(0, t.precision)}` : "";
  const time = t.hour === undefined ? undefined : `${two(t.hour)}:${two(t.minute)}:${two(t.second)}${frac}`;
  switch (t.kind) {
    case "date":
      return wide ? `Date.new!(${t.year}, ${t.month}, ${t.day})` : `~D[${date}]`;
    case "time":
      return `~T[${time}]`;
    case "naive_datetime":
      return wide ? `NaiveDateTime.new!(${t.year}, ${t.month}, ${t.day}, ${t.hour}, ${t.minute}, ${t.second}, {${t.microsecond}, ${t.precision}})` : `~N[${date} ${time}]`;
    default: {
      assert.equal(t.stdOffset, 0);
      if (t.timeZone === "Etc/UTC") return wide ? `#DateTime<${date} ${time}Z>` : `~U[${date} ${time}Z]`;
      const o = Math.abs(t.utcOffset);
      const offset = `${t.utcOffset < 0 ? "-" : "+"}${two(Math.floor(o / 3600))}:${two(Math.floor((o % 3600) / 60))}`;
      return `#DateTime<${date} ${time}${offset} ${t.zoneAbbr} ${t.timeZone}>`;
    }
  }
}

test("Temporal's parts rebuild the reference's inspect of the value", { skip }, () => {
  const gen = termGen(SEED + 2);
  const values = Array.from({ length: 5000 }, () => temporalGen(gen));
  const answers = ask("0.13.0", values.map((t) => ["term.inspect", [t]]));
  const differ = values.map((t, i) => (answers[i].ok === fromParts(t) ? null : [t.kind, t.iso, fromParts(t), answers[i]])).filter((x) => x !== null);
  assert.deepEqual(differ.slice(0, 3), []);
});

test("Temporal's parts a kind lacks are undefined, and a text Elixir does not write is refused", () => {
  const t = new Temporal("time", "10:00:00.120");
  assert.deepEqual([t.year, t.month, t.day, t.utcOffset, t.timeZone], [undefined, undefined, undefined, undefined, undefined]);
  assert.deepEqual([t.hour, t.microsecond, t.precision], [10, 120000, 3]);
  assert.deepEqual([new Temporal("date", "-0004-02-29").year, new Temporal("date", "-0004-02-29").hour], [-4, undefined]);
  assert.equal(decode('{"$datetime": "2024-01-01T00:00:00-05:30"}').utcOffset, -19800);
  for (const [kind, iso] of [["date", "2024-1-01"], ["datetime", "2024-01-01T00:00:00-00:00"], ["time", "24:00:00"], ["nope", "x"]]) {
    assert.throws(() => new Temporal(kind, iso), TypeError);
  }
});

/** `t` with every string written as Bytes (the same term). */
function asBytes(t) {
  if (typeof t === "string") return new Bytes(Uint8Array.from(binaryBytes(t)));
  if (Array.isArray(t)) return t.map(asBytes);
  if (t instanceof Tuple) return new Tuple(t.items.map(asBytes));
  if (t instanceof TermMap) return TermMap.from([...t].map(([k, v]) => [asBytes(k), asBytes(v)]));
  if (t instanceof Struct) return new Struct(t.module, new Map([...t.fields].map(([k, v]) => [k, asBytes(v)])));
  return t;
}

const canonical = (a) => (a.ok instanceof Bytes ? { ok: binary(a.ok.bytes) } : a);

test("a term whose binaries are all Bytes answers as the reference does for that term", { skip }, () => {
  const gen = termGen(SEED + 3);
  const requests = [];
  const expected = [];
  for (let i = 0; i < 3000; i++) {
    const t = asBytes(gen.term());
    requests.push(["term.inspect", [t]]);
    expected.push(answerOf(() => inspectChecked(t)));
    const x = asBytes(gen.chardata());
    requests.push(["lisp_formatter.format", [new Tuple([atom("symbol"), x])]]);
    expected.push(answerOf(() => toString(x)));
    const m = asBytes(gen.string());
    requests.push(["protocol.render_error", [atom("fail"), m, [new Tuple([atom("result"), t])]]]);
    expected.push(answerOf(() => jasonEncode(TermMap.from([["status", "error"], ["reason", "fail"], ["message", m], ["feedback", m], ["result", t]]))));
  }
  const answers = ask("0.13.0", requests);
  const differ = answers
    .map((a, i) => {
      const mine = canonical(expected[i]);
      const ok = mine.ok !== undefined && typeof mine.ok === "string" && a.ok !== undefined ? mine.ok === a.ok : same(a, mine);
      return ok ? null : [requests[i][0], encode(requests[i][1][0]).slice(0, 200), JSON.stringify(mine).slice(0, 200), JSON.stringify(a).slice(0, 200)];
    })
    .filter((x) => x !== null);
  assert.deepEqual(differ.slice(0, 3), [], `${differ.length} of ${requests.length} differ`);
});

test("an atom name or function name given as Bytes reads as its text", () => {
  const held = atomsHeld([new Bytes(Uint8Array.of(0x61))]);
  assert.equal(held.size, 0, "a binary holds no atom");
  assert.ok(atomsHeld([new Atom("a")]).has("a"));
});

test("every function that takes a binary answers alike for a string and its Bytes, and returns binary terms", async () => {
  const E = await import("../elixir/index.js");
  const { message } = E;
  const funs = {
    graphemes: (b) => E.graphemes(b),
    length: (b) => E.length(b),
    take: (b) => E.take(b, 2),
    nfc: (b) => E.nfc(b),
    tokenize: (b) => JSON.stringify(E.tokenize(b)),
    trim: (b) => E.trim(b),
    printable: (b) => E.printable(b),
    escape: (b) => E.escape(b, '"', 10),
    inspect: (b) => E.inspect(b),
    toString: (b) => E.toString(b),
    jasonString: (b) => answerOf(() => E.jasonString(b)),
    atomExists: (b) => E.atomExists(b),
    render: (b) => message("bad_map").render({ term: b }),
    Raised: (b) => new Raised("X", b).message,
  };
  const names = { atomLiteral: E.atomLiteral, classifyAtom: E.classifyAtom, remoteCall: E.remoteCall, atomKey: E.atomKey };
  const canon = (x) => (x instanceof Bytes ? binary(x.bytes) : Array.isArray(x) ? x.map(canon) : x);
  const isCanonical = (x) => (x instanceof Bytes ? typeof binary(x.bytes) !== "string" : Array.isArray(x) ? x.every(isCanonical) : true);
  const gen = termGen(SEED + 4);
  for (let i = 0; i < 800; i++) {
    const s0 = i % 3 === 0 ? gen.atomName() : gen.string();
    const s = typeof s0 === "string" ? s0 : "x";
    const b = new Bytes(Uint8Array.from(binaryBytes(s)));
    const invalid = typeof s0 === "string" ? new Bytes(Uint8Array.of(0x61, 0xff)) : s0;
    for (const [name, f] of Object.entries({ ...funs, ...names })) {
      assert.deepEqual(canon(f(b)), canon(f(s)), `${name}(${JSON.stringify(s)})`);
      assert.ok(isCanonical(f(b)), `${name} of Bytes gives a canonical binary`);
    }
    for (const [name, f] of Object.entries(funs)) assert.ok(isCanonical(f(invalid)), `${name} of invalid Bytes`);
  }
});

test("a left-out optional argument gets the kit's default, nil stays nil, and undefined is no term", async () => {
  const { createAdapter } = await import("../adapter.js");
  for (const call of [(reason, message, opts) => opts, (reason, message, opts = ["never"]) => opts]) {
    const a = createAdapter({ name: "p", version: "1", features: ["atoms"], ops: { "protocol.render_error": call } });
    assert.equal(a.handleLine('{"id":1,"op":"protocol.render_error","args":[{"$atom":"r"},"m"]}').answer, '{"id":1,"ok":[]}');
    assert.equal(a.handleLine('{"id":2,"op":"protocol.render_error","args":[{"$atom":"r"},"m",null]}').answer, '{"id":2,"ok":null}');
    assert.match(a.handleLine('{"id":3,"op":"protocol.render_error","args":[{"$atom":"r"}]}').answer, /takes 2 or 3 argument/);
  }
  const given = createAdapter({ name: "p", version: "1", features: ["atoms"], ops: { "protocol.render_error": { call: (...args) => args.length, arity: [2, 3] } } });
  assert.equal(given.handleLine('{"id":4,"op":"protocol.render_error","args":[{"$atom":"r"},"m"]}').answer, '{"id":4,"ok":2}');
  const undef = createAdapter({ name: "p", version: "1", ops: { "term.inspect": () => [undefined] } });
  assert.match(undef.handleLine('{"id":5,"op":"term.inspect","args":[1]}').answer, /not a term: undefined \(a left-out argument or an absent key; the term nil is null\)/);
});
