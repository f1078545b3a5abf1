// Finds the ptc-conformance binary for the platform Node runs on, the way
// esbuild and biome do: each platform's binary is its own package,
// ptc-conformance-<platform>-<arch> (ptc-conformance-linux-x64, ...), with
// `os` and `cpu` fields, listed as an optional dependency of this package,
// so that npm installs the one that fits and skips the others. The binary
// is that package's bin/ptc-conformance (bin/ptc-conformance.exe on
// Windows). bin/ptc-conformance.js runs it.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/** The platform packages' common prefix. */
export const PREFIX = "ptc-conformance-";

/** The package carrying the binary for a Node platform and architecture: `ptc-conformance-linux-x64`. */
export function platformPackage(platform = process.platform, arch = process.arch) {
  return `${PREFIX}${platform}-${arch}`;
}

/** The platforms this package has a binary for (its optional dependencies), as `linux-x64`, sorted. */
export function builtPlatforms(pkg) {
  return Object.keys(pkg.optionalDependencies ?? {})
    .filter((name) => name.startsWith(PREFIX))
    .map((name) => name.slice(PREFIX.length))
    .sort();
}

/**
 * The binary to run, `{ binary }`, or `{ error }`: a message saying why
 * there is none and what to do. `pkg` is this package's package.json,
 * `resolve` a `require.resolve` from this package. `PTC_CONFORMANCE_BIN`,
 * when set, names the binary (one built with cargo, on a platform no
 * package carries).
 */
export function findBinary({ pkg, resolve, env = process.env, platform = process.platform, arch = process.arch }) {
  if (env.PTC_CONFORMANCE_BIN) return { binary: env.PTC_CONFORMANCE_BIN };
  const name = platformPackage(platform, arch);
  const exe = platform === "win32" ? "ptc-conformance.exe" : "ptc-conformance";
  let dir = null;
  try {
    dir = dirname(resolve(`${name}/package.json`));
  } catch {
    // not installed: npm skipped it (another platform), or it was left out
  }
  if (dir !== null && existsSync(join(dir, "bin", exe))) return { binary: join(dir, "bin", exe) };
  return { error: unsupported(pkg, `${platform}-${arch}`, dir === null ? null : join(dir, "bin", exe)) };
}

/** What to do without a binary for `here` (`linux-x64`); `missing` is where the binary should have been. */
export function unsupported(pkg, here, missing = null) {
  const built = builtPlatforms(pkg);
  const name = `${PREFIX}${here}`;
  const lines = [
    missing === null
      ? `ptc-conformance: no binary for this platform (${here}): the package ${name} is not installed.`
      : `ptc-conformance: no binary for this platform (${here}): ${missing} is missing.`,
    `ptc-conformance ${pkg.version} has binaries for: ${built.length ? built.join(", ") : "no platform"}.`,
  ];
  if (built.includes(here)) {
    lines.push(
      `npm installs ${name} as an optional dependency of ptc-conformance: install again without --omit=optional (or --no-optional),`,
      `or install it by name: npm install -D ${name}@${pkg.version}`,
    );
  } else {
    lines.push(
      "On this platform, build the binary with Rust: in a clone of the ptc-conformance repository, `cargo install --locked --path .`;",
      "then run ~/.cargo/bin/ptc-conformance, or name it for this command: PTC_CONFORMANCE_BIN=~/.cargo/bin/ptc-conformance npx ptc-conformance ...",
    );
  }
  lines.push('The SDK (import { serve } from "ptc-conformance") is JavaScript and works on every platform.');
  return lines.join("\n");
}
