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
