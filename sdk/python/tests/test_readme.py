"""The README's examples (the ``pycon`` blocks), run as doctests in one
namespace, in order, so that every documented helper does what the README
says."""

import doctest
import io
import re
import unittest

from _util import SDK, ptc_sdk  # noqa: F401

README = SDK / "README.md"


def blocks():
    """(line number, text) of every ```pycon block."""
    text = README.read_text(encoding="utf-8")
    for m in re.finditer(r"^```pycon\n(.*?)^```", text, re.S | re.M):
        yield text.count("\n", 0, m.start()) + 2, m.group(1)


class ReadmeTest(unittest.TestCase):
    def test_the_readme_examples_hold(self):
        parser = doctest.DocTestParser()
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        globs = {}
        found = 0
        for line, text in blocks():
            test = parser.get_doctest(text, globs, f"README.md:{line}", str(README), line)
            found += len(test.examples)
            runner.run(test, out=out.write, clear_globs=False)
            globs = test.globs  # the next block sees what this one defined
        self.assertGreater(found, 40, "the README lost its examples")
        self.assertEqual(runner.failures, 0, out.getvalue()[-6000:])


if __name__ == "__main__":
    unittest.main()
