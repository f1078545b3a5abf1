// The Elixir term model of the tool boundary, in plain JavaScript values
// where JavaScript has one and small classes where it has none
// (spec/terms.md):
//
//   nil, true, false          null, true, false (atoms too: see atomName)
//   integer                   number (a safe integer) or BigInt (any size);
//                             the decoder gives a number up to 2^53-1, else a BigInt
//   float                     Float (so 1.0 stays a float; -0.0 is kept)
//   UTF-8 binary              string
//   other binary              Bytes (never valid UTF-8: build it with binary())
//   atom                      Atom
//   list                      Array
//   tuple                     Tuple
//   map                       TermMap (any terms as keys, iterated in map key order)
//   struct                    Struct (module, fields in defstruct order)
//   Date/Time/DateTime/NaiveDateTime   Temporal (kind, ISO 8601 text)
//   function                  Fun (its behaviour spec)
//   reference / pid / port    Opaque (kind, label)
//
// Equality and order are order.js's; building a TermMap uses them.

import { mapKeyCompare } from "./order.js";
import { IsoError, parseIso } from "./temporal.js";

/** An atom other than nil, true and false (those are null, true, false). */
export class Atom {
  /** @param {string} name */
  constructor(name) {
    this.name = name;
  }
}

/**
 * The atom `name`: null, true or false for "nil", "true", "false" (Elixir's
 * `nil` is the atom `:nil`), an Atom otherwise.
 */
export function atom(name) {
  if (name === "nil") return null;
  if (name === "true") return true;
  if (name === "false") return false;
  return new Atom(name);
}

/** The atom's name when `t` is an atom (null/true/false included), else undefined. */
export function atomName(t) {
  if (t === null) return "nil";
  if (t === true) return "true";
  if (t === false) return "false";
  if (t instanceof Atom) return t.name;
  return undefined;
}

/** `is_atom/1`. */
export function isAtom(t) {
  return atomName(t) !== undefined;
}

/** A float. `value` is a finite double; -0 is kept. */
export class Float {
  /** @param {number} value */
  constructor(value) {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new TypeError(`a float term is a finite number, got ${String(value)}`);
    }
    this.value = value;
  }
}

/** A binary that is not valid UTF-8 (build it with binary(), which gives a string when it is). */
export class Bytes {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A binary from bytes: a string when they are valid UTF-8, else Bytes. */
export function binary(bytes) {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return new Bytes(Uint8Array.from(bytes));
  }
}

/** `is_binary/1`. */
export function isBinary(t) {
  return typeof t === "string" || t instanceof Bytes;
}

/** The bytes of a binary (UTF-8 for a string), else undefined. */
export function binaryBytes(t) {
  if (typeof t === "string") return Buffer.from(t, "utf8");
  if (t instanceof Bytes) return t.bytes;
  return undefined;
}

/**
 * A binary term made of binary terms, as Elixir's `<>` joins them: each
 * part a string (its UTF-8) or Bytes; a string when the bytes are UTF-8,
 * else Bytes. It builds text that may hold invalid bytes without raw
 * strings (elixir/raw.js); anything but a binary term is a TypeError.
 */
export function concat(...parts) {
  const bytes = parts.map((p, i) => {
    const b = binaryBytes(p);
    if (b === undefined) throw new TypeError(`concat: part ${i} is no binary term (a string or Bytes): ${p === null ? "null" : typeof p === "object" ? `a ${p.constructor?.name ?? "object"}` : `${typeof p} ${String(p)}`}`);
    return b;
  });
  return binary(Buffer.concat(bytes));
}

/**
 * Elixir truthiness: every term is true but nil (`null`) and `false`.
 * `undefined` is no term (a missing Map entry, a left-out argument) and is
 * a TypeError rather than true.
 */
export function truthy(t) {
  if (t === undefined) throw new TypeError("truthy: undefined is no term (nil is null; elixir.maps.get gives nil for a missing key)");
  if (t === null || t === false) return false;
  return !(t instanceof Atom) || (t.name !== "nil" && t.name !== "false"); // new Atom("nil") is nil too
}

/** `is_integer/1`: a safe-integer number or a BigInt. */
export function isInt(t) {
  return typeof t === "bigint" || (typeof t === "number" && Number.isInteger(t));
}

