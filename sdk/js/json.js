// A lossless JSON reader and writer (RFC 8259), for tagged term JSON
// (spec/terms.md) and the adapter protocol (spec/adapter_protocol.md).
//
// JSON.parse cannot serve here: it reads 1.0 as 1, rounds integers past
// 2^53 (adapter ids go up to 2^64-1, AP-3), keeps the last of duplicated
// keys and reorders integer-like object keys. This reader keeps what the
// text says:
//
//   null, true, false   null, true, false
//   string              string (a lone surrogate escape is an error)
//   integer literal     BigInt (`-0` is 0n)
//   other number        JsonNumber, holding the literal's text
//   array               Array
//   object              Map, keys in the order written; a duplicated key is
//                       an error naming its JSON pointer
//
// Nesting deeper than MAX_DEPTH arrays and objects is an error, as in
// serde_json (the Rust harness's reader), never a stack overflow. Tagged
// term JSON nests less (TERM_MAX_DEPTH, TJ-10): `parse` takes the limit and
// where its count starts, and names the path of the container past it.

/** Arrays and objects nested deeper than this are an error (serde_json's limit). */
export const MAX_DEPTH = 127;

/** How many arrays and objects a tagged term may nest, its own outermost one counted (TJ-10). */
export const TERM_MAX_DEPTH = 120;

/** A JSON number literal with a fraction or an exponent, kept as written. */
export class JsonNumber {
  /** @param {string} text the literal, e.g. "1.0" or "1e+300" */
  constructor(text) {
    this.text = text;
  }
  /** The nearest double (JavaScript's own reading of the literal). */
  toNumber() {
    return Number(this.text);
  }
  toString() {
    return this.text;
  }
}

/**
 * A JSON syntax error (`message` ends with its line and column), or a
 * duplicated key or a tagged term nested too deeply (`pointer` is the
 * JSON pointer, `why` the rest).
 */
export class JsonError extends Error {
  constructor(message, pointer, why) {
    super(message);
    this.name = "JsonError";
    this.pointer = pointer;
    this.why = why ?? message;
  }
}

