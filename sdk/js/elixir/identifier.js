// Elixir 1.18.4's identifier tokenizer (String.Tokenizer.tokenize/1), as
// Macro.classify_atom/1 uses it to decide whether inspect quotes an atom
// (spec/inspect.md IN-4): UTS 31 identifiers with Elixir's restrictions
// (one script set per `_`-separated chunk, `µ` read as `μ`) and the NFC
// check through OTP 25's per-cluster NFC. Port of
// src/elixir/identifier/mod.rs over spec/data/unicode/identifier.json.

import { dataFile } from "./data.js";
import { codePoints } from "./graphemes.js";
import { nfcCodePoints } from "./normalize.js";
import { binaryOfRaw, rawOf } from "./raw.js";

let T;

// A script set is a BigInt with one bit per script name.
function tables() {
  if (T) return T;
  const d = dataFile("unicode/identifier.json");
  const bit = new Map();
  const masks = d.script_sets.map((names) => {
    let m = 0n;
    for (const n of names) {
      if (!bit.has(n)) bit.set(n, 1n << BigInt(bit.size));
      m |= bit.get(n);
    }
    return m;
  });
  const ranges = (name) => d.classes[name].ranges;
  T = { masks, latin: bit.get("Latin"), mu: masks[d.micro_script_set], upper: ranges("upper"), start: ranges("start"), cont: ranges("continue") };
  return T;
}

const BOTTOM = 0n;
const TOP = -1n; // every bit: the identity of `&`

function lookup(table, cp) {
  let lo = 0;
  let hi = table.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = table[mid];
    if (r[1] < cp) lo = mid + 1;
    else if (r[0] > cp) hi = mid - 1;
    else return tables().masks[r[2]];
  }
  return BOTTOM;
}

const upper = (cp) => lookup(tables().upper, cp);
const start = (cp) => lookup(tables().start, cp);
const cont = (cp) => lookup(tables().cont, cp);

const MICRO = 0xb5;
const MU = 0x3bc;

/**
 * `String.Tokenizer.tokenize/1` of a name: undefined where it answers an
 * error (no valid start, a character no identifier may hold, mixed
 * scripts), else `{kind, whole, at, nfkc}`: kind "alias" (`Foo`),
 * "identifier" (`foo`, `ф`) or "atom" (`Ф`); whole: the token took all of
 * the name; at: it holds `@`; nfkc: NFC changes it or it holds `µ`.
 */
export function tokenize(name) {
  if (typeof name !== "string") name = binaryOfRaw(rawOf(name));
  if (typeof name !== "string") return undefined; // not UTF-8: no identifier
  const t = tables();
  const cps = codePoints(name);
  if (cps.length === 0) return undefined;
  const head = cps[0];
  const acc = [head];
  let nfkc = false;
  let kind;
  let ascii;
  let ss;
  if (head >= 0x41 && head <= 0x5a) [kind, ascii, ss] = ["alias", true, t.latin];
  else if (head >= 0x61 && head <= 0x7a) [kind, ascii, ss] = ["identifier", true, t.latin];
  else if (head === 0x5f) [kind, ascii, ss] = ["identifier", true, TOP];
  else if (upper(head) !== BOTTOM) [kind, ascii, ss] = ["atom", false, upper(head)];
  else if (start(head) !== BOTTOM) [kind, ascii, ss] = ["identifier", false, start(head)];
  else if (head === MICRO) {
    acc[0] = MU;
    nfkc = true;
    [kind, ascii, ss] = ["identifier", false, t.mu];
  } else return undefined;
  let at = false;
  let whole = true;
  for (let i = 1; i < cps.length; i++) {
    const c = cps[i];
    if (c === 0x21 || c === 0x3f) {
      acc.push(c);
      whole = i === cps.length - 1;
      break;
    } else if (c === 0x40) {
      at = true;
      acc.push(c);
    } else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
      ss &= t.latin;
      acc.push(c);
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x5f) {
      acc.push(c);
    } else if (c <= 0x7f) {
      whole = false;
      break;
    } else {
      const found = [start(c), upper(c), cont(c)].find((s) => s !== BOTTOM);
      if (found !== undefined) {
        ss &= found;
        acc.push(c);
      } else if (c === MICRO) {
        ss &= t.mu;
        nfkc = true;
        acc.push(MU);
      } else return undefined;
      ascii = false;
    }
  }
  if (!ascii) {
    const normal = nfcCodePoints(acc);
    if (normal.length !== acc.length || normal.some((c, i) => c !== acc[i])) nfkc = true;
    if (ss === BOTTOM && !chunksSingle(normal)) return undefined;
  }
  return { kind, whole, at, nfkc };
}

function scriptOf(c) {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return tables().latin;
  return [start(c), upper(c), cont(c)].find((s) => s !== BOTTOM) ?? TOP;
}

// Every `_`-separated chunk has a script in common.
function chunksSingle(cps) {
  let acc = TOP;
  for (const c of cps) {
    if (c === 0x5f) {
      if (acc === BOTTOM) return false;
      acc = TOP;
    } else acc &= scriptOf(c);
  }
  return acc !== BOTTOM;
}
