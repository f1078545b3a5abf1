"""Every term of the golden corpus (each case's args and expected value)
through the SDK's codec: decoded, written canonically, decoded again and
equal; and the canonical text byte for byte what the Rust harness writes.

The Rust side's text comes from its own adapter (``ptc-conformance
adapter``): ``key_normalizer.normalize_key`` gives back any term that is not
an atom or a binary as it is, so a term wrapped in a tuple comes back in the
Rust encoder's canonical form. That part needs a built binary
($PTC_CONFORMANCE_BIN, or target/release or target/debug); without one it
is skipped and says so.
"""

import subprocess
import unittest

from _util import REPO, ptc_sdk, rust_binary  # noqa: F401
from ptc_sdk import equal
from ptc_sdk.tagged import JObj, RawFloat, decode, encode, json_str, parse


def dump(v) -> str:
    """Parsed JSON back to text as it was written (numbers as written)."""
    if type(v) is JObj:
        return "{" + ",".join(f"{json_str(k)}:{dump(x)}" for k, x in v.pairs) + "}"
    if type(v) is list:
        return "[" + ",".join(dump(x) for x in v) + "]"
    if type(v) is RawFloat:
        return v.text
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if type(v) is str:
        return json_str(v)
    return str(v)


def golden_terms():
    """(label, JSON text as written, decoded term) for every golden term."""
    files = sorted((REPO / "golden").rglob("*.json"))
    if not files:
        raise AssertionError(f"no case files under {REPO / 'golden'}")
    out = []
    for path in files:
        rel = path.relative_to(REPO)
        case = dict(parse(path.read_text(encoding="utf-8")).pairs)
        for i, arg in enumerate(case["args"]):
            out.append((f"{rel}: /args/{i}", dump(arg), decode(arg, f"/args/{i}")))
        expect = dict(case["expect"].pairs)
        if "ok" in expect:
            out.append((f"{rel}: /expect/ok", dump(expect["ok"]), decode(expect["ok"], "/expect/ok")))
    return out


TERMS = golden_terms()


class GoldenRoundTripTest(unittest.TestCase):
    def test_the_corpus_has_terms(self):
        self.assertGreater(len(TERMS), 2000)

    def test_decode_encode_decode_is_equal(self):
        for label, _, term in TERMS:
            text = encode(term)
            again = decode(parse(text))
            if not equal(again, term) or encode(again) != text:
                self.fail(f"{label}: does not round-trip: {text}")

    def test_canonical_text_is_the_rust_harnesss(self):
        binary = rust_binary()
        if binary is None:
            self.skipTest("no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)")
        requests = [
            f'{{"id":{i},"op":"key_normalizer.normalize_key","args":[{{"$tuple":[{written}]}}]}}'
            for i, (_, written, _) in enumerate(TERMS)
        ]
        done = subprocess.run(
            [binary, "adapter"],
            input="\n".join(requests + [f'{{"id":{len(requests)},"op":"bye"}}']) + "\n",
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        answers = done.stdout.split("\n")[:-1]  # not splitlines: U+2028 is in strings
        self.assertEqual(len(answers), len(TERMS), done.stderr[-2000:])
        differ = []
        for i, ((label, _, term), line) in enumerate(zip(TERMS, answers, strict=True)):
            prefix, suffix = f'{{"id":{i},"ok":{{"$tuple":[', "]}}"
            self.assertTrue(line.startswith(prefix) and line.endswith(suffix), f"{label}: {line[:200]}")
            rust = line[len(prefix) : -len(suffix)]
            if encode(term) != rust:
                differ.append(f"{label}:\n  python {encode(term)[:300]}\n  rust   {rust[:300]}")
        if differ:
            self.fail(f"{len(differ)} term(s) written differently:\n" + "\n".join(differ[:10]))


if __name__ == "__main__":
    unittest.main()
