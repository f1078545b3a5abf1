"""Random Elixir terms for holding the SDK's Elixir layer to the reference:
the texts `inspect`, `to_string` and Jason show are decided by edge cases
(atoms in many scripts, binaries valid and not, charlists, floats at their
text thresholds, limits, structs, calendar values, display structs that
fail), so the generator leans on them. Deterministic for a seed."""

from __future__ import annotations

import random
import struct as _struct

from ptc_sdk import Fun, Map, Opaque, Temporal, Tuple, atom, structs
from ptc_sdk.tagged import is_capture
from ptc_sdk.temporal import year_text

_SCRIPTS = [
    "abcxyz", "ABCXYZ", "éèçñøßÿ", "ÉÇÑØ", "ĀăĿŉſĳ", "αβγδωάΐ", "ΑΒΓΩ", "абвгдяё", "АБВЯ", "աբգ",
    "აბგ", "中文字漢", "ひらがな", "カタカナ", "한국어", "각", "अआइ", "ক খ", "ابت", "עברית",
    "ไทย", "ᏣᎳᎩ", "𐐀𐐨", "µ", "\u0301\u0300\u0327", "٠١٢", "0123456789", "_", "@", "?!",
    "ｆｕｌｌ", "ℌℍ", "ǅǈ", "Ⅰⅱ", "\u200d\u200c", "·", "-+*/<>=|&^~.", " ", "\"'\\#{}",
    "\n\t\x00\x7f", "\u00a0\u2028\ufeff", "😀🇫🇷", "\ufffe", "𝔘𝔫𝔦",
]
_ATOMS = [
    "ok", "error", "foo_bar", "Foo", "Foo.Bar", "Elixir.Foo", "Elixir.Foo.Bar", "Elixir",
    "Elixir.Elixir", "Elixir.Elixir.X", "Elixir.foo", "Elixir.", "foo?", "foo!", "foo?x",
    "foo@bar", "_", "__struct__", "", "nil", "true", "false", "%", "%{}", "{}", "<<>>", "...",
    "..", ".", "..//", "->", "::", "^^^", "~~~", "<|>", "&", "!", "^", "not", "+", "-", "@",
    "<-", "\\\\", "when", "|", "=", "||", "|||", "or", "&&", "and", "==", "!=", "=~", "===",
    "<=", ">=", "|>", "<<<", "<~>", "in", "++", "--", "<>", "**", "//", "foo bar", "1a",
    "école", "École", "é", "e\u0301", "µs", "μs", "Ωmega", "ωmega", "abc_абв", "abcабв",
    "日本", "ф", "Ф", "ǅx", "a\u0301\u0302", "한", "\u1100\u1161", "x\u200d", "𝔘", "ℌ", "a#{b}",
    "foo\"bar", "foo\\bar", "a\nb", "\u00a0", "ﬁ", "ａ", "ⅱ", "_ф", "Ⅱ",
]
_FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 100.0, 1000.0, 10000.0, 123456.0, 1.23e5, 1e15, 1e16,
    -1e16, 9999999999999998.0, 9007199254740991.0, 9007199254740992.0, 9007199254740994.0,
    1.2345678901234568e16, 1234567890123456.8, 0.0001, 0.00012, 1e-5, 1.2345e-7, 5e-324,
    2.2250738585072014e-308, 1.7976931348623157e308, 0.1 + 0.2, 2.0455837792400002, 1e20,
    1e21, 1e22, 1e100, -2.5, 1e-10, 5e-11, 4.9999999999e-11, 9.99999999999, 0.000488281250,
    123456789.12345679, 1e244, 9.9e243, -1e243, 2.0**63, 2.0**64, 2.0**53 + 2, 0.3, 2.675,
]
_INTS = [
    0, 1, -1, 7, 13, 27, 32, 126, 127, 128, 255, 256, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0x10FFFF,
    0x110000, 2**31, 2**53 - 1, 2**53, -(2**53), 2**59 - 1, 2**59, -(2**59), -(2**59) - 1,
    2**63 - 1, 2**63, -(2**63), 2**64, 10**30, -(10**40),
]


