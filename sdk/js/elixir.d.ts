// Declarations of the Elixir layer (elixir/index.js), exported by the SDK
// as the namespace `elixir`. index.d.ts re-exports this file:
//
//   export * as elixir from "./elixir.js";
//
// Raw strings (`RawString`) hold one char per byte: a binary that need not
// be UTF-8 (README.md § The Elixir layer).

import type { Bytes, Fun, Raised, Release, Struct, Temporal, Term, TermMap } from "./index.js";

/** One char per byte (latin1): the bytes of a binary that need not be UTF-8. */
export type RawString = string;
/** A binary term: a string when valid UTF-8, else Bytes. */
export type Binary = string | Bytes;

// ---- inspect.js --------------------------------------------------------

/** Inspect.Opts: items per container, characters of a printable string, layout. */
export interface InspectOptions {
  /** Items per container (50); Infinity is :infinity. */
  limit?: number;
  /** Characters of a printable string or charlist (4096). */
  printableLimit?: number;
  /** Lay out at `width` instead of on one line (inspect(term, pretty: true)). */
  pretty?: boolean;
  /** The width when pretty (80). */
  width?: number;
  /** The PtcRunner release whose protocol implementations are loaded (else the served port's): a display struct's field prints through its String.Chars. */
  release?: Release;
}
export declare const LIMIT: 50;
export declare const PRINTABLE_LIMIT: 4096;
export declare const PRETTY_WIDTH: 80;
/** Kernel.inspect/2 as text (invalid UTF-8 replaced by U+FFFD). */
export declare function inspect(term: Term, opts?: InspectOptions): string;
/** inspect/2 as the text a message holds (invalid UTF-8 as U+FFFD): build every message with it; inspectBinary where the release keeps the raw bytes (term.inspect's, validate_return's answers). */
export declare function inspectMessage(term: Term, opts?: InspectOptions): string;
/** Kernel.inspect/2 as the binary Elixir returns. */
export declare function inspectBinary(term: Term, opts?: InspectOptions): Binary;
/** inspectBinary, or throws the Raised Elixir's inspect raises: a charlist whose elements past the printable limit do not convert (IN-11). */
export declare function inspectChecked(term: Term, opts?: InspectOptions): Binary;
/** Kernel.inspect/2 as a raw string. */
export declare function inspectRaw(term: Term, opts?: InspectOptions): RawString;
/** Macro.inspect_atom(:literal, atom) of an atom name (a string, or Bytes that are UTF-8): `:foo`, `Foo.Bar`, `:"foo bar"`. */
export declare function atomLiteral(name: Binary): string;
/** Macro.inspect_atom(:remote_call, atom) of a function name: `f`, `+`, `"f g"`, `"%{}"`, `"Elixir.Foo"`. */
export declare function remoteCall(name: Binary): string;
/** A capture text `&M.f/n` read back (TJ-8): [module atom name, function name, arity text], or undefined for another shape. */
export declare function captureParts(name: Binary): [string, string, string] | undefined;
/** Macro.inspect_atom(:key, atom): `a:`, `"a b":`. */
export declare function atomKey(name: Binary): string;
/** How Macro.classify_atom/1 sees an atom name. */
export declare function classifyAtom(name: Binary): "alias" | "identifier" | "unquoted" | "quoted";
/** Code.Identifier.escape/3 of a binary term (invalid bytes come out as \xNN): [text, whether something was left over]. */
export declare function escape(b: Binary, quote: string, limit?: number): [string, boolean];
/** Code.Identifier.escape/3 of a raw string: [raw text, whether something was left over]. */
export declare function escapeRaw(r: RawString, quote: string, limit?: number): [RawString, boolean];
/** String.printable?/2 of a binary term. */
export declare function printable(b: Binary, limit?: number): boolean;
/** String.printable?/2 of a raw string. */
export declare function printableRaw(r: RawString, limit?: number): boolean;
/** A code point inspect writes as \uXXXX although printable. */
export declare function invisible(codePoint: number): boolean;

// ---- identifier.js -----------------------------------------------------