/** An integer term as a BigInt. */
export function toBigInt(t) {
  if (typeof t === "bigint") return t;
  if (typeof t === "number" && Number.isInteger(t)) return BigInt(t);
  throw new TypeError(`not an integer term: ${String(t)}`);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An integer term in the decoder's form: a number when |n| <= 2^53-1, else a BigInt. */
export function int(n) {
  const b = toBigInt(n);
  return b <= MAX_SAFE && b >= -MAX_SAFE ? Number(b) : b;
}

/** A tuple. */
export class Tuple {
  /** @param {Array} items */
  constructor(items) {
    this.items = items;
  }
}

/** `{a, b, ...}` */
export function tuple(...items) {
  return new Tuple(items);
}

/** Whether `t` is `{atom, value}` (an element of a keyword list); gives [name, value]. */
export function kwPair(t) {
  if (t instanceof Tuple && t.items.length === 2) {
    const name = atomName(t.items[0]);
    if (name !== undefined) return [name, t.items[1]];
  }
  return undefined;
}

/** A keyword list from [name, value] pairs: `kw([["a", 1]])` is `[a: 1]`. */
export function kw(pairs) {
  return pairs.map(([k, v]) => new Tuple([atom(k), v]));
}

/** The error a duplicated key raises when a map is built strictly. */
export class DuplicateKeyError extends Error {
  constructor(key) {
    super("duplicated map key");
    this.name = "DuplicateKeyError";
    this.key = key;
  }
}

/**
 * An immutable map that is not a struct. Pairs are kept in map key order
 * (spec/terms.md TJ-4: Erlang term order, every integer before every float),
 * the iteration order of Elixir maps up to 32 keys.
 */
export class TermMap {
  /** Use TermMap.from / TermMap.strict; `pairs` must be sorted and unique. */
  constructor(pairs = []) {
    this.pairs = pairs;
  }

  /**
   * As `Map.new/1`: pairs taken in order, a later pair replacing an earlier
   * one with the same key. `collisions` (if given) counts the replacements.
   */
  static from(pairs, collisions) {
    const indexed = [...pairs].map((p, i) => [p[0], p[1], i]);
    indexed.sort((a, b) => mapKeyCompare(a[0], b[0]) || a[2] - b[2]);
    const out = [];
    for (const [k, v] of indexed) {
      const last = out[out.length - 1];
      if (last && mapKeyCompare(last[0], k) === 0) {
        out[out.length - 1] = [k, v];
        if (collisions) collisions.count++;
      } else {
        out.push([k, v]);
      }
    }
    return new TermMap(out);
  }

  /** A map whose keys are atoms: `TermMap.atoms({ a: 1, "b-c": 2 })` is `%{:a => 1, :"b-c" => 2}` (TermMap.from takes term keys, so its strings are binaries). */
  static atoms(fields) {
    return TermMap.strict(Object.entries(fields).map(([k, v]) => [atom(k), v]));
  }

  /** A map from pairs with unique keys; a duplicated key throws DuplicateKeyError. */
  static strict(pairs) {
    const sorted = [...pairs].sort((a, b) => mapKeyCompare(a[0], b[0]));
    for (let i = 1; i < sorted.length; i++) {
      if (mapKeyCompare(sorted[i - 1][0], sorted[i][0]) === 0) throw new DuplicateKeyError(sorted[i - 1][0]);
    }
    return new TermMap(sorted.map(([k, v]) => [k, v]));
  }

  get size() {
    return this.pairs.length;
  }

  /** Pairs [key, value] in iteration order. */
  [Symbol.iterator]() {
    return this.pairs[Symbol.iterator]();
  }

  keys() {
    return this.pairs.map((p) => p[0]);
  }

  values() {
    return this.pairs.map((p) => p[1]);
  }

  /** The value under `key` (matched as Erlang matches map keys), or undefined. */
  get(key) {
    const i = this.#find(key);
    return i >= 0 ? this.pairs[i][1] : undefined;
  }

  has(key) {
    return this.#find(key) >= 0;
  }

  /** A new map with `key` set to `value`. */
  put(key, value) {
    const i = this.#find(key);
    const pairs = [...this.pairs];
    if (i >= 0) pairs[i] = [key, value];
    else pairs.splice(-i - 1, 0, [key, value]);
    return new TermMap(pairs);
  }

  #find(key) {
    let lo = 0;
    let hi = this.pairs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = mapKeyCompare(this.pairs[mid][0], key);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }
}

/** A map built as `Map.new/1` would from [key, value] pairs (or a plain object's string keys). */
export function map(pairs) {
  if (pairs instanceof TermMap) return pairs;
  if (!Array.isArray(pairs)) pairs = Object.entries(pairs);
  return TermMap.from(pairs);
}

/**
 * A struct other than the four calendar ones. `fields` is a JS Map of field
 * name to term in defstruct order, every field present (structs.js builds
 * one with the defaults filled in).
 */
export class Struct {
  constructor(module, fields) {
    this.module = module;
    this.fields = fields;
  }
  /** The value of field `name`, or undefined when the struct has none. */
  get(name) {
    return this.fields.get(name);
  }
}

/** The four calendar structs, by their tag in tagged term JSON. */
export const TEMPORAL_KINDS = Object.freeze({
  date: "Date",
  time: "Time",
  datetime: "DateTime",
  naive_datetime: "NaiveDateTime",
});

