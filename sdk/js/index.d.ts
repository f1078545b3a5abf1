// TypeScript declarations of ptc-conformance-sdk's public API: everything
// index.js exports, in one file (test/types.test.js holds the two equal).
// The values are the term model of README.md § Terms and spec/terms.md.

// ---------------------------------------------------------------- json.js

/** Arrays and objects nested deeper than this are an error (serde_json's limit). */
export declare const MAX_DEPTH: number;

/** A JSON number literal with a fraction or an exponent, kept as written. */
export declare class JsonNumber {
  constructor(text: string);
  /** The literal, e.g. "1.0" or "1e+300". */
  readonly text: string;
  /** The nearest double. */
  toNumber(): number;
  toString(): string;
}

/** A JSON syntax error, or a duplicated key (`pointer` is the object's JSON pointer). */
export declare class JsonError extends Error {
  constructor(message: string, pointer?: string, why?: string);
  readonly pointer: string | undefined;
  readonly why: string;
}

/** A value as `parse` reads it: objects as `Map` in written order, integers as BigInt. */
export type JsonValue = null | boolean | string | bigint | JsonNumber | JsonValue[] | Map<string, JsonValue>;

/** Escapes one JSON-pointer segment (`~` is `~0`, `/` is `~1`). */
export declare function pointerSegment(key: string | number): string;
/** Parses one JSON text losslessly; `root` prefixes the JSON pointers of errors. */
export declare function parse(text: string, root?: string): JsonValue;
/** A JSON string literal as serde_json writes it. */
export declare function quote(s: string): string;
/** Compact JSON text of the value model `parse` reads (plain objects too). */
export declare function stringify(value: unknown): string;

// --------------------------------------------------------------- terms.js

/** An atom other than nil, true and false (those are null, true, false). */
export declare class Atom {
  constructor(name: string);
  readonly name: string;
}

/** A float; `value` is a finite double, -0 kept. */
export declare class Float {
  constructor(value: number);
  readonly value: number;
}

/** A binary that is not valid UTF-8 (build it with `binary()`). */
export declare class Bytes {
  constructor(bytes: Uint8Array);
  readonly bytes: Uint8Array;
}

/** A tuple. */
export declare class Tuple {
  constructor(items: Term[]);
  readonly items: Term[];
}

/** The error a duplicated key raises when a map is built strictly. */
export declare class DuplicateKeyError extends Error {
  constructor(key: Term);
  readonly key: Term;
}

/** An immutable map with term keys, pairs in map key order. */
export declare class TermMap implements Iterable<[Term, Term]> {
  /** Use `TermMap.from` / `TermMap.strict`: `pairs` must be sorted and unique. */
  constructor(pairs?: Array<[Term, Term]>);
  readonly pairs: Array<[Term, Term]>;
  /** As `Map.new/1`: a later pair replaces an earlier one; `collisions.count` counts the replacements. */
  static from(pairs: Iterable<[Term, Term]>, collisions?: { count: number }): TermMap;
  /** Unique keys; a duplicated key throws `DuplicateKeyError`. */
  static strict(pairs: Iterable<[Term, Term]>): TermMap;
  /** A map whose keys are atoms, from an object's own keys: `TermMap.atoms({ a: 1 })` is `%{a: 1}`. */
  static atoms(fields: Record<string, Term>): TermMap;
  readonly size: number;
  [Symbol.iterator](): Iterator<[Term, Term]>;
  keys(): Term[];
  values(): Term[];
  get(key: Term): Term | undefined;
  has(key: Term): boolean;
  put(key: Term, value: Term): TermMap;
}

/** A struct other than the calendar ones: `fields` in defstruct order, every field present. */
export declare class Struct {
  constructor(module: string, fields: Map<string, Term>);
  readonly module: string;
  readonly fields: Map<string, Term>;
  get(name: string): Term | undefined;
}

/** The tag of a calendar struct in tagged term JSON. */
export type TemporalKind = "date" | "time" | "datetime" | "naive_datetime";

/** The four calendar structs' modules, by tag. */
export declare const TEMPORAL_KINDS: Readonly<Record<TemporalKind, string>>;

/** A `Date`, `Time`, `DateTime` or `NaiveDateTime`, kept as its ISO 8601 text. */
/** The parts of a calendar text (temporal.js parseIso): those its kind lacks are 0; offset [seconds, "+02:00"], or null for Z. */
export interface IsoParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  precision: number;
  offset: [number, string] | null;
}

