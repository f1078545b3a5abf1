// Canonical composition (NFC) as OTP 25's :unicode.characters_to_nfc_list/1
// computes it (Unicode 14.0): one grapheme cluster at a time, a cluster
// of one Latin-1 character kept as it is. Port of the NFC half of
// src/elixir/identifier/mod.rs over spec/data/unicode/normalization.json.
// (String.prototype.normalize follows the engine's newer Unicode and
// normalizes the whole string at once.)

import { dataFile } from "./data.js";
import { Bytes } from "../terms.js";
import { clusterEnd, codePoints } from "./graphemes.js";
import { binaryOfRaw, charAt, raw, rawOf } from "./raw.js";

let T;

function tables() {
  if (T) return T;
  const n = dataFile("unicode/normalization.json");
  T = {
    ccc: new Map(n.combining_classes),
    decomp: new Map(n.decompositions),
    pairs: new Map(n.compositions.map(([a, b, c]) => [a * 0x110000 + b, c])),
  };
  return T;
}

/** The canonical combining class of a code point (0 for most). */
export function combiningClass(cp) {
  return tables().ccc.get(cp) ?? 0;
}

const composePair = (a, b) => tables().pairs.get(a * 0x110000 + b);

/** `:unicode.characters_to_nfc_list/1` of a code point array. */
export function nfcCodePoints(cps) {
  const out = [];
  for (let i = 0; i < cps.length; ) {
    const end = clusterEnd(cps, i);
    const cluster = cps.slice(i, end);
    if (cluster.length === 1 && cluster[0] < 256) out.push(cluster[0]);
    else out.push(...compose(decompose(cluster)));
    i = end;
  }
  return out;
}

/** NFC of a binary term (a string, or Bytes) as OTP 25 computes it, a binary term: each run of valid UTF-8 normalized, an invalid byte kept as it is. */
export function nfc(s) {
  if (s instanceof Bytes) {
    const r = rawOf(s);
    let out = "";
    for (let i = 0, start = 0; i <= r.length; ) {
      const c = i < r.length ? charAt(r, i) : undefined;
      if (c) {
        i += c[1];
        continue;
      }
      const text = binaryOfRaw(r.slice(start, i)); // a valid run
      out += raw(nfc(text)) + (i < r.length ? r[i] : "");
      i += 1;
      start = i;
    }
    return binaryOfRaw(out);
  }
  return String.fromCodePoint(...nfcCodePoints(codePoints(s)));
}

/** unicode_util:decompose/1: full canonical decomposition, then each run of non-starters in canonical order (stable by class). */
export function decompose(cluster) {
  const tagged = [];
  for (const c of cluster) {
    if (c >= 0xac00 && c <= 0xd7a3) {
      const s = c - 0xac00;
      tagged.push([0, 0x1100 + Math.floor(s / 588)], [0, 0x1161 + Math.floor((s % 588) / 28)]);
      if (s % 28 !== 0) tagged.push([0, (s % 28) + 0x11a7]);
    } else {
      const d = tables().decomp.get(c);
      if (d) tagged.push(...d);
      else tagged.push([combiningClass(c), c]);
    }
  }
  const out = [];
  for (let j = 0; j < tagged.length; ) {
    if (tagged[j][0] === 0) {
      out.push(tagged[j][1]);
      j++;
    } else {
      let end = j;
      while (end < tagged.length && tagged[end][0] !== 0) end++;
      const run = tagged.slice(j, end).sort((a, b) => a[0] - b[0]); // Array#sort is stable
      out.push(...run.map(([, c]) => c));
      j = end;
    }
  }
  return out;
}

/** unicode_util:compose/1 of one decomposed cluster. */
export function compose(cps) {
  if (cps.length <= 1) return cps.slice();
  const [lead, vowel] = cps;
  if (lead >= 0x1100 && lead <= 0x1112) {
    if (vowel >= 0x1161 && vowel <= 0x1175) {
      const syl = 0xac00 + (lead - 0x1100) * 588 + (vowel - 0x1161) * 28;
      const trail = cps.slice(2);
      if (trail.length && trail[0] >= 0x11a7 && trail[0] <= 0x11c2) return [syl + trail[0] - 0x11a7, ...trail.slice(1)];
      return [syl, ...trail];
    }
    return [lead, ...compose(cps.slice(1))];
  }
  if (cps.length === 2) {
    const c = composePair(cps[0], cps[1]);
    return c === undefined ? cps.slice() : [c];
  }
  let base = cps[0];
  const accents = [];
  let prev = combiningClass(base);
  for (const c of cps.slice(1)) {
    const k = combiningClass(c);
    const combined = composePair(base, c);
    if (combined !== undefined && (prev === 0 || prev < k)) base = combined;
    else {
      accents.push(c);
      prev = k;
    }
  }
  return [base, ...accents];
}
