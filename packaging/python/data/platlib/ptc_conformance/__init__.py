"""The ``ptc-conformance`` command as the wheel ``ptc-conformance`` installs it.

The wheel puts the binary ``ptc-conformance`` in the environment's scripts
directory (``bin/`` of a venv, on ``PATH`` once it is activated) and the
porter SDK, ``ptc_sdk``, beside this package. ``python -m ptc_conformance
ARGS`` runs the binary as ``ptc-conformance ARGS`` does, from an
interpreter whose scripts directory is not on ``PATH``; ``find_binary()``
gives the binary's path, for a port's own tests to run it.

Standard library only. This package lives in the ptc-conformance
repository as ``packaging/python/data/platlib/ptc_conformance/`` (maturin's
wheel data directory, ``pyproject.toml`` at the repository's root).
"""

import os
import sysconfig
from pathlib import Path

__all__ = ["BINARY", "find_binary", "script_dirs"]

BINARY = "ptc-conformance" + (sysconfig.get_config_var("EXE") or "")
"""The binary's file name: ``ptc-conformance``, ``ptc-conformance.exe`` on Windows."""


def script_dirs():
    """Where pip may have put the wheel's scripts, in the order looked in:
    the running interpreter's scheme (a venv, or the system's), the user
    scheme (``pip install --user``), then the ``bin/`` (``Scripts\\`` on
    Windows) of an install made with ``--prefix`` or ``--target``, found
    from where this package sits."""
    dirs = [Path(sysconfig.get_path("scripts"))]
    user = sysconfig.get_preferred_scheme("user")
    dirs.append(Path(sysconfig.get_path("scripts", user)))
    here = Path(__file__).resolve().parent.parent  # site-packages, or the --target directory
    bin_name = "Scripts" if os.name == "nt" else "bin"
    dirs.append(here / bin_name)  # --target DIR: DIR/bin
    if os.name == "nt":  # --prefix P: P\Lib\site-packages
        dirs.append(here.parent.parent / bin_name)
    else:  # --prefix P: P/lib/pythonX.Y/site-packages
        dirs.append(here.parent.parent.parent / bin_name)
    seen = []
    for d in dirs:
        if d not in seen:
            seen.append(d)
    return seen


def find_binary():
    """The path of the ``ptc-conformance`` binary installed with this
    package; ``FileNotFoundError`` naming where it looked when there is none
    (a wheel whose scripts were left out, or the package copied alone)."""
    dirs = script_dirs()
    for d in dirs:
        path = d / BINARY
        if path.is_file():
            return str(path)
    raise FileNotFoundError(
        f"no {BINARY} in {', '.join(str(d) for d in dirs)}: the wheel ptc-conformance installs it "
        "as a script beside this package: reinstall it (pip install --force-reinstall ptc-conformance), "
        "or build the binary with Rust, `cargo install --locked --path .` in a clone of ptc-conformance"
    )
