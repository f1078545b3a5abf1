// The kit's porter data (spec/data/: messages.json, structs.json,
// unicode/*.json), found where the SDK sits: through PTC_CONFORMANCE_DATA
// (a directory laid out as spec/data), else at ../../spec/data from the
// SDK (a checkout of ptc-conformance, or the kit `ptc-conformance export`
// writes: kit/sdk/js beside kit/spec), else the copy the package ships in
// its own data/ directory (an npm install; a test holds it equal to
// spec/data byte for byte).

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The error when a data file cannot be found or read. */
export class DataError extends Error {
  constructor(message) {
    super(message);
    this.name = "DataError";
  }
}

const SDK = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The directories a data file is looked for in, first match wins: [directory, how it was found]. */
export function dataDirs() {
  const out = [];
  const env = process.env.PTC_CONFORMANCE_DATA;
  if (env) out.push([resolve(env), "PTC_CONFORMANCE_DATA"]);
  out.push([resolve(SDK, "..", "..", "spec", "data"), "the repository or kit layout"]);
  out.push([join(SDK, "data"), "the package's own copy"]);
  return out;
}

const cache = new Map();

/**
 * The parsed JSON of the data file `name` ("messages.json",
 * "unicode/grapheme.json"), read once. A DataError says where it looked;
 * an explicit PTC_CONFORMANCE_DATA never falls back silently.
 */
export function dataFile(name) {
  if (cache.has(name)) return cache.get(name);
  const tried = [];
  for (const [dir, how] of dataDirs()) {
    const path = join(dir, name);
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      tried.push(`${path} (${how}): ${e.code ?? e.message}`);
      if (how === "PTC_CONFORMANCE_DATA") break;
      continue;
    }
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new DataError(`${path}: ${e.message}`);
    }
    cache.set(name, value);
    return value;
  }
  throw new DataError(`cannot find the porter data file ${name}: set PTC_CONFORMANCE_DATA to spec/data of ptc-conformance; tried ${tried.join("; ")}`);
}
