// Enumerable as Enum meets it at the boundary: lists, maps (their
// {key, value} pairs in map order), MapSets (their members) and functions
// of arity 2, which Elixir treats as a reducer to be called (EX-8, LF-14):
// called as fun.({:cont, acc}, reducer), Enum takes elem(result, 1) as the
// final accumulator. The function's behaviour spec decides the result
// whatever its arguments, so the reducer is never applied. Port of
// src/elixir/enumerable.rs.

import { Raised } from "../adapter.js";
import { compare } from "../order.js";
import { Atom, Fun, Struct, TermMap, Tuple, tuple } from "../terms.js";
import { iodataToRaw } from "./chars.js";
import { badarg, moduleNotAvailable, protocolUndefined } from "./errors.js";
import { captureParts } from "./inspect.js";
import { message } from "./messages.js";
import { binaryOfRaw } from "./raw.js";

/**
 * `Enumerable.reduce/3` as Enum.reduce/3 runs it: `{elements}` of a list,
 * map or MapSet, or `{accumulator}` an arity-2 function returned
 * (elem(result, 1)). Anything else throws Protocol.UndefinedError
 * (Enumerable); a function that raises throws its RuntimeError.
 */
export function walk(t) {
  if (Array.isArray(t)) return { elements: t };
  if (t instanceof TermMap) return { elements: t.pairs.map(([k, v]) => tuple(k, v)) };
  if (t instanceof Struct && t.module === "MapSet") {
    const set = t.get("map");
    if (set instanceof TermMap) return { elements: set.keys() };
    throw protocolUndefined("Enumerable", t);
  }
  if (t instanceof Fun && t.fnArity === 2) {
    if (t.name !== undefined) throw callCapture(t.name, t);
    if (t.raises !== undefined) throw new Raised("RuntimeError", t.raises);
    return { accumulator: elem1(t.returns) };
  }
  throw protocolUndefined("Enumerable", t);
}

/** `Enum.to_list/1`: an arity-2 function's accumulator is a list in reverse (:lists.reverse/1). */
export function toList(t) {
  const w = walk(t);
  return w.elements ?? listsReverse(w.accumulator);
}

/**
 * `Enum.map_join(t, joiner, mapper)` as a raw string (raw.js): `mapper`
 * gives each element's raw text. For an arity-2 function the accumulator
 * `:first` is no element (""), anything else is reversed and made a
 * binary with IO.iodata_to_binary/1, the mapper never running.
 */
export function mapJoinRaw(t, joiner, mapper) {
  const w = walk(t);
  if (w.elements) return w.elements.map(mapper).join(joiner);
  if (w.accumulator instanceof Atom && w.accumulator.name === "first") return "";
  return iodataToRaw(listsReverse(w.accumulator));
}

/**
 * `Enum.sort_by(t, mapper)`: the elements of `t` (as toList enumerates
 * them: a list, a map's `{key, value}` tuples, a MapSet's members) in the
 * term order of `mapper(element)`, stable: elements whose keys compare
 * equal (1 and 1.0, {1} and {1.0}) keep their order. `mapper` runs once
 * per element, in order.
 */
export function sortBy(t, mapper) {
  return toList(t)
    .map((x) => [mapper(x), x])
    .sort((p, q) => compare(p[0], q[0]))
    .map((p) => p[1]);
}

/** mapJoinRaw with text in and a binary term out. */
export function mapJoin(t, joiner, mapper) {
  return binaryOfRaw(mapJoinRaw(t, Buffer.from(joiner, "utf8").toString("latin1"), (x) => Buffer.from(mapper(x), "utf8").toString("latin1")));
}

// elem(result, 1), with :erlang.element/2's messages.
function elem1(t) {
  if (t instanceof Tuple && t.items.length >= 2) return t.items[1];
  if (t instanceof Tuple) throw badarg("1st", "out of range");
  throw badarg("2nd", "not a tuple");
}

// :lists.reverse/1, which has no clause for anything but a list.
function listsReverse(t) {
  if (Array.isArray(t)) return [...t].reverse();
  throw message("function_clause").raise({ function: ":lists.reverse/1" });
}

// Calling the named capture &Mod.fun/2: no module of that name loads (LOOSE-5).
/**
 * Calls a function term (a decoded `$fn`) with `args` as its spec says
 * (TJ-8): its `returns` term, or a RuntimeError with its `raises` message;
 * a named capture fails as a call into a module the VM cannot load
 * (UndefinedFunctionError, LOOSE-5), as the reference does. A call with
 * the wrong number of arguments is the port's mistake (a TypeError).
 */
export function callFun(fun, ...args) {
  if (!(fun instanceof Fun)) throw new TypeError(`callFun: not a function term: ${String(fun)}`);
  const arity = fun.fnArity;
  if (args.length !== arity) throw new TypeError(`callFun: ${fun.name ?? `a function of arity ${arity}`} called with ${args.length} argument(s)`);
  if (fun.name !== undefined) {
    const parts = captureParts(fun.name);
    throw moduleNotAvailable(parts[0], parts[1], args.length);
  }
  if ("raises" in fun) throw new Raised("RuntimeError", fun.raises);
  return fun.returns;
}

function callCapture(name, t) {
  const parts = captureParts(name);
  return parts ? moduleNotAvailable(parts[0], parts[1], 2) : protocolUndefined("Enumerable", t);
}

/** `Enum.take(t, n)`: the first `n` elements, or for a negative `n` the last `-n`; a count that is no integer throws FunctionClauseError (NP-7). */
export function take(t, n) {
  if (!(typeof n === "bigint" || (typeof n === "number" && Number.isInteger(n)))) {
    throw new Raised("FunctionClauseError", "no function clause matching in Enum.take/2");
  }
  const items = toList(t);
  const k = BigInt(n);
  const len = BigInt(items.length);
  if (k >= 0n) return items.slice(0, Number(k < len ? k : len));
  const back = -k < len ? -k : len;
  return items.slice(items.length - Number(back));
}
