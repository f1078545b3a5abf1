// The porter data the package ships (sdk/js/data/) is spec/data byte for
// byte, so an npm-installed SDK reads what the reference was built from;
// and the loader finds the data in the repository, through
// PTC_CONFORMANCE_DATA, and in the package's own copy.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const spec = resolve(sdk, "..", "..", "spec", "data");

function files(root, dir = root) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(root, join(dir, e.name)) : [relative(root, join(dir, e.name))]))
    .sort();
}

test("sdk/js/data is spec/data, byte for byte", { skip: existsSync(spec) ? false : "no spec/data beside the SDK" }, () => {
  assert.deepEqual(files(join(sdk, "data")), files(spec), "the same files");
  for (const f of files(spec)) {
    assert.ok(readFileSync(join(sdk, "data", f)).equals(readFileSync(join(spec, f))), `sdk/js/data/${f} differs from spec/data/${f}: UPDATE_PORTER_DATA=1 cargo test --test porter_data copies it`);
  }
});

test("an installed copy of the SDK (no spec/ beside it) reads its own data", () => {
  const dir = mkdtempSync(join(tmpdir(), "ptc-sdk-installed-"));
  try {
    const pkg = join(dir, "node_modules", "ptc-conformance-sdk");
    cpSync(sdk, pkg, { recursive: true, filter: (p) => !p.includes(`${join(sdk, "test")}`) });
    const script = `
      import { inspect, message, nfc, graphemes } from "./node_modules/ptc-conformance-sdk/elixir/index.js";
      import { atom, tuple } from "./node_modules/ptc-conformance-sdk/terms.js";
      import { makeStruct } from "./node_modules/ptc-conformance-sdk/structs.js";
      console.log(inspect(tuple(atom("ф"), atom("a b"), makeStruct("URI", { host: "h" }))));
      console.log(message("bad_map").render({ term: "1" }), nfc("e\\u0301") === "\\u00e9", graphemes("🇫🇷x").length);
    `;
    const env = { ...process.env };
    delete env.PTC_CONFORMANCE_DATA;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, encoding: "utf8", env });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '{:ф, :"a b", %URI{scheme: nil, userinfo: nil, host: "h", port: nil, path: nil, query: nil, fragment: nil}}\nexpected a map, got: 1 true 2\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("PTC_CONFORMANCE_DATA is used and never falls back silently", () => {
  const script = `
    import { dataFile } from ${JSON.stringify(join(sdk, "elixir", "data.js"))};
    try { dataFile("messages.json"); console.log("found"); } catch (e) { console.log(e.name, e.message); }
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env: { ...process.env, PTC_CONFORMANCE_DATA: "/nonexistent/dir" } });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^DataError cannot find the porter data file messages\.json: set PTC_CONFORMANCE_DATA .*\/nonexistent\/dir\/messages\.json \(PTC_CONFORMANCE_DATA\): ENOENT\n$/);
});
