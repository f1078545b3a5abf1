// The messages of the Elixir exceptions the boundary raises, as Elixir
// 1.18.4 writes them (Exception.message/1): KeyError, BadMapError,
// CaseClauseError, UndefinedFunctionError, Protocol.UndefinedError, an
// Erlang badarg, and the text of an #Inspect.Error<...>. Each embeds
// inspect/2 of the offending term, printed as the release's build prints
// it (a display struct's String.Chars, REL-7); a protocol's
// implementations are the release's. The texts are messages.js's
// templates. Each function takes the release (release.js), else the served
// port's. Port of src/elixir/errors.rs.

import { Raised } from "../adapter.js";
import { resolveRelease } from "../release.js";
import { Atom, Bytes, Float, Fun, Opaque, Struct, Temporal, TermMap, Tuple, atom } from "../terms.js";
import { LIMIT, atomLiteral, inspect, inspectRaw, remoteCall } from "./inspect.js";
import { message } from "./messages.js";
import { raw, textOfRaw } from "./raw.js";

/** KeyError for a missing atom `key` in a keyword list or map: `key :k not found in: <inspect(term, pretty: true, limit: :infinity)>`. */
export function keyError(key, term, release = undefined) {
  const rel = resolveRelease(release);
  return message("key_error", rel).raise({ key: inspect(atom(key), { release: rel }), term: inspect(term, { pretty: true, limit: Infinity, release: rel }) });
}

/** BadMapError: `expected a map, got: <inspect(term)>`. */
export function badMap(term, release = undefined) {
  const rel = resolveRelease(release);
  return message("bad_map", rel).raise({ term: inspect(term, { release: rel }) });
}

/** CaseClauseError: `no case clause matching: <inspect(term)>`. */
export function caseClause(term, release = undefined) {
  const rel = resolveRelease(release);
  return message("case_clause", rel).raise({ term: inspect(term, { release: rel }) });
}

/**
 * MatchError: `no match of right hand side value: <inspect(term)>`, what a
 * pattern match such as `{errors, consumed} = acc` raises when `term` does
 * not fit it (JH-15's accumulator that is no 2-tuple).
 */
export function matchError(term, release = undefined) {
  const rel = resolveRelease(release);
  return message("match_error", rel).raise({ term: inspect(term, { release: rel }) });
}

/** The ArgumentError of an Erlang BIF: `position` ("1st"), `reason` ("not a tuple"). */
export function badarg(position, reason) {
  return message("erlang_badarg").raise({ position, reason });
}

/**
 * UndefinedFunctionError for a call into the module named by the atom
 * `module` ("Elixir.Foo", "foo") the VM cannot load; the alias hint is
 * added for an Elixir alias of one segment.
 */
export function moduleNotAvailable(module, fun, arity) {
  const oneSegment = module.startsWith("Elixir.") && !module.slice(7).includes(".");
  return message("undefined_function_module_not_available").raise({
    module: atomLiteral(module),
    function: remoteCall(fun),
    arity: String(arity),
    hint: oneSegment ? message("undefined_function_alias_hint").template : "",
  });
}

/** UndefinedFunctionError for a function `Module.fun/arity` the module does not export (or an op called with another arity). */
export function undefinedFunction(module, fun, arity) {
  return message("undefined_function_or_private").raise({ module, function: fun, arity: String(arity) });
}

const PROTOCOLS = {
  "String.Chars": "protocol_implementations_string_chars",
  "Jason.Encoder": "protocol_implementations_jason_encoder",
  Enumerable: "protocol_implementations_enumerable",
};

/** The modules (and types) implementing `protocol` on `release`'s build, as its Protocol.UndefinedError lists them (spec/data/messages.json). */
export function implementations(protocol, release = undefined) {
  if (!Object.hasOwn(PROTOCOLS, protocol)) throw new TypeError(`unknown protocol ${protocol}`);
  return message(PROTOCOLS[protocol], release).template.split(", ");
}

