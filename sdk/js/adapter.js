// The adapter loop of protocol v1 (spec/adapter_protocol.md): JSON Lines
// requests on stdin, one answer line per request on stdout, logs on
// stderr. A port supplies only its functions:
//
//   serve({ name, version, ops: { "key_normalizer.normalize_key": normalizeKey }, features: ["atoms"] })
//
// An op function takes the decoded argument terms and returns a term; it
// throws Raised for an Elixir exception and Unsupported for an input the
// port cannot represent. Anything else it throws is a bug in the port and
// is answered as `raised` with class `javascript:<ErrorName>`, so the
// harness shows it as a failure (and its stack goes to stderr).
//
// `release` names the PtcRunner release the port implements (AP-18): it is
// said in hello, and every request is decoded and answered at it
// (release.js withRelease), so the SDK's structs, $struct decoding, atom
// table, toString, inspect, Jason and exception texts are that release's.
// An op the release lacks (tool.private? before 0.13.0, REL-3) is left out
// of hello and answered `unsupported`, as the kit's reference at that
// release answers it, and serve says so on stderr.

import { closest } from "./closest.js";
import { JsonError, parse, quote } from "./json.js";
import { DEFAULT_RELEASE, RELEASES, checkRelease, releaseSince, resolveRelease, withRelease } from "./release.js";
import { structTable } from "./structs.js";
import { ImproperListError, TermDecodeError, decode, decodeValue, encode } from "./tagged.js";
import { Bytes, TermMap } from "./terms.js";
import { dataFile } from "./elixir/data.js";
import { inspectMessage } from "./elixir/inspect.js";

/** The protocol this SDK speaks. */
export const PROTOCOL = 1;

/** The PtcRunner releases a port can implement (spec/releases.md); a port
 * that names none is judged as 0.13.0 (AP-18). */
export { RELEASES };

/** The features of spec/terms.md § Features (a test holds this list equal to the spec's table). */
export const FEATURES = Object.freeze([
  "atoms",
  "tuples",
  "floats",
  "bigints",
  "binaries",
  "term-keys",
  "structs",
  "temporal",
  "functions",
  "opaque",
]);

/** An Elixir exception, answered as `{"raised": {"class": ..., "message": ...}}`. */
const LOSSY = new TextDecoder("utf-8", { ignoreBOM: true });

export class Raised extends Error {
  /**
   * @param {string} cls the exception module without `Elixir.`, e.g. "ArgumentError"
   * @param {string|Bytes} message what Exception.message/1 gives: a string, or a binary term whose invalid bytes read as U+FFFD, as the reference's answers read them
   */
  constructor(cls, message) {
    super(message instanceof Bytes ? LOSSY.decode(message.bytes) : message);
    this.name = "Raised";
    this.class = cls;
  }
}

/** An input the port cannot represent faithfully, answered `unsupported` (the case is skipped). */
export class Unsupported extends Error {
  constructor(why) {
    super(why);
    this.name = "Unsupported";
  }
}

/** The FunctionClauseError Elixir raises when no clause of `Module.fun/arity` matches. */
export function functionClause(module, fun, arity) {
  // One argument: the function's whole text, e.g. "anonymous fn/1 in M.f/3" or "Keyword.get/3".
  const where = fun === undefined ? module : `${module}.${fun}/${arity}`;
  return new Raised("FunctionClauseError", `no function clause matching in ${where}`);
}

const U64_MAX = (1n << 64n) - 1n;

let OPS;
/** The row of spec/data/ops.json for `op` (op, function, arity, args [{name, may, default?}], rules, prefix, output), or undefined for an op the kit does not have. */
export function opRow(op) {
  OPS ??= new Map(dataFile("ops.json").ops.map((r) => [r.op, r]));
  return OPS.get(op);
}

/** The first release that has `op` (ops.json's "since", else the first release). */
export function opSince(op) {
  const row = opRow(op);
  if (!row) throw new TypeError(`unknown op ${quote(op)}`);
  return row.since ?? RELEASES[0];
}

/** Whether `release` (else the served port's) has the op `op` (REL-3). */
export function opExistsAt(op, release = undefined) {
  return releaseSince(resolveRelease(release), opSince(op));
}

/** Every op of the kit (spec/data/ops.json) that `release` (else the served port's) has, sorted by name. */
export function opNames(release = undefined) {
  opRow("");
  return [...OPS.keys()].filter((op) => opExistsAt(op, release)).sort();
}
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * One op as the port gave it: a function, or {call, arity} when fn.length
 * does not tell. A function of a kit op whose `length` is one of the op's
 * argument counts, or lies between them (a parameter with a default
 * stops `length`), takes every count the op takes, and a request that
 * leaves an optional argument out gets the default spec/data/ops.json
 * gives it (`fill`): the function always sees every argument, so it never
 * tells a left-out argument from nil (null) itself.
 */
