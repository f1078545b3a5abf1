// The adapter loop (adapter.js): handshake, answers by id, unsupported and
// raised answers, bye, and lines that are no request (spec/adapter_protocol.md).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { FEATURES, Raised, Unsupported, createAdapter, functionClause, serve, sniffId } from "../adapter.js";
import { parse } from "../json.js";
import { Float, TermMap, tuple } from "../terms.js";

const PORT = {
  name: "test-port",
  version: "1.2.3",
  ops: {
    "test.echo": (x) => x,
    "test.pair": (a, b) => tuple(a, b),
    "test.raise": () => {
      throw new Raised("ArgumentError", "bad\nthing");
    },
    "test.clause": () => {
      throw functionClause("PtcRunner.Tool", "new", 2);
    },
    "test.unsupported": () => {
      throw new Unsupported("cannot carry this");
    },
    "test.bug": () => null.x,
    "test.not_a_term": () => 1.5,
    "test.varargs": { call: (...xs) => xs.length, arity: [1, 2] },
  },
  features: ["floats", "atoms"],
};

const answer = (line) => createAdapter(PORT).handleLine(line);

test("hello declares name, version, language, protocol 1, ops and features, sorted", () => {
  const { answer: line } = answer('{"id":0,"op":"hello","args":[{"protocol":1}]}');
  assert.equal(
    line,
    '{"id":0,"ok":{"features":["atoms","floats"],"language":"javascript","name":"test-port","ops":["test.bug","test.clause","test.echo","test.not_a_term","test.pair","test.raise","test.unsupported","test.varargs"],"protocol":1,"version":"1.2.3"}}',
  );
});

test("hello names the release only when the port chooses one (AP-18)", () => {
  const hello = (release) => createAdapter({ ...PORT, release }).handleLine('{"id":0,"op":"hello","args":[{"protocol":1}]}').answer;
  assert.doesNotMatch(hello(undefined), /release/);
  assert.match(hello("0.12.0"), /"release":"0\.12\.0"/);
  assert.throws(() => hello("0.12"), /unknown release "0\.12" \(did you mean "0\.12\.0"\?\)/);
});

test("answers carry the request's id, exactly, up to 2^64-1", () => {
  assert.equal(answer('{"id":18446744073709551615,"op":"test.echo","args":[{"$float":1.0}]}').answer, '{"id":18446744073709551615,"ok":{"$float":1.0}}');
  assert.equal(answer('{"op":"test.echo","args":[1],"id":9007199254740993}').answer, '{"id":9007199254740993,"ok":1}');
  assert.equal(answer('{"id":3,"op":"test.pair","args":[{"$atom":"a"},{"$int":"123456789012345678901234567890"}]}').answer, '{"id":3,"ok":{"$tuple":[{"$atom":"a"},{"$int":"123456789012345678901234567890"}]}}');
});

