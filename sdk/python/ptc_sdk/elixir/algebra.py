"""``Inspect.Algebra`` as Elixir 1.18.4 lays documents out
(``src/elixir/algebra.rs``): strings, strict and flex breaks, nesting,
groups and ``container_doc/6``. ``inspect(term, pretty: true)`` formats at
width 80; ``inspect/1`` at an infinite width, so nothing breaks.

Documents are plain values: a ``str`` (text; bytes that are not UTF-8 held
as ``surrogateescape`` code points, so a display struct's invalid bytes
survive), ``None`` (``empty()``), and tuples ``(CONS, a, b)``,
``(NEST, doc, n)``, ``(BREAK, s, flex)``, ``(GROUP, doc)``. Text is
measured in UTF-8 bytes, as the layout measures a binary.
"""

from __future__ import annotations

CONS, NEST, BREAK, GROUP = 0, 1, 2, 3

MAYBE, STRICT, FLEX = "maybe", "strict", "flex"
"""``container_doc/6``'s ``:break`` option."""


def concat(a, b):
    return (CONS, a, b)


def group(d):
    return (GROUP, d)


def nest(d, n):
    return d if n == 0 else (NEST, d, n)


def glue(a, s, b):
    """A strict break `s` between two documents."""
    return (CONS, a, (CONS, (BREAK, s, False), b))


def flex_glue(a, s, b):
    """A flex break `s` between two documents."""
    return (CONS, a, (CONS, (BREAK, s, True), b))


def _simple(d) -> bool:
    """Text only (what ``container_doc`` calls simple)."""
    while True:
        if d is None or type(d) is str:
            return True
        if d[0] != CONS or not _simple(d[1]):
            return False
        d = d[2]


def container_doc(left, items, right, limit, breaks, each):
    """``container_doc(left, items, right, opts, fun, separator: ",", break:
    breaks)``: at most `limit` items (then ``...``); ``each(item, limit)``
    makes an item's document with the limit that remains for it."""
    if not items:
        return left + right
    docs = []
    simple = breaks == MAYBE
    for item in items:
        if limit == 0:
            docs.append("...")
            break
        doc = each(item, limit - 1)
        if doc is not None:
            limit -= 1
        simple = simple and _simple(doc)
        docs.append(doc)
    flex = simple or breaks == FLEX
    joined = docs[-1]
    for doc in reversed(docs[:-1]):
        if joined is None:
            joined = doc
        elif doc is None:
            pass
        elif flex:
            joined = (CONS, (CONS, doc, ","), (CONS, (BREAK, " ", True), joined))
        else:
            joined = (CONS, (CONS, doc, ","), (CONS, (BREAK, " ", False), joined))
    if flex:
        return (GROUP, (CONS, (CONS, left, nest(joined, 1)), right))
    return (GROUP, glue(nest(glue(left, "", joined), 2), "", right))


def width_of(s: str) -> int:
    """The byte size of a text (surrogate-escaped bytes count one each)."""
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogateescape"))


def format(doc, width=None) -> str:
    """``format(doc, width)``; `width` None is infinite. The text keeps
    invalid bytes as ``surrogateescape`` code points: ``.encode("utf-8",
    "surrogateescape")`` gives the binary Elixir builds."""
    out = []
    if width is None:
        stack = [doc]
        while stack:
            d = stack.pop()
            if d is None:
                continue
            if type(d) is str:
                out.append(d)
                continue
            tag = d[0]
            if tag == CONS:
                stack.append(d[2])
                stack.append(d[1])
            elif tag == BREAK:
                out.append(d[1])
            else:  # NEST, GROUP: flat at an infinite width
                stack.append(d[1])
        return "".join(out)
    k = 0
    flat, brk = True, False
    stack = [(0, flat, doc)]
    while stack:
        i, m, d = stack.pop()
        if d is None:
            continue
        if type(d) is str:
            out.append(d)
            k += width_of(d)
            continue
        tag = d[0]
        if tag == CONS:
            stack.append((i, m, d[2]))
            stack.append((i, m, d[1]))
        elif tag == NEST:
            stack.append((i + d[2], m, d[1]))
        elif tag == BREAK:
            s = d[1]
            if d[2]:  # flex
                after = k + len(s)
                if m or _fits(width, after, True, [], stack):
                    out.append(s)
                    k = after
                else:
                    out.append("\n" + " " * i)
                    k = i
            elif m:
                out.append(s)
                k += len(s)
            else:
                out.append("\n" + " " * i)
                k = i
        else:  # GROUP
            fits = _fits(width, k, False, [(i, True, d[1])], [])
            stack.append((i, fits, d[1]))
    return "".join(out)


_TAIL = object()


def _fits(w, k, b, local, outer) -> bool:
    """``fits/4``: whether the entries (`local` on top of `outer`, which is
    read, never changed) fit in `w` from column `k` up to their first break
    in break mode; `b` says a flat break was seen (only then does
    overflowing count)."""
    j = len(outer)
    while True:
        if k > w and b:
            return False
        if local:
            entry = local.pop()
        elif j:
            j -= 1
            entry = outer[j]
        else:
            return True
        if entry[0] is _TAIL:
            b = entry[1]
            continue
        i, m, d = entry
        if d is None:
            continue
        if type(d) is str:
            k += width_of(d)
            continue
        tag = d[0]
        if tag == BREAK:
            if not m:
                return True
            k += len(d[1])
            b = True
        elif tag == GROUP:
            local.append((_TAIL, b))
            local.append((i, True, d[1]))
        elif tag == NEST:
            local.append((i + d[2], m, d[1]))
        else:
            local.append((i, m, d[2]))
            local.append((i, m, d[1]))
