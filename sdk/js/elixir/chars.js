// String.Chars.to_string/1 as Elixir 1.18 implements it for the terms the
// boundary meets: what "#{x}" interpolation and to_string/1 give, with
// List.to_string/1 (chardata, over OTP 25's unicode:characters_to_binary/1),
// URI's String.Chars, the calendar structs and PtcRunner.Lisp.Format's
// display structs; and IO.iodata_to_binary/1. Port of src/elixir/chars.rs.
//
// Not Jason's key rule: to_string(nil) is "", while Jason writes a nil
// key as "nil".
//
// String.Chars is the release's (release.js; left out, the served port's):
// the display structs implement it from v0.12.0 on, so at v0.11.0
// toString of one throws Protocol.UndefinedError listing v0.11.0's
// implementations (REL-7), while their Inspect (every release) still
// interpolates their field.

import { Raised } from "../adapter.js";
import { releaseSince, resolveRelease } from "../release.js";
import { Atom, Bytes, Float, Struct, Temporal } from "../terms.js";
import { badarg, implementsProtocol, protocolUndefined, protocolUndefinedRaw } from "./errors.js";
import { inspectRaw } from "./inspect.js";
import { message } from "./messages.js";
import { shortFloat } from "./num.js";
import { binaryOfRaw, integer, raw, rawOf, sequenceLen, textOfRaw, validUpTo } from "./raw.js";

// Why String.Chars failed: an exception raised on the way, the term without
// an implementation, or a list that is not chardata (the last two embed an
// inspect that may hold a display struct's bytes).
class Failure {
  constructor(kind, value) {
    this.kind = kind; // "raised" | "undefined" | "notChardata"
    this.value = value;
  }
  raised(rel) {
    if (this.kind === "raised") return this.value;
    if (this.kind === "undefined") return protocolUndefined("String.Chars", this.value, rel);
    return new Raised("ArgumentError", textOfRaw(notChardataMessage(this.value, rel)));
  }
}

function notChardataMessage(items, rel) {
  return message("list_to_string_not_chardata", rel).renderRaw({ list: inspectRaw(items, { release: rel }) });
}

/** `to_string(t)` on `release`'s build as a raw string (raw.js): the bytes of the binary; throws the Raised Elixir raises. */
export function toStringRaw(t, release = undefined) {
  const rel = resolveRelease(release);
  try {
    return charsOf(t, rel);
  } catch (e) {
    if (e instanceof Failure) throw e.raised(rel);
    throw e;
  }
}

/** `to_string(t)` on `release`'s build as the binary term (a string, or Bytes when not UTF-8); throws the Raised Elixir raises. */
export function toString(t, release = undefined) {
  return binaryOfRaw(toStringRaw(t, release));
}

const wrap = (f) => {
  try {
    return f();
  } catch (e) {
    if (e instanceof Raised) throw new Failure("raised", e);
    throw e;
  }
};

function charsOf(t, rel) {
  if (typeof t === "string" || t instanceof Bytes) return rawOf(t);
  if (t === null) return "";
  if (t === true || t === false) return String(t);
  if (t instanceof Atom) return raw(t.name);
  if (typeof t === "number") return String(integer(t));
  if (typeof t === "bigint") return String(t);
  if (t instanceof Float) return shortFloat(t.value);
  if (Array.isArray(t)) return listChars(t);
  if (t instanceof Struct && t.module === "URI") return wrap(() => uriToString(t));
  if (t instanceof Struct) {
    const r = displayConvert(t, rel);
    // REL-7: a display struct's String.Chars is there where the release lists it.
    if (r === undefined || !implementsProtocol("String.Chars", t.module, rel)) throw new Failure("undefined", t);
    return r();
  }
  if (t instanceof Temporal) return temporalToString(t.kind, t.iso);
  throw new Failure("undefined", t);
}

/**
 * `List.to_string/1` (OTP 25's characters_to_binary): code points and
 * binaries nested at any depth (spec/lisp_formatter.md LF-13). Anything
 * that is no integer, binary or list, unless a bignum comes first, makes
 * the whole list raise ArgumentError; then the list converts in order, a
 * binary cut short inside a sequence carrying its last bytes over.
 */
function listChars(items) {
  if (sizingPass(items) === "badarg") throw new Failure("notChardata", items);
  const state = { out: [], carried: "" };
  wrap(() => convert(items, state));
  if (state.carried === "") return state.out.join("");
  const template = truncatedSequence(state.carried) ? "unicode_incomplete_encoding" : "unicode_invalid_encoding";
  throw new Failure("raised", conversionError(template, state.carried));
}

const SMALL = 1n << 59n;
const isSmallOnVm = (n) => (typeof n === "number" ? Math.abs(n) < 2 ** 59 : n >= -SMALL && n < SMALL);
const isIntTerm = (x) => typeof x === "bigint" || (typeof x === "number" && Number.isInteger(x));

