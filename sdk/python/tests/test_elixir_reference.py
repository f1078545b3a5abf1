"""The SDK's Elixir layer held byte for byte to the Rust reference over
102,000 generated terms (`_terms.Gen`, seed `SEED`): ``term.inspect`` of
60,000 terms; the Jason text (or exception) of 20,000 ``render_error``
payloads whose feedback and result are any term, their messages built to
need escaping; ``to_string`` of 20,000 Lisp formatter names
(``lisp_formatter.format`` of ``{:symbol, x}``, whose text is
``to_string(x)`` or its exception); and the compact text of 2,000 floats
(``lisp_formatter.format`` of a float). The reference is asked through one
``ptc-conformance adapter`` process, every request written before the
answers are read (the protocol allows pipelining). Needs a built binary
($PTC_CONFORMANCE_BIN, or target/release or target/debug); without one it
is skipped and says so.
"""

import base64
import json
import os
import subprocess
import unittest

from _util import ptc_sdk, rust_binary  # noqa: F401
from _terms import Gen  # noqa: E402
from ptc_sdk import Atom, Map, Raised, Tuple, encode
from ptc_sdk.elixir import float_to_binary_compact_10, inspect_checked, jason_encode, to_string

SEED = int(os.environ.get("PTC_SDK_SEED", "27"))
COUNTS = {"inspect": 60_000, "render_error": 20_000, "to_string": 20_000, "compact": 2_000}
_ESCAPING = ["\x00", "\x1f", "\x7f", '"', "\\", "\n", "\r", "\t", "\b", "\f", "/", "é", "\u2028", "😀", "\x0b", "\x1b"]


def _answer(fun, *args):
    """The SDK's answer as the adapter protocol writes it: ("ok", term) or
    ("raised", (class, message))."""
    try:
        return "ok", fun(*args)
    except Raised as e:
        return "raised", (e.cls, e.message)


def render_error(message, feedback, result):
    """PtcToolProtocol.render_error(:fail, message, feedback: f, result: r)
    as PtcRunner builds its payload, Jason-encoded by the SDK."""
    return jason_encode(
        Map.of({"status": "error", "reason": "fail", "message": message, "feedback": feedback, "result": result})
    )


def cases(seed):
    """(op, args, the SDK's answer) for every generated input."""
    g = Gen(seed)
    r = g.r
    for _ in range(COUNTS["inspect"]):
        t = g.term()
        yield "term.inspect", [t], _answer(inspect_checked, t)
    for _ in range(COUNTS["render_error"]):
        message = "".join(r.choice(_ESCAPING) if r.random() < 0.4 else g.text(1) for _ in range(r.randint(0, 8)))
        feedback = message if r.random() < 0.5 else g.term(1)
        result = g.term()
        opts = [Tuple((Atom("feedback"), feedback)), Tuple((Atom("result"), result))]
        yield "protocol.render_error", [Atom("fail"), message, opts], _answer(render_error, message, feedback, result)
    for _ in range(COUNTS["to_string"]):
        k = r.random()
        x = g.chardata() if k < 0.35 else g.display_field(1) if k < 0.6 else g.term(1)
        yield "lisp_formatter.format", [Tuple((Atom("symbol"), x))], _answer(to_string, x)
    for _ in range(COUNTS["compact"]):
        x = g.float_()
        yield "lisp_formatter.format", [x], _answer(float_to_binary_compact_10, x)


def _reference_term(v):
    """An answer's term from parsed JSON: only binaries are answered here."""
    if type(v) is dict and list(v) == ["$bytes"]:
        return base64.b64decode(v["$bytes"])
    return v


class ReferenceTest(unittest.TestCase):
    def test_the_elixir_layer_answers_as_the_reference(self):
        binary = rust_binary()
        if binary is None:
            self.skipTest("no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)")
        requests, expected = [], []
        for i, (op, args, answer) in enumerate(cases(SEED)):
            requests.append(f'{{"id":{i},"op":"{op}","args":[{",".join(map(encode, args))}]}}')
            expected.append(answer)
        total = len(requests)
        self.assertGreaterEqual(total, 100_000)
        done = subprocess.run(
            [binary, "adapter"],
            input="\n".join(requests + [f'{{"id":{total},"op":"bye"}}']) + "\n",
            capture_output=True,
            encoding="utf-8",
            timeout=600,
            check=True,
        )
        answers = done.stdout.split("\n")[:-1]  # not splitlines: U+2028 is in strings
        self.assertEqual(len(answers), total, done.stderr[-2000:])
        differ = []
        for i, line in enumerate(answers):
            got = json.loads(line)
            self.assertEqual(got["id"], i, line[:200])
            if "ok" in got:
                ref = ("ok", _reference_term(got["ok"]))
            elif "raised" in got:
                ref = ("raised", (got["raised"]["class"], got["raised"]["message"]))
            else:
                ref = ("unsupported", got.get("unsupported"))
            mine = expected[i]
            if mine[0] == "ok" and type(mine[1]) is str and type(ref[1]) is str:
                same = mine == ref
            elif mine[0] == "ok" and type(ref[1]) is bytes:
                same = type(mine[1]) is bytes and mine[1] == ref[1]
            else:
                same = mine == ref
            if not same:
                differ.append(f"{requests[i][:600]}\n  sdk       {str(mine)[:600]}\n  reference {str(ref)[:600]}")
        if differ:
            self.fail(f"{len(differ)} of {total} answers differ (seed {SEED}):\n" + "\n".join(differ[:8]))


if __name__ == "__main__":
    unittest.main()
