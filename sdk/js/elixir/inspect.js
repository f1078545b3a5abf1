// Kernel.inspect/2 as Elixir 1.18.4 prints terms (spec/inspect.md, IN-):
// error messages at the tool boundary embed this text, so a port must
// reproduce it byte for byte. Port of src/elixir/inspect.rs.
//
// Options (Inspect.Opts): `limit` items per container (50; Infinity is
// :infinity), `printableLimit` characters of a printable string or
// charlist (4096), `pretty` (lay out at `width`, 80, instead of on one
// line). Nested containers get the limit that remains where they stand,
// as Inspect.Algebra.container_doc/6 passes it down. `release` (release.js;
// left out, the served port's) is the PtcRunner release whose protocol
// implementations are loaded: a display struct's Inspect interpolates its
// field through that release's String.Chars, so at v0.11.0 one display
// struct inside another prints an Inspect.Error (REL-7); a struct prints
// the fields it holds in the order that release's defstruct gives them.

import { equal } from "../order.js";
import { resolveRelease } from "../release.js";
import { structDefault, structFields, isInspectOptional } from "../structs.js";
import { Atom, Bytes, Float, Fun, Opaque, Struct, Temporal, TermMap, Tuple, atom, kwPair } from "../terms.js";
import * as A from "./algebra.js";
import { Raised } from "../adapter.js";
import { displayStruct, displayStructFrames, displayStructNotChardataMessage, displayStructUndefinedMessage, toStringRaw } from "./chars.js";
import { inspectErrorRaw } from "./errors.js";
import { tokenize } from "./identifier.js";
import { inspectFloat } from "./num.js";
import { binaryOfRaw, charAt, integer, raw, rawOf, textOfRaw } from "./raw.js";

// A binary argument as a raw string: a string (text) or Bytes; anything
// else is a slip (a raw string is only ever taken by the *Raw functions).
function rawOfBinary(b, fn) {
  const r = rawOf(b);
  if (r === undefined) throw new TypeError(`${fn}: expected a binary term (a string or Bytes), got ${String(b)}`);
  return r;
}

// An atom or function name: a string, or Bytes that are UTF-8 (an atom's
// name is text).
function textOfName(name) {
  if (typeof name === "string") return name;
  const text = name instanceof Bytes ? binaryOfRaw(rawOf(name)) : undefined;
  if (typeof text !== "string") throw new TypeError(`an atom or function name is UTF-8 text, got ${String(name)}`);
  return text;
}

/** `Inspect.Opts` defaults. */
export const LIMIT = 50;
export const PRINTABLE_LIMIT = 4096;
export const PRETTY_WIDTH = 80;

function options({ limit = LIMIT, printableLimit = PRINTABLE_LIMIT, pretty = false, width = PRETTY_WIDTH, release } = {}) {
  return { opts: { limit, printableLimit, listsAsLists: false, rel: resolveRelease(release) }, width: pretty ? width : Infinity };
}

/** `inspect(term, opts)` as a raw string (raw.js): the binary Elixir returns, byte for byte. */
export function inspectRaw(term, opts = {}) {
  const { opts: o, width } = options(opts);
  return A.format(A.group(toDoc(term, o)), width);
}

/**
 * `inspect(term, opts)` as text. A display struct's Inspect may
 * interpolate invalid UTF-8 (IN-15), replaced here by U+FFFD: use
 * inspectBinary where the bytes must stay.
 */
export function inspect(term, opts = {}) {
  return textOfRaw(inspectRaw(term, opts));
}

/**
 * `inspect(term, opts)` as the text a message holds (always a string,
 * invalid UTF-8 as U+FFFD): the one to build every message with. Where the
 * release keeps the raw bytes (term.inspect's answer, validate_return's),
 * use inspectBinary. (The same as inspect, under the name that says where
 * it belongs.)
 */
export function inspectMessage(term, opts = {}) {
  return inspect(term, opts);
}

