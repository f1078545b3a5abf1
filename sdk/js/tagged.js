// Tagged term JSON (spec/terms.md): decoding JSON into the terms of
// terms.js, every error naming the JSON pointer where it happened (TJ-10),
// and the canonical encoding (TJ-5), byte for byte what the Rust harness's
// encoder (src/model/tagged.rs `encode`) writes for the same term.

import { JsonError, JsonNumber, parse, pointerSegment, quote } from "./json.js";
import { IsoError, parseIso } from "./temporal.js";
import { compareCodePoints } from "./order.js";
import {
  Atom,
  Bytes,
  DuplicateKeyError,
  Float,
  Fun,
  Opaque,
  Struct,
  TEMPORAL_KINDS,
  Temporal,
  TermMap,
  Tuple,
  atom,
  binary,
  int,
  kwPair,
} from "./terms.js";
import { StructError, makeStruct } from "./structs.js";
import { resolveRelease } from "./release.js";

/** A term that does not decode: `message` starts with the JSON pointer, e.g. `/args/1/$map/0/0: unknown tag "$atm"`. */
export class TermDecodeError extends Error {
  constructor(path, why) {
    super(`${path || "/"}: ${why}`);
    this.name = "TermDecodeError";
    this.path = path;
  }
}

/** An improper list met while encoding: it has no tagged form (TJ-12); serve answers such a result unsupported with improperReason(tail). */
export class ImproperListError extends TypeError {
  constructor(tail) {
    super("not a term: an improper list has no tagged form (TJ-12)");
    this.name = "ImproperListError";
    this.tail = tail;
  }
}

/** A value that is not a term, met while encoding (a bug in the port that built it). */
export class EncodeError extends TypeError {
  constructor(why) {
    super(why);
    this.name = "EncodeError";
  }
}

/**
 * Decodes one tagged term from JSON text. `root` is the pointer printed for
 * the top-level value (e.g. "/args"); structs as `release` defines them
 * (decodeValue). JSON syntax errors are TermDecodeErrors too.
 */
export function decode(text, root = "", release = undefined) {
  let value;
  try {
    value = parse(text, root, { outer: 0 });
  } catch (e) {
    if (e instanceof JsonError) throw new TermDecodeError(e.pointer ?? root, e.why);
    throw e;
  }
  return decodeValue(value, root, release);
}

const U64_MAX = (1n << 64n) - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const I64_MIN = -(1n << 63n);

/** The longest atom name, in characters (TJ-1): String.to_atom/1 raises SystemLimitError beyond it. */
export const MAX_ATOM_CHARS = 255;

/**
 * A double as Rust's `{}` writes it (the Rust harness names a bare number
 * so): its shortest digits, never an exponent, no `.0` for a whole number
 * (`1`, `0.0001`, `100000000000000000000`, `-0`).
 */