/** A token String.Tokenizer.tokenize/1 read. */
export interface Token {
  kind: "alias" | "identifier" | "atom";
  whole: boolean;
  at: boolean;
  nfkc: boolean;
}
/** String.Tokenizer.tokenize/1 of a binary term: undefined where it answers an error (and for bytes that are not UTF-8). */
export declare function tokenize(name: Binary): Token | undefined;

// ---- algebra.js --------------------------------------------------------

/** An Inspect.Algebra document: null (empty), a raw string, or a node. */
export type Doc = null | RawString | { t: "cons" | "nest" | "group" | "break"; [k: string]: unknown };
export declare namespace algebra {
  const NIL: null;
  function text(s: RawString): Doc;
  function concat(a: Doc, b: Doc): Doc;
  function group(d: Doc): Doc;
  function nest(d: Doc, n: number): Doc;
  function glue(a: Doc, s: string, b: Doc): Doc;
  function flexGlue(a: Doc, s: string, b: Doc): Doc;
  function containerDoc<T>(left: string, items: T[], right: string, limit: number, breaks: "maybe" | "strict" | "flex", each: (item: T, limit: number) => Doc): Doc;
  /** Inspect.Algebra.format/2 as a raw string; width Infinity never breaks. */
  function format(doc: Doc, width?: number): RawString;
}

// ---- chars.js ----------------------------------------------------------

/** String.Chars.to_string/1 on `release`'s build (else the served port's) as a binary term; throws Raised. */
export declare function toString(term: Term, release?: Release): Binary;
/** String.Chars.to_string/1 on `release`'s build as a raw string; throws Raised. */
export declare function toStringRaw(term: Term, release?: Release): RawString;
/** IO.iodata_to_binary/1; throws Raised (ArgumentError). */
export declare function iodataToBinary(term: Term): Binary;
export declare function iodataToRaw(term: Term): RawString;
/** The Inspect text of PtcRunner.Lisp.Format's display structs on `release`'s build (their String.Chars from 0.12.0); undefined for another struct. */
export declare function displayStruct(s: Struct, release?: Release): { ok: RawString } | { err: Raised } | undefined;
/** The stack frames of a display struct's Inspect.Error on `release`'s build (LOOSE-4). */
export declare function displayStructFrames(s: Struct, cls: string, release?: Release): string[];

// ---- jason.js ----------------------------------------------------------

/** Jason.encode!/1 on `release`'s build (else the served port's); throws Raised (Protocol.UndefinedError, Jason.EncodeError). */
export declare function jasonEncode(term: Term, release?: Release): string;
/** Jason.encode/1. */
export declare function jasonTryEncode(term: Term, release?: Release): { ok: string } | { error: Raised };
/** A JSON string literal as Jason writes it (`\u001F`), of a UTF-8 binary term; throws Raised (Jason.EncodeError) for bytes that are not UTF-8. */
export declare function jasonString(s: Binary): string;

// ---- num.js ------------------------------------------------------------

export declare function shortFloat(x: number): string;
/** Float.to_string/1. */
export declare function floatToString(x: number): string;
/** inspect/1 of a float. */
export declare function inspectFloat(x: number): string;
/** :erlang.float_to_binary(x, [:compact, decimals: 10]); throws Raised. */
export declare function floatToBinaryCompact10(x: number): string;
/** trunc/1 of a finite float, exactly. */
export declare function trunc(x: number): bigint;

// ---- graphemes.js, normalize.js -----------------------------------------