test("exceptions: Raised as raised, anything else as a visible javascript: failure", () => {
  assert.equal(answer('{"id":1,"op":"test.raise","args":[]}').answer, '{"id":1,"raised":{"class":"ArgumentError","message":"bad\\nthing"}}');
  assert.equal(answer('{"id":1,"op":"test.clause","args":[]}').answer, '{"id":1,"raised":{"class":"FunctionClauseError","message":"no function clause matching in PtcRunner.Tool.new/2"}}');
  const bug = answer('{"id":2,"op":"test.bug","args":[]}');
  assert.match(bug.answer, /^\{"id":2,"raised":\{"class":"javascript:TypeError","message":"Cannot read properties of null/);
  assert.match(bug.log, /^test-port: test\.bug \(id 2\) threw: TypeError/);
  assert.match(answer('{"id":3,"op":"test.not_a_term","args":[]}').answer, /^\{"id":3,"raised":\{"class":"javascript:EncodeError","message":"the number 1.5 is not a term/);
});

test("unsupported: unknown ops, wrong arity, undecodable args naming the pointer, and the port's own", () => {
  assert.equal(answer('{"id":1,"op":"no.such","args":[]}').answer, '{"id":1,"unsupported":"unknown op \\"no.such\\""}');
  assert.equal(answer('{"id":2,"op":"test.pair","args":[1]}').answer, '{"id":2,"unsupported":"test.pair takes 2 argument(s), got 1"}');
  assert.equal(answer('{"id":3,"op":"test.varargs","args":[]}').answer, '{"id":3,"unsupported":"test.varargs takes 1 or 2 argument(s), got 0"}');
  assert.equal(answer('{"id":3,"op":"test.varargs","args":[1,2]}').answer, '{"id":3,"ok":2}');
  assert.equal(
    answer('{"id":4,"op":"test.echo","args":[{"a":[{"$atm":"x"}]}]}').answer,
    '{"id":4,"unsupported":"cannot decode request: /args/0/a/0: unknown tag \\"$atm\\""}',
  );
  assert.equal(answer('{"id":5,"op":"test.echo","args":[[1.5]]}').answer.slice(0, 60), '{"id":5,"unsupported":"cannot decode request: /args/0/0: bar');
  assert.equal(answer('{"id":6,"op":"test.unsupported","args":[]}').answer, '{"id":6,"unsupported":"cannot carry this"}');
  assert.equal(answer('{"id":7,"op":"test.echo"}').answer, '{"id":7,"unsupported":"cannot decode request: no \\"args\\""}');
  assert.equal(answer('{"id":8,"op":"test.echo","args":{}}').answer, '{"id":8,"unsupported":"cannot decode request: \\"args\\" is not an array"}');
  assert.equal(answer('{"id":9,"op":"test.echo","args":[],"extra":1}').answer, '{"id":9,"unsupported":"cannot decode request: unexpected key \\"extra\\""}');
});

test("lines that are no request: answered when the id is readable, else a note on stderr", () => {
  assert.equal(answer('{"id": 12, "op": broken').answer, '{"id":12,"unsupported":"cannot decode request: expected a value, found \\"b\\" at line 1 column 18"}');
  assert.equal(answer('{"id":5,"id":6,"op":"x","args":[]}').answer, '{"id":5,"unsupported":"cannot decode request: /: duplicated key \\"id\\""}');
  assert.equal(answer(Buffer.from('{"id":13,"op":"test.echo","args":["\xff"]}', "latin1")).answer, '{"id":13,"unsupported":"request line is not UTF-8"}');
  for (const line of ["[1,2]", '"hello"', '{"op":"test.echo","args":[]}', '{"id":-1,"op":"test.echo","args":[]}', '{"id":18446744073709551616,"op":"x","args":[]}', "nonsense"]) {
    const r = answer(line);
    assert.equal(r.answer, null, line);
    assert.match(r.log, /^test-port: ignoring a line without a readable id/, line);
  }
  // As the Rust harness reads ids: the digits at the start of the line.
  assert.equal(answer('{"id":1.0,"op":"x","args":[]}').answer, '{"id":1,"unsupported":"cannot decode request: \\"id\\" is not an integer from 0 to 2^64-1"}');
  assert.equal(sniffId('  { "id" : 42, "op": '), "42");
  assert.equal(sniffId('{"op": "x", "id": 42}'), undefined);
});

test("bye ends the session without an answer", () => {
  assert.deepEqual(answer('{"id":9,"op":"bye"}'), { answer: null, bye: true });
});

test("a port description with a misspelt feature or no ops is refused", () => {
  assert.throws(() => createAdapter({ ...PORT, features: ["atom"] }), /unknown feature "atom" \(did you mean "atoms"\?\)/);
  assert.throws(() => createAdapter({ ...PORT, ops: {} }), /names no op/);
  assert.throws(() => createAdapter({ ...PORT, name: "" }), /"name" must be a non-empty string/);
  assert.throws(() => createAdapter({ ...PORT, ops: { x: 1 } }), /op "x": expected a function/);
});

test("FEATURES is the feature table of spec/terms.md", () => {
  const spec = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "spec", "terms.md"), "utf8");
  const section = spec.slice(spec.indexOf("## Features"));
  const names = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...FEATURES], names);
});

/** Runs serve over in-memory streams; `chunks` are written one by one. */
async function session(chunks) {
  const input = new PassThrough();
  const output = new PassThrough();
  const log = new PassThrough();
  let out = "";
  let err = "";
  output.on("data", (d) => (out += d));
  log.on("data", (d) => (err += d));
  const done = serve(PORT, { input, output, log, exit: false });
  for (const c of chunks) input.write(c);
  input.end();
  const status = await done;
  return { status, lines: out.split("\n").filter((l) => l !== ""), err };
}

test("serve: pipelined requests split anywhere are answered in order, and bye stops reading", async () => {
  const text = [
    '{"id":0,"op":"hello","args":[{"protocol":1}]}',
    '{"id":1,"op":"test.echo","args":["a"]}\r',
    "   ",
    '{"id":2,"op":"test.echo","args":[{"$tuple":[]}]}',
    '{"id":3,"op":"bye"}',
    '{"id":4,"op":"test.echo","args":["never"]}',
    "",
  ].join("\n");
  const bytes = Buffer.from(text);
  const { status, lines } = await session([bytes.subarray(0, 7), bytes.subarray(7, 60), bytes.subarray(60)]);
  assert.equal(status, 0);
  assert.equal(lines.length, 3);
  assert.equal(parse(lines[0]).get("id"), 0n);
  assert.deepEqual(lines.slice(1), ['{"id":1,"ok":"a"}', '{"id":2,"ok":{"$tuple":[]}}']);
});

test("serve: the end of input answers a last line without a newline and exits 0", async () => {
  const { status, lines, err } = await session(['[1]\n{"id":7,"op":"test.echo","args":[{"$float":-0.0}]}']);
  assert.equal(status, 0);
  assert.deepEqual(lines, ['{"id":7,"ok":{"$float":-0.0}}']);
  assert.match(err, /ignoring a line without a readable id: cannot decode request: a request is a JSON object/);
  assert.match(err, /^test-port: the argument count of test\.bug, test\.clause, test\.not_a_term, test\.raise, test\.unsupported is not checked \(no declared parameters, as a \(\.\.\.args\) wrapper has none\): give \{call, arity\}\n/);
});

test("serve: a bad port description exits 2 with the reason on stderr", async () => {
  const log = new PassThrough();
  let err = "";
  log.on("data", (d) => (err += d));
  const status = await serve({ ...PORT, features: ["struct"] }, { input: new PassThrough(), output: new PassThrough(), log, exit: false });
  assert.equal(status, 2);
  assert.match(err, /unknown feature "struct" \(did you mean "structs"\?\)/);
});

test("keyword maps and big maps answer in map key order", () => {
  const m = TermMap.from(Array.from({ length: 40 }, (_, i) => [String(39 - i).padStart(2, "0"), new Float(i / 2)]));
  const { answer: line } = createAdapter({ ...PORT, ops: { "t.m": () => m } }).handleLine('{"id":1,"op":"t.m","args":[]}');
  assert.ok(line.startsWith('{"id":1,"ok":{"00":{"$float":19.5},"01":{"$float":19.0},'), line);
});

test("hook: sees every request with its outcome, decoded args, answer and error; its own failure is logged, the answer kept", () => {
  const seen = [];
  const adapter = createAdapter({ ...PORT, hook: (e) => seen.push(e) });
  const lines = [
    '{"id":0,"op":"hello","args":[{"protocol":1}]}',
    '{"id":1,"op":"test.echo","args":[{"$atom":"a"}]}',
    '{"id":2,"op":"test.raise","args":[]}',
    '{"id":3,"op":"test.unsupported","args":[]}',
    '{"id":4,"op":"test.nope","args":[]}',
    '{"id":5,"op":"test.bug","args":[]}',
    '{"id":6,"op":"test.echo","args":[{"$atm":"a"}]}',
    "not json",
    '{"id":7,"op":"bye"}',
  ];
  const answers = lines.map((l) => adapter.handleLine(l));
  assert.deepEqual(
    seen.map((e) => [e.id, e.op, e.outcome]),
    [["0", "hello", "hello"], ["1", "test.echo", "ok"], ["2", "test.raise", "raised"], ["3", "test.unsupported", "unsupported"], ["4", "test.nope", "unsupported"], ["5", "test.bug", "bug"], ["6", "test.echo", "unsupported"], [undefined, undefined, "rejected"], ["7", "bye", "bye"]],
  );
  seen.forEach((e, i) => {
    assert.equal(e.answer, answers[i].answer, `event ${i} carries the answer written`);
    assert.equal(e.line, lines[i]);
  });
  assert.equal(seen[1].args[0].name, "a");
  assert.equal(seen[2].error.class, "ArgumentError");
  assert.ok(seen[3].error instanceof Unsupported);
  assert.equal(seen[4].error, 'unknown op "test.nope"'); // the loop's own decline: its reason
  assert.equal(seen[5].error.name, "TypeError");
  assert.match(seen[6].error.message, /^\/args\/0: unknown tag "\$atm"/);
  assert.match(seen[7].error, /^cannot decode request/);

  const failing = createAdapter({ ...PORT, hook: () => { throw new Error("log full"); } });
  const r = failing.handleLine('{"id":1,"op":"test.echo","args":[1]}');
  assert.equal(r.answer, '{"id":1,"ok":1}');
  assert.match(r.log, /^test-port: hook threw: Error: log full/);
  assert.throws(() => createAdapter({ ...PORT, hook: "log" }), /"hook" must be a function/);
});

test("hook: serve calls it for each line it reads", async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const log = new PassThrough();
  const outcomes = [];
  const done = serve({ ...PORT, hook: (e) => outcomes.push(`${e.op}:${e.outcome}`) }, { input, output, log, exit: false });
  input.end('{"id":1,"op":"test.echo","args":[2]}\n{"id":2,"op":"test.raise","args":[]}\n{"id":3,"op":"bye"}\n');
  assert.equal(await done, 0);
  assert.deepEqual(outcomes, ["test.echo:ok", "test.raise:raised", "bye:bye"]);
});
