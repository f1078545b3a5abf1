"""The build backend of the ptc_sdk package (PEP 517, PEP 660), in the
standard library alone, so that ``pip install sdk/python`` works with no
network and no setuptools or wheel: a Python 3.12 venv carries neither, and
setuptools without ``wheel`` cannot build. It reads the name, version and
description from ``pyproject.toml`` and packs the package's modules
(``ptc_sdk/**/*.py``, the ``elixir`` subpackage included) and the porter
data it reads (``ptc_sdk/data/**/*.json``, a copy of ``spec/data`` that the
SDK's tests hold equal to it), nothing else.

A wheel is a zip file with the package and a ``.dist-info`` directory
(``METADATA``, ``WHEEL``, ``RECORD``: the binary distribution format of the
Python packaging specifications); an sdist is a ``.tar.gz`` of the source
tree with ``PKG-INFO``.
"""

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "ptc_sdk"
TAG = "py3-none-any"
# Zip entries get a fixed time, so the same sources give the same wheel.
EPOCH = (1980, 1, 1, 0, 0, 0)


def _project():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name():
    p = _project()
    return p["name"].replace("-", "_"), p["version"]


def _metadata():
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p['description']}",
        f"Requires-Python: {p['requires-python']}",
        f"License: {p['license']['text']}",
        "Description-Content-Type: text/markdown",
    ]
    readme = (ROOT / p["readme"]).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + readme


def _sources():
    """The package's modules and data: (path in the wheel, bytes), sorted."""
    base = ROOT / PACKAGE
    files = [f for f in base.rglob("*.py") if "__pycache__" not in f.parts]
    files += list((base / "data").rglob("*.json"))
    return sorted(
        (f"{PACKAGE}/{f.relative_to(base).as_posix()}", f.read_bytes()) for f in files
    )


def _write_wheel(directory, files):
    name, version = _dist_name()
    info = f"{name}-{version}.dist-info"
    files = list(files) + [
        (f"{info}/METADATA", _metadata().encode("utf-8")),
        (
            f"{info}/WHEEL",
            f"Wheel-Version: 1.0\nGenerator: ptc_sdk_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode(),
        ),
    ]
    record = io.StringIO()
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.write(f"{path},sha256={digest.decode()},{len(data)}\n")
    record.write(f"{info}/RECORD,,\n")
    files.append((f"{info}/RECORD", record.getvalue().encode()))
    wheel = f"{name}-{version}-{TAG}.whl"
    with zipfile.ZipFile(Path(directory) / wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            z.writestr(zipfile.ZipInfo(path, EPOCH), data, zipfile.ZIP_DEFLATED)
    return wheel


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _sources())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """A wheel whose ``.pth`` file puts this directory on ``sys.path``."""
    return _write_wheel(wheel_directory, [(f"{PACKAGE}.pth", f"{ROOT}\n".encode())])


def build_sdist(sdist_directory, config_settings=None):
    name, version = _dist_name()
    base = f"{name}-{version}"
    members = [("PKG-INFO", _metadata().encode("utf-8"))]
    for rel in ["pyproject.toml", "README.md", "build_backend/ptc_sdk_build.py"]:
        members.append((rel, (ROOT / rel).read_bytes()))
    members += _sources()
    sdist = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / sdist, "w:gz") as tar:
        for rel, data in members:
            entry = tarfile.TarInfo(f"{base}/{rel}")
            entry.size = len(data)
            entry.mode = 0o644
            tar.addfile(entry, io.BytesIO(data))
    return sdist