export declare class Temporal {
  /** Throws a TypeError for a text to_iso8601/1 does not write (TJ-6). */
  constructor(kind: TemporalKind, iso: string);
  readonly kind: TemporalKind;
  readonly iso: string;
  /** The struct's module, e.g. "NaiveDateTime". */
  readonly module: string;
  /** parseIso's parts of the text (0 where the kind lacks one). */
  readonly parts: IsoParts;
  /** The parts, as the struct's fields; undefined where the kind lacks one. */
  readonly year: number | undefined;
  readonly month: number | undefined;
  readonly day: number | undefined;
  readonly hour: number | undefined;
  readonly minute: number | undefined;
  readonly second: number | undefined;
  /** The microseconds' value. */
  readonly microsecond: number | undefined;
  /** The fraction's digits, 0 to 6. */
  readonly precision: number | undefined;
  /** A DateTime's offset from UTC in seconds (0 for Z). */
  readonly utcOffset: number | undefined;
  readonly stdOffset: number | undefined;
  /** "Etc/UTC", or the offset text. */
  readonly timeZone: string | undefined;
  /** "UTC", or the offset text. */
  readonly zoneAbbr: string | undefined;
}

/** A function's behaviour spec (spec/terms.md TJ-8). */
export type FunSpec = { arity: number; returns: Term } | { arity: number; raises: string } | { name: string };

/** A function, known by its behaviour spec. */
export declare class Fun {
  constructor(spec: FunSpec);
  readonly arity?: number;
  readonly returns?: Term;
  readonly raises?: string;
  readonly name?: string;
  /** The arity, when known (a named capture's from its name). */
  readonly fnArity: number | undefined;
}

/** A reference, pid or port, known by a label. */
export declare class Opaque {
  constructor(kind: "ref" | "pid" | "port", label: string);
  readonly kind: "ref" | "pid" | "port";
  readonly label: string;
}

/** An Elixir term (README.md § Terms): an integer is a safe-integer number or a BigInt. */
export type Term =
  | null
  | boolean
  | number
  | bigint
  | string
  | Atom
  | Float
  | Bytes
  | Tuple
  | TermMap
  | Struct
  | Temporal
  | Fun
  | Opaque
  | Term[];

/** The atom `name`: null, true or false for "nil", "true", "false", an Atom otherwise. */
export declare function atom(name: string): Atom | null | boolean;
/** The atom's name (null/true/false included), else undefined. */
export declare function atomName(t: Term): string | undefined;
/** `is_atom/1`. */
export declare function isAtom(t: Term): boolean;
/** A binary from bytes: a string when they are valid UTF-8, else Bytes. */
export declare function binary(bytes: Uint8Array | ArrayLike<number>): string | Bytes;
/** `is_binary/1`. */
export declare function isBinary(t: Term): t is string | Bytes;
/** The bytes of a binary (UTF-8 for a string), else undefined. */
export declare function binaryBytes(t: Term): Uint8Array | undefined;
/** `is_integer/1`: a safe-integer number or a BigInt. */
export declare function isInt(t: Term): t is number | bigint;
/** An integer term as a BigInt (a TypeError for anything else). */
export declare function toBigInt(t: Term): bigint;
/** An integer term in the decoder's form: a number up to 2^53-1 in size, else a BigInt. */
export declare function int(n: number | bigint): number | bigint;
/** `{a, b, ...}` */
export declare function tuple(...items: Term[]): Tuple;
/** `[name, value]` when `t` is `{atom, value}`, else undefined. */
export declare function kwPair(t: Term): [string, Term] | undefined;
/** A keyword list from [name, value] pairs. */
export declare function kw(pairs: Array<[string, Term]>): Tuple[];
/** A map built as `Map.new/1` would, from pairs or a plain object's string keys. */
export declare function map(pairs: TermMap | Iterable<[Term, Term]> | Record<string, Term>): TermMap;
/** `is_map/1`: a TermMap, a Struct or a Temporal. */
export declare function isMap(t: Term): t is TermMap | Struct | Temporal;
/** Elixir's `<>` of binary terms (a string as its UTF-8, Bytes): a string when the bytes are UTF-8, else Bytes; a TypeError for any other part. */
export declare function concat(...parts: Array<string | Bytes>): string | Bytes;
/** Elixir truthiness: false for nil (null) and false, true for every other term; a TypeError for undefined, which is no term. */
export declare function truthy(t: Term): boolean;

// --------------------------------------------------------------- order.js

