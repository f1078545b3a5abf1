// The README's ten-line port runs: extracted, pointed at this SDK, and
// served one request.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), "..");

test("the README's example port answers over the protocol", () => {
  const readme = readFileSync(join(sdk, "README.md"), "utf8");
  const block = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "README.md has a js block");
  const source = block[1].replace('"../../sdk/js/index.js"', JSON.stringify(pathToFileURL(join(sdk, "index.js")).href));
  assert.notEqual(source, block[1], "the example imports ../../sdk/js/index.js");
  assert.ok(source.trim().split("\n").length <= 12, "about ten lines");
  const dir = mkdtempSync(join(tmpdir(), "ptc-sdk-readme-"));
  try {
    writeFileSync(join(dir, "my-port.mjs"), source);
    const input = ['{"id":1,"op":"key_normalizer.normalize_key","args":[{"$atom":"was-improved"}]}', '{"id":2,"op":"key_normalizer.normalize_key","args":[[1]]}', '{"id":3,"op":"bye"}'].join("\n");
    const run = spawnSync(process.execPath, [join(dir, "my-port.mjs")], { input, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '{"id":1,"ok":"was_improved"}\n{"id":2,"ok":[1]}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Every `js example` block of the README runs as a module importing the
// SDK (its "ptc-conformance-sdk" import pointed at index.js), and every
// export of index.js and of elixir/index.js is shown in one of them.
const examples = [...readFileSync(join(sdk, "README.md"), "utf8").matchAll(/```js example\n([\s\S]*?)```/g)].map((m) => m[1]);

test("the README's examples run", () => {
  assert.ok(examples.length >= 10, `found ${examples.length} example blocks`);
  const dir = mkdtempSync(join(tmpdir(), "ptc-sdk-readme-"));
  try {
    examples.forEach((code, i) => {
      const source = code.replaceAll('"ptc-conformance-sdk"', JSON.stringify(pathToFileURL(join(sdk, "index.js")).href));
      const file = join(dir, `example-${i}.mjs`);
      writeFileSync(file, source);
      const run = spawnSync(process.execPath, [file], { encoding: "utf8" });
      assert.equal(run.status, 0, `README example ${i + 1} (${code.split("\n").find((l) => l.includes("import {"))}) failed:\n${run.stderr}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every export of the SDK appears in a README example", async () => {
  const top = await import(pathToFileURL(join(sdk, "index.js")).href);
  const shown = new Set(examples.join("\n").match(/[A-Za-z_$][\w$]*/g));
  const missing = [...Object.keys(top), ...Object.keys(top.elixir)].filter((name) => !shown.has(name));
  assert.deepEqual(missing, [], "exports without an example in README.md");
});