/** Escapes one JSON-pointer segment (RFC 6901: `~` is `~0`, `/` is `~1`). */
export function pointerSegment(key) {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * Parses one JSON text losslessly (see the module comment for the value
 * model). Throws JsonError with a line and column, or a JSON pointer for a
 * duplicated key; `root` prefixes the pointers (e.g. "/args").
 * With `terms`, the text holds tagged terms (TJ-10): a container that is
 * the (TERM_MAX_DEPTH + 1)th counted from `terms.outer` containers deep
 * (0: the value itself is the first counted; 1 for a request line, whose
 * `args` is) is refused, naming its pointer.
 * @param {string} text
 * @param {string} [root]
 * @param {{outer: number}} [terms]
 */
export function parse(text, root = "", terms = undefined) {
  const p = new Parser(text, terms === undefined ? undefined : TERM_MAX_DEPTH + terms.outer);
  p.ws();
  const value = p.value(root, 0);
  p.ws();
  if (p.i < text.length) p.fail("trailing characters after the JSON value");
  return value;
}

class Parser {
  constructor(text, termLimit) {
    this.s = text;
    this.i = 0;
    this.termLimit = termLimit;
  }

  fail(why) {
    let line = 1;
    let col = 1;
    for (let k = 0; k < this.i && k < this.s.length; k++) {
      if (this.s.charCodeAt(k) === 10) {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    throw new JsonError(`${why} at line ${line} column ${col}`);
  }

  ws() {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else return;
    }
  }

  value(path, depth) {
    const c = this.s[this.i];
    switch (c) {
      case "{":
        return this.object(path, depth + 1);
      case "[":
        return this.array(path, depth + 1);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case undefined:
        return this.fail("EOF while parsing a value");
      default:
        if (c === "-" || (c >= "0" && c <= "9")) return this.number();
        return this.fail(`expected a value, found ${JSON.stringify(c)}`);
    }
  }

  literal(word, value) {
    if (this.s.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    return this.fail(`expected ${word}`);
  }

  number() {
    const s = this.s;
    const start = this.i;
    if (s[this.i] === "-") this.i++;
    if (s[this.i] === "0") {
      this.i++;
      if (s[this.i] >= "0" && s[this.i] <= "9") this.fail("a number has a leading zero");
    } else if (s[this.i] >= "1" && s[this.i] <= "9") {
      while (s[this.i] >= "0" && s[this.i] <= "9") this.i++;
    } else {
      this.fail("expected a digit");
    }
    let integral = true;
    if (s[this.i] === ".") {
      integral = false;
      this.i++;
      if (!(s[this.i] >= "0" && s[this.i] <= "9")) this.fail("expected a digit after the decimal point");
      while (s[this.i] >= "0" && s[this.i] <= "9") this.i++;
    }
    if (s[this.i] === "e" || s[this.i] === "E") {
      integral = false;
      this.i++;
      if (s[this.i] === "+" || s[this.i] === "-") this.i++;
      if (!(s[this.i] >= "0" && s[this.i] <= "9")) this.fail("expected a digit in the exponent");
      while (s[this.i] >= "0" && s[this.i] <= "9") this.i++;
    }
    const text = s.slice(start, this.i);
    return integral ? BigInt(text) : new JsonNumber(text);
  }

  string() {
    const s = this.s;
    this.i++; // the opening quote
    let out = "";
    let run = this.i;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (Number.isNaN(c)) this.fail("EOF while parsing a string");
      if (c === 34) {
        out += s.slice(run, this.i);
        this.i++;
        return out;
      }
      if (c < 0x20) this.fail("control character in a string");
      if (c >= 0xd800 && c <= 0xdfff) {
        // Raw surrogates arrive only from a string that was not valid
        // UTF-8 text; a pair is a character, a lone one is not.
        const next = s.charCodeAt(this.i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          this.i += 2;
          continue;
        }
        this.fail("lone surrogate in a string");
      }
      if (c !== 92) {
        this.i++;
        continue;
      }
      out += s.slice(run, this.i);
      this.i++;
      const e = s[this.i++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hi = this.hex4();
          if (hi >= 0xdc00 && hi <= 0xdfff) this.fail("lone trailing surrogate in hex escape");
          if (hi >= 0xd800 && hi <= 0xdbff) {
            if (s[this.i] !== "\\" || s[this.i + 1] !== "u") this.fail("lone leading surrogate in hex escape");
            this.i += 2;
            const lo = this.hex4();
            if (!(lo >= 0xdc00 && lo <= 0xdfff)) this.fail("lone leading surrogate in hex escape");
            out += String.fromCharCode(hi, lo);
          } else {
            out += String.fromCharCode(hi);
          }
          break;
        }
        default:
          this.i--;
          this.fail("invalid escape");
      }
      run = this.i;
    }
  }

  hex4() {
    const h = this.s.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail("invalid \\u escape");
    this.i += 4;
    return parseInt(h, 16);
  }

  enter(depth, path) {
    if (this.termLimit !== undefined && depth > this.termLimit) {
      const why = `nested deeper than ${TERM_MAX_DEPTH} arrays and objects (TJ-10)`;
      throw new JsonError(`${path || "/"}: ${why}`, path, why);
    }
    if (depth > MAX_DEPTH) this.fail(`recursion limit exceeded (more than ${MAX_DEPTH} nested arrays and objects)`);
  }

  array(path, depth) {
    this.enter(depth, path);
    this.i++;
    const out = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(`${path}/${out.length}`, depth));
      this.ws();
      const c = this.s[this.i++];
      if (c === "]") return out;
      if (c !== ",") {
        this.i--;
        this.fail("expected `,` or `]`");
      }
      this.ws();
    }
  }

  object(path, depth) {
    this.enter(depth, path);
    this.i++;
    const out = new Map();
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s[this.i] !== '"') this.fail("expected a string key");
      const key = this.string();
      this.ws();
      if (this.s[this.i++] !== ":") {
        this.i--;
        this.fail("expected `:`");
      }
      this.ws();
      if (out.has(key)) {
        // Tagged term JSON names it as the Rust harness's reader does (TJ-4).
        const term = this.termLimit !== undefined && depth > this.termLimit - TERM_MAX_DEPTH;
        const why = `duplicated ${term ? "map " : ""}key ${quote(key)}`;
        throw new JsonError(`${path || "/"}: ${why}`, path, why);
      }
      out.set(key, this.value(`${path}/${pointerSegment(key)}`, depth));
      this.ws();
      const c = this.s[this.i++];
      if (c === "}") return out;
      if (c !== ",") {
        this.i--;
        this.fail("expected `,` or `}`");
      }
      this.ws();
    }
  }
}

const ESCAPES = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/**
 * A JSON string literal as serde_json writes it (and so the Rust harness):
 * `"`, `\` and control characters escaped (`\b \t \n \f \r`, the rest
 * `\u00xx`), everything else as it is.
 * @param {string} s
 */
export function quote(s) {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

/**
 * Writes the value model `parse` reads back as compact JSON text: Map and
 * plain objects as objects (in their order), BigInt and safe-integer
 * numbers as integers, JsonNumber as its text. Other numbers are an error:
 * JSON cannot say whether they were meant as floats.
 */
export function stringify(value) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return quote(value);
    case "bigint":
      return value.toString();
    case "number":
      if (Number.isSafeInteger(value)) return String(value);
      throw new TypeError(`stringify: ${value} is not a safe integer; write a JsonNumber for other numbers`);
    default:
  }
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map(stringify).join(",")}]`;
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return `{${entries.map(([k, v]) => `${quote(String(k))}:${stringify(v)}`).join(",")}}`;
}
