#!/usr/bin/env node
// `npx ptc-conformance ARGS`: runs the ptc-conformance binary of this
// platform (launcher.js finds it) with ARGS, its standard streams this
// process's, and exits as it did.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { findBinary } from "../launcher.js";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const found = findBinary({ pkg, resolve: createRequire(import.meta.url).resolve });
if (found.error) {
  process.stderr.write(`${found.error}\n`);
  process.exit(1);
}
const run = spawnSync(found.binary, process.argv.slice(2), { stdio: "inherit" });
if (run.error) {
  process.stderr.write(`ptc-conformance: cannot run ${found.binary}: ${run.error.message}\n`);
  process.exit(1);
}
if (run.signal) {
  // Die of the same signal, so that a caller sees what the binary died of.
  process.kill(process.pid, run.signal);
  process.exit(128 + (constants.signals[run.signal] ?? 0));
}
process.exit(run.status ?? 1);
