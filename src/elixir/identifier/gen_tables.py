#!/usr/bin/env python3
"""Generates tables.rs: the identifier tables of Elixir 1.18.4's
String.Tokenizer (from the Unicode 15.1 data files it is compiled from,
lib/elixir/unicode/) and the canonical normalization data of OTP 25's
unicode_util (Unicode 14.0), which `:unicode.characters_to_nfc_list/1`
uses. Usage:

    gen_tables.py ELIXIR_SRC UNICODE_UTIL_ERL > tables.rs

The derivation follows what tokenizer.ex computes at compile time; this
script is written from that description, not copied.
"""
import re
import sys
from collections import Counter

elixir, unicode_util = sys.argv[1], sys.argv[2]
udir = f"{elixir}/lib/elixir/unicode"


def lines(name):
    with open(f"{udir}/{name}", encoding="utf-8") as f:
        return [l for l in f.read().splitlines() if l]


def cps_of(rng):
    parts = rng.strip().split("..")
    a = int(parts[0], 16)
    b = int(parts[-1], 16)
    return list(range(a, b + 1))


# UnicodeData.txt: categories, with <..., First>/<..., Last> pairing done
# the way tokenizer.ex pairs any two consecutive "<"-named lines.
upper, start, cont = [], [], []
first = None
for line in lines("UnicodeData.txt"):
    f = line.split(";")
    cp, name, cat = int(f[0], 16), f[1], f[2]
    if name.startswith("<") and first is not None:
        cps = list(range(cp, first - 1, -1))
        first = None
    elif name.startswith("<"):
        cps = [cp]
        first = cp + 1
    else:
        cps = [cp]
        first = None
    if cat in ("Lu", "Lt"):
        upper += cps
    elif cat in ("Ll", "Lm", "Lo", "Nl"):
        start += cps
    elif cat in ("Mn", "Mc", "Nd", "Pc"):
        cont += cps

patterns = []
for line in lines("PropList.txt"):
    if line.startswith("#") or ";" not in line:
        continue
    rng, prop = line.split(";", 1)
    if prop.startswith(" Other_ID_Start"):
        start += cps_of(rng)
    elif prop.startswith(" Other_ID_Continue"):
        cont += cps_of(rng)
    elif prop.startswith(" Pattern_White_Space") or prop.startswith(" Pattern_Syntax"):
        patterns += cps_of(rng)

restricted = []
for line in lines("IdentifierType.txt"):
    if line.startswith("#") or ";" not in line or "#" not in line:
        continue
    rng, rest = line.split(";", 1)
    types = rest.split("#", 1)[0].split()
    if "Inclusion" not in types and "Recommended" not in types:
        restricted += cps_of(rng)


def minus(xs, ys):
    # Erlang's `--`: each element of ys removes one occurrence from xs.
    c = Counter(ys)
    out = []
    for x in xs:
        if c[x] > 0:
            c[x] -= 1
        else:
            out.append(x)
    return out


id_upper = minus(minus(upper, patterns), restricted)
id_start = minus(minus(start, patterns), restricted)
id_cont = minus(minus(cont, patterns), restricted)
u_upper = sorted({c for c in id_upper if c > 127})
u_start = sorted({c for c in id_start if c > 127})
u_cont = sorted({c for c in id_cont if c > 127})
u_all = set(u_upper) | set(u_start) | set(u_cont)

aliases = {}
for line in lines("PropertyValueAliases.txt"):
    parts = [p for p in re.split(r"[; ]", line) if p]
    if len(parts) >= 3 and parts[0] == "sc":
        aliases[parts[1]] = parts[2]


def scriptsets(name, al):
    out = []
    for line in lines(name):
        if line.startswith("#") or ";" not in line:
            continue
        rng, rest = line.split(";", 1)
        if "#" not in rest:
            continue
        scripts = [al.get(s, s) for s in rest.split("#", 1)[0].split()]
        if "Common" in scripts or "Inherited" in scripts:
            continue
        for c in cps_of(rng):
            if c in u_all:
                out.append((c, scripts))
    return out


all_cs = scriptsets("Scripts.txt", {}) + scriptsets("ScriptExtensions.txt", aliases)
seen = []
for s in ["Han with Bopomofo", "Japanese", "Korean"] + [s for _, ss in all_cs for s in ss]:
    if s not in seen:
        seen.append(s)
sorted_sets = ["Latin"] + sorted(s for s in seen if s != "Latin")
masks = {s: 1 << i for i, s in enumerate(sorted_sets)}
aug = {
    "Han": ["Han with Bopomofo", "Japanese", "Korean"],
    "Hiragana": ["Japanese"],
    "Katakana": ["Japanese"],
    "Hangul": ["Korean"],
    "Bopomofo": ["Han with Bopomofo"],
}
base = dict(masks)
for k, adds in aug.items():
    v = base[k]
    for a in adds:
        v |= base[a]
    masks[k] = v
