"""The structs table read from spec/data/structs.json (TJ-7)."""

import os
import tempfile
import unittest
from unittest import mock

from _util import REPO, ptc_sdk  # noqa: F401
from ptc_sdk import Atom, Map, structs


class StructsTest(unittest.TestCase):
    def test_fields_in_defstruct_order_with_defaults(self):
        fields = structs.fields_of("PtcRunner.Tool")
        self.assertEqual(
            [name for name, _ in fields],
            ["name", "function", "signature", "description", "type", "expose", "native_result", "visibility", "cache"],
        )
        self.assertEqual(dict(fields)["visibility"], Atom("public"))
        self.assertIs(dict(fields)["cache"], False)
        self.assertEqual(dict(structs.fields_of("PtcRunner.Step"))["summaries"], Map())
        self.assertEqual(structs.inspect_optional("URI"), ("authority",))
        self.assertIsNone(structs.fields_of("Range"))
        self.assertIn("PtcRunner.SubAgent.Definition", structs.modules())

    def test_new_fills_defaults_and_refuses_unknown_fields(self):
        tool = structs.new("PtcRunner.Tool", name="t", cache=True)
        self.assertEqual(tool["name"], "t")
        self.assertIs(tool["cache"], True)
        self.assertIsNone(tool["description"])
        with self.assertRaisesRegex(ValueError, 'PtcRunner.Tool has no field "nam"'):
            structs.new("PtcRunner.Tool", nam="t")
        with self.assertRaisesRegex(ValueError, "not a struct of the boundary"):
            structs.new("Version")

    def test_uri_fields_are_what_uri_parse_makes(self):
        structs.new("URI", host="h", port=80)
        with self.assertRaisesRegex(ValueError, "must be a binary or nil"):
            structs.new("URI", host=1)

    def test_data_directory_from_the_environment(self):
        with tempfile.TemporaryDirectory() as empty:
            with mock.patch.dict(os.environ, {structs.ENV: empty}):
                with self.assertRaisesRegex(structs.StructsUnavailable, "no structs.json in that directory"):
                    structs.data_path()
                with open(os.path.join(empty, "structs.json"), "w") as f:
                    f.write('{"structs": [{"module": "X", "fields": [{"name": "a", "default": 1}, {"name": "b", "default": 2, "since": "0.12.0"}]}]}')
                self.assertEqual(structs._load(structs.data_path()), {"X": ([("a", 1, None), ("b", 2, "0.12.0")], ())})
        self.assertEqual(structs.data_path(), REPO / "spec" / "data" / "structs.json")

    def test_a_broken_table_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "structs.json")
            with open(path, "w") as f:
                f.write('{"structs": [{"module": "X", "fields": [{"name": "a", "default": 1.5}]}]}')
            with self.assertRaisesRegex(structs.StructsUnavailable, "default: bare number 1.5"):
                structs._load(structs.Path(path))


if __name__ == "__main__":
    unittest.main()
