// String.trim/1 of Elixir 1.18.4 (Unicode 15.1): what validate_program/1
// strips before it calls a program empty (PP-52; src/ptc/protocol_validate.rs).

import { Bytes, binary } from "../terms.js";

/** The code points of Unicode's White_Space property (25; not U+200B, U+180E, U+FEFF). */
export const WHITE_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

const ENC = new TextEncoder();
const WS = [...WHITE_SPACE].map((c) => ENC.encode(c)).sort((a, b) => b.length - a.length);
const at = (b, i, w) => i >= 0 && i + w.length <= b.length && w.every((x, j) => b[i + j] === x);

/** `String.trim(s)` of a binary term (a string or Bytes): white space removed from both ends, whole UTF-8 sequences only. */
export function trim(s) {
  const b = s instanceof Bytes ? s.bytes : ENC.encode(s);
  let start = 0;
  let end = b.length;
  for (let hit = true; hit && start < end; ) {
    const w = WS.find((x) => start + x.length <= end && at(b, start, x));
    hit = w !== undefined;
    if (hit) start += w.length;
  }
  for (let hit = true; hit && end > start; ) {
    const w = WS.find((x) => end - x.length >= start && at(b, end - x.length, x));
    hit = w !== undefined;
    if (hit) end -= w.length;
  }
  return binary(b.subarray(start, end));
}