// OTP 25's first pass, which sizes the output: rejects anything that is no
// integer, binary or list, but stops at the first bignum.
function sizingPass(items) {
  for (const item of items) {
    if (isIntTerm(item)) {
      if (!isSmallOnVm(item)) return "bignum";
    } else if (typeof item === "string" || item instanceof Bytes) {
      // fine
    } else if (Array.isArray(item)) {
      const r = sizingPass(item);
      if (r !== "fine") return r;
    } else return "badarg";
  }
  return "fine";
}

function convert(items, st) {
  for (const item of items) {
    if (isIntTerm(item)) {
      if (st.carried !== "") throw conversionError("unicode_invalid_encoding", st.carried);
      const n = item;
      const ok = typeof n === "number" && n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff);
      if (!ok) throw message("unicode_invalid_code_point").raise({ n: String(n) });
      st.out.push(raw(String.fromCodePoint(n)));
    } else if (typeof item === "string" || item instanceof Bytes) {
      let b = rawOf(item);
      if (st.carried !== "") {
        // OTP 25 fills a split sequence from the binaries that follow.
        const missing = sequenceLen(st.carried.charCodeAt(0)) - st.carried.length;
        if (b.length < missing) {
          st.carried += b;
          continue;
        }
        const seq = st.carried + b.slice(0, missing);
        st.carried = "";
        if (validUpTo(seq) !== seq.length) throw conversionError("unicode_invalid_encoding", seq.slice(0, seq.length - missing));
        st.out.push(seq);
        b = b.slice(missing);
      }
      const valid = validUpTo(b);
      st.out.push(b.slice(0, valid));
      const rest = b.slice(valid);
      if (rest === "") continue;
      if (rest.length < sequenceLen(rest.charCodeAt(0))) st.carried = rest;
      else throw conversionError("unicode_invalid_encoding", rest);
    } else {
      convert(item, st);
    }
  }
}

function truncatedSequence(rest) {
  if (rest.length >= sequenceLen(rest.charCodeAt(0))) return false;
  for (let i = 1; i < rest.length; i++) {
    const b = rest.charCodeAt(i);
    if (b < 0x80 || b > 0xbf) return false;
  }
  return true;
}

function conversionError(id, bytes) {
  return message(id).raise({ bytes: textOfRaw(inspectRaw(binaryOfRaw(bytes))) });
}

function temporalToString(kind, iso) {
  const spaced = iso.replace("T", " ");
  if (kind !== "datetime" || spaced.endsWith("Z")) return spaced;
  const offset = spaced.slice(-6);
  return `${spaced} ${offset} ${offset}`;
}

const DISPLAY = {
  "PtcRunner.Lisp.Format.Fn": ["#fn[", "params", "]"],
  "PtcRunner.Lisp.Format.Builtin": null,
  "PtcRunner.Lisp.Format.Var": ["#'", "name", ""],
  "PtcRunner.Lisp.Format.SymbolRef": ["'", "name", ""],
  "PtcRunner.Lisp.Format.RegexLiteral": ['#"', "source", '"'],
};

// A thunk converting display struct `s` as its Inspect does (its field
// through `rel`'s String.Chars, throwing a Failure), or undefined for another struct.
function displayConvert(s, rel) {
  if (!Object.hasOwn(DISPLAY, s.module)) return undefined;
  const frame = DISPLAY[s.module];
  if (frame === null) return () => "#<builtin>";
  const [open, field, close] = frame;
  return () => open + charsOf(s.get(field) ?? null, rel) + close;
}

function attempt(s, rel) {
  const convert = displayConvert(s, rel);
  if (!convert) return undefined;
  try {
    return { ok: convert() };
  } catch (e) {
    if (e instanceof Failure) return { failure: e };
    throw e;
  }
}

/**
 * The Inspect text of PtcRunner.Lisp.Format's display structs on
 * `release`'s build (also their String.Chars text from v0.12.0 on):
 * undefined for any other struct, else `{ok: raw}` or `{err: Raised}`.
 */
export function displayStruct(s, release = undefined) {
  const rel = resolveRelease(release);
  const r = attempt(s, rel);
  if (r === undefined) return undefined;
  return r.ok !== undefined ? r : { err: r.failure.raised(rel) };
}

/** The raw message of the Protocol.UndefinedError display struct `s`'s conversion raises (built under the Inspect.Error trap), else undefined. */
export function displayStructUndefinedMessage(s, release = undefined) {
  const rel = resolveRelease(release);
  const r = attempt(s, rel);
  return r?.failure?.kind === "undefined" ? protocolUndefinedRaw("String.Chars", r.failure.value, rel) : undefined;
}

/** The raw message of the ArgumentError display struct `s`'s conversion raises for a list that is not chardata, else undefined. */
export function displayStructNotChardataMessage(s, release = undefined) {
  const rel = resolveRelease(release);
  const r = attempt(s, rel);
  return r?.failure?.kind === "notChardata" ? notChardataMessage(r.failure.value, rel) : undefined;
}

