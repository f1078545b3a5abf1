// The PtcRunner releases a port can implement (spec/releases.md), and the
// one the SDK answers at.
//
// The boundary lived in 0.11.0, 0.12.0 and 0.13.0, which differ in a few
// places the SDK covers, each read from the porter data (spec/data), never
// written here:
//
//   struct fields (REL-1)   structs.json: a field with "since" is missing
//                           before that release (makeStruct, decode)
//   atom table (REL-2)      atoms.json "releases": what an older table lacks
//                           and has besides (toExistingAtom)
//   ops (REL-3)             ops.json "since": serve leaves an op out of
//                           hello before its release
//   implementations (REL-7) messages.json: each protocol's list as 0.13.0
//                           has it, and suffixed with an older release
//                           ("..._v0_11") where it differs; a display
//                           struct's String.Chars and Jason.Encoder exist
//                           where the release's list names its module
//
// Each function whose answer depends on the release takes it (`release`, or
// `{release}` among inspect's options). Left out, it is the release of the
// port being served: serve({..., release: "0.12.0"}) decodes the arguments
// and calls every op at 0.12.0, and withRelease does the same for code
// outside the loop (a port's own tests). Otherwise 0.13.0.

import { closest } from "./closest.js";

/** The releases, oldest first. */
export const RELEASES = Object.freeze(["0.11.0", "0.12.0", "0.13.0"]);

/** The release the SDK answers at when no port chose one. */
export const DEFAULT_RELEASE = "0.13.0";

let current = DEFAULT_RELEASE;

/** `release` when it is one of RELEASES; else a TypeError naming the closest. */
export function checkRelease(release) {
  if (RELEASES.includes(release)) return release;
  const name = String(release);
  const close = closest(name, RELEASES);
  throw new TypeError(`unknown release ${JSON.stringify(name)} (did you mean ${JSON.stringify(close)}?); the boundary's releases are ${RELEASES.join(", ")}`);
}

/** Whether `release` is `first` or a later one: whether it has what `first` brought. */
export function releaseSince(release, first) {
  return RELEASES.indexOf(checkRelease(release)) >= RELEASES.indexOf(checkRelease(first));
}

/** The release the SDK answers at when a function is not given one: the served port's (in an op call or withRelease), else DEFAULT_RELEASE. */
export function currentRelease() {
  return current;
}

/** `release` checked, or currentRelease() when it is undefined. */
export function resolveRelease(release) {
  return release === undefined ? current : checkRelease(release);
}

/** Calls `fn()` with the SDK answering at `release` wherever a function is not given one; returns what it returns (serve wraps each op call with it). */
export function withRelease(release, fn) {
  const before = current;
  current = checkRelease(release);
  try {
    return fn();
  } finally {
    current = before;
  }
}

/** The suffix of a porter data id that holds `release`'s version of a text: "_v0_11" for 0.11.0. */
export function releaseSuffix(release) {
  const [major, minor] = checkRelease(release).split(".");
  return `_v${major}_${minor}`;
}