function opEntry(op, spec) {
  if (typeof spec === "function") {
    const row = opRow(op);
    const n = spec.length;
    if (row && n > 0 && n >= Math.min(...row.arity) && n <= Math.max(...row.arity)) {
      return { call: spec, arity: [...row.arity], fill: row.args.map((a) => ("default" in a ? JSON.stringify(a.default) : undefined)) };
    }
    return { call: spec, arity: n > 0 ? [n] : undefined };
  }
  if (spec && typeof spec.call === "function") {
    const arity = spec.arity === undefined ? undefined : [spec.arity].flat();
    return { call: spec.call, arity };
  }
  throw new TypeError(`op ${quote(op)}: expected a function or {call, arity}`);
}

/**
 * Checks a port's description and returns the adapter: `hello()` the
 * handshake body, `handleLine(line)` the answer to one request line.
 * Throws a TypeError naming what is wrong with the description.
 */
export function createAdapter(port) {
  const { name, version, language = "javascript", ops = {}, features = [], hook } = port ?? {};
  // The release set once for every command: PTC_CONFORMANCE_RELEASE names it
  // to the port when serve is not given one, and hello names it to the harness.
  const release = port?.release ?? (process.env.PTC_CONFORMANCE_RELEASE || undefined);
  if (release !== undefined) {
    try {
      checkRelease(release);
    } catch (e) {
      throw new TypeError(`serve: ${e.message}`);
    }
  }
  const rel = release ?? DEFAULT_RELEASE;
  if (hook !== undefined && typeof hook !== "function") throw new TypeError('serve: "hook" must be a function');
  for (const [k, v] of Object.entries({ name, version, language })) {
    if (typeof v !== "string" || v === "") throw new TypeError(`serve: "${k}" must be a non-empty string`);
  }
  const table = new Map(Object.entries(ops).map(([op, spec]) => [op, opEntry(op, spec)]));
  if (table.size === 0) throw new TypeError("serve: \"ops\" names no op");
  if (!Array.isArray(features)) throw new TypeError('serve: "features" must be an array of feature names');
  for (const f of features) {
    if (!FEATURES.includes(f)) {
      throw new TypeError(`serve: unknown feature ${quote(String(f))} (did you mean ${quote(closest(String(f), FEATURES))}?)`);
    }
  }
  if (features.includes("structs")) structTable(); // a missing data table fails now, not on the first struct
  // REL-3: an op the release lacks is no op of this port there.
  const absent = new Map();
  for (const op of table.keys()) {
    if (opRow(op) && !opExistsAt(op, rel)) {
      absent.set(op, `${op}: no ${opRow(op).function} at release ${rel} (it came in ${opSince(op)})`);
    }
  }

  const helloBody = encode(
    TermMap.from([
      ["name", name],
      ["version", version],
      ["language", language],
      ["protocol", PROTOCOL],
      ["ops", [...table.keys()].filter((op) => !absent.has(op)).sort()],
      ["features", [...new Set(features)].sort()],
      // AP-18: said only when the port chooses a release.
      ...(release === undefined ? [] : [["release", release]]),
    ]),
  );
  const note = (why) => `${name}: ${why}`;

  /** Answers one decoded request; `id` is its decimal text. */
  function answer(id, op, rawArgs, hasArgs) {
    const line = (key, body) => `{"id":${id},"${key}":${body}}`;
    const unsupported = (why) => line("unsupported", quote(why));
    // `error`: the exception behind the decline, or the reason itself when the loop declines on its own.
    const declined = (why, error) => ({ answer: unsupported(why), outcome: "unsupported", error: error ?? why });
    if (op === "hello") return { answer: line("ok", helloBody), outcome: "hello" };
    if (op === "bye") return { answer: null, bye: true, outcome: "bye" };
    if (!hasArgs) return declined('cannot decode request: no "args"');
    if (!Array.isArray(rawArgs)) return declined('cannot decode request: "args" is not an array');
    const entry = table.get(op);
    if (!entry) return declined(`unknown op ${quote(op)}`);
    if (absent.has(op)) return declined(absent.get(op));
    if (entry.arity && !entry.arity.includes(rawArgs.length)) {
      const row = opRow(op);
      const named = row ? ` (${row.args.map((a) => a.name).join(", ")})` : "";
      return declined(`${op} takes ${entry.arity.join(" or ")} argument(s)${named}, got ${rawArgs.length}`);
    }
    let args;
    try {
      args = rawArgs.map((a, i) => decodeValue(a, `/args/${i}`, rel));
      // A left-out optional argument: its default, decoded afresh for each call.
      for (let i = args.length; entry.fill && i < entry.fill.length && entry.fill[i] !== undefined; i++) args.push(decode(entry.fill[i], "", rel));
    } catch (e) {
      if (e instanceof TermDecodeError) return declined(`cannot decode request: ${e.message}`, e);
      return bug(e);
    }
    try {
      return { answer: line("ok", encode(withRelease(rel, () => entry.call(...args)))), outcome: "ok", args };
    } catch (e) {
      if (e instanceof Raised) return { answer: line("raised", `{"class":${quote(e.class)},"message":${quote(e.message)}}`), outcome: "raised", args, error: e };
      if (e instanceof Unsupported) return { ...declined(e.message, e), args };
      if (e instanceof ImproperListError) return { ...declined(improperReason(e.tail), e), args }; // TJ-12
      return bug(e);
    }

    function bug(e) {
      const cls = `javascript:${e?.name ?? "Error"}`;
      return {
        answer: line("raised", `{"class":${quote(cls)},"message":${quote(String(e?.message ?? e))}}`),
        log: note(`${op} (id ${id}) threw: ${e?.stack ?? e}`),
        outcome: "bug",
        args,
        error: e,
      };
    }
  }

  /** A line that is no readable request: answered when its id can be read, else a note for stderr (AP-5). */
  function reject(text, id, why) {
    const readable = id ?? sniffId(text);
    if (readable === undefined) return { answer: null, log: note(`ignoring a line without a readable id: ${why}`), outcome: "rejected", why };
    return { answer: `{"id":${readable},"unsupported":${quote(why)}}`, outcome: "rejected", id: readable, why };
  }

  /**
   * Answers one request line (a string or bytes, without its newline):
   * `{answer, bye, log}` where `answer` is the line to write (or null),
   * `bye` ends the session and `log` goes to stderr. The port's `hook`, if
   * any, sees the request and its answer first (see README § Watching
   * requests); what it throws is logged, never answered.
   */
  function handleLine(line) {
    const r = respond(line);
    if (hook) {
      const event = {
        id: r.id,
        op: r.op,
        args: r.args,
        outcome: r.outcome,
        answer: r.answer,
        error: r.error ?? (r.outcome === "rejected" ? r.why : undefined),
        line: typeof line === "string" ? line : Buffer.from(line).toString("utf8"),
      };
      try {
        hook(event);
      } catch (e) {
        const hookNote = note(`hook threw: ${e?.stack ?? e}`);
        return reply(r, r.log ? `${r.log}\n${hookNote}` : hookNote);
      }
    }
    return reply(r, r.log);
  }

  // What handleLine gives: the answer, and bye and log only when set.
  function reply(r, log) {
    const out = { answer: r.answer };
    if (r.bye) out.bye = true;
    if (log) out.log = log;
    return out;
  }

  function respond(line) {
    let text = line;
    if (typeof line !== "string") {
      try {
        text = UTF8.decode(line);
      } catch {
        return reject(Buffer.from(line).toString("latin1"), undefined, "request line is not UTF-8");
      }
    }
    let request;
    try {
      request = parse(text, "", { outer: 1 });
    } catch (e) {
      if (e instanceof JsonError) return reject(text, undefined, `cannot decode request: ${e.message}`);
      throw e;
    }
    if (!(request instanceof Map)) return reject(text, undefined, "cannot decode request: a request is a JSON object");
    const rawId = request.get("id");
    const id = typeof rawId === "bigint" && rawId >= 0n && rawId <= U64_MAX ? rawId.toString() : undefined;
    if (id === undefined) {
      const why = request.has("id") ? '"id" is not an integer from 0 to 2^64-1' : 'no "id"';
      return reject(text, undefined, `cannot decode request: ${why}`);
    }
    for (const k of request.keys()) {
      if (k !== "id" && k !== "op" && k !== "args") return reject(text, id, `cannot decode request: unexpected key ${quote(k)}`);
    }
    const op = request.get("op");
    if (typeof op !== "string") return reject(text, id, `cannot decode request: ${request.has("op") ? '"op" is not a string' : 'no "op"'}`);
    return { ...answer(id, op, request.get("args"), request.has("args")), id, op };
  }

  /** Ops whose argument count goes unchecked: their function's `length` is 0 and no `arity` was given. */
  const uncheckedOps = [...table].filter(([, e]) => !e.arity).map(([op]) => op).sort();
  /** Ops the port gives that its release lacks, with the reason each is declined. */
  const absentOps = [...absent].sort();
  return { hello: () => helloBody, handleLine, uncheckedOps, absentOps };
}

