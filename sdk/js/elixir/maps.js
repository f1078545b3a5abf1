// Map and MapSet access as Elixir 1.18.4 does it (src/elixir/keyword.rs,
// src/ptc/json_handler.rs): Map.get/3, Map.has_key?/2, `term.field`,
// Map.keys/1, Map.new/1, MapSet.member?/2, throwing as Elixir does. A struct is a map
// of its fields (atom keys).

import { functionClause } from "../adapter.js";
import { equal, mapView } from "../order.js";
import { Atom, Struct, Temporal, TermMap, Tuple, atom } from "../terms.js";
import { toList } from "./enumerable.js";
import { badMap, badarg, keyError, moduleNotAvailable } from "./errors.js";
import { inspect } from "./inspect.js";
import { Improper, argumentError } from "./lists.js";
import { message } from "./messages.js";

const isMapLike = (t) => t instanceof TermMap || t instanceof Struct || t instanceof Temporal;

/** `{found, value}` of `key` (any term) in a map or struct; a non-map throws BadMapError. */
export function fetch(t, key) {
  if (!isMapLike(t)) throw badMap(t);
  const hit = mapView(t).find(([k]) => equal(k, key));
  return hit ? { found: true, value: hit[1] } : { found: false, value: undefined };
}

/**
 * `Map.keys(t)` of a map or struct: its keys in map key order (the order
 * Elixir gives for up to 32 keys); a struct's are `:__struct__` and its
 * fields as atoms, a calendar value's its parts. A non-map throws
 * BadMapError.
 */
export function keys(t) {
  if (!isMapLike(t)) throw badMap(t);
  return mapView(t).map(([k]) => k);
}

/** `Map.get(t, key, fallback)`. */
export function get(t, key, fallback = null) {
  const r = fetch(t, key);
  return r.found ? r.value : fallback;
}

/** `Map.has_key?(t, key)`. */
export const hasKey = (t, key) => fetch(t, key).found;

/**
 * Elixir's `t.field` (`field` an atom name): a map or struct without it
 * throws KeyError; an atom other than nil/true/false is taken for a module
 * the VM cannot load (UndefinedFunctionError); anything else throws
 * KeyError with the dot-syntax hint.
 */
export function dot(t, field) {
  if (isMapLike(t)) {
    const r = fetch(t, atom(field));
    if (r.found) return r.value;
    throw keyError(field, t);
  }
  if (t instanceof Atom) throw moduleNotAvailable(t.name, field, 0);
  throw message("key_error_not_a_map").raise({ key: inspect(atom(field)), term: inspect(t, { pretty: true, limit: Infinity }) });
}

/**
 * `Map.new(t)`: a list of {key, value} pairs (later keys win), a map as it
 * is, anything else enumerated first. A non-pair throws ArgumentError
 * "argument error"; an improper list "not a proper list".
 */
export function mapNew(t) {
  if (t instanceof TermMap) return t;
  if (t instanceof Improper) throw badarg("1st", "not a proper list");
  const items = Array.isArray(t) ? t : toList(t);
  const pairs = items.map((p) => {
    if (!(p instanceof Tuple) || p.items.length !== 2) throw argumentError();
    return p.items;
  });
  return TermMap.from(pairs);
}

/** `MapSet.member?(s, value)`: exact equality; anything but a MapSet throws FunctionClauseError. */
export function member(s, value) {
  const set = s instanceof Struct && s.module === "MapSet" ? s.get("map") : undefined;
  if (!(set instanceof TermMap)) throw functionClause("MapSet.member?/2");
  return fetch(set, value).found;
}