/** `inspect(term, opts)` as the binary term Elixir returns (a string, or Bytes when not UTF-8). */
export function inspectBinary(term, opts = {}) {
  return binaryOfRaw(inspectRaw(term, opts));
}

function toDoc(t, opts) {
  if (t === null) return "nil";
  if (t === true) return "true";
  if (t === false) return "false";
  switch (typeof t) {
    case "number":
      return String(integer(t));
    case "bigint":
      return String(t);
    case "string":
      return binaryDoc(raw(t), opts);
    default:
  }
  if (t instanceof Atom) return atomLiteralRaw(t.name);
  if (t instanceof Float) return inspectFloat(t.value);
  if (t instanceof Bytes) return binaryDoc(rawOf(t), opts);
  if (Array.isArray(t)) return list(t, opts);
  if (t instanceof Tuple) return A.containerDoc("{", t.items, "}", opts.limit, "flex", (x, limit) => toDoc(x, { ...opts, limit }));
  if (t instanceof TermMap) return mapDoc(t.pairs, "", opts);
  if (t instanceof Struct) return structure(t, opts);
  if (t instanceof Temporal) return temporal(t);
  if (t instanceof Fun) return t.name !== undefined ? captureRaw(t.name) : `#Function<anonymous/${t.arity ?? 0}>`;
  // VM-dependent text, compared loosely (spec/README.md LOOSE-2).
  if (t instanceof Opaque) return raw(`#${{ ref: "Reference", pid: "PID", port: "Port" }[t.kind]}<${t.label}>`);
  throw new TypeError(`inspect: not a term: ${String(t)}`);
}

// ---- atoms ---------------------------------------------------------------

const NOT_CALLABLE = new Set(["%", "%{}", "{}", "<<>>", "...", "..", ".", "..//", "->"]);
const QUOTED_OPERATORS = new Set(["::", "^^^", "~~~", "<|>"]);
const OPERATORS = new Set([
  ...["&", "!", "^", "not", "+", "-", "@"],
  ...["<-", "\\\\", "when", "|", "=", "||", "|||", "or", "&&", "&&&", "and", "==", "!=", "=~", "===", "!==", "<", "<=", ">=", ">"],
  ...["|>", "<<<", ">>>", "<~", "~>", "<<~", "~>>", "<~>", "in", "++", "--", "<>", "+++", "---", "*", "/", "**"],
]);

const classified = new Map(); // atom names repeat: their class, remembered (bounded)

/** How `Macro.classify_atom/1` sees an atom name: "alias", "identifier", "unquoted" or "quoted". */
export function classifyAtom(name) {
  name = textOfName(name);
  let c = classified.get(name);
  if (c === undefined) {
    if (classified.size >= 65536) classified.clear();
    classified.set(name, (c = classify(name)));
  }
  return c;
}

function classify(name) {
  if (NOT_CALLABLE.has(name)) return "unquoted";
  if (QUOTED_OPERATORS.has(name)) return "quoted";
  if (OPERATORS.has(name)) return "unquoted";
  if (/^Elixir(\.[A-Z][A-Za-z0-9_]*)*$/.test(name)) return "alias";
  const t = tokenize(name);
  if (!t || !t.whole) return "quoted";
  if (t.kind !== "identifier" || t.at) return "unquoted";
  return t.nfkc ? "quoted" : "identifier";
}

function atomLiteralRaw(name) {
  if (name === "nil" || name === "true" || name === "false") return name;
  switch (classifyAtom(name)) {
    case "alias":
      return raw(name.startsWith("Elixir.") && name !== "Elixir.Elixir" && !name.startsWith("Elixir.Elixir.") ? name.slice(7) : name);
    case "quoted":
      return `:"${escapeRaw(raw(name), '"', Infinity)[0]}"`;
    default:
      return raw(`:${name}`);
  }
}

