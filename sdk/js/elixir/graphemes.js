// Grapheme clusters as OTP 25's :unicode_util.gc/1 splits them (Unicode
// 14.0), which Elixir 1.18's String.length/1 and String.slice/3 count
// with: UAX #29's extended grapheme clusters, but after an extended
// pictographic character spacing marks extend the cluster, and a ZWJ not
// followed by another pictograph ends it (PP-105). Port of
// src/elixir/string/mod.rs over spec/data/unicode/grapheme.json.
// (Intl.Segmenter follows the newer Unicode of the JavaScript engine and
// the standard rules, so it differs.)

import { dataFile } from "./data.js";
import { Bytes } from "../terms.js";
import { binaryOfRaw, charAt, rawOf } from "./raw.js";

let T;

function tables() {
  if (T) return T;
  const g = dataFile("unicode/grapheme.json");
  T = {
    latin1Control: new Set(g.latin1_control),
    latin1Pict: new Set(g.latin1_extended_pictographic),
    first: g.first,
    extend: g.extend,
    extPict: g.extended_pictographic,
    control: g.control,
    l: g.hangul_l,
    v: g.hangul_v,
    t: g.hangul_t,
  };
  return T;
}

/** Whether `cp` falls in one of the sorted [first, last, ...] ranges. */
export function inRanges(cp, ranges) {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid];
    if (r[1] < cp) lo = mid + 1;
    else if (r[0] > cp) hi = mid - 1;
    else return true;
  }
  return false;
}

function firstClass(cp) {
  const f = tables().first;
  let lo = 0;
  let hi = f.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (f[mid][1] < cp) lo = mid + 1;
    else if (f[mid][0] > cp) hi = mid - 1;
    else return f[mid][2];
  }
  return undefined;
}

const ZWJ = 0x200d;
const isExtend = (cp) => cp === ZWJ || inRanges(cp, tables().extend);
// A precomposed Hangul syllable: true for LV, false for LVT, undefined otherwise.
const syllable = (cp) => (cp >= 0xac00 && cp <= 0xd7a3 ? (cp - 0xac00) % 28 === 0 : undefined);

/** The index just past the cluster that starts at index `i` of the code point array `s` (gc_1/1). */
export function clusterEnd(s, i) {
  const t = tables();
  const cp = s[i];
  const next = s[i + 1];
  if (cp === 13) return next === 10 ? i + 2 : i + 1;
  if (cp < 0x100) {
    if (t.latin1Control.has(cp)) return i + 1;
    if (t.latin1Pict.has(cp)) return extPict(s, i + 1);
    return next !== undefined && next < 0x100 ? i + 1 : extend(s, i + 1);
  }
  switch (firstClass(cp)) {
    case "control":
      return i + 1;
    case "prepend":
      if (next === undefined || inRanges(next, t.control)) return i + 1;
      return clusterEnd(s, i + 1);
    case "hangul_l":
      return hangulL(s, i + 1);
    case "hangul_v":
      return hangulV(s, i + 1);
    case "hangul_t":
      return hangulT(s, i + 1);
    case "regional_indicator":
      return next !== undefined && next >= 0x1f1e6 && next <= 0x1f1ff ? extend(s, i + 2) : extend(s, i + 1);
    case "extended_pictographic":
      return extPict(s, i + 1);
    default:
      if (cp > 44000 && cp < 56000) {
        const lv = syllable(cp);
        if (lv === true) return hangulV(s, i + 1);
        if (lv === false) return hangulT(s, i + 1);
      }
      return extend(s, i + 1);
  }
}

function extend(s, i) {
  while (i < s.length && isExtend(s[i])) i++;
  return i;
}

function extPict(s, i) {
  for (;;) {
    if (i >= s.length) return i;
    if (s[i] === ZWJ) {
      if (i + 1 < s.length && inRanges(s[i + 1], tables().extPict)) i += 2;
      else return i + 1;
    } else if (isExtend(s[i])) i++;
    else return i;
  }
}

function hangulL(s, i) {
  const t = tables();
  while (i < s.length && inRanges(s[i], t.l)) i++;
  if (i >= s.length) return i;
  const c = s[i];
  if (inRanges(c, t.v)) return hangulV(s, i + 1);
  const lv = syllable(c);
  if (lv === true) return hangulV(s, i + 1);
  if (lv === false) return hangulT(s, i + 1);
  return extend(s, i);
}