export function rustFloat(x) {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x < 0 ? "-inf" : "inf";
  const [mant, e = "0"] = String(Math.abs(x)).split("e");
  const [whole, frac = ""] = mant.split(".");
  let digits = whole + frac;
  let point = whole.length + Number(e);
  const lead = digits.match(/^0*/)[0].length;
  digits = digits.slice(lead).replace(/0+$/, "");
  point -= lead;
  const sign = x < 0 ? "-" : "";
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function bareNumber(path, shown) {
  return new TermDecodeError(
    path,
    `bare number ${shown} is not a term: floats are written {"$float": ${shown}} and integers beyond 2^53-1 {"$int": "..."} (TJ-3)`,
  );
}

/** `name` when it can name an atom (TJ-1). */
function atomName(name, path) {
  const n = [...name].length;
  if (n > MAX_ATOM_CHARS) throw new TermDecodeError(path, `an atom has at most ${MAX_ATOM_CHARS} characters, this name has ${n} (TJ-1)`);
  return name;
}

function kindOfJson(v) {
  if (v === null) return "null";
  if (typeof v === "boolean") return "a boolean";
  if (typeof v === "string") return `the string ${quote(v)}`;
  if (typeof v === "bigint" || v instanceof JsonNumber) return "a number";
  if (Array.isArray(v)) return "an array";
  return "an object";
}

function kindOfTerm(t) {
  if (t === null || typeof t === "boolean" || t instanceof Atom) return "atom";
  if (typeof t === "number" || typeof t === "bigint") return "integer";
  if (t instanceof Float) return "float";
  if (typeof t === "string" || t instanceof Bytes) return "binary";
  if (Array.isArray(t)) return "list";
  if (t instanceof Tuple) return "tuple";
  if (t instanceof TermMap) return "map";
  if (t instanceof Struct || t instanceof Temporal) return "struct";
  if (t instanceof Fun) return "function";
  return { ref: "reference", pid: "pid", port: "port" }[t.kind];
}

/**
 * Decodes a JSON value as json.js's parse() gives it (Map objects, BigInt
 * integers, JsonNumber) into a term; `path` is its JSON pointer. A $struct
 * is completed with the fields and defaults `release` defines (release.js;
 * left out, the served port's), and naming a field that release's struct
 * lacks is an error (REL-1).
 */
export function decodeValue(v, path = "", release = undefined) {
  return decodeAt(v, path, resolveRelease(release));
}

function decodeAt(v, path, rel) {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "bigint") {
    if (v <= MAX_SAFE && v >= -MAX_SAFE) return int(v);
    // Past 64 bits the Rust reader has a double: name it as one.
    if (v > U64_MAX || v < I64_MIN) throw bareNumber(path, rustFloat(Number(v)));
    throw new TermDecodeError(path, `bare integer ${v} is beyond 2^53-1: it is written {"$int": "${v}"} (TJ-3)`);
  }
  if (v instanceof JsonNumber) throw bareNumber(path, rustFloat(v.toNumber()));
  if (Array.isArray(v)) return v.map((item, i) => decodeAt(item, `${path}/${i}`, rel));
  if (!(v instanceof Map)) throw new TypeError(`decodeValue: not a parsed JSON value: ${String(v)}`);
  if (v.size === 0) return new TermMap([]);
  const [first] = v.keys();
  if (first.startsWith("$")) {
    if (v.size > 1) {
      const second = [...v.keys()][1];
      throw new TermDecodeError(path, `tag object ${quote(first)} has a second key ${quote(second)}: a tag is a one-key object`);
    }
    return decodeTag(first, v.get(first), path, rel);
  }
  const pairs = [];
  for (const [k, item] of v) {
    if (k.startsWith("$")) {
      throw new TermDecodeError(path, `object key ${quote(k)} starts with '$': a map with such a key is written {"$map": [[k, v], ...]}`);
    }
    pairs.push([k, decodeAt(item, `${path}/${pointerSegment(k)}`, rel)]);
  }
  return strictMap(pairs, path);
}

function strictMap(pairs, path) {
  try {
    return TermMap.strict(pairs);
  } catch (e) {
    if (e instanceof DuplicateKeyError) throw new TermDecodeError(path, `duplicated map key ${encode(e.key)}`);
    throw e;
  }
}

function str(v, path, what) {
  if (typeof v === "string") return v;
  throw new TermDecodeError(path, `expected ${what}, got ${kindOfJson(v)}`);
}