/** `Macro.inspect_atom(:literal, atom)` of an atom name: `:foo`, `Foo.Bar`, `:"foo bar"`. */
export function atomLiteral(name) {
  name = textOfName(name);
  return textOfRaw(atomLiteralRaw(name));
}

function atomKeyRaw(name) {
  switch (classifyAtom(name)) {
    case "alias":
      return raw(`"${name}":`);
    case "quoted":
      return `"${escapeRaw(raw(name), '"', Infinity)[0]}":`;
    default:
      return raw(`${name}:`);
  }
}

/** `Macro.inspect_atom(:key, atom)`: the `key:` of a keyword list or map (`a:`, `"a b":`). */
export function atomKey(name) {
  name = textOfName(name);
  return textOfRaw(atomKeyRaw(name));
}

/**
 * The parts of a capture's text `&M.f/n` as the adapters read them back
 * (spec/terms.md TJ-8): `[module, function, arity]`, the module atom's
 * name (`M` after `:` taken literally, else `Elixir.` + `M`), the
 * function's name (the text between the last `.` and the last `/`,
 * literally) and the arity text; undefined for a text of another shape.
 */
export function captureParts(name) {
  name = textOfName(name);
  if (!name.startsWith("&")) return undefined;
  const slash = name.lastIndexOf("/");
  if (slash < 1) return undefined;
  const mf = name.slice(1, slash);
  const dot = mf.lastIndexOf(".");
  if (dot <= 0 || dot === mf.length - 1) return undefined;
  const module = mf.slice(0, dot);
  const atomName = module.startsWith(":") ? module.slice(1) : `Elixir.${module}`;
  return [atomName, mf.slice(dot + 1), name.slice(slash + 1)];
}

// A named capture (IN-18): `&` + the module atom + `.` + its function as a
// remote call + `/arity`; a text of another shape as it is.
function captureRaw(name) {
  const parts = captureParts(name);
  if (parts === undefined) return raw(name);
  const [module, fun, arity] = parts;
  return `&${atomLiteralRaw(module)}.${remoteCallRaw(fun)}/${raw(arity)}`;
}

function remoteCallRaw(name) {
  if (QUOTED_OPERATORS.has(name) || OPERATORS.has(name)) return raw(name);
  if (NOT_CALLABLE.has(name) || /^Elixir(\.[A-Z][A-Za-z0-9_]*)*$/.test(name)) return raw(`"${name}"`);
  const t = tokenize(name);
  if (t && t.whole && (t.kind !== "identifier" || t.at)) return raw(`"${name}"`);
  if (t && t.whole && !t.nfkc) return raw(name);
  return `"${escapeRaw(raw(name), '"', Infinity)[0]}"`;
}

/**
 * `Macro.inspect_atom(:remote_call, atom)` of a function name: what follows
 * `Module.` in a capture or an MFA text: bare for an identifier or an
 * operator (`f`, `+`, `::`), else in double quotes, escaped unless it is
 * not callable or an alias (`"f g"`, `"%{}"`, `"Elixir.Foo"`).
 */
export function remoteCall(name) {
  name = textOfName(name);
  return textOfRaw(remoteCallRaw(name));
}

// ---- binaries ------------------------------------------------------------

const PLAIN_BYTES = new Set([0x0a, 0x0d, 0x09, 0x0b, 0x08, 0x0c, 0x1b, 0x7f, 0x07]);
const printableCode = (cp) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;

/** `String.printable?(b, limit)` of a binary term (a string, or Bytes): only the first `limit` characters are looked at. */
export function printable(b, limit = PRINTABLE_LIMIT) {
  return printableRaw(rawOfBinary(b, "printable"), limit);
}

