"""The edge terms every codec of the kit reads (``spec/data/tagged_edges.json``,
also read by the Rust codec's tests, the JS SDK's and the Elixir adapter's):
each accepted text decodes and encodes back byte for byte, each
``accepted_args`` decodes, and each refused ``args`` gives exactly the error
the Rust codec gives, here and through the SDK's adapter (``unsupported``,
``cannot decode request: `` and the same text)."""

import json
import unittest

from _util import ptc_sdk  # noqa: F401
from ptc_sdk import DecodeError, data, features
from ptc_sdk.adapter import Adapter
from ptc_sdk.tagged import decode_text, encode

EDGES = data.load("tagged_edges.json")


class TaggedEdgesTest(unittest.TestCase):
    def test_accepted_texts_round_trip(self):
        self.assertGreater(len(EDGES["accepted"]), 50)
        for text in EDGES["accepted"]:
            with self.subTest(text=text[:80]):
                self.assertEqual(encode(decode_text(text, "")), text)

    def test_args_at_the_nesting_limit_decode(self):
        for text in EDGES["accepted_args"]:
            with self.subTest(text=text[:80]):
                self.assertIs(type(decode_text(text, "/args")), list)

    def test_refusals_name_what_the_rust_codec_names(self):
        self.assertGreater(len(EDGES["refused"]), 50)
        for entry in EDGES["refused"]:
            with self.subTest(args=entry["args"][:80]):
                with self.assertRaises(DecodeError) as caught:
                    decode_text(entry["args"], "/args")
                self.assertEqual(str(caught.exception), entry["error"])

    def test_the_adapter_declines_each_refusal_with_the_same_text(self):
        adapter = Adapter("edges", "0", {"term.inspect": lambda t: "x"}, features=features.ALL)
        for i, entry in enumerate(EDGES["refused"]):
            line = f'{{"id":{i},"op":"term.inspect","args":{entry["args"]}}}'
            with self.subTest(args=entry["args"][:80]):
                answer, _ = adapter.answer_line(line.encode("utf-8"))
                got = json.loads(answer)
                self.assertEqual(got["id"], i)
                self.assertEqual(got.get("unsupported"), "cannot decode request: " + entry["error"])
        for text in EDGES["accepted_args"]:
            with self.subTest(args=text[:80]):
                answer, _ = adapter.answer_line(f'{{"id":1,"op":"term.inspect","args":{text}}}'.encode())
                self.assertIn('"ok"', answer)


if __name__ == "__main__":
    unittest.main()
