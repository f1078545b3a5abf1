// String.to_existing_atom/1 over the atoms every VM running PtcRunner's
// atomize_value/2 has (spec/data/atoms.json, JH-5) and the atoms a call's
// own arguments hold (JH-6); src/elixir/atom_table. A name neither lists
// throws as on a VM without it (LOOSE-6). Each release has its own table
// (REL-2): v0.13.0's, less the atoms atoms.json's "releases" says an older
// one lacks, plus those it has besides; every function takes the release
// (release.js), else the served port's.

import { resolveRelease } from "../release.js";
import { Bytes, atom } from "../terms.js";
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

/** Whether the binary `name` names an atom: one of `release`'s table, or of `held` (an iterable of names). Bytes (not UTF-8) never do. */
export function atomExists(name, held = [], release = undefined) {
  if (name instanceof Bytes) return false;
  return atomTable(release).has(name) || new Set(held).has(name);
}

/** `String.to_existing_atom(name)` on `release`'s VM: the atom, or the ArgumentError of binary_to_existing_atom/2. */
export function toExistingAtom(name, held = [], release = undefined) {
  if (name instanceof Bytes) throw badarg("1st", "invalid UTF8 encoding");
  if (!atomExists(name, held, release)) throw badarg("1st", "not an already existing atom");
  return atom(name);
}
