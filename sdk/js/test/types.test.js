// index.d.ts declares exactly what index.js exports: every value export has
// a declaration, and every declared value is exported (a TypeScript port
// compiles against the same API a JavaScript one runs on).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import * as sdk from "../index.js";

const dir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

test("index.d.ts declares every export of index.js, and nothing else", () => {
  const dts = readFileSync(join(dir, "index.d.ts"), "utf8");
  const declared = [
    ...[...dts.matchAll(/^export declare (?:const|function|class) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]),
    // re-exports of the files that declare the Elixir layer and the term generator
    ...[...dts.matchAll(/^export \* as ([A-Za-z_$][\w$]*) from/gm)].map((m) => m[1]),
    ...[...dts.matchAll(/^export \{([^}]*)\} from/gm)].flatMap((m) =>
      m[1].split(",").map((s) => s.trim()).filter((s) => s && !s.startsWith("type "))),
  ];
  assert.ok(declared.length > 40, `only ${declared.length} declarations found: is the scan broken?`);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(sdk).sort());
});

test("package.json points TypeScript and Node at the files that exist", () => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  assert.notEqual(pkg.private, true, "the package installs (npm install sdk/js)");
  assert.equal(pkg.types, "./index.d.ts");
  assert.equal(pkg.exports["."].types, "./index.d.ts");
  assert.equal(pkg.exports["."].default, "./index.js");
  for (const f of [pkg.main, pkg.types]) readFileSync(join(dir, f));
});
