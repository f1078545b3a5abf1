// Jason.encode/1 with default options (Jason 1.4, which PtcRunner v0.13.0
// renders payloads with): the bytes it writes and the terms it refuses.
// Port of src/elixir/jason.rs.
//
// Maps are written in map iteration order, keys that stringify alike are
// both written (maps: :naive), atom keys and values become strings,
// integer and float keys their to_string/1 text, the calendar structs
// their ISO 8601 text, the display structs (from v0.12.0, REL-7: the
// release is release.js's, left out the served port's) the JSON string of
// their String.Chars text. Only `"`, `\` and control characters are escaped
// (`\b \t \n \f \r`, the rest `\u00XX` with UPPER-case hex: `\u001F`).
// This is not json.js's quote(), which escapes as serde_json does
// (`\u001f`) for the tagged term JSON of the adapter protocol.

import { resolveRelease } from "../release.js";
import { Atom, Bytes, Float, Struct, Temporal, TermMap } from "../terms.js";
import { toStringRaw, displayStruct } from "./chars.js";
import { implementsProtocol, protocolUndefined } from "./errors.js";
import { inspect } from "./inspect.js";
import { message } from "./messages.js";
import { shortFloat } from "./num.js";
import { binaryOfRaw, integer, raw, rawOf, textOfRaw, validUpTo } from "./raw.js";

/** `Jason.encode!/1` on `release`'s build: the JSON text of `term`, or throws the Raised Jason raises (Protocol.UndefinedError, Jason.EncodeError). */
export function encode(term, release = undefined) {
  const out = [];
  value(term, out, resolveRelease(release));
  return textOfRaw(out.join(""));
}

/**
 * `Jason.encode/1`: `{ok: text}`, or `{error: Raised}` for the refusals
 * Jason rescues itself (Jason.EncodeError, and Protocol.UndefinedError for
 * Jason.Encoder). Anything else throws, as in Elixir: a map key that
 * String.Chars refuses escapes Jason.encode/1 (NP-23).
 */
export function tryEncode(term, release = undefined) {
  try {
    return { ok: encode(term, release) };
  } catch (e) {
    if (e?.name === "Raised" && (e.class === "Jason.EncodeError" || (e.class === "Protocol.UndefinedError" && e.message.startsWith("protocol Jason.Encoder ")))) {
      return { error: e };
    }
    throw e;
  }
}

function value(t, out, rel) {
  if (t === null) return void out.push("null");
  if (t === true || t === false) return void out.push(String(t));
  switch (typeof t) {
    case "number":
      return void out.push(String(integer(t)));
    case "bigint":
      return void out.push(String(t));
    case "string":
      return stringRaw(raw(t), out);
    default:
  }
  if (t instanceof Atom) return stringRaw(raw(t.name), out);
  if (t instanceof Float) return void out.push(shortFloat(t.value));
  if (t instanceof Bytes) return stringRaw(rawOf(t), out);
  if (Array.isArray(t)) {
    out.push("[");
    t.forEach((x, i) => {
      if (i > 0) out.push(",");
      value(x, out, rel);
    });
    return void out.push("]");
  }
  if (t instanceof TermMap) {
    out.push("{");
    t.pairs.forEach(([k, v], i) => {
      if (i > 0) out.push(",");
      key(k, out, rel);
      out.push(":");
      value(v, out, rel);
    });
    return void out.push("}");
  }
  if (t instanceof Temporal) return void out.push(`"${t.iso}"`);
  // PtcRunner.Lisp.Format's display structs encode as the JSON string of their String.Chars text, where the release has it.
  if (t instanceof Struct && displayStruct(t, rel) !== undefined && implementsProtocol("Jason.Encoder", t.module, rel)) {
    return stringRaw(toStringRaw(t, rel), out);
  }
  throw protocolUndefined("Jason.Encoder", t, rel);
}

function key(k, out, rel) {
  if (typeof k === "string" || k instanceof Bytes) return stringRaw(rawOf(k), out);
  if (k === null) return stringRaw("nil", out);
  if (k === true || k === false) return stringRaw(String(k), out);
  if (k instanceof Atom) return stringRaw(raw(k.name), out);
  // Jason's key rule: String.Chars.to_string/1, whose errors raise through.
  return stringRaw(toStringRaw(k, rel), out);
}

function stringRaw(r, out) {
  const valid = validUpTo(r);
  if (valid !== r.length) {
    throw message("jason_invalid_byte").raise({ byte: r.charCodeAt(valid).toString(16).toUpperCase(), binary: inspect(binaryOfRaw(r)) });
  }
  out.push(escapeRaw(r));
}

const ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };
// eslint-disable-next-line no-control-regex
const NEEDS = /["\\\u0000-\u001f]/g;
const esc = (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

// Every byte to escape is ASCII and no byte of a multi-byte sequence is, so raw and text escape alike.
const escapeRaw = (r) => `"${r.replace(NEEDS, esc)}"`;

/** A JSON string literal as Jason writes one (`"a\u001F"`: upper-case hex; `/`, U+2028 and non-ASCII as they are), of a UTF-8 binary term (a string, or Bytes that are UTF-8; for others Jason raises, as encode does). */
export function jasonString(s) {
  if (s instanceof Bytes) {
    const out = [];
    stringRaw(rawOf(s), out);
    return textOfRaw(out[0]);
  }
  return `"${s.replace(NEEDS, esc)}"`;
}