/** Whether the struct `module` implements `protocol` on `release`'s build: String.Chars and Jason.Encoder of PtcRunner.Lisp.Format's display structs came in v0.12.0 (REL-7). */
export function implementsProtocol(protocol, module, release = undefined) {
  return implementations(protocol, release).includes(module);
}

/**
 * Protocol.UndefinedError of `protocol` ("String.Chars", "Jason.Encoder"
 * or "Enumerable") for `value` on `release`'s build. The implementations
 * list is the release's, compared loosely (spec/README.md LOOSE-1).
 */
export function protocolUndefined(protocol, value, release = undefined) {
  return new Raised("Protocol.UndefinedError", textOfRaw(protocolUndefinedRaw(protocol, value, release)));
}

/** protocolUndefined's message as a raw string (raw.js): a display struct inside `value` keeps its bytes (IN-15). */
export function protocolUndefinedRaw(protocol, value, release = undefined) {
  if (!Object.hasOwn(PROTOCOLS, protocol)) throw new TypeError(`unknown protocol ${protocol}`);
  const rel = resolveRelease(release);
  let description = "";
  if (protocol === "Jason.Encoder") {
    description = message(value instanceof Struct || value instanceof Temporal ? "jason_encoder_struct_description" : "jason_encoder_description").template;
  } else if (protocol === "Enumerable" && value instanceof Fun && value.fnArity !== 2) {
    description = message("enumerable_function_description").template;
  }
  const inspected = inspectRaw(value, { pretty: true, limit: LIMIT, release: rel });
  const shown = inspected
    .split("\n")
    .map((line) => (line === "" ? "" : `    ${line}`))
    .join("\n");
  return message("protocol_undefined", rel).renderRaw({
    protocol,
    type: raw(valueType(value)),
    description: description === "" ? "" : raw(`, ${description}`),
    implementations: message(PROTOCOLS[protocol], rel).template,
    value: shown,
  });
}

/** Protocol.UndefinedError's name for the type of a value (`Tuple`, `PtcRunner.Tool (a struct)`). */
export function valueType(v) {
  if (v instanceof Struct) return message("protocol_undefined_struct_type").renderText({ module: inspect(atom(`Elixir.${v.module}`)) });
  if (v instanceof Temporal) return message("protocol_undefined_struct_type").renderText({ module: v.module });
  if (v === null || v === true || v === false || v instanceof Atom) return "Atom";
  if (typeof v === "string" || v instanceof Bytes) return "BitString";
  if (v instanceof Float) return "Float";
  if (v instanceof Fun) return "Function";
  if (typeof v === "number" || typeof v === "bigint") return "Integer";
  if (Array.isArray(v)) return "List";
  if (v instanceof TermMap) return "Map";
  if (v instanceof Opaque) return { pid: "PID", port: "Port", ref: "Reference" }[v.kind];
  if (v instanceof Tuple) return "Tuple";
  throw new TypeError(`not a term: ${String(v)}`);
}

/**
 * The text of an #Inspect.Error<...> (what inspect prints for a struct
 * whose Inspect raised), as a raw string: the exception's class and raw
 * message, the raw struct inspected as a map, and the stack frames, each
 * indented as Inspect.Error.pad/2 does (IN-15; frames: LOOSE-4).
 */
export function inspectErrorRaw(cls, messageRaw, inspectedStruct, frames) {
  const body = message("inspect_error_body").renderRaw({
    class: raw(cls),
    message: pad(trimNewlines(messageRaw), 4),
    struct: pad(inspectedStruct, 4),
  });
  const stacktrace = frames.map((f) => raw(`    ${f}\n`)).join("");
  return message("inspect_error").renderRaw({ body: pad(body, 2), frames: stacktrace });
}

// Inspect.Error.pad/2: every non-empty line indented by n spaces, trailing newlines dropped.
function pad(text, n) {
  const out = text
    .split("\n")
    .map((line) => (line === "" ? "" : " ".repeat(n) + line))
    .join("\n");
  return trimNewlines(out);
}

const trimNewlines = (text) => text.replace(/\n+$/, "");