export declare function codePoints(s: string): number[];
/** The index just past the grapheme cluster starting at index i (OTP 25). */
export declare function clusterEnd(codePoints: number[], i: number): number;
/** String.graphemes/1 of a binary term: its clusters as binary terms (an invalid byte a Bytes cluster of its own). */
export declare function graphemes(s: Binary): Binary[];
export declare function graphemesRaw(r: RawString): RawString[];
/** String.length/1 of a binary term. */
export declare function length(s: Binary): number;
/** String.slice(s, 0, n) of a binary term. */
export declare function take(s: Binary, n: number): Binary;
export declare function lengthRaw(r: RawString): number;
export declare function takeRaw(r: RawString, n: number): RawString;
/** String.slice/3 of a binary term: `len` clusters from cluster `start` (negative: from the end); a `len` of 0 gives ""; a non-integer `start` or `len`, a negative `len` or a non-binary throws FunctionClauseError. */
export declare function slice(s: Term, start: Term, len: Term): Binary;
export declare function sliceRaw(r: RawString, start: Term, len: Term): RawString;
/** `String.length(s) > limit` by term order (`limit` any term). */
export declare function longerThan(s: Binary, limit: Term): boolean;
export declare function longerThanRaw(r: RawString, limit: Term): boolean;
/** `if String.length(s) > limit, do: {String.slice(s, 0, limit), true}, else: {s, false}` (PP-105); throws FunctionClauseError as slice does. */
export declare function cut(s: Binary, limit: Term): [Binary, boolean];
export declare function cutRaw(r: RawString, limit: Term): [RawString, boolean];
/** NFC as OTP 25 computes it (one grapheme cluster at a time) of a binary term; invalid bytes kept. */
export declare function nfc(s: Binary): Binary;
export declare function nfcCodePoints(codePoints: number[]): number[];
export declare function decompose(cluster: number[]): number[];
export declare function compose(codePoints: number[]): number[];
export declare function combiningClass(codePoint: number): number;

// ---- messages.js, errors.js --------------------------------------------

/** A row of spec/data/messages.json. */
export declare class Template {
  id: string;
  /** The exception's class, or null for a fragment. */
  class: string | null;
  template: string;
  placeholders: Record<string, string>;
  source: string;
  rules: string[];
  /** The text with each placeholder replaced by a binary term; a binary term (Bytes when a value held invalid UTF-8). */
  render(values?: Record<string, Binary>): Binary;
  /** render() as text, invalid UTF-8 replaced by U+FFFD. */
  renderText(values?: Record<string, Binary>): string;
  renderRaw(values?: Record<string, RawString>): RawString;
  raise(values?: Record<string, Binary>): Raised;
}
export declare function messages(): Map<string, Template>;
/** The template `id` as `release` writes it (an id suffixed "_v0_11" where 0.11.0 differs). */
export declare function message(id: string, release?: Release): Template;
export declare function raise(id: string, values?: Record<string, string>): Raised;
export declare function keyError(key: string, term: Term, release?: Release): Raised;
export declare function badMap(term: Term, release?: Release): Raised;
export declare function caseClause(term: Term, release?: Release): Raised;
/** MatchError: `no match of right hand side value: <inspect(term)>` (JH-15's accumulator that is no 2-tuple). */
export declare function matchError(term: Term, release?: Release): Raised;
export declare function badarg(position: string, reason: string): Raised;
export declare function moduleNotAvailable(module: string, fun: string, arity: number): Raised;
export declare function undefinedFunction(module: string, fun: string, arity: number): Raised;
export type Protocol = "String.Chars" | "Jason.Encoder" | "Enumerable";
/** The modules implementing `protocol` on `release`'s build, as its Protocol.UndefinedError lists them. */
export declare function implementations(protocol: Protocol, release?: Release): string[];
/** Whether the struct `module` implements `protocol` on `release`'s build (REL-7). */
export declare function implementsProtocol(protocol: Protocol, module: string, release?: Release): boolean;
export declare function protocolUndefined(protocol: Protocol, value: Term, release?: Release): Raised;
export declare function protocolUndefinedRaw(protocol: Protocol, value: Term, release?: Release): RawString;
export declare function valueType(value: Term): string;
export declare function inspectErrorRaw(cls: string, message: RawString, inspectedStruct: RawString, frames: string[]): RawString;

// ---- enumerable.js -----------------------------------------------------