const DEFAULT_PORTS = { ftp: 21, sftp: 22, tftp: 69, http: 80, ws: 80, https: 443, wss: 443, ldap: 389 };

// String.Chars of a URI (Elixir 1.18.4).
function uriToString(s) {
  const text = (name) => rawOf(s.get(name));
  const [scheme, host, path] = [text("scheme"), text("host"), text("path")];
  if (host !== undefined && path !== undefined && path !== "" && path[0] !== "/") {
    throw message("uri_path_not_absolute").raise({ uri: textOfRaw(inspectRaw(s)) });
  }
  const defaultPort = scheme !== undefined && Object.hasOwn(DEFAULT_PORTS, scheme) ? DEFAULT_PORTS[scheme] : undefined;
  const p = s.get("port");
  let port;
  if (typeof p === "bigint" && (p >= 1n << 63n || p < -(1n << 63n))) port = String(p);
  else if (isIntTerm(p) && Number(p) !== defaultPort) port = String(p);
  let out = scheme !== undefined ? `${scheme}:` : "";
  let authority;
  if (host === undefined) authority = text("authority");
  else {
    const userinfo = text("userinfo");
    authority = (userinfo !== undefined ? `${userinfo}@` : "") + (host.includes(":") ? `[${host}]` : host) + (port !== undefined ? `:${port}` : "");
  }
  if (authority !== undefined) out += `//${authority}`;
  for (const [prefix, name] of [["", "path"], ["?", "query"], ["#", "fragment"]]) {
    const v = text(name);
    if (v !== undefined) out += prefix + v;
  }
  return out;
}

/**
 * `IO.iodata_to_binary/1` as a raw string: bytes (integers 0..255) and
 * binaries nested in lists at any depth; anything else throws the
 * ArgumentError "not an iodata term".
 */
export function iodataToRaw(t) {
  const out = [];
  const walk = (x) => {
    if (typeof x === "number" && Number.isInteger(x)) {
      if (x < 0 || x > 255) return false;
      out.push(String.fromCharCode(x));
      return true;
    }
    if (typeof x === "string" || x instanceof Bytes) {
      out.push(rawOf(x));
      return true;
    }
    if (Array.isArray(x)) return x.every(walk);
    return false;
  };
  if (!walk(t)) throw badarg("1st", "not an iodata term");
  return out.join("");
}

/** `IO.iodata_to_binary/1` as a binary term. */
export function iodataToBinary(t) {
  return binaryOfRaw(iodataToRaw(t));
}

const RAISING = {
  "Protocol.UndefinedError": ["(elixir 1.18.4) lib/string/chars.ex:3: String.Chars.impl_for!/1", "(elixir 1.18.4) lib/string/chars.ex:22: String.Chars.to_string/1"],
  UnicodeConversionError: ["(elixir 1.18.4) lib/list.ex:1143: List.to_string/1"],
};
// The line of each display struct's Inspect in lib/ptc_runner/lisp/format.ex,
// [v0.11.0's, v0.12.0's on]: v0.12.0 added the String.Chars implementations
// between them (REL-7). The other display structs' sit on OTHER_LINE.
const LINES = { "PtcRunner.Lisp.Format.Fn": [30, 31], "PtcRunner.Lisp.Format.Var": [49, 65], "PtcRunner.Lisp.Format.SymbolRef": [58, 82] };
const OTHER_LINE = [67, 99];
const ADAPTER_FRAMES = [
  "(elixir 1.18.4) lib/inspect/algebra.ex:348: Inspect.Algebra.to_doc/2",
  "(elixir 1.18.4) lib/kernel.ex:2376: Kernel.inspect/2",
  "harness/adapters/elixir/adapter.exs:502: PtcAdapter.call/3",
  "harness/adapters/elixir/adapter.exs:431: PtcAdapter.handle/1",
  "harness/adapters/elixir/adapter.exs:417: PtcAdapter.loop/0",
  "harness/adapters/elixir/adapter.exs:545: (file)",
];

/**
 * The stack trace (frames, innermost first, at most 8) Elixir shows in the
 * Inspect.Error of display struct `s` whose conversion raised `cls`, as on
 * PtcRunner's adapter path on `release`'s build; compared loosely
 * (spec/README.md LOOSE-4).
 */
export function displayStructFrames(s, cls, release = undefined) {
  const frames = [...(RAISING[cls] ?? ["(elixir 1.18.4) lib/list.ex:1124: List.to_string/1"])];
  const line = (LINES[s.module] ?? OTHER_LINE)[releaseSince(resolveRelease(release), "0.12.0") ? 1 : 0];
  frames.push(`lib/ptc_runner/lisp/format.ex:${line}: Inspect.${s.module}.inspect/2`, ...ADAPTER_FRAMES);
  return frames.slice(0, 8);
}
