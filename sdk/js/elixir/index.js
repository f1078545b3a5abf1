// The Elixir layer: the Elixir, OTP and Jason behaviour that shows through
// PtcRunner's boundary, one module per borrowed behaviour as the
// reference's src/elixir/ has them, held byte for byte to it by
// test/elixir.reference.test.js. See README.md § The Elixir layer.
//
//   inspect.js     Kernel.inspect/2 (limit, printableLimit, pretty/width)
//   algebra.js     the Inspect.Algebra layout it uses
//   chars.js       String.Chars.to_string/1, List.to_string/1 (chardata), URI, IO.iodata_to_binary/1
//   jason.js       Jason.encode/1 and Jason's string escaping
//   num.js         float texts (Float.to_string/1, Inspect.Float, float_to_binary compact 10)
//   enumerable.js  Enumerable/Enum at the boundary (Enum.sort_by/2 too), arity-2 functions as reducers
//   errors.js      exception messages that embed inspect (KeyError, Protocol.UndefinedError, ...)
//   messages.js    the message templates of spec/data/messages.json
//   identifier.js  String.Tokenizer (when inspect quotes an atom)
//   graphemes.js   grapheme clusters as OTP 25 splits them; String.length/1, String.slice/3
//   normalize.js   NFC as OTP 25 computes it
//   raw.js         byte strings (one char per byte) for binaries that need not be UTF-8
//   data.js        where spec/data is found
//   lists.js       ++, improper lists (Improper), Enum.flat_map/2
//   keyword.js     Keyword.get/fetch/fetch!/take (exported as `keyword`)
//   maps.js        Map.get/has_key?/keys/new, term.field, MapSet.member? (exported as `maps`)
//   strings.js     String.trim/1's white space
//   atoms.js       String.to_existing_atom/1 over spec/data/atoms.json
//   datetime.js    DateTime.from_iso8601/1 shifted to UTC (JH-9)

export * as algebra from "./algebra.js";
export { displayStruct, displayStructFrames, iodataToBinary, iodataToRaw, toString, toStringRaw } from "./chars.js";
export { DataError, dataDirs, dataFile } from "./data.js";
export { callFun, mapJoin, mapJoinRaw, sortBy, take as enumTake, toList, walk } from "./enumerable.js";
export {
  badMap,
  badarg,
  caseClause,
  implementations,
  implementsProtocol,
  inspectErrorRaw,
  keyError,
  matchError,
  moduleNotAvailable,
  protocolUndefined,
  protocolUndefinedRaw,
  undefinedFunction,
  valueType,
} from "./errors.js";
export {
  clusterEnd,
  codePoints,
  cut,
  cutRaw,
  graphemes,
  graphemesRaw,
  length,
  lengthRaw,
  longerThan,
  longerThanRaw,
  slice,
  sliceRaw,
  take,
  takeRaw,
} from "./graphemes.js";
export { tokenize } from "./identifier.js";
export {
  LIMIT,
  PRETTY_WIDTH,
  PRINTABLE_LIMIT,
  atomKey,
  atomLiteral,
  captureParts,
  classifyAtom,
  escape,
  escapeRaw,
  inspect,
  inspectBinary,
  inspectChecked,
  inspectMessage,
  inspectRaw,
  invisible,
  printable,
  printableRaw,
  remoteCall,
} from "./inspect.js";
export { encode as jasonEncode, jasonString, tryEncode as jasonTryEncode } from "./jason.js";
export { Template, message, messages, raise } from "./messages.js";
export { combiningClass, compose, decompose, nfc, nfcCodePoints } from "./normalize.js";
export { floatToBinaryCompact10, floatToString, inspectFloat, shortFloat, trunc } from "./num.js";
export { assertRaw, binaryOfRaw, charAt, isRaw, raw, rawOf, textOfRaw, validUpTo } from "./raw.js";
export { atomExists, atomTable, atomsHeld, toExistingAtom } from "./atoms.js";
export { fromIso8601Utc } from "./datetime.js";
export * as keyword from "./keyword.js";
export { Improper, append, argumentError, flatMap, isList } from "./lists.js";
export * as maps from "./maps.js";
export { WHITE_SPACE, trim } from "./strings.js";