/** `printable` of a raw string (raw.js). */
export function printableRaw(r, limit = PRINTABLE_LIMIT) {
  let count = limit;
  let i = 0;
  while (count > 0 && i < r.length) {
    const b = r.charCodeAt(i);
    if ((b >= 0x20 && b <= 0x7e) || PLAIN_BYTES.has(b)) i += 1;
    else {
      const c = charAt(r, i);
      if (!c || !((c[0] >= 0xa0 && c[0] <= 0xd7ff) || (c[0] >= 0xe000 && c[0] <= 0xfffd) || c[0] >= 0x10000)) return false;
      i += c[1];
    }
    count -= 1;
  }
  return true;
}

const hex = (n, w) => n.toString(16).toUpperCase().padStart(w, "0");

/**
 * `Code.Identifier.escape/3` of a binary term (a string, or Bytes, whose
 * invalid bytes come out as `\\xNN`): escapes `quote`, `#{`, control
 * characters and invisible code points; stops after `limit` steps. Gives
 * [text, whether something was left over].
 */
export function escape(b, quote, limit = Infinity) {
  const [out, more] = escapeRaw(rawOfBinary(b, "escape"), quote, limit);
  return [textOfRaw(out), more];
}

/** `escape` of a raw string (raw.js), giving [raw text, whether something was left over]. */
export function escapeRaw(r, quote, limit = Infinity) {
  let out = "";
  let count = limit;
  let i = 0;
  while (i < r.length) {
    if (count === 0) return [out, true];
    count -= 1;
    if (r[i] === quote) {
      out += `\\${quote}`;
      i += 1;
    } else if (r[i] === "#" && r[i + 1] === "{") {
      out += "\\#{";
      i += 2;
    } else {
      const c = charAt(r, i);
      if (c) {
        out += escapeChar(c[0], r.slice(i, i + c[1]));
        i += c[1];
      } else {
        out += `\\x${hex(r.charCodeAt(i), 2)}`;
        i += 1;
      }
    }
  }
  return [out, false];
}

