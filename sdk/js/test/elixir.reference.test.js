// The Elixir layer held byte for byte to the Rust reference: seeded
// generated terms (termgen.js) go to `ptc-conformance adapter` over one
// process, pipelined in batches, and every answer line must be the one
// our layer gives for the same request:
//
//   term.inspect                  inspect/1 of any term (inspect.js)
//   protocol.render_error         Jason's text of an error payload whose
//                                 result is any term, or what Jason raises
//                                 (jason.js, errors.js, inspect pretty)
//   lisp_formatter.format         ":" <> to_string(term) and the other
//                                 name nodes: String.Chars, chardata,
//                                 URI, display structs (chars.js)
//   protocol.render_success_from_step
//                                 printed text cut at feedback_max_chars
//                                 grapheme clusters (PP-105): String.length
//                                 and String.slice (graphemes.js)
//   protocol.render_success       options without :execution: the KeyError
//                                 of Keyword.fetch!/2, inspect(opts, pretty:
//                                 true, limit: :infinity) at width 80
//
// One test per batch, not per term. PTC_SDK_SEED picks other terms,
// PTC_SDK_TERMS scales the count (1 = 100,000 inspect terms, 30,000 Jason
// payloads, 30,000 formatter names, 20,000 texts to cut, 10,000 pretty
// KeyError texts). Needs a built ptc-conformance (PTC_CONFORMANCE_BIN, or
// target/debug or target/release of this repository); skipped without one.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { quote } from "../json.js";
import { binaryOfRaw, inspectBinary, inspectChecked, jasonEncode, keyError, length, take, toStringRaw } from "../elixir/index.js";
import { makeStruct } from "../structs.js";
import { encode } from "../tagged.js";
import { termGen } from "../termgen.js";
import { Fun, Struct, TermMap, Tuple, atom } from "../terms.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// A binary named by PTC_CONFORMANCE_BIN (as CI sets it) must be there: the tests then fail rather than skip.
const bin = process.env.PTC_CONFORMANCE_BIN ?? ["debug", "release"].map((p) => join(repo, "target", p, "ptc-conformance")).find(existsSync);
const skip = bin ? false : "no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)";
const SEED = Number(process.env.PTC_SDK_SEED ?? 27);
const SCALE = Number(process.env.PTC_SDK_TERMS ?? 1);
const BATCH = 25000;

/** One `ptc-conformance adapter` process: send(lines) resolves to the answer lines by id. */
function reference() {
  const child = spawn(bin, ["adapter"], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map();
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const id = Number(/^\{"id":(\d+),/.exec(line)?.[1]);
      const w = waiting.get(id);
      if (w) {
        waiting.delete(id);
        w(line);
      }
    }
  });
  // A reference that cannot start or dies fails every request still waiting, with the reason.
  let failure;
  const failAll = (why) => {
    failure ??= why;
    for (const w of waiting.values()) w(null);
    waiting.clear();
  };
  child.on("error", (e) => failAll(`${bin} adapter: ${e.message}`));
  const exited = new Promise((res) => child.on("exit", (code, signal) => {
    failAll(`${bin} adapter exited (${signal ?? code}) before answering`);
    res(code);
  }));
  return {
    send(requests) {
      if (failure) return Promise.reject(new Error(failure));
      const answers = requests.map(({ id }) => new Promise((res, rej) => waiting.set(id, (line) => (line === null ? rej(new Error(failure)) : res(line)))));
      child.stdin.write(`${requests.map((r) => r.line).join("\n")}\n`);
      return Promise.all(answers);
    },
    async close() {
      if (failure) return undefined; // it never started, or is gone
      child.stdin.end('{"id":0,"op":"bye"}\n');
      return exited;
    },
  };
}

let ref;
let nextId = 1;
before(() => {
  if (bin) ref = reference();
});
after(() => ref?.close());

const answer = (id, run) => {
  try {
    return `{"id":${id},"ok":${encode(run())}}`;
  } catch (e) {
    if (e?.name !== "Raised") throw e;
    return `{"id":${id},"raised":{"class":${quote(e.class)},"message":${quote(e.message)}}}`;
  }
};

