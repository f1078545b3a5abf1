// Keyword as Elixir 1.18.4 reads option lists (src/elixir/keyword.rs):
// Keyword.get/3, fetch/2, fetch!/2, take/2, throwing as Elixir does. Keys
// are atom names ("a" for :a, "nil" for nil). A lookup is :lists.keyfind/3:
// the first tuple whose first element is the key decides; a found tuple
// that is not a pair throws CaseClauseError (PP-8).

import { functionClause } from "../adapter.js";
import { equal } from "../order.js";
import { Atom, Tuple, atom } from "../terms.js";
import { caseClause, keyError } from "./errors.js";

/** `{found, value}` of the atom `key` in `items` as Keyword.<fun> finds it (`fun` like "get/3", which it is when not given: the one PtcRunner calls most). */
export function find(items, key, fun = "get/3") {
  if (!Array.isArray(items)) throw functionClause(`Keyword.${fun}`);
  const k = atom(key);
  for (const item of items) {
    if (item instanceof Tuple && item.items.length && equal(item.items[0], k)) {
      if (item.items.length !== 2) throw caseClause(item);
      return { found: true, value: item.items[1] };
    }
  }
  return { found: false, value: undefined };
}

/** `Keyword.get(items, key, fallback)`. */
export function get(items, key, fallback = null) {
  const r = find(items, key, "get/3");
  return r.found ? r.value : fallback;
}

/** `Keyword.fetch(items, key)`: `{:ok, value}` or `:error`. */
export function fetch(items, key) {
  const r = find(items, key, "fetch/2");
  return r.found ? new Tuple([new Atom("ok"), r.value]) : new Atom("error");
}

/** `Keyword.fetch!(items, key)`: a missing key throws KeyError. */
export function fetchBang(items, key) {
  const r = find(items, key, "fetch!/2");
  if (!r.found) throw keyError(key, items);
  return r.value;
}

/** `Keyword.take(items, keys)`: the pairs whose key is one of `keys` (names), in order; an element that is no pair throws FunctionClauseError. */
export function take(items, keys) {
  if (!Array.isArray(items) || !Array.isArray(keys)) throw functionClause("Keyword.take/2");
  const wanted = keys.map(atom);
  return items.filter((item) => {
    if (!(item instanceof Tuple) || item.items.length !== 2) throw functionClause("anonymous fn/1 in Keyword.take/2");
    return wanted.some((w) => equal(item.items[0], w));
  });
}