/** Enumerable.reduce/3 as Enum runs it. */
export declare function walk(t: Term): { elements: Term[] } | { accumulator: Term };
/** Enum.to_list/1. */
export declare function toList(t: Term): Term[];
export declare function mapJoin(t: Term, joiner: string, mapper: (x: Term) => string): Binary;
export declare function mapJoinRaw(t: Term, joiner: RawString, mapper: (x: Term) => RawString): RawString;
/** Enum.sort_by/2: the elements of `t` (as toList enumerates them) in the term order of `mapper(element)`, stable on ties (1 and 1.0). */
export declare function sortBy(t: Term, mapper: (x: Term) => Term): Term[];
/** Calls a decoded `$fn` term with `args` as its spec says: its `returns` term, or Raised (RuntimeError) with its `raises` message; a named capture throws UndefinedFunctionError (LOOSE-5); a wrong argument count is a TypeError. */
export declare function callFun(fun: Fun, ...args: Term[]): Term;

// ---- raw.js, data.js ---------------------------------------------------

export declare function raw(text: string): RawString;
/** Whether `s` can be a raw string: every char U+0000 to U+00FF. */
export declare function isRaw(s: unknown): s is RawString;
/** `r` when it can be a raw string, else a TypeError naming `who` and the first char that is no byte. */
export declare function assertRaw(r: unknown, who?: string): RawString;
export declare function rawOf(t: Term): RawString | undefined;
export declare function binaryOfRaw(r: RawString): Binary;
export declare function textOfRaw(r: RawString): string;
export declare function charAt(r: RawString, i: number): [number, number] | undefined;
export declare function validUpTo(r: RawString): number;
export declare class DataError extends Error {}
export declare function dataDirs(): Array<[string, string]>;
export declare function dataFile(name: string): any;

// Not used here but part of what the layer hands back.
export type { Fun };

/** A non-empty improper list [a, b | tail]. */
export declare class Improper {
  constructor(items: Term[], tail: Term);
  items: Term[];
  tail: Term;
  equals(other: unknown): boolean;
}
export declare function isList(t: unknown): boolean;
export declare function argumentError(): Raised;
/** Erlang's ++. */
export declare function append(left: Term, right: Term | Improper): Term | Improper;
/** Enum.flat_map/2 over a list. */
export declare function flatMap(items: Term[], fun: (x: Term) => Term | Improper): Term[];
export declare const keyword: {
  /** `fun` names the Keyword function for its FunctionClauseError ("get/3" when not given). */
  find(items: Term, key: string, fun?: string): { found: boolean; value: Term | undefined };
  get(items: Term, key: string, fallback?: Term): Term;
  fetch(items: Term, key: string): Term;
  fetchBang(items: Term, key: string): Term;
  take(items: Term, keys: string[]): Term[];
};
export declare const maps: {
  fetch(t: Term, key: Term): { found: boolean; value: Term | undefined };
  get(t: Term, key: Term, fallback?: Term): Term;
  hasKey(t: Term, key: Term): boolean;
  /** Map.keys/1 of a map or struct, in map key order; BadMapError otherwise. */
  keys(t: Term): Term[];
  dot(t: Term, field: string): Term;
  mapNew(t: Term | Improper): TermMap;
  member(s: Term, value: Term): boolean;
};
export declare const WHITE_SPACE: string;
/** String.trim/1. */
export declare function trim(s: string | Bytes): string | Bytes;
/** Enum.take/2. */
export declare function enumTake(t: Term, n: Term): Term[];
/** `release`'s atom table (REL-2; else the served port's). */
export declare function atomTable(release?: Release): Set<string>;
export declare function atomExists(name: string | Bytes, held?: Iterable<string>, release?: Release): boolean;
/** The names of the atoms `terms` hold, at any depth (JH-6): atoms, keyword keys, a struct's module, __struct__ and fields at `release`, calendar fields, a function's returned term, a capture's module and function. */
export declare function atomsHeld(terms: Term[], release?: Release): Set<string>;
/** String.to_existing_atom/1 on `release`'s VM. */
export declare function toExistingAtom(name: string | Bytes, held?: Iterable<string>, release?: Release): Term;
/** DateTime.from_iso8601/1 shifted to UTC (JH-9), or null. */
export declare function fromIso8601Utc(text: string | Bytes): Temporal | null;
