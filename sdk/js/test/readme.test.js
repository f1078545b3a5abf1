// The README's ten-line port is example-port.js, word for word, and runs as
// it is: it imports the SDK by its package name (Node resolves a package's
// own name inside it) and answers over the protocol.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), "..");

test("the README's example port is example-port.js and answers over the protocol", () => {
  const readme = readFileSync(join(sdk, "README.md"), "utf8");
  const block = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, "README.md has a js block");
  const example = readFileSync(join(sdk, "example-port.js"), "utf8");
  assert.equal(block[1], example, "the README's block is example-port.js");
  assert.match(example, /from "ptc-conformance-sdk"/, "the example imports the package by its name");
  assert.ok(example.trim().split("\n").length <= 12, "about ten lines");
  const input = ['{"id":1,"op":"key_normalizer.normalize_key","args":[{"$atom":"was-improved"}]}', '{"id":2,"op":"key_normalizer.normalize_key","args":[[1]]}', '{"id":3,"op":"bye"}'].join("\n");
  const run = spawnSync(process.execPath, [join(sdk, "example-port.js")], { input, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, '{"id":1,"ok":"was_improved"}\n{"id":2,"ok":[1]}\n');
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
