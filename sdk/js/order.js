// Erlang term order, map key order and exact equality (`=:=`) over the
// term model of terms.js (spec/terms.md TJ-4, TJ-11).
//
//   number < atom < reference < fun < port < pid < tuple < map < list < binary
//
// compare() is the order of Elixir's `<` (1 and 1.0 compare equal);
// mapKeyCompare() is map key order (every integer before every float; 1 and
// 1.0 are different keys, 0.0 and -0.0 the same key on OTP 25); equal() is
// OTP 25's `=:=`. Functions, references, pids and ports order by VM
// internals in Erlang; here by their spec or label (spec/terms.md says no
// case depends on it).

import { Atom, Bytes, Float, Fun, Opaque, Struct, Temporal, TermMap, Tuple, atom, atomName, binaryBytes } from "./terms.js";

const OPAQUE_RANK = { ref: 2, port: 4, pid: 5 };

/** The rank of a term's type in Erlang term order (0 number .. 9 binary). */
export function typeRank(t) {
  if (t === null || typeof t === "boolean" || t instanceof Atom) return 1;
  switch (typeof t) {
    case "number":
      if (Number.isInteger(t)) return 0;
      throw new TypeError(`the number ${t} is not a term: an integer is a safe integer or a BigInt, a float a Float`);
    case "bigint":
      return 0;
    case "string":
      return 9;
    default:
  }
  if (t instanceof Float) return 0;
  if (Array.isArray(t)) return 8;
  if (t instanceof Tuple) return 6;
  if (t instanceof TermMap || t instanceof Struct || t instanceof Temporal) return 7;
  if (t instanceof Bytes) return 9;
  if (t instanceof Fun) return 3;
  if (t instanceof Opaque) return OPAQUE_RANK[t.kind];
  throw new TypeError(`not a term: ${describe(t)}`);
}

function describe(t) {
  if (t === undefined) return "undefined";
  if (typeof t === "object") return t.constructor ? `a ${t.constructor.name}` : "an object";
  return `${typeof t} ${String(t)}`;
}

/** Erlang term order: negative, 0 or positive. */
export function compare(a, b) {
  return cmp(a, b, false);
}

/** Map key order (TJ-4): term order, but every integer before every float. */
export function mapKeyCompare(a, b) {
  return cmp(a, b, true);
}

/**
 * Compares two strings by code point, which is the byte order of their
 * UTF-8 (JavaScript's `<` compares UTF-16 units, which differs past U+FFFF).
 */
export function compareCodePoints(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x <= 0xdfff ? x + 0x2000 : x - 0x800;
        y = y <= 0xdfff ? y + 0x2000 : y - 0x800;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function sign(x) {
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

function compareInts(a, b) {
  if (typeof a === "number" && typeof b === "number") return sign(a - b);
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An integer against a finite double, exactly (as Erlang compares numbers). */
function compareIntFloat(i, x) {
  if (typeof i === "number") return i < x ? -1 : i > x ? 1 : 0; // both exact doubles
  const whole = Math.trunc(x);
  const c = compareInts(i, BigInt(whole));
  if (c !== 0) return c;
  const fraction = x - whole;
  return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
}

function cmp(a, b, exact) {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0: {
      const fa = a instanceof Float;
      const fb = b instanceof Float;
      if (fa && fb) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      if (!fa && !fb) return compareInts(a, b);
      if (exact) return fa ? 1 : -1;
      return fa ? -compareIntFloat(b, a.value) : compareIntFloat(a, b.value);
    }
    case 1:
      return compareCodePoints(atomName(a), atomName(b));
    case 2:
    case 4:
    case 5:
      return compareCodePoints(a.label, b.label);
    case 3:
      return compareFuns(a, b, exact);
    case 6:
      return a.items.length - b.items.length || compareSeq(a.items, b.items, exact);
    case 7:
      return compareMaps(mapView(a), mapView(b), exact);
    case 8:
      return compareSeq(a, b, exact);
    default:
      if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b);
      return compareBytes(binaryBytes(a), binaryBytes(b));
  }
}

function compareSeq(x, y, exact) {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = cmp(x[i], y[i], exact);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

function compareMaps(x, y, exact) {
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) {
    const c = mapKeyCompare(x[i][0], y[i][0]);
    if (c !== 0) return c;
  }
  for (let i = 0; i < x.length; i++) {
    const c = cmp(x[i][1], y[i][1], exact);
    if (c !== 0) return c;
  }
  return 0;
}

function funKey(f) {
  if (f.name !== undefined) return [0, f.name];
  return f.raises !== undefined ? [1, f.arity, f.raises] : [2, f.arity];
}

function compareFuns(a, b, exact) {
  const ka = funKey(a);
  const kb = funKey(b);
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    if (ka[i] === kb[i]) continue;
    if (typeof ka[i] === "number") return ka[i] - kb[i];
    return compareCodePoints(ka[i], kb[i]);
  }
  return ka[0] === 2 ? cmp(a.returns, b.returns, exact) : 0;
}