_CAPTURE_MODULES = (
    "String", "Foo", "Foo.Bar", "Elixir.Foo", "Elixir", "foo", "Foo Bar", "Ф", "名前", ":lists", ":foo",
    ":a.b", ":a b", ':"a b"', ":Elixir.Foo", ":", ":ф", "µ",
)
_CAPTURE_FUNCTIONS = (
    "f", "bar", "upcase", "is_atom", "foo?", "f!", "f g", "a.b", "+", "::", "<|>", "when", "%{}", "..", "->",
    "Foo", "Elixir.Foo", "foo@bar", "ф", "Ф", "µ", "Ωmega", 'a"b', "a#{b}", "a\nb", "a/b", "名前",
)

class Gen:
    """Term generators over one `random.Random`."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        # Inside a map key or set member: no functions, references, pids or
        # ports, whose order against each other is the implementation's
        # (spec/README.md LOOSE-3).
        self.in_key = 0

    # ---- scalars ----------------------------------------------------------

    def text(self, n=None, scripts=None):
        r = self.r
        n = r.choice((0, 1, 2, 3, 5, 8, 13)) if n is None else n
        pool = scripts or _SCRIPTS
        return "".join(r.choice(r.choice(pool)) for _ in range(n))

    def long(self, n, ascii=False):
        """A text of `n` characters past the printable limit, made of a
        repeated chunk (only a few characters vary)."""
        chunk = self.text(self.r.randint(1, 7), ["abc XYZ", "#{", '"'] if ascii else ["abc", "é", "日", "#{", '"', "\n"])
        return (chunk * (n // len(chunk) + 1))[:n]

    def atom_name(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            return r.choice(_ATOMS)
        if k < 0.55:
            # one script, identifier-shaped
            script = r.choice(_SCRIPTS[:30])
            return "".join(r.choice(script) for _ in range(r.randint(1, 6)))
        if k < 0.7:
            return r.choice(("a", "A", "_", "é", "Ф", "ф")) + self.text()
        if k < 0.8:
            return r.choice(_ATOMS) + r.choice(("", "?", "!", "@x", "_1", "x")) + self.text(r.randint(0, 2))
        return self.text(r.randint(0, 10))[:255]

    def atom(self):
        return atom(self.atom_name())

    def int_(self):
        r = self.r
        k = r.random()
        if k < 0.5:
            return r.randint(-1000, 1000)
        if k < 0.8:
            return r.choice(_INTS) + r.choice((0, 0, 1, -1))
        return r.randint(-(2**200), 2**200) >> r.randint(0, 199)

    def float_(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            x = r.choice(_FLOATS)
            return -x if r.random() < 0.3 else x
        if k < 0.55:
            bits = r.getrandbits(64)
            x = _struct.unpack("<d", _struct.pack("<Q", bits))[0]
            return x if x == x and abs(x) != float("inf") else 1.5
        if k < 0.75:
            return float(r.randint(-(10**17), 10**17)) * r.choice((1, 1, 0.5, 0.1, 10, 1e-3))
        return round(r.uniform(-1e6, 1e6), r.randint(0, 12))

    def string(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return self.text(r.randint(0, 12), ["abc xyz", "ABC", "0123", " .,;:-_"])
        if k < 0.6:
            return self.text(r.randint(0, 12))
        if k < 0.615:
            head = self.long(r.choice((4090, 4095, 4096, 4097, 4100, 5000)))
            return head + r.choice(("", "\x01", "x", "#{", '"'))
        return self.text(r.randint(0, 6)) + r.choice(("#{", "#", "\\", '"', "\x1b", "\u0085", "\u200b", "\ufffe", "\U0001f600", "\r\n")) + self.text(r.randint(0, 3))

    def bytes_(self):
        """A binary that is not UTF-8 (a `bytes` term)."""
        r = self.r
        k = r.random()
        if k < 0.5:
            b = bytes(r.getrandbits(8) for _ in range(r.randint(1, 12)))
        elif k < 0.8:
            b = self.text(r.randint(0, 6)).encode() + bytes([r.choice((0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF8, 0xFF))]) + self.text(r.randint(0, 3)).encode()
        elif k < 0.9:
            b = bytes(r.getrandbits(8) for _ in range(r.choice((49, 50, 51, 60))))
        else:
            b = self.long(r.choice((4095, 4096, 4097))).encode() + b"\xff"
        try:
            b.decode("utf-8")
            return b + b"\xff"
        except UnicodeDecodeError:
            return b

    def binary(self):
        return self.bytes_() if self.r.random() < 0.2 else self.string()

    def charlist(self):
        r = self.r
        k = r.random()
        if k < 0.6:
            return [ord(c) for c in self.text(r.randint(1, 10), ["abc XYZ", "\n\t\r\x0b\x08\x0c\x1b\x07", '"#{\\'])]
        if k < 0.63:
            n = r.choice((4095, 4096, 4097, 4200))
            return [ord(c) for c in self.long(n, ascii=True)] + r.choice(([], [233], [0x1F600], [1], [-1], [0x110000]))
        return [r.choice((6, 7, 13, 14, 26, 27, 31, 32, 126, 127, 128, 233, 0x10FFFF)) for _ in range(r.randint(1, 5))]

    def temporal(self):
        r = self.r
        year = r.randint(1, 9999) if r.random() < 0.9 else r.choice((-1, -2024, -10000, 10000, 123456789))
        d = f"{year_text(year)}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"
        t = f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"
        t += r.choice(("", ".0", ".123", ".000001", ".123456"))
        kind = r.choice(("date", "time", "naive_datetime", "datetime"))
        if kind == "date":
            return Temporal(kind, d)
        if kind == "time":
            return Temporal(kind, t)
        if kind == "naive_datetime":
            return Temporal(kind, f"{d}T{t}")
        return Temporal(kind, f"{d}T{t}" + r.choice(("Z", "+00:00", "+05:30", "-08:00")))

    def fun(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            return Fun(arity=r.randint(0, 3), returns=self.scalar())
        if k < 0.7:
            return Fun(arity=r.randint(0, 3), raises=self.string())
        return Fun(name=self.capture())

    def capture(self):
        """A named capture's text ``&M.f/n`` (TJ-8): known ones, or odd
        modules and functions (spaces, dots, operators, non-Latin,
        ``Elixir.``-prefixed, an Erlang ``:mod``)."""
        r = self.r
        if r.random() < 0.3:
            return r.choice(("&String.upcase/1", "&Enum.map/2", "&:lists.reverse/1", "&Foo.bar/0", "&:erlang.+/2"))
        module = r.choice(_CAPTURE_MODULES) if r.random() < 0.7 else r.choice(("", ":")) + self.atom_name()
        function = r.choice(_CAPTURE_FUNCTIONS) if r.random() < 0.7 else self.atom_name()
        name = f"&{module}.{function}/{r.randint(0, 3)}"
        # Only texts TJ-8 reads as a capture are terms (no empty M, no . or / in f).
        if is_capture(name):
            return name
        return f"&{module if is_capture(f'&{module}.f/1') else 'Foo'}.f/1"

    def opaque(self):
        r = self.r
        kind = r.choice(("ref", "pid", "port"))
        return Opaque(kind, r.choice(("0.1.2", "0.123.0", "1", "x")))

    def scalar(self):
        r = self.r
        k = r.random()
        if k < 0.15:
            return self.atom()
        if k < 0.3:
            return self.int_()
        if k < 0.45:
            return self.float_()
        if k < 0.75:
            return self.binary()
        if k < 0.82:
            return r.choice((None, True, False))
        if k < 0.9 or self.in_key:
            return self.temporal()
        if k < 0.95:
            return self.fun()
        return self.opaque()

    # ---- containers -------------------------------------------------------

    def size(self, depth=0):
        """Mostly small; past the limit of 50 only low in a term, where
        the items are scalars."""
        r = self.r
        if depth >= 2 and r.random() < 0.1:
            return r.choice((49, 50, 51, 55))
        return r.randint(0, 5)

    def key(self, depth):
        r = self.r
        k = r.random()
        if k < 0.4:
            return self.string()
        if k < 0.7:
            return self.atom()
        self.in_key += 1
        try:
            return self.term(depth + 1)
        finally:
            self.in_key -= 1

    def term(self, depth=0):
        r = self.r
        if depth >= 3 or r.random() < 0.35 + 0.15 * depth:
            return self.scalar()
        k = r.random()
        if k < 0.2:
            return [self.term(depth + 1) for _ in range(self.size(depth))]
        if k < 0.3:
            return self.charlist()
        if k < 0.42:
            return Tuple(self.term(depth + 1) for _ in range(self.size(depth)))
        if k < 0.55:
            return [Tuple((self.atom(), self.term(depth + 1))) for _ in range(r.randint(1, 4))]
        if k < 0.75:
            kind = r.random()
            n = self.size(depth)
            if kind < 0.4:
                pairs = [(self.atom(), self.term(depth + 1)) for _ in range(n)]
            elif kind < 0.7:
                pairs = [(self.string(), self.term(depth + 1)) for _ in range(n)]
            else:
                pairs = [(self.key(depth), self.term(depth + 1)) for _ in range(n)]
            return Map.new(pairs)
        if k < 0.95:
            return self.struct(depth)
        return self.temporal()

    def struct(self, depth=0):
        r = self.r
        module = r.choice(structs.modules() + ["URI", "MapSet"] + [m for m in structs.modules() if m.startswith("PtcRunner.Lisp.Format.")] * 2)
        if module == "URI":
            fields = {}
            for f in ("scheme", "authority", "userinfo", "host", "path", "query", "fragment"):
                if r.random() < 0.5:
                    fields[f] = r.choice(("http", "https", "ftp", "example.com", "::1", "/a/b", "a/b", "", "q=1", "user:pw", "x y", "ldap", "ws"))
                    if r.random() < 0.1:
                        fields[f] = self.bytes_()
            if r.random() < 0.5:
                fields["port"] = r.choice((80, 443, 21, 8080, 389, 69, 0, 2**64))
            return structs.complete(module, fields)
        if module == "MapSet":
            return structs.complete(module, {"map": Map.new((self.key(depth), []) for _ in range(self.size(depth)))})
        rows = structs.fields_of(module)
        fields = {}
        for name, _ in rows:
            if r.random() < 0.5:
                fields[name] = self.display_field(depth) if module.startswith("PtcRunner.Lisp.Format.") else self.term(depth + 1)
        return structs.complete(module, fields)

    def display_field(self, depth):
        r = self.r
        k = r.random()
        if k < 0.3:
            return self.binary()
        if k < 0.45:
            return self.atom()
        if k < 0.6:
            return self.chardata()
        if k < 0.7 and depth < 3:
            return self.struct(depth + 1)
        return self.term(depth + 1)

    def chardata(self):
        """Lists for List.to_string/1: code points, binaries split inside a
        UTF-8 sequence, nesting, bignums, bad elements."""
        r = self.r
        out = []
        for _ in range(r.randint(0, 5)):
            k = r.random()
            if k < 0.25:
                out.append(r.choice((97, 233, 0x1F600, 0x10FFFF, 0xD800, 0x110000, -1, 2**59, 2**64, 0)))
            elif k < 0.5:
                whole = self.text(r.randint(1, 3), ["aé€😀"]).encode()
                cut = r.randint(0, len(whole))
                out.append(whole[:cut])
                out.append(whole[cut:])
            elif k < 0.65:
                out.append(bytes([r.choice((0x80, 0xC3, 0xE2, 0xF0, 0xFF, 0x41))]))
            elif k < 0.8:
                out.append(self.chardata() if r.random() < 0.5 else [])
            elif k < 0.9:
                out.append(self.string())
            else:
                out.append(self.scalar())
        # a bytes element that is valid UTF-8 must be a str term
        return [(x.decode("utf-8") if type(x) is bytes and _utf8(x) else x) for x in out]


def _utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False