/** Erlang term order: negative, 0 or positive. */
export declare function compare(a: Term, b: Term): number;
/** Map key order: term order, every integer before every float. */
export declare function mapKeyCompare(a: Term, b: Term): number;
/** Strings by code point (the byte order of their UTF-8). */
export declare function compareCodePoints(a: string, b: string): number;
/** OTP 25's `=:=`. */
export declare function equal(a: Term, b: Term): boolean;
/** Two binary terms (a string as its UTF-8, Bytes) in byte order; a TypeError for anything else. */
export declare function compareBinaries(a: string | Bytes, b: string | Bytes): number;
/** Two raw strings (one char per byte) in byte order; a TypeError for a string with a char above U+00FF. */
export declare function compareRaw(a: string, b: string): number;
/** A copy sorted by binary terms in byte order, stable (Enum.sort/1 of binaries); `key` picks each item's binary. */
export declare function sortBinaries<T>(items: T[], key?: (item: T) => string | Bytes): T[];
/** A copy sorted by raw strings in byte order, stable; `key` picks each item's raw string. */
export declare function sortRaw<T>(items: T[], key?: (item: T) => string): T[];
/** A sorted copy in Erlang term order. */
export declare function sortTerms(terms: Term[]): Term[];
/** The rank of a term's type in Erlang term order (0 number .. 9 binary). */
export declare function typeRank(t: Term): number;
/** A map-like term's pairs in map key order (a struct with `__struct__`). */
export declare function mapView(t: TermMap | Struct | Temporal): Array<[Term, Term]>;
/** A calendar struct's fields (all but `__struct__`) from its ISO 8601 text. */
export declare function temporalFields(t: Temporal): Array<[string, Term]>;

// -------------------------------------------------------------- tagged.js

/** A term that does not decode: `message` starts with the JSON pointer. */
export declare class TermDecodeError extends Error {
  constructor(path: string, why: string);
  readonly path: string;
}

/** A value that is not a term, met while encoding. */
export declare class EncodeError extends TypeError {
  constructor(why: string);
}

/** An improper list met while encoding: no tagged form (TJ-12); serve answers such a result unsupported with improperReason(tail). */
export declare class ImproperListError extends TypeError {
  constructor(tail: Term);
  readonly tail: Term;
}

/** TJ-12's unsupported reason: "cannot encode result: improper list tail " and inspect/1 of the tail. */
export declare function improperReason(tail: Term): string;
/** The Unsupported TJ-12 asks for where a result would hold an improper list with this tail. */
export declare function unsupportedImproper(tail: Term): Unsupported;
/** The description string of each capability profile (spec/data/profiles.json, PP-1), as {profile: description}. */
export declare function profiles(): Record<string, string>;
/** This SDK's version. */
export declare const VERSION: string;

/** Decodes one tagged term from JSON text; `root` is the top-level pointer; structs as `release` defines them (else the served port's). */
export declare function decode(text: string, root?: string, release?: Release): Term;
/** Decodes a value as `parse` gives it; `path` is its JSON pointer; structs as `release` defines them (else the served port's). */
export declare function decodeValue(v: JsonValue, path?: string, release?: Release): Term;
/** The canonical tagged term JSON of `term`. */
export declare function encode(term: Term): string;
/** Erlang's shortest float text (`Float.to_string/1`). */
export declare function shortFloat(x: number): string;

// ------------------------------------------------------------- structs.js

/** The struct table cannot be found or read. */
export declare class StructDataError extends Error {
  constructor(message: string);
}

/** A struct that is no term of the boundary. */
export declare class StructError extends Error {
  constructor(message: string, options?: { ofFields?: boolean });
  /** A refusal of the fields (a name, a value), not of the module: decoders name the `fields` object (TJ-10). */
  readonly ofFields: boolean;
}

/** One struct of the table: fields with their defaults and the release that brought each (undefined: every release has it), in defstruct order. */
export interface StructEntry {
  fields: Array<[string, Term, Release | undefined]>;
  inspectOptional: Set<string>;
}

/** Where the table is looked for, first match wins: [path, how]. */
export declare function dataCandidates(): Array<[string, string]>;
/** The struct table (read once); a StructDataError says where it looked. */
export declare function structTable(): Map<string, StructEntry>;
/** The modules of the boundary's structs. */
export declare function knownStructs(): string[];
/** The field names of `module` in defstruct order at `release` (else the served port's), or undefined. */
export declare function structFields(module: string, release?: Release): string[] | undefined;
/** The default of `module`'s field `field` at `release`, or undefined. */
export declare function structDefault(module: string, field: string, release?: Release): Term | undefined;
/** Whether a derived Inspect leaves the field out while it holds its default. */
export declare function isInspectOptional(module: string, field: string): boolean;
/** A struct as `struct!/2` builds it on `release`'s build: `given` fields, the defaults for the rest. */
export declare function makeStruct(module: string, given?: Map<string, Term> | Record<string, Term>, release?: Release): Struct;

// ------------------------------------------------------------- release.js

/** A PtcRunner release whose boundary the kit checks. */
export type Release = "0.11.0" | "0.12.0" | "0.13.0";
/** The release the SDK answers at when no port chose one: 0.13.0. */
export declare const DEFAULT_RELEASE: "0.13.0";
/** `release` when it is one of RELEASES; else throws a TypeError naming the closest. */
export declare function checkRelease(release: string): Release;
/** Whether `release` is `first` or a later one: whether it has what `first` brought. */
export declare function releaseSince(release: Release, first: Release): boolean;
/** The release the SDK answers at when a function is not given one: the served port's, else 0.13.0. */
export declare function currentRelease(): Release;
/** Calls `fn()` with the SDK answering at `release` wherever a function is not given one. */
export declare function withRelease<T>(release: Release, fn: () => T): T;

