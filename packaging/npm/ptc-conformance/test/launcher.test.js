// The launcher finds the platform package's binary, honours
// PTC_CONFORMANCE_BIN, and on a platform without a binary says which
// platforms have one and how to build it with cargo instead. The package as
// npm installs it is exercised by .ci/run (harness/dist.py builds it).
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { builtPlatforms, findBinary, platformPackage } from "../launcher.js";

const pkg = {
  version: "9.9.9",
  optionalDependencies: { "ptc-conformance-linux-x64": "9.9.9", "ptc-conformance-darwin-arm64": "9.9.9" },
};
const nowhere = (name) => {
  throw Object.assign(new Error(`Cannot find module '${name}'`), { code: "MODULE_NOT_FOUND" });
};

test("a platform's package is named by Node's platform and architecture", () => {
  assert.equal(platformPackage("linux", "x64"), "ptc-conformance-linux-x64");
  assert.equal(platformPackage("win32", "arm64"), "ptc-conformance-win32-arm64");
  assert.deepEqual(builtPlatforms(pkg), ["darwin-arm64", "linux-x64"]);
  assert.deepEqual(builtPlatforms({}), []);
});

test("the binary is the installed platform package's bin/ptc-conformance", () => {
  const dir = mkdtempSync(join(tmpdir(), "ptc-launcher-"));
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "bin", "ptc-conformance"), "");
  chmodSync(join(dir, "bin", "ptc-conformance"), 0o755);
  const resolve = (name) => {
    assert.equal(name, "ptc-conformance-linux-x64/package.json");
    return join(dir, "package.json");
  };
  assert.deepEqual(findBinary({ pkg, resolve, env: {}, platform: "linux", arch: "x64" }), {
    binary: join(dir, "bin", "ptc-conformance"),
  });
  // A package without its binary is no binary.
  const win = findBinary({ pkg, resolve: () => join(dir, "package.json"), env: {}, platform: "win32", arch: "x64" });
  assert.match(win.error, /ptc-conformance\.exe is missing/);
});

test("PTC_CONFORMANCE_BIN names the binary, on any platform", () => {
  const env = { PTC_CONFORMANCE_BIN: "/opt/bin/ptc-conformance" };
  assert.deepEqual(findBinary({ pkg, resolve: nowhere, env, platform: "sunos", arch: "x64" }), {
    binary: "/opt/bin/ptc-conformance",
  });
});

test("an unsupported platform is told the platforms built and how to use cargo install", () => {
  const { error } = findBinary({ pkg, resolve: nowhere, env: {}, platform: "freebsd", arch: "x64" });
  assert.match(error, /^ptc-conformance: no binary for this platform \(freebsd-x64\): the package ptc-conformance-freebsd-x64 is not installed\./);
  assert.match(error, /ptc-conformance 9\.9\.9 has binaries for: darwin-arm64, linux-x64\./);
  assert.match(error, /cargo install --locked --path \./);
  assert.match(error, /PTC_CONFORMANCE_BIN=~\/\.cargo\/bin\/ptc-conformance npx ptc-conformance/);
  assert.match(error, /import \{ serve \} from "ptc-conformance"/);
});

test("a supported platform whose package npm left out is told how to install it", () => {
  const { error } = findBinary({ pkg, resolve: nowhere, env: {}, platform: "linux", arch: "x64" });
  assert.match(error, /without --omit=optional/);
  assert.match(error, /npm install -D ptc-conformance-linux-x64@9\.9\.9/);
  assert.doesNotMatch(error, /cargo install/);
});

test("the package re-exports every entry point of ptc-conformance-sdk", () => {
  const here = new URL("..", import.meta.url);
  const ours = JSON.parse(readFileSync(new URL("package.json", here), "utf8"));
  const sdk = JSON.parse(readFileSync(new URL("../../../sdk/js/package.json", here), "utf8"));
  assert.deepEqual(Object.keys(ours.exports), Object.keys(sdk.exports));
  for (const [sub, target] of Object.entries(ours.exports)) {
    if (sub === "./package.json") continue;
    const spec = `ptc-conformance-sdk${sub.slice(1)}`;
    for (const file of [target.default, target.types]) {
      const text = readFileSync(new URL(file, here), "utf8");
      assert.match(text, new RegExp(`^export \\* from "${spec}";$`, "m"), `${file} re-exports ${spec}`);
    }
  }
  assert.equal(ours.bin["ptc-conformance"], "bin/ptc-conformance.js");
  assert.equal(ours.version, undefined, "the version is Cargo.toml's, set by harness/dist.py");
});