function decodeTag(tag, v, parent, rel) {
  const path = `${parent}/${pointerSegment(tag)}`;
  switch (tag) {
    case "$int": {
      const s = str(v, path, "a decimal integer string");
      if (!/^-?[0-9]+$/.test(s)) throw new TermDecodeError(path, `${quote(s)} is not a decimal integer`);
      return int(BigInt(s));
    }
    case "$float": {
      let x;
      if (v instanceof JsonNumber) x = v.toNumber();
      else if (typeof v === "bigint") x = Number(v);
      else throw new TermDecodeError(path, `$float must be a JSON number, got ${kindOfJson(v)}`);
      if (!Number.isFinite(x)) throw new TermDecodeError(path, "$float is out of the finite range");
      return new Float(x);
    }
    case "$bytes":
      return binary(decodeBase64(str(v, path, "a base64 string"), path));
    case "$atom":
      return atom(atomName(str(v, path, "an atom name string"), path));
    case "$tuple": {
      const items = decodeAt(v, path, rel);
      if (!Array.isArray(items)) throw new TermDecodeError(path, `expected an array, got ${kindOfTerm(items)}`);
      return new Tuple(items);
    }
    case "$map":
      return strictMap(decodePairs(v, path, false, rel), path);
    case "$kw":
      return decodePairs(v, path, true, rel).map(([k, x]) => new Tuple([k, x]));
    case "$date":
    case "$time":
    case "$datetime":
    case "$naive_datetime": {
      const kind = tag.slice(1);
      const iso = str(v, path, "an ISO 8601 string");
      let parts;
      try {
        parts = parseIso(kind, iso);
      } catch (e) {
        if (!(e instanceof IsoError)) throw e;
        const what = kind.replace("_", " ");
        throw new TermDecodeError(path, `${quote(iso)}: not an ISO 8601 ${what} as Elixir writes it: ${e.message} (TJ-6)`);
      }
      return new Temporal(kind, iso, parts);
    }
    case "$struct":
      return decodeStruct(v, path, rel);
    case "$fn":
      return decodeFun(v, path, rel);
    case "$ref":
    case "$pid":
    case "$port":
      return new Opaque(tag.slice(1), str(v, path, "a label string"));
    default:
      throw new TermDecodeError(parent, `unknown tag ${quote(tag)}`);
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard, padded base64, strictly: no stray characters, no non-zero trailing bits. */
function decodeBase64(s, path) {
  const bad = (why) => new TermDecodeError(path, `bad base64: ${why}`);
  if (!BASE64.test(s)) throw bad("not standard padded base64");
  if (s.endsWith("==")) {
    if (B64_ALPHABET.indexOf(s[s.length - 3]) & 0x0f) throw bad("non-zero trailing bits");
  } else if (s.endsWith("=")) {
    if (B64_ALPHABET.indexOf(s[s.length - 2]) & 0x03) throw bad("non-zero trailing bits");
  }
  return new Uint8Array(Buffer.from(s, "base64"));
}

function decodePairs(v, path, kw, rel) {
  if (!Array.isArray(v)) {
    const got = v instanceof Map ? "an object" : kindOfJson(v).startsWith("the string") ? "a string" : kindOfJson(v);
    throw new TermDecodeError(path, `expected an array of [key, value] pairs, got ${got}`);
  }
  // A pair is a JSON array of two, read as written (TJ-1): not a term that
  // decodes to a list of two; a $kw key is a JSON string.
  return v.map((item, i) => {
    const at = `${path}/${i}`;
    if (!Array.isArray(item)) throw new TermDecodeError(at, "expected a [key, value] pair");
    let k;
    let x;
    if (item.length >= 1) {
      if (!kw) k = decodeAt(item[0], `${at}/0`, rel);
      else if (typeof item[0] === "string") k = atom(atomName(item[0], `${at}/0`));
      else throw new TermDecodeError(`${at}/0`, "a $kw key must be a string (the atom's name)");
    }
    if (item.length >= 2) x = decodeAt(item[1], `${at}/1`, rel);
    if (item.length !== 2) throw new TermDecodeError(at, "expected a [key, value] pair");
    return [k, x];
  });
}

function decodeStruct(v, path, rel) {
  if (!(v instanceof Map)) throw new TermDecodeError(path, `expected an object with "module" and "fields", got ${kindOfJson(v)}`);
  let module;
  const fields = new Map();
  for (const [k, x] of v) {
    const at = `${path}/${pointerSegment(k)}`;
    if (k === "module") module = str(x, at, "a module name");
    else if (k === "fields") {
      if (!(x instanceof Map)) throw new TermDecodeError(at, `expected an object of struct fields, got ${kindOfJson(x)}`);
      for (const [name, value] of x) fields.set(name, decodeAt(value, `${at}/${pointerSegment(name)}`, rel));
    } else throw new TermDecodeError(at, 'unknown key: a $struct has only "module" and "fields"');
  }
  if (module === undefined) throw new TermDecodeError(path, '$struct needs "module"');
  try {
    return makeStruct(module, fields, rel);
  } catch (e) {
    if (e instanceof StructError) throw new TermDecodeError(e.ofFields ? `${path}/fields` : path, e.message);
    throw e;
  }
}

const CAPTURE_SHAPE = "M not empty, f not empty and without . or /, n from 0 to 255 without a leading zero";

/**
 * Whether `name` is a capture's text `&M.f/n` as TJ-8 reads it: M not
 * empty, f (after the last `.` before the last `/`) not empty and without
 * `.` or `/`, n from 0 to 255 without a leading zero (the text is the term:
 * `&M.f/01` is not one).
 */
export function isCapture(name) {
  if (!name.startsWith("&")) return false;
  const slash = name.lastIndexOf("/");
  if (slash < 0) return false;
  const mf = name.slice(1, slash);
  const arity = name.slice(slash + 1);
  const dot = mf.lastIndexOf(".");
  if (dot < 0) return false;
  const module = mf.slice(0, dot);
  const fun = mf.slice(dot + 1);
  if (!module || !fun || fun.includes("/")) return false;
  return /^(0|[1-9][0-9]{0,2})$/.test(arity) && Number(arity) <= 255;
}

function decodeFun(v, path, rel) {
  if (!(v instanceof Map)) throw new TermDecodeError(path, `expected a function spec object, got ${kindOfJson(v)}`);
  const spec = {};
  for (const [k, x] of v) {
    const at = `${path}/${pointerSegment(k)}`;
    switch (k) {
      case "arity": {
        const n = decodeAt(x, at, rel);
        if (typeof n !== "number" || n < 0 || n > 255) throw new TermDecodeError(at, "arity must be an integer from 0 to 255");
        spec.arity = n;
        break;
      }
      case "returns":
        spec.returns = decodeAt(x, at, rel);
        break;
      case "raises":
        spec.raises = str(x, at, "a message string");
        break;
      case "name":
        spec.name = str(x, at, "a function name");
        if (!isCapture(spec.name)) throw new TermDecodeError(at, `${quote(spec.name)} is not a capture &M.f/n (${CAPTURE_SHAPE}) (TJ-8)`);
        break;
      default:
        throw new TermDecodeError(at, 'unknown key: a $fn has "arity" with "returns" or "raises", or "name"');
    }
  }
  const has = (k) => k in spec;
  const ok =
    (has("arity") && has("returns") && !has("raises") && !has("name")) ||
    (has("arity") && has("raises") && !has("returns") && !has("name")) ||
    (has("name") && !has("arity") && !has("returns") && !has("raises"));
  if (!ok) {
    throw new TermDecodeError(path, 'a $fn is {"arity": n, "returns": t}, {"arity": n, "raises": "msg"} or {"name": "&M.f/1"}');
  }
  return new Fun(spec);
}

/**
 * Erlang's shortest float text (`Float.to_string/1`): the shortest digits
 * that read back as `x`, plain (`100.0`, `0.001`, `1.5`) unless the
 * exponent form is strictly shorter (`1.0e3`, `1.2e-4`), and always the
 * exponent form for an integral float of 2^53 or more (`1.0e16`).
 */
export function shortFloat(x) {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // JavaScript's Number#toString gives the shortest round-trip digits,
  // the nearest of equally short ones, ties to even (as Ryu, which OTP uses).
  const [mant, e = "0"] = String(Math.abs(x)).split("e");
  const [whole, frac = ""] = mant.split(".");
  let digits = whole + frac;
  let point = whole.length + Number(e); // the decimal point sits after `point` digits
  const lead = digits.match(/^0*/)[0].length;
  digits = digits.slice(lead);
  point -= lead;
  digits = digits.replace(/0+$/, "");
  const sign = x < 0 ? "-" : "";
  const len = digits.length;
  const exponentForm = `${sign}${digits[0]}.${digits.slice(1) || "0"}e${point - 1}`;
  let plain;
  if (point <= 0) plain = `${sign}0.${"0".repeat(-point)}${digits}`;
  else if (point < len) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (Math.abs(x) < 9007199254740992) plain = `${sign}${digits}${"0".repeat(point - len)}.0`;
  else return exponentForm;
  return plain.length <= exponentForm.length ? plain : exponentForm;
}

/** The canonical tagged term JSON of `term` (TJ-5): the same term always gives the same bytes. */
export function encode(term) {
  const out = [];
  encodeInto(term, out);
  return out.join("");
}

function encodeInt(n, out) {
  if (n <= MAX_SAFE && n >= -MAX_SAFE) out.push(n.toString());
  else out.push(`{"$int":"${n}"}`);
}

function encodeInto(t, out) {
  if (t === null) return void out.push("null");
  switch (typeof t) {
    case "boolean":
      return void out.push(t ? "true" : "false");
    case "string":
      return void out.push(quote(t));
    case "bigint":
      return encodeInt(t, out);
    case "number":
      if (Number.isSafeInteger(t)) return void out.push(String(t));
      if (Number.isInteger(t)) return encodeInt(BigInt(t), out);
      throw new EncodeError(`the number ${t} is not a term: a float is written new Float(${t})`);
    default:
  }
  if (Array.isArray(t)) {
    if (t.length > 0 && t.every((x) => kwPair(x) !== undefined)) {
      out.push('{"$kw":[');
      t.forEach((x, i) => {
        const [k, v] = kwPair(x);
        out.push(i > 0 ? ",[" : "[", quote(k), ",");
        encodeInto(v, out);
        out.push("]");
      });
      return void out.push("]}");
    }
    return encodeSeq(t, out);
  }
  if (t instanceof Float) return void out.push(`{"$float":${shortFloat(t.value)}}`);
  if (t instanceof Atom) return void out.push(`{"$atom":${quote(t.name)}}`);
  if (t instanceof Bytes) {
    const b = binary(t.bytes); // canonical: Bytes that are UTF-8 are a string (TJ-5)
    if (typeof b === "string") return void out.push(quote(b));
    return void out.push(`{"$bytes":"${Buffer.from(t.bytes).toString("base64")}"}`);
  }
  if (t instanceof Tuple) {
    out.push('{"$tuple":');
    encodeSeq(t.items, out);
    return void out.push("}");
  }
  if (t instanceof TermMap) {
    const plain = t.pairs.every(([k]) => typeof k === "string" && !k.startsWith("$"));
    out.push(plain ? "{" : '{"$map":[');
    t.pairs.forEach(([k, v], i) => {
      if (i > 0) out.push(",");
      if (plain) {
        out.push(quote(k), ":");
      } else {
        out.push("[");
        encodeInto(k, out);
        out.push(",");
      }
      encodeInto(v, out);
      if (!plain) out.push("]");
    });
    return void out.push(plain ? "}" : "]}");
  }
  if (t instanceof Struct) {
    out.push(`{"$struct":{"module":${quote(t.module)},"fields":{`);
    [...t.fields].sort((a, b) => compareCodePoints(a[0], b[0])).forEach(([k, v], i) => {
      out.push(i > 0 ? "," : "", quote(k), ":");
      encodeInto(v, out);
    });
    return void out.push("}}}");
  }
  if (t instanceof Temporal) {
    if (!(t.kind in TEMPORAL_KINDS)) throw new EncodeError(`unknown temporal kind ${String(t.kind)}`);
    return void out.push(`{"$${t.kind}":${quote(t.iso)}}`);
  }
  if (t instanceof Fun) {
    if (t.name !== undefined) return void out.push(`{"$fn":{"name":${quote(t.name)}}}`);
    if (t.raises !== undefined) return void out.push(`{"$fn":{"arity":${t.arity},"raises":${quote(t.raises)}}}`);
    out.push(`{"$fn":{"arity":${t.arity},"returns":`);
    encodeInto(t.returns, out);
    return void out.push("}}");
  }
  if (t instanceof Opaque) return void out.push(`{"$${t.kind}":${quote(t.label)}}`);
  if (t?.constructor?.name === "Improper" && "tail" in t) throw new ImproperListError(t.tail); // elixir/lists.js's (no import cycle)
  if (t === undefined) throw new EncodeError("not a term: undefined (a left-out argument or an absent key; the term nil is null)");
  throw new EncodeError(`not a term: ${typeof t === "object" ? `a ${t.constructor?.name ?? "object"}` : String(t)}`);
}

function encodeSeq(items, out) {
  out.push("[");
  items.forEach((x, i) => {
    if (i > 0) out.push(",");
    encodeInto(x, out);
  });
  out.push("]");
}
