// String.to_existing_atom/1 over the atoms every VM running PtcRunner's
// atomize_value/2 has (spec/data/atoms.json, JH-5) and the atoms a call's
// own arguments hold (JH-6); src/elixir/atom_table. A name neither lists
// throws as on a VM without it (LOOSE-6).

import { Bytes, atom } from "../terms.js";
import { dataFile } from "./data.js";
import { badarg } from "./errors.js";

let TABLE;
/** The names of spec/data/atoms.json, as a Set. */
export function atomTable() {
  TABLE ??= new Set(dataFile("atoms.json").atoms);
  return TABLE;
}

/** Whether the binary `name` names an atom: one of the table's, or of `held` (an iterable of names). Bytes (not UTF-8) never do. */
export function atomExists(name, held = []) {
  if (name instanceof Bytes) return false;
  return atomTable().has(name) || new Set(held).has(name);
}

/** `String.to_existing_atom(name)`: the atom, or the ArgumentError of binary_to_existing_atom/2. */
export function toExistingAtom(name, held = []) {
  if (name instanceof Bytes) throw badarg("1st", "invalid UTF8 encoding");
  if (!atomExists(name, held)) throw badarg("1st", "not an already existing atom");
  return atom(name);
}
