// Seeded random terms over the domain of the boundary's Elixir text:
// atoms that need quotes in many scripts, binaries valid and not, strings
// past the printable limit, charlists, floats at their text thresholds,
// bigints, nested lists, tuples, maps and keyword lists, the boundary's
// structs (URI, MapSet, the Lisp printer's display structs), calendar
// values, functions, references and pids; and chardata for to_string/1.
// The SDK's tests send them to the Rust reference to hold the Elixir
// layer to it; a port can do the same for its own functions.
//
//   const g = termGen(42);  g.term();  g.jsonish();  g.chardata();  g.atomName();

import { dataFile } from "./elixir/data.js";
import { knownStructs, makeStruct } from "./structs.js";
import { Float, Fun, Opaque, Temporal, TermMap, Tuple, atom, binary, int } from "./terms.js";
import { yearText } from "./temporal.js";
import { isCapture } from "./tagged.js";

/** A seeded generator of terms; the same seed gives the same terms. */
export function termGen(seed = 1) {
  let s = (Number(BigInt.asUintN(32, BigInt(seed))) ^ 0x9e3779b9) >>> 0;
  // mulberry32
  const u32 = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const next64 = () => (BigInt(u32()) << 32n) | BigInt(u32());
  const below = (n) => Math.floor((u32() / 4294967296) * n);
  const chance = (p) => u32() / 4294967296 < p;
  const pick = (xs) => xs[below(xs.length)];
  const range = (lo, hi) => lo + below(hi - lo + 1);

  const ident = dataFile("unicode/identifier.json").classes;
  const identRanges = [...ident.upper.ranges, ...ident.start.ranges, ...ident.continue.ranges];
  const fromRanges = (ranges) => {
    const [lo, hi] = pick(ranges);
    return range(lo, hi);
  };
  const nonSurrogate = (cp) => (cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);

  // ---- characters ---------------------------------------------------------
  const ASCII_IDENT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
  const SPECIAL_CPS = [
    0x00, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9f, 0xa0, 0xad, 0xb5, 0xaa, 0xba,
    0x300, 0x301, 0x308, 0x327, 0x34f, 0x61c, 0x200b, 0x200c, 0x200d, 0x200e, 0x2028, 0x2029, 0x2060, 0x2061,
    0x202a, 0x2066, 0xfeff, 0xfff9, 0xfffd, 0xfffe, 0xffff, 0xe000, 0xf8ff, 0x1f600, 0x1f1eb, 0x1f1f7, 0x2764,
    0xfe0f, 0x1f3fb, 0x231a, 0xe33, 0x1100, 0x1161, 0x11a8, 0xac00, 0xac01, 0x0915, 0x094d, 0x0600, 0x10ffff,
    0xe0001, 0x2000, 0x205f, 0x3000, 0x212b, 0x2126, 0x1e9e, 0x3c3, 0x3c2, 0x130, 0x131, 0x1c5, 0xf900,
  ];
  const char = () => {
    const r = below(100);
    if (r < 35) return ASCII_IDENT[below(ASCII_IDENT.length)];
    if (r < 50) return String.fromCharCode(range(0x20, 0x7e));
    if (r < 70) return String.fromCodePoint(nonSurrogate(fromRanges(identRanges)));
    if (r < 85) return String.fromCodePoint(pick(SPECIAL_CPS));
    if (r < 92) return pick(['"', "\\", "#{", "#", "{", "'", " ", "\n", "\t", "@", "?", "!", "-", "."]);
    return String.fromCodePoint(nonSurrogate(below(2) ? range(0x80, 0x7ff) : range(0x800, 0x10ffff)));
  };
  const text = (max = 8) => {
    let out = "";
    const n = below(max + 1);
    for (let i = 0; i < n; i++) out += char();
    return out;
  };

  // ---- atoms --------------------------------------------------------------
  const FIXED_ATOMS = [
    "foo", "foo_bar", "foo?", "foo!", "foo?x", "foo!!", "Foo", "Foo.Bar", "Elixir", "Elixir.Foo", "Elixir.Foo.Bar",
    "Elixir.foo", "Elixir.Elixir", "Elixir.Elixir.Foo", "Elixir.Foo.bar", "Elixir.F9_x", "foo@bar", "@", "a b", "",
    "1a", "_", "_1", "__struct__", '"', "#{x}", "a\nb", "%", "%{}", "{}", "<<>>", "...", "..", ".", "..//", "->",
    "::", "^^^", "~~~", "<|>", "&", "!", "^", "not", "+", "-", "when", "|", "=", "||", "|||", "or", "&&", "and",
    "==", "!=", "=~", "===", "<=", "|>", "<<<", "<~>", "in", "++", "--", "<>", "+++", "**", "\\\\", "fail", "ok",
    "error", "µ", "µs", "ſ", "ﬁ", "ª", "Ωmega", "abc_абв", "ф", "Ф", "ǅ", "a\u0301", "á", "e\u0308x", "ᄀ\u1161",
    "名前", "ab@c?", "x-y", "ひらがな", "ק", "अ", "a\u200d", "😀", "foo.bar", "Foo.bar", "nil", "true", "false",
    "in_process_text_mode", "native", "ptc_lisp", "both", "first", "cont", "halt", "result", "feedback",
  ];
  const atomName = () => {
    const r = below(100);
    if (r < 40) return pick(FIXED_ATOMS);
    if (r < 55) {
      // an identifier-like name in one script, sometimes with a second script after `_`
      let out = String.fromCodePoint(nonSurrogate(fromRanges(ident.start.ranges)));
      for (let i = below(4); i > 0; i--) out += below(3) ? String.fromCodePoint(nonSurrogate(fromRanges(identRanges))) : pick(["_", "a", "1"]);
      return out + (chance(0.2) ? pick(["?", "!", "@", "_x"]) : "");
    }
    if (r < 65) return `Elixir.${pick(["A", "B", "Ф", "a", "Ab"])}${text(3)}`;
    if (r < 75) return pick(["a", "A", "_", "ф"]) + text(4);
    return text(6);
  };
  const anAtom = () => atom(atomName());

  // ---- numbers ------------------------------------------------------------
  const integer = () => {
    const r = below(10);
    if (r < 4) return range(-1000, 1000);
    if (r < 6) return int(BigInt.asIntN(64, next64()) >> BigInt(below(64)));
    if (r < 7) return int((1n << BigInt(pick([53, 59, 60, 63, 64]))) + BigInt(range(-2, 2)) * (chance(0.5) ? 1n : -1n));
    if (r < 8) return int(-(1n << BigInt(pick([53, 59, 63, 64]))) - BigInt(range(-2, 2)));
    if (r < 9) return int(BigInt(`${range(1, 9)}${"0".repeat(range(15, 60))}`) * (chance(0.5) ? -1n : 1n));
    return range(0, 0x11ffff);
  };
  const view = new DataView(new ArrayBuffer(8));
  const double = () => {
    const r = below(10);
    if (r < 3) {
      view.setBigUint64(0, next64());
      const x = view.getFloat64(0);
      return Number.isFinite(x) ? x : 1.5;
    }
    if (r < 4) return pick([0, -0, 1, -1, 0.1, 0.5, 100, 1000, 1e15, 1e16, 1e17, 9007199254740991, 9007199254740992, 9007199254740994, 1e-4, 1.2e-4, 1e-5, 5e-324, 1.7976931348623157e308, 123456.0, 1e21, 1e22, 2 ** 63, 0.30000000000000004]);
    if (r < 6) return range(-1e6, 1e6) * 10 ** range(-8, 20);
    if (r < 7) return (9007199254740992 + range(-8, 8) * 2) * (chance(0.5) ? 1 : -1);
    if (r < 8) return Math.round(u32() * 1e3) / 10 ** range(0, 12);
    view.setBigUint64(0, next64() & 0x800fffffffffffffn);
    view.setUint16(0, (view.getUint16(0) & 0x800f) | ((range(0x3c0, 0x440) & 0x7ff) << 4));
    return view.getFloat64(0);
  };
  const float = () => new Float(double());

  // ---- binaries -----------------------------------------------------------
  const BAD = [[0xff], [0xc3], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe0, 0x80, 0x80], [0xfe]];
  const bytes = () => {
    const parts = [];
    for (let i = range(0, 4); i > 0; i--) {
      if (chance(0.5)) parts.push(...Buffer.from(text(3), "utf8"));
      else parts.push(...pick(BAD));
    }
    if (chance(0.3)) for (let i = range(1, 6); i > 0; i--) parts.push(below(256));
    return binary(Uint8Array.from(parts));
  };
  const longString = () => {
    const unit = pick(["a", "é", "ab\n", "ф", "😀", '"', "\u0301", "x"]);
    const n = pick([4094, 4095, 4096, 4097, 4100, 5000, 2048]);
    let s = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    if (chance(0.3)) return binary(Uint8Array.from([...Buffer.from(s, "utf8"), ...pick(BAD)]));
    if (chance(0.2)) s += "\u0000";
    return s;
  };
  const string = () => {
    const r = below(20);
    if (r < 1 && chance(0.1)) return longString();
    if (r < 4) return bytes();
    if (r < 6) return pick(["", "abc", "hello world", "a\"b", "#{x}", "\\", "ok", "é", "ab\u0000", "\u00a0"]);
    return text(10);
  };

  // ---- lists --------------------------------------------------------------
  const charlist = () => {
    const r = below(10);
    const n = r < 1 && chance(0.1) ? pick([4095, 4096, 4097, 4200]) : range(1, 12);
    const out = [];
    for (let i = 0; i < n; i++) out.push(chance(0.9) ? range(32, 126) : pick([7, 8, 9, 10, 11, 12, 13, 27]));
    if (chance(0.3)) out[below(n)] = pick([0, 6, 14, 31, 127, 128, 255, 0x263a, 0x1f600, 0xd800, 0x110000, -1]);
    return out;
  };
  const keywordList = (depth) => {
    const out = [];
    for (let i = range(1, depth >= 2 ? 3 : 5); i > 0; i--) out.push(new Tuple([anAtom(), term(depth + 1)]));
    return out;
  };
  const items = (depth, f = term) => {
    const n = depth <= 1 && chance(0.05) ? range(45, 56) : range(0, depth >= 2 ? 3 : 5);
    const out = [];
    for (let i = 0; i < n; i++) out.push(f(depth + 1));
    return out;
  };
  const mapOf = (depth, keyFn, valueFn = term) => {
    const n = depth <= 1 && chance(0.03) ? range(45, 56) : range(0, depth >= 2 ? 3 : 5);
    const pairs = [];
    for (let i = 0; i < n; i++) pairs.push([keyFn(depth + 1), valueFn(depth + 1)]);
    return TermMap.from(pairs);
  };

  // ---- structs, calendar, functions, opaque --------------------------------
  const DISPLAY = { "PtcRunner.Lisp.Format.Fn": "params", "PtcRunner.Lisp.Format.Var": "name", "PtcRunner.Lisp.Format.SymbolRef": "name", "PtcRunner.Lisp.Format.RegexLiteral": "source" };
  const orNil = (f) => (chance(0.3) ? null : f());
  const uri = () =>
    makeStruct("URI", {
      scheme: orNil(() => pick(["http", "https", "ftp", "ws", "wss", "ldap", "sftp", "tftp", "mailto", "x"])),
      authority: orNil(() => text(4)),
      userinfo: orNil(() => pick(["user", "u:p", text(2)])),
      host: orNil(() => pick(["example.com", "::1", "h", "", text(3)])),
      port: orNil(() => pick([80, 443, 21, 8080, 0, 65535, int(1n << 70n), -1])),
      path: orNil(() => pick(["/", "/a/b", "a", "", text(3)])),
      query: orNil(() => pick(["q=1", "", text(3)])),
      fragment: orNil(() => pick(["f", "", text(2)])),
    });
  const structure = (depth) => {
    const r = below(10);
    if (r < 2) return uri();
    if (r < 3) return makeStruct("MapSet", { map: mapOf(depth, term, () => []) });
    if (r < 6) {
      const module = pick([...Object.keys(DISPLAY), "PtcRunner.Lisp.Format.Builtin"]);
      const field = DISPLAY[module];
      return makeStruct(module, field ? { [field]: chance(0.6) ? chardata(depth + 1) : term(depth + 1) } : {});
    }
    const module = pick(knownStructs().filter((m) => m !== "URI" && m !== "MapSet"));
    const s = makeStruct(module);
    for (const f of s.fields.keys()) if (chance(0.1)) s.fields.set(f, term(depth + 2));
    return s;
  };
  const two = (lo, hi) => String(range(lo, hi)).padStart(2, "0");
  // Years as Calendar.ISO writes them (TJ-6): mostly four digits, some
  // negative or wider; a fraction of one to six digits; no -00:00 offset.
  const year = () => (chance(0.9) ? range(0, 9999) : pick([-1, -2024, -9999, -10000, 10000, 12345, -123456789, 999999999]));
  const date = () => `${yearText(year())}-${two(1, 12)}-${two(1, 28)}`;
  const time = () => `${two(0, 23)}:${two(0, 59)}:${two(0, 59)}${chance(0.5) ? `.${String(range(0, 999999)).padStart(6, "0").slice(0, range(1, 6))}` : ""}`;
  const offset = () => {
    const hours = two(0, 14);
    const minutes = pick(["00", "30", "45"]);
    const sign = hours === "00" && minutes === "00" ? "+" : pick(["+", "-"]);
    return `${sign}${hours}:${minutes}`;
  };
  const temporal = () => {
    switch (below(4)) {
      case 0:
        return new Temporal("date", date());
      case 1:
        return new Temporal("time", time());
      case 2:
        return new Temporal("naive_datetime", `${date()}T${time()}`);
      default:
        return new Temporal("datetime", `${date()}T${time()}${chance(0.5) ? "Z" : offset()}`);
    }
  };
  // A named capture's text `&M.f/n` (TJ-8): known ones, or odd modules and
  // functions (spaces, dots, operators, non-Latin, `Elixir.`, `:erlang`).
  const CAPTURE_MODULES = ["String", "Foo", "Foo.Bar", "Elixir.Foo", "Elixir", "foo", "Foo Bar", "Ф", "名前", ":lists", ":foo", ":a.b", ":a b", ':"a b"', ":Elixir.Foo", ":", ":ф", "µ"];
  const CAPTURE_FUNCTIONS = ["f", "bar", "upcase", "is_atom", "foo?", "f!", "f g", "a.b", "+", "::", "<|>", "when", "%{}", "..", "->", "Foo", "Elixir.Foo", "foo@bar", "ф", "Ф", "µ", "Ωmega", 'a"b', "a#{b}", "a\nb", "a/b", "名前"];
  const capture = () => {
    if (chance(0.3)) return pick(["&String.upcase/1", "&Enum.map/2", "&:lists.foldl/3", "&Kernel.is_atom/1", "&Foo.bar/2", "&:foo.bar/2"]);
    const module = chance(0.7) ? pick(CAPTURE_MODULES) : (chance(0.5) ? ":" : "") + atomName();
    const fun = chance(0.7) ? pick(CAPTURE_FUNCTIONS) : atomName();
    const name = `&${module}.${fun}/${range(0, 3)}`;
    // Only texts TJ-8 reads as a capture are terms (no empty M, no . or / in f).
    return isCapture(name) ? name : `&${isCapture(`&${module}.f/1`) ? module : "Foo"}.f/1`;
  };
  const fun = (depth) => {
    const r = below(4);
    if (r === 0) return new Fun({ name: capture() });
    if (r === 1) return new Fun({ arity: range(0, 3), raises: text(5) });
    return new Fun({ arity: range(0, 3), returns: term(depth + 1) });
  };
  const opaque = () => new Opaque(pick(["ref", "pid", "port"]), pick(["0.1.2", "0.123.0", "1", "#0.1", text(3).replace(/>/g, "")]));

  // ---- terms --------------------------------------------------------------
  function term(depth = 0) {
    const r = below(depth >= 3 || chance(depth * 0.2) ? 55 : 100);
    if (r < 8) return anAtom();
    if (r < 16) return string();
    if (r < 22) return integer();
    if (r < 29) return float();
    if (r < 33) return pick([null, true, false]);
    if (r < 37) return charlist();
    if (r < 41) return temporal();
    if (r < 44) return opaque();
    if (r < 47) return fun(depth);
    if (r < 50) return chance(0.5) ? uri() : makeStruct("PtcRunner.Lisp.Format.Builtin");
    if (r < 55) return bytes();
    if (r < 67) return items(depth);
    if (r < 75) return new Tuple(items(depth));
    if (r < 83) return mapOf(depth, chance(0.5) ? () => anAtom() : term);
    if (r < 90) return keywordList(depth);
    return structure(depth);
  }

  /** Terms Jason mostly can encode: maps with binary, atom and number keys, lists, numbers, strings; now and then anything. */
  function jsonish(depth = 0) {
    if (chance(0.08)) return term(depth + 2);
    const r = below(depth >= 4 ? 50 : 100);
    if (r < 12) return string();
    if (r < 22) return integer();
    if (r < 32) return float();
    if (r < 38) return pick([null, true, false]);
    if (r < 44) return anAtom();
    if (r < 50) return temporal();
    if (r < 70) return items(depth, jsonish);
    if (r < 90) return mapOf(depth, () => pick([string, anAtom, integer, float, () => text(4)])(), jsonish);
    return structure(depth);
  }

  /** Terms for to_string/1: mostly chardata (code points, binaries cut inside a sequence, nested lists), and the other kinds String.Chars takes or refuses. */
  function chardata(depth = 0) {
    const r = below(100);
    if (r < 50 && depth < 4) {
      const out = [];
      for (let i = range(0, 5); i > 0; i--) {
        const k = below(12);
        if (k < 3) out.push(range(0, 0x7f));
        else if (k < 5) out.push(nonSurrogate(range(0x80, 0x10ffff)));
        else if (k < 7) out.push(text(3));
        else if (k < 9) out.push(binary(Uint8Array.from(pick(BAD))));
        else if (k < 10) out.push(chardata(depth + 1));
        else out.push(pick([-1, 0xd800, 0x110000, int(1n << 60n), int(1n << 64n), anAtom(), new Float(1), new Tuple([]), "é"]));
      }
      return out;
    }
    if (r < 60) return string();
    if (r < 65) return uri();
    if (r < 70) return temporal();
    return term(depth + 1);
  }

  // ---- grapheme clusters ----------------------------------------------------
  const gdata = dataFile("unicode/grapheme.json");
  const CLUSTER_UNITS = [
    () => "e\u0301", () => "\r\n", () => "\r", () => "\n", () => "🇫🇷", () => "🇫", () => "👩\u200d💻", () => "\u231a\u200d\u{1f3fb}",
    () => "\u231a\u0e33\ufe0f\u200d\u2640", () => "\u1100\u1161\u11a8", () => "\uac00\u11a8", () => "\uac01", () => "\u1100\uac00",
    () => "\u0600a", () => "\u0600", () => "\u0915\u094d\u0937", () => "a\u0903", () => "\u{1f44d}\u{1f3fd}", () => "\u200d", () => "©\ufe0f",
    () => String.fromCodePoint(fromRanges(gdata.extend)), () => String.fromCodePoint(nonSurrogate(fromRanges(gdata.first))),
    () => String.fromCodePoint(fromRanges(gdata.extended_pictographic)), () => String.fromCodePoint(fromRanges(gdata.control)),
    () => String.fromCodePoint(pick([...gdata.hangul_l, ...gdata.hangul_v, ...gdata.hangul_t].map(([lo, hi]) => range(lo, hi)))),
    () => String.fromCodePoint(range(0xac00, 0xd7a3)), () => char(), () => char(),
  ];
  /** Text dense in grapheme-cluster boundaries: combining marks, CR LF, flags, ZWJ sequences, Hangul, prepend and spacing marks. */
  const graphemeText = (max = 10) => {
    let out = "";
    for (let i = range(1, max); i > 0; i--) out += pick(CLUSTER_UNITS)();
    return out;
  };

  return { term, jsonish, chardata, atomName, graphemeText, string, float: double, integer, below, pick, chance, text };
}
