// String.to_existing_atom/1 over the atoms every VM running PtcRunner's
// atomize_value/2 has (spec/data/atoms.json, JH-5) and the atoms a call's
// own arguments hold (JH-6); src/elixir/atom_table. A name neither lists
// throws as on a VM without it (LOOSE-6). Each release has its own table
// (REL-2): v0.13.0's, less the atoms atoms.json's "releases" says an older
// one lacks, plus those it has besides; every function takes the release
// (release.js), else the served port's.

import { temporalFields } from "../order.js";
import { resolveRelease } from "../release.js";
import { structFields } from "../structs.js";
import { Bytes, Fun, Struct, Temporal, TermMap, Tuple, atom, atomName, binary } from "../terms.js";
import { captureParts } from "./inspect.js";
import { dataFile } from "./data.js";
import { badarg } from "./errors.js";

const TABLES = new Map();
/** The names of `release`'s table, as a Set: atoms.json's "atoms" less its releases[release].absent, plus its extra. */
export function atomTable(release) {
  const rel = resolveRelease(release);
  if (!TABLES.has(rel)) {
    const doc = dataFile("atoms.json");
    const diff = doc.releases?.[rel] ?? {};
    const table = new Set(doc.atoms);
    for (const name of diff.absent ?? []) table.delete(name);
    for (const name of diff.extra ?? []) table.add(name);
    TABLES.set(rel, table);
  }
  return TABLES.get(rel);
}

/** Whether the binary `name` (a string, or Bytes) names an atom: one of `release`'s table, or of `held` (an iterable of names, e.g. atomsHeld's Set). Bytes that are not UTF-8 never do. */
export function atomExists(name, held = [], release = undefined) {
  if (name instanceof Bytes) name = binary(name.bytes);
  if (name instanceof Bytes) return false;
  return atomTable(release).has(name) || new Set(held).has(name);
}

/** `String.to_existing_atom(name)` on `release`'s VM: the atom, or the ArgumentError of binary_to_existing_atom/2. */
export function toExistingAtom(name, held = [], release = undefined) {
  if (name instanceof Bytes) name = binary(name.bytes);
  if (name instanceof Bytes) throw badarg("1st", "invalid UTF8 encoding");
  if (!atomExists(name, held, release)) throw badarg("1st", "not an already existing atom");
  return atom(name);
}

/**
 * The names of the atoms `terms` (an array of the call's arguments) hold,
 * at any depth, as a Set (JH-6): atoms themselves (nil, true and false
 * included), keyword keys, a struct's module ("Elixir." + module),
 * "__struct__" and the name of every field its module has at `release` (a
 * struct term holds them all), a calendar value's module, fields and
 * calendar ("Elixir.Calendar.ISO"), the atoms a function's returned term
 * holds, and a named capture's module and function (&Foo.f/1: "Elixir.Foo"
 * and "f"; &:lists.foldl/3: "lists" and "foldl"). Map keys and values,
 * list and tuple elements are entered; a binary holds no atom. What the
 * reference's atom_table::atoms_of walks; atomize_value/2 passes its two
 * arguments.
 */
export function atomsHeld(terms, release = undefined) {
  const rel = resolveRelease(release);
  const out = new Set();
  const stack = [...terms];
  while (stack.length > 0) {
    const t = stack.pop();
    const name = atomName(t);
    if (name !== undefined) {
      out.add(name);
    } else if (Array.isArray(t)) {
      stack.push(...t);
    } else if (t instanceof Tuple) {
      stack.push(...t.items);
    } else if (t instanceof TermMap) {
      for (const [k, v] of t) stack.push(k, v);
    } else if (t instanceof Struct || t instanceof Temporal) {
      out.add(`Elixir.${t.module}`);
      out.add("__struct__");
      if (t instanceof Struct) for (const f of structFields(t.module, rel) ?? []) out.add(f);
      for (const [f, v] of t instanceof Struct ? t.fields : temporalFields(t)) {
        out.add(f);
        stack.push(v);
      }
    } else if (t instanceof Fun) {
      if (t.name !== undefined) {
        const parts = captureParts(t.name);
        if (parts) out.add(parts[0]).add(parts[1]);
      } else if (t.raises === undefined) {
        stack.push(t.returns);
      }
    }
  }
  return out;
}
