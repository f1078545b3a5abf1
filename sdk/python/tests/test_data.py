"""The porter data the package carries (``ptc_sdk/data/``) is ``spec/data``
file for file and byte for byte, so an installed SDK reads the tables the
reference was built from (``UPDATE_PORTER_DATA=1 cargo test --test
porter_data`` copies them); a checkout reads ``spec/data`` itself."""

import os
import unittest
from unittest import mock

from _util import REPO, ptc_sdk  # noqa: F401
from ptc_sdk import data


def files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


class PackagedData(unittest.TestCase):
    def test_the_package_copy_is_spec_data(self):
        spec = REPO / "spec" / "data"
        if not spec.is_dir():
            self.skipTest("no spec/data beside the SDK")
        self.assertEqual(files(data.PACKAGED), files(spec))
        for name in files(spec):
            self.assertEqual(
                (data.PACKAGED / name).read_bytes(),
                (spec / name).read_bytes(),
                f"ptc_sdk/data/{name} differs from spec/data/{name}: UPDATE_PORTER_DATA=1 cargo test --test porter_data copies it",
            )

    def test_a_checkout_reads_spec_data(self):
        env = {k: v for k, v in os.environ.items() if k != data.ENV}
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(data.path("structs.json"), REPO / "spec" / "data" / "structs.json")


if __name__ == "__main__":
    unittest.main()
