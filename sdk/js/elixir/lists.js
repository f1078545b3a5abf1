// Erlang's lists where PtcRunner leans on them (src/ptc/signature_validator.rs,
// JH-15): `++`, improper lists and Enum.flat_map/2. Improper holds a list
// no tagged term carries.

import { Raised } from "../adapter.js";
import { equal } from "../order.js";
import { toList } from "./enumerable.js";

/** A non-empty improper list `[a, b | tail]`: `items` (non-empty) and a `tail` that is no list. */
export class Improper {
  constructor(items, tail) {
    if (!items.length || Array.isArray(tail) || tail instanceof Improper) throw new TypeError("an improper list has items and a tail that is no list");
    this.items = [...items];
    this.tail = tail;
  }
  /** Whether `other` is the same improper list (exact term equality). */
  equals(other) {
    return other instanceof Improper && equal(this.items, other.items) && equal(this.tail, other.tail);
  }
}

/** `is_list/1`: a proper or improper list. */
export const isList = (t) => Array.isArray(t) || t instanceof Improper;

/** The ArgumentError "argument error" of `++` on a left operand that is no proper list (and of :maps.from_list/1 on a non-pair). */
export const argumentError = () => new Raised("ArgumentError", "argument error");

/** Erlang's `left ++ right`: `left` a proper list (else ArgumentError); the result Improper when `right` is no list (`right` itself when `left` is empty). */
export function append(left, right) {
  if (!Array.isArray(left)) throw argumentError();
  if (Array.isArray(right)) return [...left, ...right];
  if (right instanceof Improper) return new Improper([...left, ...right.items], right.tail);
  return left.length ? new Improper(left, right) : right;
}

/**
 * Enum.flat_map(items, fun) over a list as Elixir 1.18.4 runs it: `fun` on
 * every element first, a result that is no list made one with
 * Enum.to_list/1 as it comes; the `++`s after, so an improper result
 * throws ArgumentError once every element ran.
 */
export function flatMap(items, fun) {
  if (!Array.isArray(items)) throw new TypeError("flatMap walks a list");
  const out = [];
  let improper = false;
  for (const x of items) {
    const r = fun(x);
    if (Array.isArray(r)) out.push(...r);
    else if (r instanceof Improper) improper = true;
    else out.push(...toList(r));
  }
  if (improper) throw argumentError();
  return out;
}