// LOOSE-3: the relative order of two functions is the VM's, and the Rust
// reference orders them by their debug text, so a map (or MapSet) with two
// keys that hold functions is left out; how many is counted and bounded.
function containsFun(t) {
  if (t instanceof Fun) return true;
  if (Array.isArray(t)) return t.some(containsFun);
  if (t instanceof Tuple) return t.items.some(containsFun);
  if (t instanceof TermMap) return t.pairs.some(([k, v]) => containsFun(k) || containsFun(v));
  if (t instanceof Struct) return [...t.fields.values()].some(containsFun);
  return false;
}

function funKeysMeet(t) {
  if (Array.isArray(t)) return t.some(funKeysMeet);
  if (t instanceof Tuple) return t.items.some(funKeysMeet);
  if (t instanceof Struct) return [...t.fields.values()].some(funKeysMeet);
  if (t instanceof Fun) return t.returns !== undefined && funKeysMeet(t.returns);
  if (t instanceof TermMap) return t.pairs.filter(([k]) => containsFun(k)).length > 1 || t.pairs.some(([k, v]) => funKeysMeet(k) || funKeysMeet(v));
  return false;
}

/**
 * Sends `count` requests made by `make(gen)` ({args, ours}) and compares
 * every answer line; ours are computed while the reference works.
 */
async function compare(kind, op, count, seed, make) {
  const gen = termGen(seed);
  const requests = [];
  const sent = [];
  let loose = 0;
  for (let i = 0; i < count; i++) {
    // Requests go out in chunks as they are made, so the reference works while we generate.
    if (requests.length % 1000 === 0 && requests.length > 0 && sent.length < requests.length / 1000) sent.push(ref.send(requests.slice(-1000)));
    const made = make(gen);
    if (made.args.some(funKeysMeet)) {
      loose++;
      continue;
    }
    const id = nextId++;
    const argsJson = made.args.map(encode).join(",");
    requests.push({ id, line: `{"id":${id},"op":"${op}","args":[${argsJson}]}`, argsJson, made });
  }
  sent.push(ref.send(requests.slice(sent.length * 1000)));
  for (const r of requests) r.ours = r.made.theirs ? r.made.ours() : answer(r.id, r.made.ours);
  const theirs = (await Promise.all(sent)).flat();
  const diffs = [];
  requests.forEach((r, i) => {
    const t = r.made.theirs ? r.made.theirs(theirs[i]) : theirs[i];
    if (t !== r.ours) diffs.push([r, t]);
  });
  const show = diffs
    .slice(0, 3)
    .map(([r, t]) => `\n  args:      ${r.argsJson.slice(0, 600)}\n  reference: ${JSON.stringify(t)?.slice(0, 1500)}\n  ours:      ${JSON.stringify(r.ours).slice(0, 1500)}`)
    .join("\n");
  assert.equal(diffs.length, 0, `${kind}: ${diffs.length} of ${requests.length} answers differ from the reference (seed ${seed}); the first:${show}`);
  assert.ok(loose <= count / 50, `${kind}: ${loose} of ${count} terms left out for LOOSE-3; the generator should rarely make them`);
}

const KINDS = ["term.inspect", "protocol.render_error", "lisp_formatter.format", "protocol.render_success_from_step", "protocol.render_success"];

function batches(kind, total, run) {
  for (let start = 0; start < total; start += BATCH) {
    const count = Math.min(BATCH, total - start);
    const seed = SEED * 1000 + start / BATCH + 100 * KINDS.indexOf(kind);
    test(`${kind}: ${count} generated terms (seed ${seed}) answer as the reference does`, { skip }, () => run(count, seed));
  }
}

batches("term.inspect", Math.round(100000 * SCALE), (count, seed) =>
  compare("term.inspect", "term.inspect", count, seed, (g) => {
    const t = g.term();
    return { args: [t], ours: () => inspectChecked(t) };
  }),
);

