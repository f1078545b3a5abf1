// Inspect.Algebra as Elixir 1.18.4 lays documents out: the part inspect/2
// uses (strings, strict and flex breaks, nesting, groups, container_doc/6).
// inspect(term, pretty: true) formats at width 80; inspect/1 at an
// infinite width, so nothing ever breaks (spec/inspect.md IN-19). Port of
// src/elixir/algebra.rs. Text is raw strings (raw.js), measured in bytes.

/** `empty()`. */
export const NIL = null;

/** A text document (a raw string). */
export const text = (s) => s;

/** `concat(a, b)`. */
export const concat = (a, b) => ({ t: "cons", a, b });

/** `group(doc)`. */
export const group = (d) => ({ t: "group", d });

/** `nest(doc, n)`; `nest(doc, 0)` is `doc`. */
export const nest = (d, n) => (n === 0 ? d : { t: "nest", d, n });

/** `glue(a, s, b)`: a strict break between two documents. */
export const glue = (a, s, b) => concat(a, concat({ t: "break", s, flex: false }, b));

/** `flex_glue(a, s, b)`: a flex break between two documents. */
export const flexGlue = (a, s, b) => concat(a, concat({ t: "break", s, flex: true }, b));

function simple(d) {
  if (d === null || typeof d === "string") return true;
  return d.t === "cons" && simple(d.a) && simple(d.b);
}

/**
 * `container_doc(left, items, right, opts, fun, separator: ",", break: breaks)`:
 * `limit` items at most (then `...`); `each(item, limitLeft)` makes each
 * item's document. `breaks` is "maybe", "strict" or "flex".
 */
export function containerDoc(left, items, right, limit, breaks, each) {
  if (items.length === 0) return left + right;
  const docs = [];
  let isSimple = breaks === "maybe";
  let left_ = limit;
  for (const item of items) {
    if (left_ === 0) {
      docs.push("...");
      break;
    }
    const doc = each(item, left_ - 1);
    if (doc !== null) left_ -= 1;
    isSimple = isSimple && simple(doc);
    docs.push(doc);
  }
  const flex = isSimple || breaks === "flex";
  let joined = docs[docs.length - 1];
  for (let i = docs.length - 2; i >= 0; i--) joined = join(docs[i], joined, flex);
  if (flex) return group(concat(concat(left, nest(joined, 1)), right));
  return group(glue(nest(glue(left, "", joined), 2), "", right));
}

function join(l, r, flex) {
  if (l === null) return r;
  if (r === null) return l;
  return flex ? flexGlue(concat(l, ","), " ", r) : glue(concat(l, ","), " ", r);
}

const FLAT = 0;
const BREAK = 1;

/** `format(doc, width)` as a raw string; a `width` of Infinity (or undefined) never breaks. */
export function format(doc, width = Infinity) {
  const out = [];
  let k = 0;
  // [indent, mode, doc]; the stack's top is its last element.
  const stack = [[0, FLAT, doc]];
  while (stack.length) {
    const entry = stack.pop();
    if (entry.tail !== undefined) continue;
    const [i, m, d] = entry;
    if (d === null) continue;
    if (typeof d === "string") {
      out.push(d);
      k += d.length;
      continue;
    }
    switch (d.t) {
      case "cons":
        stack.push([i, m, d.b], [i, m, d.a]);
        break;
      case "nest":
        stack.push([i + d.n, m, d.d]);
        break;
      case "break":
        if (d.flex) {
          const after = k + d.s.length;
          if (width === Infinity || m === FLAT || fits(width, after, true, stack.slice())) {
            out.push(d.s);
            k = after;
          } else {
            out.push(`\n${" ".repeat(i)}`);
            k = i;
          }
        } else if (m === BREAK) {
          out.push(`\n${" ".repeat(i)}`);
          k = i;
        } else {
          out.push(d.s);
          k += d.s.length;
        }
        break;
      case "group": {
        const flat = width === Infinity || fits(width, k, false, [[i, FLAT, d.d]]);
        stack.push([i, flat ? FLAT : BREAK, d.d]);
        break;
      }
      default:
        throw new TypeError(`not a document: ${d.t}`);
    }
  }
  return out.join("");
}

// fits/4: whether what is on `stack` fits in `w` from column `k` up to its
// first break in break mode; `b` says a flat break was seen (only then does
// overflowing count). A {tail} entry restores `b` at the end of a group.
function fits(w, k, b, stack) {
  for (;;) {
    if (k > w && b) return false;
    const entry = stack.pop();
    if (entry === undefined) return true;
    if (entry.tail !== undefined) {
      b = entry.tail;
      continue;
    }
    const [i, m, d] = entry;
    if (d === null) continue;
    if (typeof d === "string") {
      k += d.length;
      continue;
    }
    switch (d.t) {
      case "break":
        if (m === BREAK) return true;
        k += d.s.length;
        b = true;
        break;
      case "group":
        stack.push({ tail: b }, [i, FLAT, d.d]);
        break;
      case "nest":
        stack.push([i + d.n, m, d.d]);
        break;
      case "cons":
        stack.push([i, m, d.b], [i, m, d.a]);
        break;
      default:
        throw new TypeError(`not a document: ${d.t}`);
    }
  }
}