const NAMED = new Map([
  [0x07, "\\a"],
  [0x08, "\\b"],
  [0x7f, "\\d"],
  [0x1b, "\\e"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
  [0x0b, "\\v"],
  [0x5c, "\\\\"],
  [0x00, "\\0"],
]);

const inRange = (c, lo, hi) => c >= lo && c <= hi;

/** Code points printed as `\uXXXX` although printable: BOM, invisible operators, bidi controls, joiners, odd spaces, line/paragraph separators. */
export function invisible(c) {
  return (
    c === 0xfeff ||
    inRange(c, 0x2061, 0x2064) ||
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    inRange(c, 0x202a, 0x202e) ||
    inRange(c, 0x2066, 0x2069) ||
    inRange(c, 0xfff9, 0xfffc) ||
    c === 0x200c ||
    c === 0x200d ||
    c === 0x034f ||
    c === 0x00a0 ||
    c === 0x200b ||
    c === 0x2060 ||
    c === 0x2028 ||
    c === 0x2029 ||
    inRange(c, 0x2000, 0x200a) ||
    c === 0x205f
  );
}

function escapeChar(cp, bytes) {
  const named = NAMED.get(cp);
  if (named) return named;
  if (invisible(cp)) return `\\u${hex(cp, 4)}`;
  if (printableCode(cp)) return bytes;
  if (cp < 0x100) return `\\x${hex(cp, 2)}`;
  return `\\x{${hex(cp, 4)}}`;
}

// A binary: a quoted string when printable, else <<b1, b2, ...>> (Inspect.BitString).
function binaryDoc(r, opts) {
  if (printableRaw(r, opts.printableLimit)) {
    const [text, more] = escapeRaw(r, '"', opts.printableLimit);
    return `"${text}"${more ? " <> ..." : ""}`;
  }
  let inner = null;
  const shown = Math.min(r.length, opts.limit);
  if (shown < r.length) inner = "...";
  for (let i = shown - 1; i >= 0; i--) {
    const byte = String(r.charCodeAt(i));
    inner = i + 1 === r.length ? byte : A.flexGlue(`${byte},`, " ", inner);
  }
  return A.group(A.concat(A.concat("<<", A.nest(inner, 2)), ">>"));
}

// ---- lists, maps, structs --------------------------------------------------

// The first exception a charlist's conversion raised while a term was
// inspected (IN-11): Elixir's inspect raises it instead of answering.
let raisedInInspect;

// List.ascii_printable?(list, limit) (the first `limit` elements are integers
// in 7..13, 27 or 32..126), then the whole list converted as chardata as a raw
// string: elements past the limit are not checked for printability but must
// still convert (IN-11). When they do not, the exception is recorded for
// inspectChecked and the list prints as a list.
function asciiPrintable(items, limit, rel) {
  const n = Math.min(items.length, limit);
  const cps = [];
  for (let i = 0; i < n; i++) {
    const x = items[i];
    if (!(typeof x === "number" && Number.isInteger(x)) && typeof x !== "bigint") return undefined;
    const code = Number(x);
    if (!(inRange(code, 7, 13) || code === 27 || inRange(code, 32, 126))) return undefined;
    cps.push(code);
  }
  const head = raw(String.fromCodePoint(...cps));
  if (n === items.length) return head;
  try {
    return head + toStringRaw(items.slice(n), rel);
  } catch (e) {
    if (!(e instanceof Raised)) throw e;
    raisedInInspect ??= e;
    return undefined;
  }
}

/**
 * `inspectBinary`, or the exception Elixir's inspect raises: a charlist
 * whose elements past the printable limit do not convert as chardata
 * (IN-11). The term.inspect op answers this; messages that embed inspect
 * text print such a list as a list.
 */
export function inspectChecked(term, opts = {}) {
  raisedInInspect = undefined;
  let out;
  try {
    out = inspectBinary(term, opts);
  } finally {
    var raised = raisedInInspect;
    raisedInInspect = undefined;
  }
  if (raised) throw raised;
  return out;
}

const keywordPair = (t) => {
  const kv = kwPair(t);
  return kv && !kv[0].startsWith("Elixir.") ? kv : undefined;
};

const keywordItem = (key, value, opts) => A.concat(atomKeyRaw(key), A.concat(" ", toDoc(value, opts)));

function list(items, opts) {
  if (items.length === 0) return "[]";
  if (!opts.listsAsLists) {
    const text = asciiPrintable(items, opts.printableLimit, opts.rel);
    if (text !== undefined) {
      const [escaped, more] = escapeRaw(text, '"', opts.printableLimit);
      return `~c"${escaped}"${more ? " ++ ..." : ""}`;
    }
  }
  if (items.every((i) => keywordPair(i) !== undefined)) {
    return A.containerDoc("[", items, "]", opts.limit, "strict", (item, limit) => {
      const [k, v] = keywordPair(item);
      return keywordItem(k, v, { ...opts, limit });
    });
  }
  return A.containerDoc("[", items, "]", opts.limit, "maybe", (item, limit) => toDoc(item, { ...opts, limit }));
}

const atomNameOf = (k) => (k === null ? "nil" : k === true ? "true" : k === false ? "false" : k instanceof Atom ? k.name : undefined);

// %name{...} (Inspect.Map): keyword-style when every key is a plain atom, else k => v; pairs in the order given.
function mapDoc(pairs, name, opts) {
  const keyword = pairs.every(([k]) => {
    const a = atomNameOf(k);
    return a !== undefined && !a.startsWith("Elixir.");
  });
  return A.containerDoc(`%${name}{`, pairs, "}", opts.limit, "strict", ([k, v], limit) => {
    const o = { ...opts, limit };
    const key = keyword ? atomNameOf(k) : undefined;
    if (key !== undefined) return keywordItem(key, v, o);
    return A.concat(A.concat(toDoc(k, o), " => "), toDoc(v, o));
  });
}

// A struct: MapSet.new([...]) for a set, the Lisp printer's display structs
// as their own Inspect text, else %Module{field: value, ...} in defstruct order.
function structure(s, opts) {
  if (s.module === "MapSet") {
    const set = s.get("map");
    if (set instanceof TermMap) {
      const inner = list(set.keys(), { ...opts, listsAsLists: true });
      return A.concat(A.concat("MapSet.new(", inner), ")");
    }
  }
  const shown = displayStruct(s, opts.rel);
  if (shown !== undefined) return shown.ok !== undefined ? shown.ok : failedStruct(s, shown.err, opts);
  const order = structFields(s.module, opts.rel) ?? [...s.fields.keys()];
  const pairs = [];
  for (const f of order) {
    const v = s.get(f);
    if (v === undefined) continue;
    // A derived Inspect with optional: fields leaves them out while they hold their default (URI's authority).
    if (isInspectOptional(s.module, f)) {
      const d = structDefault(s.module, f, opts.rel);
      if (d !== undefined && equal(d, v)) continue;
    }
    pairs.push([atom(f), v]);
  }
  return mapDoc(pairs, atomLiteralRaw(`Elixir.${s.module}`), opts);
}

// Elixir's :inspect_trap process flag: set while the Inspect.Error of a
// struct whose Inspect raised is built, so that a struct failing again
// meanwhile prints as a plain map.
let trap = false;

// Inspect.Algebra.to_doc/2 for a struct whose Inspect raised `raised`: the
// text of an Inspect.Error (IN-15), or, under the trap, the struct as a map.
function failedStruct(s, raised, opts) {
  const pairs = [[atom("__struct__"), atom(`Elixir.${s.module}`)]];
  const fields = structFields(s.module, opts.rel);
  if (fields) for (const f of fields) pairs.push([atom(f), s.get(f) ?? structDefault(s.module, f, opts.rel) ?? null]);
  else for (const [f, v] of s.fields) pairs.push([atom(f), v]);
  const asMap = TermMap.from(pairs);
  if (trap) return mapDoc(asMap.pairs, "", opts);
  // List.to_string/1 built its message when it raised, before the trap.
  const raisedMessage = displayStructNotChardataMessage(s, opts.rel);
  trap = true;
  try {
    // Laid out at opts.width, 80 even when the outer inspect/1 is not pretty.
    const inspected = A.format(A.group(mapDoc(asMap.pairs, "", opts)), PRETTY_WIDTH);
    const message = raisedMessage ?? displayStructUndefinedMessage(s, opts.rel) ?? raw(raised.message);
    return inspectErrorRaw(raised.class, message, inspected, displayStructFrames(s, raised.class, opts.rel));
  } finally {
    trap = false;
  }
}

// ~D[...], ~T[...], ~N[...], ~U[...], or #DateTime<...> at a fixed offset.
// A year outside -9999..9999 has no sigil (Elixir 1.18.4's Inspect for
// Calendar.ISO): a Date or NaiveDateTime prints as the new!/n call that
// builds it, a UTC DateTime as #DateTime<...Z>.
function temporal(t) {
  const spaced = t.iso.replace("T", " ");
  const p = t.kind === "time" ? undefined : t.parts;
  const wide = p !== undefined && (p.year < -9999 || p.year > 9999);
  switch (t.kind) {
    case "date":
      return wide ? `Date.new!(${p.year}, ${p.month}, ${p.day})` : `~D[${t.iso}]`;
    case "time":
      return `~T[${t.iso}]`;
    case "naive_datetime":
      return wide
        ? `NaiveDateTime.new!(${p.year}, ${p.month}, ${p.day}, ${p.hour}, ${p.minute}, ${p.second}, {${p.microsecond}, ${p.precision}})`
        : `~N[${spaced}]`;
    default: {
      if (spaced.endsWith("Z")) return wide ? `#DateTime<${spaced}>` : `~U[${spaced}]`;
      const offset = spaced.slice(-6);
      return `#DateTime<${spaced} ${offset} ${offset}>`;
    }
  }
}