// ------------------------------------------------------------- adapter.js

/** The protocol this SDK speaks. */
export declare const PROTOCOL: number;
/** The PtcRunner releases a port can implement, oldest first; a port that names none is judged as 0.13.0 (AP-18). */
export declare const RELEASES: readonly ["0.11.0", "0.12.0", "0.13.0"];
/** The features of spec/terms.md § Features. */
export declare const FEATURES: readonly string[];

/** An Elixir exception, answered as `raised`. */
export declare class Raised extends Error {
  /** `cls`: the exception module without `Elixir.`, e.g. "ArgumentError". */
  constructor(cls: string, message: string);
  readonly class: string;
}

/** An input the port cannot represent faithfully, answered `unsupported`. */
export declare class Unsupported extends Error {
  constructor(why: string);
}

/** The FunctionClauseError of `Module.fun/arity`. */
export declare function functionClause(module: string, fun: string, arity: number): Raised;
/** One argument: the function's whole text ("anonymous fn/1 in M.f/3"). */
export declare function functionClause(functionText: string): Raised;
/** A row of spec/data/ops.json. */
export interface OpRow {
  op: string;
  function: string;
  arity: number[];
  args: { name: string; may: string; default?: unknown }[];
  rules: string;
  prefix: string;
  output: "term" | "json_string";
  /** The first release that has the op, when it is not 0.11.0 (REL-3). */
  since?: Release;
  note?: string;
}
/** The row of spec/data/ops.json for `op`, or undefined. */
export declare function opRow(op: string): OpRow | undefined;
/** Every op of the kit that `release` (else the served port's) has, sorted. */
export declare function opNames(release?: Release): string[];
/** The first release that has `op`. */
export declare function opSince(op: string): Release;
/** Whether `release` (else the served port's) has the op `op` (REL-3). */
export declare function opExistsAt(op: string, release?: Release): boolean;

/** An op function: the decoded arguments in, a term out (or a thrown Raised / Unsupported). */
export type OpFunction = (...args: any[]) => Term;

/** An op: a function, or `{call, arity}` when `call.length` does not tell the arity. */
export type OpSpec = OpFunction | { call: OpFunction; arity?: number | number[] };

/** What a port tells `serve`. */
export interface Port {
  name: string;
  version: string;
  language?: string;
  ops: Record<string, OpSpec>;
  features?: string[];
  /** The PtcRunner release the port implements, said in hello (AP-18) and the one every request is decoded and answered at; an op it lacks is left out of hello. Absent: judged and answered as 0.13.0. */
  release?: Release;
  /** Sees every line the loop reads, with its outcome and answer (for logging what the port declines or raises). */
  hook?: (event: HookEvent) => void;
}

/** What one request line gets: the answer line (null for none), a note for stderr, whether it was `bye`. */
export interface LineResult {
  answer: string | null;
  log?: string;
  bye?: boolean;
}

/** A port's adapter, for tests: the handshake body and the answer to one line. */
export interface Adapter {
  hello(): string;
  handleLine(line: string | Uint8Array): LineResult;
  /** The ops whose argument count goes unchecked (a function without declared parameters and no `arity`). */
  uncheckedOps: string[];
  /** Ops the port gives that its release lacks, each with the reason it is declined (left out of hello). */
  absentOps: Array<[string, string]>;
}

/** Streams for `serve` (tests; the defaults are process.stdin, stdout and stderr); `exit: false` keeps the process alive. */
export interface ServeIo {
  input?: { on(event: string, listener: (chunk: Uint8Array) => void): unknown; removeAllListeners(event: string): unknown };
  output?: { write(text: string, done?: () => void): unknown; on?(event: "error", listener: (e: Error) => void): unknown };
  log?: { write(text: string): unknown };
  exit?: boolean;
}

/** Checks the port's description (a TypeError names what is wrong) and returns its adapter. */
export declare function createAdapter(port: Port): Adapter;
/** The id at the start of an otherwise unreadable line, as the Rust harness reads it. */
export declare function sniffId(text: string): string | undefined;
/** Serves the port over adapter protocol v1 until `bye` or the end of input; resolves to the exit status. */
export declare function serve(port: Port, io?: ServeIo): Promise<number>;

// ------------------------------------------------- elixir/ and termgen.js

/** The Elixir layer: inspect, to_string, Jason, float text, graphemes, NFC, templates (elixir.d.ts). */
export * as elixir from "./elixir.js";
export { termGen, type TermGen, type HookEvent } from "./termgen.js";
import type { HookEvent } from "./termgen.js";