/**
 * The pairs of a map-like term in map key order: a TermMap's own, or a
 * struct's fields plus `__struct__` as the map the struct is (TJ-11).
 */
export function mapView(t) {
  if (t instanceof TermMap) return t.pairs;
  const fields = t instanceof Temporal ? temporalFields(t) : [...t.fields];
  const pairs = fields.map(([k, v]) => [atom(k), v]);
  pairs.push([atom("__struct__"), atom(`Elixir.${t.module}`)]);
  return pairs.sort((x, y) => mapKeyCompare(x[0], y[0]));
}

/**
 * The fields of a calendar struct (all but `__struct__`) from its ISO 8601
 * text, as `from_iso8601/1` parses it: `calendar: Calendar.ISO`, the date
 * and time parts, `microsecond: {value, digits}` (at most 6 digits), and a
 * DateTime's zone: `Etc/UTC`/`UTC` for `Z`, else the offset text as zone
 * and abbreviation (TJ-6, TJ-11).
 */
export function temporalFields(t) {
  const p = t.parts;
  const fields = [["calendar", atom("Elixir.Calendar.ISO")]];
  if (t.kind !== "time") fields.push(["year", p.year], ["month", p.month], ["day", p.day]);
  if (t.kind !== "date") {
    fields.push(["hour", p.hour], ["minute", p.minute], ["second", p.second]);
    fields.push(["microsecond", new Tuple([p.microsecond, p.precision])]);
    if (t.kind === "datetime") {
      const [offset, zone] = p.offset ?? [0, "Etc/UTC"];
      const abbr = p.offset ? zone : "UTC";
      fields.push(["std_offset", 0], ["time_zone", zone], ["utc_offset", offset], ["zone_abbr", abbr]);
    }
  }
  return fields;
}

/**
 * OTP 25's exact equality `=:=`: 1 and 1.0 differ, 0.0 and -0.0 do not;
 * maps compare by content whatever order they were built in.
 */
export function equal(a, b) {
  if (a === b) return true;
  const ra = typeRank(a);
  if (ra !== typeRank(b)) return false;
  switch (ra) {
    case 0: {
      const fa = a instanceof Float;
      if (fa !== b instanceof Float) return false;
      return fa ? a.value === b.value : compareInts(a, b) === 0;
    }
    case 1:
      return atomName(a) === atomName(b);
    case 2:
    case 4:
    case 5:
      return a.label === b.label;
    case 3:
      return compareFuns(a, b, true) === 0;
    case 6:
      return equalSeq(a.items, b.items);
    case 7:
      return equalMapLike(a, b);
    case 8:
      return equalSeq(a, b);
    default:
      if (typeof a === "string" && typeof b === "string") return false; // a !== b above
      return compareBytes(binaryBytes(a), binaryBytes(b)) === 0;
  }
}

function equalSeq(x, y) {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!equal(x[i], y[i])) return false;
  return true;
}

function equalMapLike(a, b) {
  if (a instanceof Temporal || b instanceof Temporal) {
    return a instanceof Temporal && b instanceof Temporal && a.kind === b.kind && a.iso === b.iso;
  }
  if (a instanceof Struct || b instanceof Struct) {
    if (!(a instanceof Struct && b instanceof Struct) || a.module !== b.module) return false;
    if (a.fields.size !== b.fields.size) return false;
    for (const [k, v] of a.fields) {
      if (!b.fields.has(k) || !equal(v, b.fields.get(k))) return false;
    }
    return true;
  }
  if (a.size !== b.size) return false;
  for (let i = 0; i < a.pairs.length; i++) {
    if (!equal(a.pairs[i][0], b.pairs[i][0]) || !equal(a.pairs[i][1], b.pairs[i][1])) return false;
  }
  return true;
}

/** Sorts a copy of `terms` in Erlang term order (stable, as Enum.sort/1). */
export function sortTerms(terms) {
  return [...terms].sort(compare);
}
