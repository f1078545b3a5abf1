"""The README's example port is example_port.py, word for word, runs as it
is (Python finds ptc_sdk beside the script) and answers over the protocol;
the package builds with the standard library alone (its own build backend)."""

import re
import subprocess
import sys
import tempfile
import unittest
import zipfile

from _util import SDK

sys.path.insert(0, str(SDK / "build_backend"))
import ptc_sdk_build  # noqa: E402


class ExamplePort(unittest.TestCase):
    def test_the_readme_example_is_example_port_and_answers(self):
        readme = (SDK / "README.md").read_text(encoding="utf-8")
        block = re.search(r"```python\n(.*?)```", readme, re.S)
        self.assertIsNotNone(block, "README.md has a python block")
        example = (SDK / "example_port.py").read_text(encoding="utf-8")
        self.assertEqual(block.group(1), example)
        self.assertNotIn("sys.path", example, "the example imports the installed or adjacent package")
        lines = "\n".join(
            [
                '{"id":1,"op":"key_normalizer.normalize_key","args":[{"$atom":"was-improved"}]}',
                '{"id":2,"op":"key_normalizer.normalize_key","args":[[1]]}',
                '{"id":3,"op":"bye"}',
            ]
        )
        with tempfile.TemporaryDirectory() as cwd:
            run = subprocess.run(
                [sys.executable, str(SDK / "example_port.py")],
                input=lines,
                capture_output=True,
                text=True,
                cwd=cwd,
                check=False,
            )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, '{"id":1,"ok":"was_improved"}\n{"id":2,"ok":[1]}\n')


class Backend(unittest.TestCase):
    def test_the_wheel_holds_the_package_and_its_record(self):
        with tempfile.TemporaryDirectory() as out:
            name = ptc_sdk_build.build_wheel(out)
            self.assertEqual(name, "ptc_conformance_sdk-0.2.1-py3-none-any.whl")
            with zipfile.ZipFile(f"{out}/{name}") as z:
                names = z.namelist()
                record = z.read("ptc_conformance_sdk-0.2.1.dist-info/RECORD").decode()
                metadata = z.read("ptc_conformance_sdk-0.2.1.dist-info/METADATA").decode()
        base = SDK / "ptc_sdk"
        files = [p for p in base.rglob("*.py") if "__pycache__" not in p.parts]
        files += list((base / "data").rglob("*.json"))
        modules = sorted(f"ptc_sdk/{p.relative_to(base).as_posix()}" for p in files)
        self.assertEqual(sorted(n for n in names if n.startswith("ptc_sdk/")), modules)
        for needed in ("__init__.py", "elixir/inspect.py", "data/messages.json", "data/unicode/grapheme.json"):
            self.assertIn(f"ptc_sdk/{needed}", modules)
        for n in names:
            self.assertIn(f"{n},", record)
        self.assertIn("Name: ptc-conformance-sdk\n", metadata)
        self.assertEqual(ptc_sdk_build.get_requires_for_build_wheel(), [])

    def test_the_installed_package_reads_its_own_data(self):
        """Unpacked away from any checkout, the wheel's ptc_sdk finds its
        porter data in its own copy (ptc_sdk/data)."""
        with tempfile.TemporaryDirectory() as out:
            name = ptc_sdk_build.build_wheel(out)
            site = f"{out}/site"
            with zipfile.ZipFile(f"{out}/{name}") as z:
                z.extractall(site)
            code = (
                "import ptc_sdk; from ptc_sdk import data, structs, Atom, inspect; "
                "print(data.path('messages.json').parent == data.PACKAGED, structs.data_path().parent == data.PACKAGED, "
                "inspect(Atom('e\\u0301')), ptc_sdk.to_string([104, 105]))"
            )
            run = subprocess.run(
                [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {site!r}); {code}"],
                capture_output=True,
                text=True,
                cwd=out,
                check=False,
                env={"PATH": "/usr/bin:/bin"},
            )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, 'True True :"e\u0301" hi\n')


if __name__ == "__main__":
    unittest.main()