/** The id at the start of an otherwise unreadable line (`{"id": 12, ...`), as the Rust harness reads it. */
export function sniffId(text) {
  const m = /^\s*\{\s*"id"\s*:\s*([0-9]+)/.exec(text.slice(0, 64));
  if (!m) return undefined;
  const n = BigInt(m[1]);
  return n <= U64_MAX ? n.toString() : undefined;
}

function isBlank(buf) {
  for (const b of buf) if (b !== 32 && b !== 9 && b !== 10 && b !== 13 && b !== 11 && b !== 12) return false;
  return true;
}

/**
 * Serves `port` over adapter protocol v1 until `bye` or the end of input.
 * Every line that arrived in one read is answered before one write, so a
 * pipelining harness gets batched writes and a lock-step one its answer at
 * once. Resolves to the exit status (0); with the default streams the
 * process then exits with it. A bad port description is reported on stderr
 * and exits 2.
 *
 * @param {object} port {name, version, language?, ops, features, release?}
 * @param {object} [io] {input, output, log, exit}: streams for tests; `exit: false` keeps the process alive
 */
export function serve(port, io = {}) {
  const input = io.input ?? process.stdin;
  const output = io.output ?? process.stdout;
  const log = io.log ?? process.stderr;
  const exit = io.exit ?? (input === process.stdin && output === process.stdout);
  let adapter;
  try {
    adapter = createAdapter(port);
  } catch (e) {
    log.write(`${e.message}\n`);
    if (exit) process.exit(2);
    return Promise.resolve(2);
  }
  for (const [op] of adapter.absentOps) {
    log.write(`${port.name}: op ${quote(op)} is no op of release ${port.release} (it came in ${opSince(op)}, spec/data/ops.json): left out of hello and answered unsupported\n`);
  }
  if (adapter.uncheckedOps.length) {
    log.write(`${port.name}: the argument count of ${adapter.uncheckedOps.join(", ")} is not checked (no declared parameters, as a (...args) wrapper has none): give {call, arity}\n`);
  }
  return new Promise((resolve) => {
    let pending = Buffer.alloc(0);
    let done = false;
    const finish = (answers) => {
      done = true;
      input.removeAllListeners("data");
      input.removeAllListeners("end");
      if (input === process.stdin) input.pause();
      const text = answers.length ? `${answers.join("\n")}\n` : "";
      output.write(text, () => {
        resolve(0);
        if (exit) process.exit(0);
      });
    };
    const handle = (line, answers) => {
      let r;
      try {
        r = adapter.handleLine(line);
      } catch (e) {
        r = { answer: null, log: `${port.name}: internal error: ${e?.stack ?? e}` };
      }
      if (r.log) log.write(`${r.log}\n`);
      if (r.answer !== null) answers.push(r.answer);
      return r.bye === true;
    };
    output.on?.("error", (e) => {
      log.write(`${port.name}: cannot write answers (${e.code ?? e.message}); exiting\n`);
      resolve(0);
      if (exit) process.exit(0);
    });
    input.on("data", (chunk) => {
      if (done) return;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const answers = [];
      let start = 0;
      for (let nl = pending.indexOf(10, start); nl >= 0; nl = pending.indexOf(10, start)) {
        let line = pending.subarray(start, nl);
        start = nl + 1;
        if (line.length && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
        if (isBlank(line)) continue;
        if (handle(line, answers)) return finish(answers);
      }
      pending = pending.subarray(start);
      if (answers.length) output.write(`${answers.join("\n")}\n`);
    });
    input.on("end", () => {
      if (done) return;
      const answers = [];
      if (!isBlank(pending)) handle(pending, answers);
      finish(answers);
    });
  });
}

/** TJ-12's reason for a result holding an improper list with this tail: "cannot encode result: improper list tail " and inspect/1 of the tail. */
export function improperReason(tail) {
  return `cannot encode result: improper list tail ${inspectMessage(tail)}`;
}

/** The Unsupported TJ-12 asks for where a result would hold an improper list with this tail (serve answers so by itself when an op returns one). */
export function unsupportedImproper(tail) {
  return new Unsupported(improperReason(tail));
}

/** The description string of each capability profile (spec/data/profiles.json, PP-1), as {profile: description}: read where the SDK's data is, no import by path. */
export function profiles() {
  return Object.fromEntries(dataFile("profiles.json").profiles.map((p) => [p.profile, p.description]));
}

/** This SDK's version (CHANGELOG.md says what each changed). */
export const VERSION = "0.2.0";
