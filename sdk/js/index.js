// ptc-conformance-sdk: what a JavaScript port of PtcRunner's tool boundary
// needs besides its own functions. See README.md.
//
//   json.js     lossless JSON reader and writer
//   terms.js    the term model (Atom, Tuple, Float, Bytes, TermMap, Struct, ...)
//   order.js    Erlang term order, map key order, exact equality
//   tagged.js   tagged term JSON: decode with JSON-pointer errors, canonical encode
//   structs.js  the boundary's structs, from spec/data/structs.json
//   release.js  the PtcRunner releases (0.11.0, 0.12.0, 0.13.0) and the one the SDK answers at
//   adapter.js  the adapter protocol v1 loop: serve({name, version, ops, features, hook, release})
//   elixir/     the Elixir layer: inspect, to_string, Jason, float text,
//               graphemes, NFC, message templates (exported as `elixir`)
//   termgen.js  seeded random terms, for differential tests against the reference

export { JsonError, JsonNumber, MAX_DEPTH, parse, pointerSegment, quote, stringify } from "./json.js";
export {
  Atom,
  Bytes,
  DuplicateKeyError,
  Float,
  Fun,
  Opaque,
  Struct,
  TEMPORAL_KINDS,
  Temporal,
  TermMap,
  Tuple,
  atom,
  atomName,
  binary,
  binaryBytes,
  concat,
  int,
  isAtom,
  isBinary,
  isInt,
  isMap,
  kw,
  kwPair,
  map,
  toBigInt,
  truthy,
  tuple,
} from "./terms.js";
export {
  compare,
  compareBinaries,
  compareCodePoints,
  compareRaw,
  equal,
  mapKeyCompare,
  mapView,
  sortBinaries,
  sortRaw,
  sortTerms,
  temporalFields,
  typeRank,
} from "./order.js";
export { EncodeError, ImproperListError, TermDecodeError, decode, decodeValue, encode, shortFloat } from "./tagged.js";
export {
  StructDataError,
  StructError,
  dataCandidates,
  isInspectOptional,
  knownStructs,
  makeStruct,
  structDefault,
  structFields,
  structTable,
} from "./structs.js";
export { FEATURES, PROTOCOL, RELEASES, Raised, Unsupported, VERSION, createAdapter, functionClause, improperReason, opExistsAt, opNames, opRow, opSince, profiles, serve, sniffId, unsupportedImproper } from "./adapter.js";
export { DEFAULT_RELEASE, checkRelease, currentRelease, releaseSince, withRelease } from "./release.js";
export * as elixir from "./elixir/index.js";
export { termGen } from "./termgen.js";
