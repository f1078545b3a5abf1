// The struct table (structs.js) is read from spec/data/structs.json, found
// through PTC_CONFORMANCE_DATA or the repository layout, with a clear
// error when neither has it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { knownStructs, makeStruct, structDefault, structFields, isInspectOptional } from "../structs.js";
import { equal } from "../order.js";
import { atom, kw } from "../terms.js";

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tablePath = resolve(sdk, "..", "..", "spec", "data", "structs.json");

/** Runs a snippet against a copy of structs.js in `dir` (or the SDK itself) with `env`. */
function child(code, { dir = sdk, env = {} } = {}) {
  const script = `import(${JSON.stringify(join(dir, "structs.js"))}).then((m) => { ${code} }).catch((e) => { console.error(e.name + ": " + e.message); process.exit(3); });`;
  const environment = { ...process.env, ...env };
  if (env.PTC_CONFORMANCE_DATA === undefined) delete environment.PTC_CONFORMANCE_DATA;
  return spawnSync(process.execPath, ["-e", script], { env: environment, encoding: "utf8" });
}

test("every struct of the table, fields in defstruct order", () => {
  const table = JSON.parse(readFileSync(tablePath, "utf8")).structs;
  assert.deepEqual(knownStructs(), table.map((s) => s.module));
  for (const s of table) assert.deepEqual(structFields(s.module), s.fields.map((f) => f.name), s.module);
  assert.ok(equal(structDefault("PtcRunner.Tool", "visibility"), atom("public")));
  assert.ok(equal(structDefault("PtcRunner.SubAgent.Definition", "format_options")[0], kw([["feedback_limit", 10]])[0]));
  assert.equal(structDefault("PtcRunner.Tool", "nope"), undefined);
  assert.equal(structFields("Range"), undefined);
  assert.equal(isInspectOptional("URI", "authority"), true);
  assert.equal(isInspectOptional("URI", "host"), false);
});

test("makeStruct fills defaults and rejects unknown fields", () => {
  const s = makeStruct("PtcRunner.Step", { return: 1 });
  assert.equal(s.get("return"), 1);
  assert.equal(s.get("summaries").size, 0);
  assert.throws(() => makeStruct("PtcRunner.Step", { nope: 1 }), { name: "StructError", message: 'PtcRunner.Step has no field "nope"' });
});

test("PTC_CONFORMANCE_DATA names the directory of the table", () => {
  const dir = mkdtempSync(join(tmpdir(), "ptc-sdk-"));
  try {
    writeFileSync(join(dir, "structs.json"), JSON.stringify({ structs: [{ module: "My.Struct", fields: [{ name: "a", default: 1 }] }] }));
    const run = child("console.log(JSON.stringify(m.knownStructs()))", { env: { PTC_CONFORMANCE_DATA: dir } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), '["My.Struct"]');
    const missing = child("m.structTable()", { env: { PTC_CONFORMANCE_DATA: join(dir, "nowhere") } });
    assert.equal(missing.status, 3);
    assert.match(missing.stderr, /StructDataError: cannot find the struct table structs\.json: set PTC_CONFORMANCE_DATA/);
    assert.match(missing.stderr, /nowhere\/structs\.json \(PTC_CONFORMANCE_DATA\): ENOENT/);
    writeFileSync(join(dir, "structs.json"), '{"structs": [{"module": "M", "fields": [{"name": "a", "default": {"$atm": 1}}]}]}');
    const bad = child("m.structTable()", { env: { PTC_CONFORMANCE_DATA: dir } });
    assert.match(bad.stderr, /StructDataError: .*structs\.json: \/structs\/0\/fields\/0\/default: unknown tag "\$atm"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("outside the repository and without PTC_CONFORMANCE_DATA the package's copy is read, and without it the error says what to set", () => {
  const dir = mkdtempSync(join(tmpdir(), "ptc-sdk-"));
  try {
    const copy = join(dir, "a", "b", "sdk");
    cpSync(sdk, copy, { recursive: true, filter: (p) => !p.includes(`${sdk}/test`) });
    assert.equal(child("m.structTable()", { dir: copy }).status, 0, "the shipped data/structs.json");
    rmSync(join(copy, "data"), { recursive: true });
    const run = child("m.structTable()", { dir: copy });
    assert.equal(run.status, 3);
    assert.match(run.stderr, /cannot find the struct table structs\.json: set PTC_CONFORMANCE_DATA to the directory holding it/);
    assert.match(run.stderr, /\(the repository layout\): ENOENT/);
    assert.match(run.stderr, /\(the package's own copy\): ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
