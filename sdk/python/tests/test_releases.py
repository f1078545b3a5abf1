"""The SDK at each release (0.11.0, 0.12.0, 0.13.0), held to the golden
corpus, whose answers were blessed from each release's build: a case's
``expect`` is 0.13.0's, ``expect_by_release`` an older release's where it
differs, and ``releases`` the releases whose build has its input.

Where an op's answer is one SDK function of its arguments, a port of it
in a line or two is served by `Adapter` at each release and must give that
release's answer byte for byte (``term.inspect``; ``normalize_key``, which
gives a struct back as it came; the Lisp formatter's names, which go
through ``to_string``; ``render_error``'s payload, which is Jason's text).
What the judge compares loosely is masked as it masks it: an
``#Inspect.Error``'s stack frames (LOOSE-4), an opaque term's text
(LOOSE-2), a protocol's implementations (LOOSE-1). But where the
expectation is the release's own (its ``expect_by_release`` entry, or
``expect`` at 0.13.0) the implementations must be the release's exactly,
and so must the first ``format.ex`` line of each stack trace (the failing
display struct's ``Inspect``, which moved in v0.12.0): an older release
reads ``expect`` only where its answer differs in nothing but these.

The struct fields the release's answers write are the release's table;
an input whose struct names a field the release lacks does not decode
there; an op no case of a release runs is no op of it.
"""

import json
import re
import shutil
import subprocess
import unittest

from _util import REPO, ptc_sdk, rust_binary  # noqa: F401
from ptc_sdk import (
    Adapter,
    Atom,
    Map,
    Raised,
    Struct,
    Tuple,
    Unsupported,
    atom_name,
    binary,
    encode,
    features,
    releases,
    structs,
    to_bytes,
)
from ptc_sdk.elixir import errors, inspect_checked, jason_encode, to_string
from ptc_sdk.elixir.atoms import exists
from ptc_sdk.elixir.enumerable import map_join
from ptc_sdk.tagged import DecodeError, JObj, decode, parse

RELEASES = releases.RELEASES


def _load():
    files = sorted((REPO / "golden").rglob("*.json"))
    if not files:
        raise AssertionError(f"no case files under {REPO / 'golden'}")
    out = []
    for path in files:
        case = dict(parse(path.read_text(encoding="utf-8")).pairs)
        case["file"] = str(path.relative_to(REPO))
        case["by_release"] = dict(case["expect_by_release"].pairs) if "expect_by_release" in case else {}
        out.append(case)
    return out


CASES = _load()


def expected(case, release):
    """The case's expectation at `release` (the parsed JSON), or None when
    its input does not exist there."""
    if "releases" in case and release not in case["releases"]:
        return None
    return dict(case["by_release"].get(release, case["expect"]).pairs)


def answer_as_json(line):
    """The answer of one adapter line, as the corpus writes an expectation."""
    body = dict(parse(line).pairs)
    del body["id"]
    return body


_STACKTRACE = re.compile(r"(?s)Stacktrace:\n\n.*?\n\n( *)>")
_FORMAT_FRAME = re.compile(r"lib/ptc_runner/lisp/format\.ex:[0-9]+: Inspect\.[A-Za-z.]+\.inspect/2")
_IMPLEMENTATIONS = re.compile(r"(?s)\A(protocol .*?)\. This protocol is implemented for the following type\(s\): .*?(\n\nGot value:)")
_OPAQUE = re.compile(r"#(Function|PID|Reference|Port)<[^>]*>")


