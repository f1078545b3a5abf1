// The exception texts of the boundary as templates, loaded from the kit's
// spec/data/messages.json (rendered from the reference's
// src/elixir/messages.rs, which a Rust test holds equal): a port renders
// its messages from these instead of copying the texts.
//
// A placeholder is `{` + a lower-case name + `}`; any other brace is
// literal text (`@derive {Jason.Encoder, only: [....]}`).
//
// A text an older release writes otherwise has a second template, its id
// suffixed with that release ("protocol_implementations_string_chars_v0_11");
// message(id, release) picks it there (spec/releases.md).

import { Raised } from "../adapter.js";
import { RELEASES, releaseSuffix, resolveRelease } from "../release.js";
import { DataError, dataFile } from "./data.js";
import { binaryOfRaw, raw, rawOf, textOfRaw } from "./raw.js";

/** One message text with named placeholders (a row of messages.json). */
export class Template {
  constructor({ id, class: cls, template, placeholders = {}, source = "", rules = [] }) {
    this.id = id;
    /** The exception's class, or null for a fragment other templates embed. */
    this.class = cls ?? null;
    this.template = template;
    this.placeholders = placeholders;
    this.source = source;
    this.rules = rules;
  }

  /**
   * The text with each `{name}` replaced by `values[name]` (a binary term:
   * a string, or Bytes); a placeholder without a value stays as it is. A
   * binary term: a string, or Bytes when a value held bytes that are not
   * UTF-8.
   */
  render(values = {}) {
    return binaryOfRaw(this.renderRaw(rawValues(values)));
  }

  /** render() as text, invalid UTF-8 replaced by U+FFFD: an exception's message. */
  renderText(values = {}) {
    return textOfRaw(this.renderRaw(rawValues(values)));
  }

  /**
   * render() over raw strings (raw.js: one char per byte), kept byte for
   * byte: an Inspect.Error can embed a display struct's bytes, which need
   * not be UTF-8 (IN-15).
   */
  renderRaw(values = {}) {
    const text = raw(this.template);
    let out = "";
    let rest = text;
    for (let open = rest.indexOf("{"); open >= 0; open = rest.indexOf("{")) {
      out += rest.slice(0, open);
      const after = rest.slice(open + 1);
      const name = /^[a-z_]*/.exec(after)[0];
      if (name.length > 0 && after[name.length] === "}" && Object.hasOwn(values, name)) {
        out += values[name];
        rest = after.slice(name.length + 1);
      } else {
        out += "{";
        rest = after;
      }
    }
    return out + rest;
  }

  /** The exception this template's text is the message of (RuntimeError for a fragment). */
  raise(values = {}) {
    return new Raised(this.class ?? "RuntimeError", this.renderText(values));
  }
}

function rawValues(values) {
  const out = {};
  for (const [k, v] of Object.entries(values)) {
    const r = rawOf(v);
    if (r === undefined) throw new TypeError(`template value ${k}: expected a binary term (a string or Bytes), got ${String(v)}`);
    out[k] = r;
  }
  return out;
}

let table;

/** Every template of spec/data/messages.json, by id, in the file's order. */
export function messages() {
  if (table) return table;
  const doc = dataFile("messages.json");
  if (!doc || !Array.isArray(doc.messages)) throw new DataError('messages.json: expected an object with a "messages" array');
  table = new Map();
  doc.messages.forEach((m, i) => {
    if (typeof m?.id !== "string" || typeof m.template !== "string") throw new DataError(`messages.json: /messages/${i}: expected "id" and "template"`);
    table.set(m.id, new Template(m));
  });
  return table;
}

/**
 * The template `id` (`"key_error"`) as `release` writes it: the first of
 * `id` suffixed with `release` or a later one ("_v0_11", "_v0_12", ...)
 * that the data has, else `id` itself; left out, the release is the served
 * port's (release.js). An unknown id throws a DataError naming it.
 */
export function message(id, release = undefined) {
  const rel = resolveRelease(release);
  for (const later of RELEASES.slice(RELEASES.indexOf(rel))) {
    const own = messages().get(id + releaseSuffix(later));
    if (own) return own;
  }
  const t = messages().get(id);
  if (!t) throw new DataError(`messages.json has no template ${JSON.stringify(id)}`);
  return t;
}

/** The exception of template `id` rendered with `values`: `raise("bad_map", {term: "1"})`. */
export function raise(id, values = {}) {
  return message(id).raise(values);
}