batches("protocol.render_error", Math.round(30000 * SCALE), (count, seed) =>
  compare("Jason text of render_error payloads", "protocol.render_error", count, seed, (g) => {
    const reason = g.chance(0.8) ? "fail" : g.atomName();
    const message = g.chance(0.8) ? g.text(12) : g.string();
    const result = g.jsonish();
    const opts = [new Tuple([atom("result"), result])];
    const feedback = g.chance(0.2) ? g.jsonish() : undefined;
    if (feedback !== undefined) opts.unshift(new Tuple([atom("feedback"), feedback]));
    const payload = [
      ["status", "error"],
      ["reason", reason],
      ["message", message],
      ["feedback", feedback === undefined ? message : feedback],
    ];
    if (reason === "fail") payload.push(["result", result]);
    return { args: [atom(reason), message, opts], ours: () => jasonEncode(TermMap.from(payload)) };
  }),
);

const NAME_NODES = { keyword: [":", ""], symbol: ["", ""], quoted_symbol: ["'", ""], var: ["#'", ""], turn_history: ["*", ""] };

batches("lisp_formatter.format", Math.round(30000 * SCALE), (count, seed) =>
  compare("to_string of formatter names", "lisp_formatter.format", count, seed, (g) => {
    if (g.chance(0.2)) {
      const [ns, key] = [g.chardata(), g.chardata()];
      return { args: [new Tuple([atom("ns_symbol"), ns, key])], ours: () => binaryOfRaw(`${toStringRaw(ns)}/${toStringRaw(key)}`) };
    }
    const tag = g.pick(Object.keys(NAME_NODES));
    const [open, close] = NAME_NODES[tag];
    const t = g.chardata();
    return { args: [new Tuple([atom(tag), t])], ours: () => binaryOfRaw(open + toStringRaw(t) + close) };
  }),
);

// String.length/1 and String.slice/3 (graphemes.js) through PP-105: the
// feedback's println block is the printed text cut at feedback_max_chars
// grapheme clusters, with a note when it was cut.
const PRINTLN = /<untrusted_ptc_output source="println">\n([\s\S]*)\n<\/untrusted_ptc_output>$/;

batches("protocol.render_success_from_step", Math.round(20000 * SCALE), (count, seed) =>
  compare("String.length/slice of printed text (PP-105)", "protocol.render_success_from_step", count, seed, (g) => {
    const text = g.graphemeText(12);
    const limit = g.below(length(text) + 2);
    const step = makeStruct("PtcRunner.Step", { return: null, prints: [text] });
    const opts = [new Tuple([atom("format_options"), [new Tuple([atom("feedback_max_chars"), limit])]])];
    return {
      args: [step, opts],
      ours: () => (length(text) > limit ? `${take(text, limit)}\n... (truncated at ${limit} chars; print specific fields instead)` : text),
      theirs: (line) => {
        const ok = /^\{"id":\d+,"ok":(.*)\}$/s.exec(line);
        const feedback = ok ? JSON.parse(JSON.parse(ok[1])).feedback : undefined;
        return PRINTLN.exec(feedback ?? "")?.[1] ?? line;
      },
    };
  }),
);

// inspect(term, pretty: true, limit: :infinity) at width 80 (algebra.js's
// breaking layout) and KeyError's text (errors.js): render_success/2 fetches
// :execution from its options first (Keyword.fetch!/2).
batches("protocol.render_success", Math.round(10000 * SCALE), (count, seed) =>
  compare("KeyError of options without :execution (pretty inspect)", "protocol.render_success", count, seed, (g) => {
    const opts = [];
    for (let i = g.chance(0.1) ? 30 : g.below(6); i > 0; i--) {
      let key = g.atomName();
      if (key === "execution") key = "executions";
      opts.push(new Tuple([atom(key), g.term(1)]));
    }
    return { args: [new TermMap([]), opts], ours: () => { throw keyError("execution", opts); } };
  }),
);
