// Byte strings: the Elixir layer builds text as Elixir does, as binaries
// that need not be UTF-8 (a display struct's Inspect interpolates its
// field as it is, IN-15). In JavaScript such a binary is a "raw" string:
// one char per byte (latin1), measured by its length as Inspect.Algebra
// measures a binary by its byte size.
//
// A raw string and a text are both JavaScript strings, and nothing in the
// string says which it is: mixing them is the easy mistake (text "é" read
// as raw is the byte 0xE9, not UTF-8; raw "\xc3\xa9" read as text is two
// Latin-1 letters). So every function here and in graphemes.js that takes
// a raw string refuses one holding a char above U+00FF, which no raw string
// has, with a TypeError naming the function and the char (assertRaw); and
// a port that would rather not hold raw strings at all builds binaries
// from binary terms with concat (terms.js), as Elixir's <> does.

import { Bytes, binary } from "../terms.js";

const NOT_RAW = /[^\x00-\xff]/;

/** Whether `s` can be a raw string: a string whose every char is U+0000 to U+00FF (a byte). */
export function isRaw(s) {
  return typeof s === "string" && !NOT_RAW.test(s);
}

/**
 * `r` when it can be a raw string, else a TypeError naming `who`, the
 * first char that is no byte and the conversions: text is made raw with
 * raw(text), a binary term with rawOf(t).
 */
export function assertRaw(r, who = "a raw-string function") {
  if (typeof r !== "string") throw new TypeError(`${who}: expected a raw string (one char per byte), got ${r === null ? "null" : typeof r === "object" ? `a ${r.constructor?.name ?? "object"}` : typeof r}; rawOf(t) gives a binary term's raw string`);
  const m = NOT_RAW.exec(r);
  if (m) {
    const cp = r.codePointAt(m.index).toString(16).toUpperCase().padStart(4, "0");
    throw new TypeError(`${who}: not a raw string: U+${cp} at index ${m.index} is no byte (a raw string holds one char per byte, U+0000 to U+00FF); this is text: raw(text) makes it raw, or use the function without Raw, which takes text and Bytes`);
  }
  return r;
}

/** The raw string of UTF-8 text. */
export function raw(text) {
  return Buffer.from(text, "utf8").toString("latin1");
}

/** The raw string of a binary term (a string or Bytes), or undefined for any other term. */
export function rawOf(t) {
  if (typeof t === "string") return raw(t);
  if (t instanceof Bytes) return Buffer.from(t.bytes).toString("latin1");
  return undefined;
}

/** The binary term of a raw string: a string when its bytes are UTF-8, else Bytes. */
export function binaryOfRaw(r) {
  assertRaw(r, "binaryOfRaw");
  return binary(Buffer.from(r, "latin1"));
}

const LOSSY = new TextDecoder("utf-8", { ignoreBOM: true });

/** A raw string as text, invalid UTF-8 replaced by U+FFFD (as Rust's from_utf8_lossy). */
export function textOfRaw(r) {
  assertRaw(r, "textOfRaw");
  return LOSSY.decode(Buffer.from(r, "latin1"));
}

/**
 * The code point of the UTF-8 character at byte `i` of raw string `r` and
 * its length, or undefined when the bytes there are no valid character.
 */
export function charAt(r, i) {
  const b0 = r.charCodeAt(i);
  if (b0 < 0x80) return [b0, 1];
  let len;
  let cp;
  if (b0 >= 0xc2 && b0 <= 0xdf) [len, cp] = [2, b0 & 0x1f];
  else if (b0 >= 0xe0 && b0 <= 0xef) [len, cp] = [3, b0 & 0x0f];
  else if (b0 >= 0xf0 && b0 <= 0xf4) [len, cp] = [4, b0 & 0x07];
  else return undefined;
  if (i + len > r.length) return undefined;
  for (let k = 1; k < len; k++) {
    const b = r.charCodeAt(i + k);
    if (b < 0x80 || b > 0xbf) return undefined;
    cp = (cp << 6) | (b & 0x3f);
  }
  const min = len === 2 ? 0x80 : len === 3 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
  return [cp, len];
}

/** The length a UTF-8 lead byte announces (1 for any other byte). */
export function sequenceLen(lead) {
  if (lead >= 0xc0 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  return 1;
}

/** How many leading bytes of raw string `r` are valid UTF-8. */
export function validUpTo(r) {
  let i = 0;
  while (i < r.length) {
    const c = charAt(r, i);
    if (!c) return i;
    i += c[1];
  }
  return i;
}

/** A number term is an integer: a float is a Float (terms.js), so any other number is a bug in the caller. */
export function integer(n) {
  if (!Number.isInteger(n)) throw new TypeError(`the number ${n} is not a term: a float is written new Float(${n})`);
  return n;
}
