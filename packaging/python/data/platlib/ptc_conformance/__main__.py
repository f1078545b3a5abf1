"""``python -m ptc_conformance ARGS``: runs ``ptc-conformance ARGS``, the
binary the wheel installed, and exits with its status."""

import os
import subprocess
import sys

from ptc_conformance import find_binary


def main(argv):
    try:
        binary = find_binary()
    except FileNotFoundError as e:
        print(f"ptc-conformance: {e}", file=sys.stderr)
        return 1
    if os.name == "posix":
        os.execv(binary, [binary, *argv])  # the binary takes this process's place: signals and status are its own
    return subprocess.run([binary, *argv]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