size = len(sorted_sets)
top = (1 << size) - 1
cp_mask = {}
for c, ss in all_cs:
    m = 0
    for s in ss:
        m |= masks[s]
    cp_mask[c] = m
# The one custom normalization, U+00B5 (micro) to U+03BC (mu).
cp_mask[0x3BC] = cp_mask.get(0xB5, top) | cp_mask.get(0x3BC, top)
MU_MASK = cp_mask[0x3BC]

words = (size + 63) // 64
mask_ids = {}


def mid(m):
    if m not in mask_ids:
        mask_ids[m] = len(mask_ids)
    return mask_ids[m]


def ranges(cps):
    out = []
    for c in cps:
        m = mid(cp_mask.get(c, top))
        if out and out[-1][1] == c - 1 and out[-1][2] == m:
            out[-1][1] = c
        else:
            out.append([c, c, m])
    return out


r_upper, r_start, r_cont = ranges(u_upper), ranges(u_start), ranges(u_cont)
mu_id = mid(MU_MASK)

# OTP 25 unicode_util: combining classes, canonical decompositions, pairs.
ccc, decomp, pairs = {}, {}, []
tag = re.compile(r"\{(\d+),(\d+)\}")
with open(unicode_util, encoding="utf-8") as f:
    for line in f:
        m = re.match(r"unicode_table\((\d+)\) -> \{(\d+),\[(.*?)\],", line)
        if m:
            c, k = int(m.group(1)), int(m.group(2))
            if k:
                ccc[c] = k
            if m.group(3):
                decomp[c] = [(int(a), int(b)) for a, b in tag.findall(m.group(3))]
            continue
        m = re.match(r"compose_pair\((\d+),(\d+)\) -> (\d+);", line)
        if m:
            pairs.append(tuple(int(x) for x in m.groups()))
pairs.sort()


def mask_words(m):
    return "[" + ", ".join(f"0x{(m >> (64 * i)) & (2**64 - 1):X}" for i in range(words)) + "]"


out = []
w = out.append
w("//! Generated by `gen_tables.py` (beside this file); do not edit. Identifier")
w("//! classes and script sets of Elixir 1.18.4's `String.Tokenizer` (Unicode")
w("//! 15.1, `lib/elixir/unicode/`), and OTP 25's canonical normalization data")
w("//! (`unicode_util.erl`, Unicode 14.0).")
w("")
w(f"/// Words in a script set bitmap ({size} script sets).")
w(f"pub const WORDS: usize = {words};")
w("")
w("/// The script sets' names: bit i of a bitmap is `SCRIPT_SETS[i]`.")
w("pub const SCRIPT_SETS: &[&str] = &[")
for name in sorted_sets:
    w(f"    {name!r},".replace("'", '"'))
w("];")
w("")
w("/// Script set bitmaps, indexed by the tables below; bit 0 is Latin.")
w(f"pub const MASKS: &[[u64; WORDS]] = &[")
for m, i in sorted(mask_ids.items(), key=lambda kv: kv[1]):
    w(f"    {mask_words(m)},")
w("];")
w("")
w(f"/// The script set of U+03BC, which U+00B5 normalizes to.")
w(f"pub const MU: usize = {mu_id};")
for name, rs, doc in (
    ("UPPER", r_upper, "upper-case or title-case letters (kind `:atom` at the start)"),
    ("START", r_start, "other letters that may start an identifier"),
    ("CONTINUE", r_cont, "marks, digits and connectors that may continue one"),
):
    w("")
    w(f"/// Non-ASCII {doc}: (first, last, script set).")
    w(f"pub const {name}: &[(u32, u32, u16)] = &[")
    for a, b, m in rs:
        w(f"    (0x{a:X}, 0x{b:X}, {m}),")
    w("];")
w("")
w("/// Non-zero canonical combining classes, (code point, class).")
w("pub const CCC: &[(u32, u8)] = &[")
for c in sorted(ccc):
    w(f"    (0x{c:X}, {ccc[c]}),")
w("];")
w("")
w("/// Full canonical decompositions, (code point, [(class, code point)]).")
w("pub const DECOMP: &[(u32, &[(u8, u32)])] = &[")
for c in sorted(decomp):
    items = ", ".join(f"({k}, 0x{x:X})" for k, x in decomp[c])
    w(f"    (0x{c:X}, &[{items}]),")
w("];")
w("")
w("/// Canonical composition pairs, (first, second, composite), sorted.")
w("pub const PAIRS: &[(u32, u32, u32)] = &[")
for a, b, c in pairs:
    w(f"    (0x{a:X}, 0x{b:X}, 0x{c:X}),")
w("];")
print("\n".join(out))
print(f"scriptsets={size} masks={len(mask_ids)} upper={len(r_upper)} start={len(r_start)} cont={len(r_cont)}", file=sys.stderr)
