// The structs of the boundary (spec/terms.md TJ-7): each module's fields in
// defstruct order and their defaults, read from the kit's data table
// spec/data/structs.json rather than copied here, so the SDK cannot drift
// from the reference (a Rust test holds the table equal to it). Each
// release has its own fields: one marked "since" came in that release, and
// an older release's struct lacks it (spec/releases.md REL-1); every
// function takes the release (release.js), else the served port's.
//
// The table is found through the environment variable PTC_CONFORMANCE_DATA
// (a directory holding structs.json), else at ../../spec/data/ from this
// file, where it sits in a checkout of ptc-conformance (and in the kit
// `ptc-conformance export` writes), else in the copy the package ships in
// data/ (held equal to spec/data by test/data.test.js).

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "./json.js";
import { DEFAULT_RELEASE, checkRelease, releaseSince, resolveRelease } from "./release.js";
import { Struct, TermMap, isBinary, isInt } from "./terms.js";
import { decodeValue } from "./tagged.js";

/** The error when the data table cannot be found or read. */
export class StructDataError extends Error {
  constructor(message) {
    super(message);
    this.name = "StructDataError";
  }
}

/**
 * A struct that is no term of the boundary: an unknown module or field, a
 * URI that URI.parse/1 could not make, or a MapSet that MapSet.new/1 could
 * not. `ofFields` tells a refusal of the fields (a name, a value) from one
 * of the module: a decoder names the `fields` object for the first and the
 * `$struct` object for the second (spec/terms.md TJ-10).
 */
export class StructError extends Error {
  constructor(message, { ofFields = false } = {}) {
    super(message);
    this.name = "StructError";
    this.ofFields = ofFields;
  }
}

let table; // module name -> {fields: [[name, default term, since]], inspectOptional: Set}

/** Where the table is looked for, first match wins: [path, how it was found]. */
export function dataCandidates() {
  const out = [];
  const env = process.env.PTC_CONFORMANCE_DATA;
  if (env) out.push([join(resolve(env), "structs.json"), "PTC_CONFORMANCE_DATA"]);
  const here = dirname(fileURLToPath(import.meta.url));
  out.push([resolve(here, "..", "..", "spec", "data", "structs.json"), "the repository layout"]);
  out.push([join(here, "data", "structs.json"), "the package's own copy"]);
  return out;
}

/** Reads (once) and returns the struct table; throws StructDataError saying where it looked. */
export function structTable() {
  if (table) return table;
  const tried = [];
  for (const [path, how] of dataCandidates()) {
    let text;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      tried.push(`${path} (${how}): ${e.code ?? e.message}`);
      if (how === "PTC_CONFORMANCE_DATA") break; // an explicit setting must not fall back silently
      continue;
    }
    table = readTable(text, path);
    return table;
  }
  throw new StructDataError(
    `cannot find the struct table structs.json: set PTC_CONFORMANCE_DATA to the directory holding it ` +
      `(spec/data in a ptc-conformance checkout); tried ${tried.join("; ")}`,
  );
}

function readTable(text, path) {
  const fail = (why) => {
    throw new StructDataError(`${path}: ${why}`);
  };
  let doc;
  try {
    doc = parse(text);
  } catch (e) {
    fail(e.message);
  }
  const structs = doc instanceof Map ? doc.get("structs") : undefined;
  if (!Array.isArray(structs)) fail('expected an object with a "structs" array');
  const out = new Map();
  structs.forEach((s, i) => {
    const at = `/structs/${i}`;
    const module = s instanceof Map ? s.get("module") : undefined;
    const fields = s instanceof Map ? s.get("fields") : undefined;
    if (typeof module !== "string" || !Array.isArray(fields)) fail(`${at}: expected "module" and "fields"`);
    const rows = fields.map((f, j) => {
      const name = f instanceof Map ? f.get("name") : undefined;
      if (typeof name !== "string" || !f.has("default")) fail(`${at}/fields/${j}: expected "name" and "default"`);
      try {
        const first = f.get("since");
        return [name, decodeValue(f.get("default"), `${at}/fields/${j}/default`, DEFAULT_RELEASE), first === undefined ? undefined : checkRelease(first)];
      } catch (e) {
        return fail(e.message);
      }
    });
    const optional = s.get("inspect_optional") ?? [];
    out.set(module, { fields: rows, inspectOptional: new Set(optional) });
  });
  return out;
}

/** The modules of the boundary's structs. */
export function knownStructs() {
  return [...structTable().keys()];
}

// [name, default] of `module`'s fields at release `rel`, or undefined.
function rowsAt(module, rel) {
  return structTable()
    .get(module)
    ?.fields.filter(([, , first]) => first === undefined || releaseSince(rel, first))
    .map(([name, dflt]) => [name, dflt]);
}

/** The field names of `module` in defstruct order as `release` defines it, or undefined for a module that is not a boundary struct. */
export function structFields(module, release) {
  return rowsAt(module, resolveRelease(release))?.map(([name]) => name);
}

/** The default of `module`'s field `field` at `release`, or undefined (also for a field the release lacks). */
export function structDefault(module, field, release) {
  return rowsAt(module, resolveRelease(release))?.find(([name]) => name === field)?.[1];
}

/** Whether a derived Inspect leaves `field` of `module` out while it holds its default. */
export function isInspectOptional(module, field) {
  return structTable().get(module)?.inspectOptional.has(field) ?? false;
}

/**
 * Builds a struct of a boundary module as `struct!/2` would on `release`'s
 * build: `given` (a Map or a plain object of field name to term) sets
 * fields, the defaults fill the rest, fields in defstruct order. An unknown
 * module, a field the release's struct lacks (REL-1) or a URI that
 * URI.parse/1 could not make, or a MapSet that MapSet.new/1 could not,
 * throws a StructError saying which (TJ-7).
 */
export function makeStruct(module, given = {}, release = undefined) {
  const rel = resolveRelease(release);
  const rows = rowsAt(module, rel);
  if (!rows) throw new StructError(`$struct module ${module} is not a struct of the boundary`);
  const values = given instanceof Map ? given : new Map(Object.entries(given));
  for (const k of values.keys()) {
    if (!rows.some(([name]) => name === k)) {
      throw new StructError(`${module} has no field ${JSON.stringify(k)}${rel === DEFAULT_RELEASE ? "" : ` at release ${rel}`}`, { ofFields: true });
    }
  }
  if (module === "URI") {
    for (const [k, v] of values) {
      const ok = v === null || (k === "port" ? isInt(v) : isBinary(v));
      if (!ok) throw new StructError(`URI field ${JSON.stringify(k)} must be ${k === "port" ? "an integer or nil" : "a binary or nil"}`, { ofFields: true });
    }
  }
  if (module === "MapSet" && values.has("map")) {
    const map = values.get("map");
    const ok = map instanceof TermMap && map.pairs.every(([, v]) => Array.isArray(v) && v.length === 0);
    if (!ok) throw new StructError('MapSet field "map" must be a map of members to [] (as MapSet.new/1 makes it)', { ofFields: true });
  }
  const fields = new Map();
  for (const [name, dflt] of rows) fields.set(name, values.has(name) ? values.get(name) : dflt);
  return new Struct(module, fields);
}