function hangulV(s, i) {
  const t = tables();
  while (i < s.length && inRanges(s[i], t.v)) i++;
  if (i < s.length && inRanges(s[i], t.t)) return hangulT(s, i + 1);
  return extend(s, i);
}

function hangulT(s, i) {
  while (i < s.length && inRanges(s[i], tables().t)) i++;
  return extend(s, i);
}

/** The code points of a string. */
export const codePoints = (s) => Array.from(s, (c) => c.codePointAt(0));

/** `String.graphemes/1` of a binary term (a string, or Bytes): its clusters as binary terms (an invalid byte is a Bytes cluster of its own). */
export function graphemes(s) {
  if (s instanceof Bytes) return graphemesRaw(rawOf(s)).map(binaryOfRaw);
  const cps = codePoints(s);
  const out = [];
  for (let i = 0; i < cps.length; ) {
    const end = clusterEnd(cps, i);
    out.push(String.fromCodePoint(...cps.slice(i, end)));
    i = end;
  }
  return out;
}

/** `String.length/1` of a binary term (a string, or Bytes): the number of grapheme clusters. */
export function length(s) {
  if (s instanceof Bytes) return lengthRaw(rawOf(s));
  const cps = codePoints(s);
  let n = 0;
  for (let i = 0; i < cps.length; n++) i = clusterEnd(cps, i);
  return n;
}

/** `String.slice(s, 0, n)` of a binary term (a string, or Bytes): the first `n` grapheme clusters (all of `s` when it has fewer), a binary term. */
export function take(s, n) {
  if (s instanceof Bytes) return binaryOfRaw(takeRaw(rawOf(s), n));
  const cps = codePoints(s);
  let i = 0;
  for (let k = 0; k < n && i < cps.length; k++) i = clusterEnd(cps, i);
  return String.fromCodePoint(...cps.slice(0, i));
}

// A raw string (raw.js) as runs: [code points, byte offsets] of valid UTF-8, or a single invalid byte.
function runs(r) {
  const out = [];
  let cur = null;
  for (let i = 0; i < r.length; ) {
    const c = charAt(r, i);
    if (c) {
      if (!cur) out.push((cur = { cps: [], offsets: [] }));
      cur.cps.push(c[0]);
      cur.offsets.push(i);
      i += c[1];
    } else {
      cur = null;
      out.push({ bad: i });
      i += 1;
    }
  }
  return out;
}

/** `String.length/1` of any binary as a raw string (raw.js): an invalid byte is a grapheme of its own, and clusters never span one. */
export function lengthRaw(r) {
  let n = 0;
  for (const run of runs(r)) {
    if (run.bad !== undefined) n++;
    else for (let i = 0; i < run.cps.length; n++) i = clusterEnd(run.cps, i);
  }
  return n;
}

/** `String.slice(b, 0, n)` of any binary as a raw string, counting as lengthRaw. */
export function takeRaw(r, n) {
  let left = n;
  if (left <= 0) return "";
  for (const run of runs(r)) {
    if (run.bad !== undefined) {
      left--;
      if (left === 0) return r.slice(0, run.bad + 1);
      continue;
    }
    for (let i = 0; i < run.cps.length; ) {
      i = clusterEnd(run.cps, i);
      left--;
      if (left === 0) return r.slice(0, i < run.cps.length ? run.offsets[i] : endOf(r, run));
    }
  }
  return r;
}

/** `String.graphemes/1` of any binary as a raw string: its clusters as raw strings, an invalid byte one of its own (as lengthRaw counts). */
export function graphemesRaw(r) {
  const out = [];
  for (const run of runs(r)) {
    if (run.bad !== undefined) {
      out.push(r[run.bad]);
      continue;
    }
    for (let i = 0; i < run.cps.length; ) {
      const end = clusterEnd(run.cps, i);
      out.push(r.slice(run.offsets[i], end < run.cps.length ? run.offsets[end] : endOf(r, run)));
      i = end;
    }
  }
  return out;
}

function endOf(r, run) {
  const last = run.offsets[run.offsets.length - 1];
  return last + charAt(r, last)[1];
}
