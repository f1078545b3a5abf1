#!/usr/bin/env python3
"""Builds the kit's packages for porters into ``target/dist/``, for the
platform of this machine (or ``--target``):

- the wheel ``ptc-conformance`` (maturin, configured by ``pyproject.toml``):
  the ``ptc-conformance`` binary as a script and the Python SDK, ``ptc_sdk``;
- the npm package ``ptc-conformance`` (``packaging/npm/ptc-conformance/``):
  the command ``ptc-conformance`` and, as its module, the JavaScript SDK;
- the npm package ``ptc-conformance-<os>-<cpu>`` (``ptc-conformance-linux-x64``),
  the same binary, which the first lists as an optional dependency;
- the npm package ``ptc-conformance-sdk`` (``sdk/js``, packed as it is),
  which the first depends on and re-exports.

    python3 harness/dist.py [--target TRIPLE]... [--also-platform OS-CPU]...
                            [--profile NAME] [--maturin PATH] [--out DIR]

The binary is compiled once, by maturin (``cargo build --profile release``
underneath, into ``target/release/``), and the npm package takes it out of
the wheel, so both carry the same bytes. The version of the wheel and of
the npm packages ``ptc-conformance`` and ``ptc-conformance-<os>-<cpu>`` is the
root package's in ``Cargo.toml``; ``ptc-conformance-sdk`` keeps the version of
``sdk/js/package.json``, which ``ptc-conformance`` depends on exactly.

Needs cargo, npm, and maturin (``--maturin``, else ``$MATURIN``, else
``maturin`` on PATH): ``python3 -m venv target/maturin && target/maturin/bin/pip
install maturin==1.16.0``. Standard library only. ``target/dist/`` is
emptied first, so that it holds one build.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATURIN_VERSION = "1.16.0"

# Rust target → Node's process.platform and process.arch (the npm package's
# `os` and `cpu`), and the C library a Linux binary links (npm's `libc`).
# A musl build would need its own package name and a launcher that tells
# musl from glibc; none is built.
PLATFORMS = {
    "x86_64-unknown-linux-gnu": ("linux", "x64", "glibc"),
    "aarch64-unknown-linux-gnu": ("linux", "arm64", "glibc"),
    "x86_64-apple-darwin": ("darwin", "x64", None),
    "aarch64-apple-darwin": ("darwin", "arm64", None),
    "x86_64-pc-windows-msvc": ("win32", "x64", None),
    "aarch64-pc-windows-msvc": ("win32", "arm64", None),
}


class DistError(Exception):
    """A step that could not be done, with what to do about it."""


def run(cmd, **kw):
    """Runs `cmd` (echoed), failing with its status."""
    print("+", " ".join(str(c) for c in cmd), flush=True)
    done = subprocess.run(cmd, **kw)
    if done.returncode != 0:
        raise DistError(f"{cmd[0]} exited {done.returncode}")
    return done


def versions():
    """(Cargo.toml's root package version, sdk/js's, sdk/python's)."""
    with open(ROOT / "Cargo.toml", "rb") as f:
        cargo = tomllib.load(f)["package"]["version"]
    js = json.loads((ROOT / "sdk/js/package.json").read_text(encoding="utf-8"))["version"]
    with open(ROOT / "sdk/python/pyproject.toml", "rb") as f:
        py = tomllib.load(f)["project"]["version"]
    return cargo, js, py


def host_target():
    """The Rust target of this machine, as `rustc -vV` names it."""
    out = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("host: "):
            return line.split(": ", 1)[1].strip()
    raise DistError("rustc -vV names no host")


def find_maturin(given):
    maturin = given or os.environ.get("MATURIN") or shutil.which("maturin")
    if not maturin:
        raise DistError(
            "maturin not found (--maturin PATH, $MATURIN or PATH); install it with\n"
            f"  python3 -m venv target/maturin && target/maturin/bin/pip install maturin=={MATURIN_VERSION}\n"
            "and pass --maturin target/maturin/bin/maturin"
        )
    return maturin


def build_wheel(maturin, out, target, profile):
    """maturin's wheel for `target` (None: this machine's) in `out`, and its path."""
    cmd = [maturin, "build", "--locked", "--profile", profile, "--out", str(out)]
    if target:
        cmd += ["--target", target]
    run(cmd, cwd=ROOT)
    wheels = sorted(out.glob("*.whl"))
    if len(wheels) != 1:
        raise DistError(f"maturin wrote {len(wheels)} wheels to {out}, not one")
    return wheels[0]


def check_wheel(wheel, version, exe):
    """The wheel carries the binary, the SDK with its data, and the launcher;
    returns the binary's path inside it."""
    names = set(zipfile.ZipFile(wheel).namelist())
    data = f"ptc_conformance-{version}.data"
    binary = f"{data}/scripts/{exe}"
    needed = [
        binary,
        "ptc_sdk/__init__.py",
        "ptc_sdk/adapter.py",
        "ptc_sdk/elixir/__init__.py",
        "ptc_sdk/data/structs.json",
        "ptc_sdk/data/unicode/grapheme.json",
        f"{data}/platlib/ptc_conformance/__init__.py",
        f"{data}/platlib/ptc_conformance/__main__.py",
    ]
    missing = [n for n in needed if n not in names]
    stray = sorted(n for n in names if "__pycache__" in n or n.endswith(".pyc"))
    if missing or stray:
        raise DistError(f"{wheel.name}: missing {missing}, stray {stray} (pyproject.toml's [tool.maturin])")
    return binary


def npm_pack(directory, out):
    """`npm pack` of `directory` into `out`; the tarball's path."""
    done = run(
        ["npm", "pack", "--json", "--pack-destination", str(out), str(directory)],
        capture_output=True,
        text=True,
    )
    return out / json.loads(done.stdout)[0]["filename"]


def platform_package(stage, out, wheel, binary, target, version):
    """The npm package carrying the binary for `target`; its name and tarball."""
    os_name, cpu, libc = PLATFORMS[target]
    name = f"ptc-conformance-{os_name}-{cpu}"
    exe = Path(binary).name
    pkg = stage / name
    (pkg / "bin").mkdir(parents=True)
    with zipfile.ZipFile(wheel) as z:
        (pkg / "bin" / exe).write_bytes(z.read(binary))
    (pkg / "bin" / exe).chmod(0o755)
    manifest = {
        "name": name,
        "version": version,
        "description": f"The ptc-conformance binary for {os_name}-{cpu} ({target}); installed by the npm package ptc-conformance as an optional dependency.",
        "os": [os_name],
        "cpu": [cpu],
        **({"libc": [libc]} if libc else {}),
        "files": ["bin/"],
        "preferUnplugged": True,
        "license": "MIT",
    }
    (pkg / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    (pkg / "README.md").write_text(
        f"# {name}\n\nThe `ptc-conformance` binary for {os_name}-{cpu} (Rust target `{target}`), "
        "as the npm package `ptc-conformance` runs it: install that package, which lists this "
        "one as an optional dependency.\n",
        encoding="utf-8",
    )
    return name, npm_pack(pkg, out)


def main_package(stage, out, version, sdk_version, platforms):
    """The npm package `ptc-conformance`, listing `platforms` (their package
    names) as optional dependencies; its tarball."""
    src = ROOT / "packaging/npm/ptc-conformance"
    pkg = stage / "ptc-conformance"
    shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("test", "node_modules"))
    manifest = json.loads((src / "package.json").read_text(encoding="utf-8"))
    manifest.pop("//", None)
    filled = {}
    for key, value in manifest.items():
        filled[key] = value
        if key == "name":
            filled["version"] = version
    filled["dependencies"] = {"ptc-conformance-sdk": sdk_version}
    filled["optionalDependencies"] = {p: version for p in sorted(platforms)}
    (pkg / "package.json").write_text(json.dumps(filled, indent=2) + "\n", encoding="utf-8")
    return npm_pack(pkg, out)


def size(path):
    n = path.stat().st_size
    return f"{n:,} bytes ({n / 1e6:.1f} MB)"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", help="a Rust target to build for (repeatable; default: this machine's); its toolchain must be installed")
    parser.add_argument("--also-platform", action="append", default=[], metavar="OS-CPU", help="list ptc-conformance-OS-CPU (built by another run, e.g. on another machine) among the npm package's optional dependencies too (repeatable)")
    parser.add_argument("--profile", default="release", help="the cargo profile of the binary (default: release)")
    parser.add_argument("--maturin", help=f"the maturin to build the wheel with (maturin=={MATURIN_VERSION} on PyPI)")
    parser.add_argument("--out", default=str(ROOT / "target/dist"), help="where the packages go (default: target/dist, emptied first)")
    args = parser.parse_args(argv)

    version, sdk_js, sdk_py = versions()
    maturin = find_maturin(args.maturin)
    host = host_target()
    targets = args.target or [None]
    for t in targets:
        if (t or host) not in PLATFORMS:
            raise DistError(f"no npm platform for the Rust target {t or host}; known: {', '.join(PLATFORMS)}")
    known = {f"{os_name}-{cpu}" for os_name, cpu, _ in PLATFORMS.values()}
    for also in args.also_platform:
        if also not in known:
            raise DistError(f"--also-platform {also}: not a platform of a known target ({', '.join(sorted(known))})")
    out = Path(args.out).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    print(f"ptc-conformance {version} (Cargo.toml), ptc-conformance-sdk {sdk_js} (sdk/js), ptc_sdk {sdk_py} (sdk/python)")

    artifacts = []
    platforms = []
    with tempfile.TemporaryDirectory(prefix="ptc-dist-") as tmp:
        stage = Path(tmp)
        for t in targets:
            target = t or host
            exe = "ptc-conformance.exe" if PLATFORMS[target][0] == "win32" else "ptc-conformance"
            wheels = stage / f"wheel-{target}"
            wheel = build_wheel(maturin, wheels, t, args.profile)
            binary = check_wheel(wheel, version, exe)
            artifacts.append(Path(shutil.move(str(wheel), out / wheel.name)))
            name, tarball = platform_package(stage, out, artifacts[-1], binary, target, version)
            platforms.append(name)
            artifacts.append(tarball)
        also = [f"ptc-conformance-{p}" for p in args.also_platform]
        artifacts.append(main_package(stage, out, version, sdk_js, set(platforms + also)))
        artifacts.append(npm_pack(ROOT / "sdk/js", out))

    print(f"\n{out}:")
    for a in artifacts:
        print(f"  {a.name}  {size(a)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except DistError as e:
        print(f"dist: {e}", file=sys.stderr)
        sys.exit(1)