def masked(t, own):
    """A term with its texts masked as the judge masks them (`own`: the
    expectation is the release's own, so the implementations stay)."""

    def mask(text):
        kept = (lambda m: _FORMAT_FRAME.findall(m.group(0))[:1]) if own else (lambda m: [])
        text = _STACKTRACE.sub(lambda m: " ".join(["Stacktrace:", *kept(m), ">"]), text)
        if not own:
            text = _IMPLEMENTATIONS.sub(r"\1. _\2", text)
        text, opaque = _OPAQUE.subn(r"#\1<_>", text)
        return "".join(text.split()) if opaque else text

    if type(t) is str:
        return mask(t)
    if type(t) is bytes:
        return mask(t.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    if type(t) is list:
        return [masked(x, own) for x in t]
    if type(t) is Tuple:
        return Tuple(masked(x, own) for x in t.items)
    return t


def serve_at(release, op, fun, cases, skip=()):
    """Every case of `op` that holds at `release`, asked of `fun` served at
    `release`: (case, expectation, answer) for those it answers."""
    adapter = Adapter("t", "1", {op: fun}, features.ALL, release=release)
    out = []
    for i, case in enumerate(c for c in cases if c["op"] == op):
        want = expected(case, release)
        if want is None:
            continue
        args = "[" + ",".join(_dump(a) for a in case["args"]) + "]"
        line, _ = adapter.answer_line(f'{{"id":{i},"op":"{op}","args":{args}}}'.encode())
        got = answer_as_json(line)
        if "unsupported" in got:
            continue
        out.append((case, want, got))
    return out


def _dump(v):
    """Parsed JSON back to text."""
    from ptc_sdk.tagged import RawFloat, json_str

    if type(v) is JObj:
        return "{" + ",".join(f"{json_str(k)}:{_dump(x)}" for k, x in v.pairs) + "}"
    if type(v) is list:
        return "[" + ",".join(_dump(x) for x in v) + "]"
    if type(v) is RawFloat:
        return v.text
    if v is None or v is True or v is False:
        return json.dumps(v)
    return json_str(v) if type(v) is str else str(v)


class AnswersAtEachRelease(unittest.TestCase):
    def check(self, op, fun, at_least, older=0):
        """`fun` served at each release answers every case of `op` it
        answers as that release's build; `at_least` of them at each,
        `older` of those with an older release's own answer."""
        for rel in RELEASES:
            with self.subTest(release=rel):
                answered = serve_at(rel, op, fun, CASES)
                own = 0
                for case, want, got in answered:
                    own += rel in case["by_release"]
                    mine = rel in case["by_release"] or rel == releases.DEFAULT
                    where = f"{case['file']} at {rel}"
                    if "ok" in want and "ok" in got:
                        w = masked(decode(want["ok"], "/expect/ok", release=rel), mine)
                        g = masked(decode(got["ok"], "/ok", release=rel), mine)
                        self.assertEqual(encode(g), encode(w), where)
                        # The fields as written, not as the SDK's table completes them.
                        fields = lambda v: sorted((m, sorted(f)) for m, f in _structs_in(v))  # noqa: E731
                        self.assertEqual(fields(got["ok"]), fields(want["ok"]), where)
                    elif "raised" in want and "raised" in got:
                        w, g = (json.loads(_dump(x["raised"])) for x in (want, got))
                        self.assertEqual(g["class"], w["class"], where)
                        self.assertEqual(masked(g["message"], mine), masked(w["message"], mine), where)
                    else:
                        self.fail(f"{where}: answered {_dump(JObj(list(got.items())))[:300]}, expected {_dump(JObj(list(want.items())))[:300]}")
                self.assertGreaterEqual(len(answered), at_least, f"{op} at {rel}")
                if rel != releases.DEFAULT:
                    self.assertGreaterEqual(own, older, f"{op} cases with {rel}'s own answer")

    def test_term_inspect(self):
        """``inspect``: struct fields of the release, in its order; a display
        struct inside another is an ``Inspect.Error`` at 0.11.0, listing
        0.11.0's ``String.Chars``, with its frames on 0.11.0's lines."""
        self.check("term.inspect", inspect_checked, at_least=143, older=6)

    def test_normalize_key_gives_a_struct_back_with_the_release_fields(self):
        def normalize_key(k):
            name = atom_name(k)
            k = k if name is None else name
            if type(k) is bytes:
                return k.replace(b"-", b"_")
            return k.replace("-", "_") if type(k) is str else k

        self.check("key_normalizer.normalize_key", normalize_key, at_least=25, older=1)

    def test_lisp_formatter_names_go_through_to_string(self):
        frames = {"keyword": ":", "symbol": ""}

        def unported(_):
            raise Unsupported("an element to format")

        def format_name(ast):
            if type(ast) is not Tuple or len(ast.items) != 2 or type(ast.items[0]) is not Atom:
                raise Unsupported("not a name node")
            tag, arg = ast.items[0].name, ast.items[1]
            if tag in frames:
                return binary(frames[tag].encode() + to_bytes(to_string(arg)))
            if tag == "vector" and type(arg) is not list:  # Enumerable's errors, or a reducer's elements
                return binary(b"[" + to_bytes(map_join(arg, " ", unported)) + b"]")
            raise Unsupported("not a name node")

        self.check("lisp_formatter.format", format_name, at_least=30, older=2)

    def test_render_error_payload_is_jasons_text(self):
        def render_error(reason, message, opts):  # PP-4 to PP-9, for well-formed arguments
            if atom_name(reason) is None or type(message) is not str or type(opts) is not list:
                raise Unsupported("not ported here")
            given = {}
            for item in opts:
                if type(item) is Tuple and item.items and atom_name(item.items[0]) in ("feedback", "result"):
                    if len(item.items) != 2:
                        raise Unsupported("not ported here")
                    given.setdefault(atom_name(item.items[0]), item.items[1])
            payload = {"status": "error", "reason": atom_name(reason), "message": message, "feedback": given.get("feedback", message)}
            if reason == Atom("fail"):
                payload["result"] = given.get("result")
            return jason_encode(Map.of(payload))

        self.check("protocol.render_error", render_error, at_least=5, older=1)

    def test_cache_hint_reads_every_key_through_to_string(self):
        """``cache_hint`` takes the ``to_string`` text of every key before it
        sorts them, so a display struct key raises at 0.11.0 (NP-2)."""
        seen = 0
        for case in CASES:
            if case["op"] != "native_preview.cache_hint" or not case["by_release"]:
                continue
            for rel in RELEASES:
                want = expected(case, rel)
                args = decode(case["args"], "/args", release=rel)
                keys = [k for k in args[1].keys() if type(k) is Struct]
                if not keys:
                    continue
                seen += 1
                try:
                    for k in keys:
                        to_string(k, release=rel)
                except Raised as e:
                    self.assertEqual({"class": e.cls, "message": e.message}, json.loads(_dump(want["raised"])), f"{case['file']} at {rel}")
                else:
                    self.assertIn("ok", want, f"{case['file']} at {rel}")
        self.assertGreaterEqual(seen, 3)


class StructsAtEachRelease(unittest.TestCase):
    def test_answers_write_the_release_fields(self):
        """Every struct a release's answers write names fields of that
        release's struct only, and some answer names them all."""
        for rel in RELEASES:
            widest = {}
            for case in CASES:
                want = expected(case, rel)
                if want is None or "ok" not in want:
                    continue
                for module, written in _structs_in(want["ok"]):
                    table = structs.fields_of(module, rel)
                    if table is None:
                        continue
                    names = [n for n, _ in table]
                    extra = set(written) - set(names)
                    self.assertFalse(extra, f"{case['file']} at {rel}: {module} has no {sorted(extra)} there")
                    widest[module] = max(widest.get(module, set()), set(written), key=len)
            for module, written in widest.items():
                self.assertEqual(written, {n for n, _ in structs.fields_of(module, rel)}, f"{module} at {rel}")
            self.assertIn("PtcRunner.Tool", widest)

    def test_new_builds_the_release_struct(self):
        tool = structs.new("PtcRunner.Tool", name="t", release="0.12.0")
        self.assertNotIn("visibility", tool.fields)
        self.assertEqual(len(tool.fields), 8)
        self.assertEqual(structs.new("PtcRunner.Tool", name="t")["visibility"], Atom("public"))
        with releases.using("0.11.0"):
            self.assertNotIn("prelude_trace", structs.new("PtcRunner.Step").fields)
        with self.assertRaisesRegex(ValueError, 'PtcRunner.Tool has no field "visibility" at release 0.12.0'):
            structs.new("PtcRunner.Tool", visibility=Atom("private"), release="0.12.0")

    def test_an_input_the_release_lacks_does_not_decode(self):
        """A case that holds only from a later release on, whose op the
        release has, is left out because a struct in it names a later field.
        (A case left out of a later release, as v0.11.0's atom table, has
        inputs every release decodes.)"""
        left_out = 0
        for case in CASES:
            for rel in RELEASES:
                if expected(case, rel) is not None or not ptc_sdk.ops.exists_at(case["op"], rel):
                    continue
                if not all(RELEASES.index(r) > RELEASES.index(rel) for r in case.get("releases", RELEASES)):
                    continue
                left_out += 1
                with self.assertRaisesRegex(DecodeError, f"at release {rel}", msg=f"{case['file']} at {rel}"):
                    decode(case["args"], "/args", release=rel)
                decode(case["args"], "/args", release=releases.DEFAULT)
        self.assertGreaterEqual(left_out, 8)


class OpsAtEachRelease(unittest.TestCase):
    def test_an_op_is_the_release_s_when_its_cases_are(self):
        for rel in RELEASES:
            ran = {c["op"] for c in CASES if expected(c, rel) is not None}
            self.assertEqual(set(ptc_sdk.ops.names(rel)), ran, rel)

    def test_serve_leaves_out_an_op_the_release_lacks(self):
        ops = {"tool.private?": lambda t: False, "term.inspect": inspect_checked}
        old = Adapter("p", "1", ops, ["atoms"], release="0.12.0")
        self.assertEqual(old.hello().get("ops"), ["term.inspect"])
        self.assertEqual(
            old.call("tool.private?", [1]),
            ("unsupported", "tool.private?: no PtcRunner.Tool.private? at release 0.12.0 (it came in 0.13.0)"),
        )
        self.assertEqual(Adapter("p", "1", ops, ["atoms"]).hello().get("ops"), ["term.inspect", "tool.private?"])


class ProtocolListsAtEachRelease(unittest.TestCase):
    def test_display_structs_convert_from_0_12_0(self):
        fn = structs.new("PtcRunner.Lisp.Format.Fn", params="x", release="0.11.0")
        for rel in RELEASES:
            with releases.using(rel):
                if rel == "0.11.0":
                    with self.assertRaises(Raised) as raised:
                        to_string(fn)
                    self.assertIn("not implemented for type PtcRunner.Lisp.Format.Fn (a struct)", raised.exception.message)
                    self.assertNotIn("PtcRunner.Lisp.Format", raised.exception.message.split("\n")[0].split("(s): ")[1])
                    with self.assertRaisesRegex(Raised, "protocol Jason.Encoder not implemented"):
                        jason_encode([fn])
                else:
                    self.assertEqual((to_string(fn), jason_encode([fn])), ("#fn[x]", '["#fn[x]"]'))
            self.assertEqual(inspect_checked(fn, release=rel), "#fn[x]")

    def test_the_lists_are_the_releases(self):
        for protocol in ("String.Chars", "Jason.Encoder"):
            old = errors.implementations(protocol, "0.11.0")
            for rel in ("0.12.0", "0.13.0"):
                new = errors.implementations(protocol, rel)
                self.assertEqual(sorted(set(new) - set(old)), sorted(m for m in structs.modules() if m.startswith("PtcRunner.Lisp.Format.")))
        self.assertEqual(errors.implementations("Enumerable", "0.11.0"), errors.implementations("Enumerable"))


class AtomsAtEachRelease(unittest.TestCase):
    NAMES = [
        "prelude_trace",
        "runtime_prelude",
        "prior_memory",
        "render_agent",
        "Elixir.PtcRunner.SubAgent.Loop.Shared",
        "collect_messages",
        "schema_used",
        "ok",
        "zq_none",
    ]

    def test_to_existing_atom_is_the_release_s_reference(self):
        """``atomize_value(%{name => 1}, :any)`` keeps the binary key when the
        release's table lacks the atom (REL-2), as the reference at that
        release answers (no corpus case pins these: LOOSE-6)."""
        binary = rust_binary()
        if binary is None:
            self.skipTest("no ptc-conformance binary (set PTC_CONFORMANCE_BIN or cargo build)")
        for rel in RELEASES:
            lines = [
                json.dumps({"id": i, "op": "protocol.atomize_value", "args": [{name: 1}, {"$atom": "any"}]})
                for i, name in enumerate(self.NAMES)
            ]
            out = subprocess.run(
                [binary, "adapter", "--release", rel], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, check=True
            ).stdout.splitlines()
            for name, line in zip(self.NAMES, out, strict=True):
                key = json.loads(line)["ok"]
                atomized = key != {name: 1}
                self.assertEqual(exists(name, release=rel), atomized, f"{name} at {rel}: {line}")


class TheJavaScriptSdkAgrees(unittest.TestCase):
    """Both SDKs read one source, ``spec/data`` (their copies are held to it
    byte for byte); what each derives from it per release is the same."""

    SCRIPT = """
    import { RELEASES, knownStructs, opNames, structFields, structDefault, encode } from "./index.js";
    import { atomTable, implementations, message } from "./elixir/index.js";
    const out = {};
    for (const rel of RELEASES) {
      out[rel] = {
        structs: Object.fromEntries(knownStructs().map((m) => [m, structFields(m, rel).map((f) => [f, encode(structDefault(m, f, rel))])])),
        implementations: Object.fromEntries(["String.Chars", "Jason.Encoder", "Enumerable"].map((p) => [p, implementations(p, rel)])),
        atoms: [...atomTable(rel)].sort(),
        ops: opNames(rel),
        undefined_template: message("protocol_undefined", rel).id,
      };
    }
    console.log(JSON.stringify(out));
    """

    def test_the_same_tables_at_every_release(self):
        node = shutil.which("node")
        if node is None:
            self.skipTest("no node on PATH (CI runs this with Node 20)")
        done = subprocess.run(
            [node, "--input-type=module", "-e", self.SCRIPT],
            cwd=REPO / "sdk" / "js",
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        theirs = json.loads(done.stdout)
        from ptc_sdk.elixir import atoms, messages

        for rel in RELEASES:
            mine = {
                "structs": {m: [[f, encode(d)] for f, d in structs.fields_of(m, rel)] for m in structs.modules()},
                "implementations": {p: errors.implementations(p, rel) for p in errors.PROTOCOLS},
                "atoms": sorted(atoms.table(rel)),
                "ops": ptc_sdk.ops.names(rel),
                "undefined_template": messages.get("protocol_undefined", rel).id,
            }
            for part in mine:
                self.assertEqual(theirs[rel][part], mine[part], f"{part} at {rel}")


def _structs_in(v):
    """(module, written field names) of every ``$struct`` in parsed JSON."""
    if type(v) is JObj:
        if len(v.pairs) == 1 and v.pairs[0][0] == "$struct":
            s = dict(v.pairs[0][1].pairs)
            fields = dict(s["fields"].pairs) if "fields" in s else {}
            yield s["module"], list(fields)
            for x in fields.values():
                yield from _structs_in(x)
            return
        for _, x in v.pairs:
            yield from _structs_in(x)
    elif type(v) is list:
        for x in v:
            yield from _structs_in(x)


def load_tests(loader, tests, ignore):
    import doctest

    from ptc_sdk import ops
    from ptc_sdk.elixir import messages

    for mod in (releases, ops, messages, errors, structs):
        tests.addTests(doctest.DocTestSuite(mod, optionflags=doctest.ELLIPSIS))
    return tests


if __name__ == "__main__":
    unittest.main()