/** A `Date`, `Time`, `DateTime` or `NaiveDateTime`, kept as its ISO 8601 text (TJ-6). */
export class Temporal {
  /**
   * A Date, Time, DateTime or NaiveDateTime: the ISO 8601 text
   * to_iso8601/1 prints (TJ-6) and the parts it holds. The text is checked
   * here (a TypeError saying why, as parseIso); its parts are properties
   * named as the struct's fields: `year`, `month`, `day` (dates), `hour`,
   * `minute`, `second`, `microsecond` (the value) and `precision` (its
   * digits: Elixir's `microsecond: {value, precision}`) (times), and for a
   * DateTime `timeZone` ("Etc/UTC" or the offset text), `zoneAbbr`,
   * `utcOffset` (seconds) and `stdOffset` (0). A part the kind lacks is
   * undefined, so a year check needs no parsing and cannot take a Time for
   * year 0; `parts` is parseIso's object they are read from.
   * @param {"date"|"time"|"datetime"|"naive_datetime"} kind
   * @param {string} iso
   */
  constructor(kind, iso, parts = undefined) {
    if (!Object.hasOwn(TEMPORAL_KINDS, kind)) throw new TypeError(`not a temporal kind: ${String(kind)}`);
    if (parts === undefined) {
      try {
        parts = parseIso(kind, iso);
      } catch (e) {
        if (!(e instanceof IsoError)) throw e;
        throw new TypeError(`not an ISO 8601 ${kind.replace("_", " ")} as Elixir writes it: ${JSON.stringify(iso)}: ${e.message} (TJ-6)`);
      }
    }
    this.kind = kind;
    this.iso = iso;
    Object.defineProperty(this, "parts", { value: Object.freeze(parts), enumerable: false });
  }
  /** The struct's module name, e.g. "NaiveDateTime". */
  get module() {
    return TEMPORAL_KINDS[this.kind];
  }
  #date(v) {
    return this.kind === "time" ? undefined : v;
  }
  #time(v) {
    return this.kind === "date" ? undefined : v;
  }
  #zone(v) {
    return this.kind === "datetime" ? v : undefined;
  }
  /** The year (negative before year 1); undefined for a Time. */
  get year() {
    return this.#date(this.parts.year);
  }
  /** The month, 1 to 12; undefined for a Time. */
  get month() {
    return this.#date(this.parts.month);
  }
  /** The day of the month; undefined for a Time. */
  get day() {
    return this.#date(this.parts.day);
  }
  /** The hour, 0 to 23; undefined for a Date. */
  get hour() {
    return this.#time(this.parts.hour);
  }
  /** The minute; undefined for a Date. */
  get minute() {
    return this.#time(this.parts.minute);
  }
  /** The second; undefined for a Date. */
  get second() {
    return this.#time(this.parts.second);
  }
  /** The microseconds' value; undefined for a Date. */
  get microsecond() {
    return this.#time(this.parts.microsecond);
  }
  /** The fraction's digits, 0 to 6; undefined for a Date. */
  get precision() {
    return this.#time(this.parts.precision);
  }
  /** A DateTime's offset from UTC in seconds (0 for Z); undefined for the other kinds. */
  get utcOffset() {
    return this.#zone(this.parts.offset ? this.parts.offset[0] : 0);
  }
  /** 0 for a DateTime; undefined for the other kinds. */
  get stdOffset() {
    return this.#zone(0);
  }
  /** A DateTime's zone: "Etc/UTC" for Z, else the offset text; undefined for the other kinds. */
  get timeZone() {
    return this.#zone(this.parts.offset ? this.parts.offset[1] : "Etc/UTC");
  }
  /** A DateTime's zone abbreviation: "UTC" for Z, else the offset text; undefined for the other kinds. */
  get zoneAbbr() {
    return this.#zone(this.parts.offset ? this.parts.offset[1] : "UTC");
  }
}

/**
 * A function, known by its behaviour spec (TJ-8): `{arity, returns}`,
 * `{arity, raises}` (a RuntimeError message) or `{name}` ("&Mod.fun/n").
 */
export class Fun {
  constructor({ arity, returns, raises, name }) {
    if (name !== undefined) {
      this.name = name;
    } else {
      this.arity = arity;
      if (raises !== undefined) this.raises = raises;
      else this.returns = returns;
    }
  }
  /** The arity, when known (a named capture's from its name). */
  get fnArity() {
    if (this.name === undefined) return this.arity;
    const m = /\/(\d+)$/.exec(this.name);
    return m ? Number(m[1]) : undefined;
  }
}

/** A reference, pid or port, known by a label (TJ-9). */
export class Opaque {
  /**
   * @param {"ref"|"pid"|"port"} kind
   * @param {string} label
   */
  constructor(kind, label) {
    this.kind = kind;
    this.label = label;
  }
}

/** `is_map/1`: a TermMap, a Struct or a Temporal (structs are maps). */
export function isMap(t) {
  return t instanceof TermMap || t instanceof Struct || t instanceof Temporal;
}
