// The float texts Erlang and Elixir print, and exact truncation. Port of
// src/elixir/num.rs (and Inspect.Float of src/elixir/inspect.rs).

import { shortFloat } from "../tagged.js";
import { badarg } from "./errors.js";

export { shortFloat };

const TWO_53 = 9007199254740992;

/**
 * `Float.to_string/1` (Erlang's `float_to_binary(x, [:short])`): the
 * shortest digits that read back as `x`, plain (`100.0`, `0.001`) unless
 * the exponent form is strictly shorter (`1.0e3`, `1.2e-4`), and the
 * exponent form for an integral float of 2^53 or more (`1.0e16`).
 */
export const floatToString = shortFloat;

/**
 * `inspect/1` of a float (`Inspect.Float`): an integral float with
 * 1.0 <= |x| < 1.0e16 prints as its integer and `.0` (`1.0e15` is
 * `1000000000000000.0`); every other float as floatToString.
 */
export function inspectFloat(x) {
  const a = Math.abs(x);
  if (a >= 1 && a < 1e16 && Math.trunc(x) === x) return `${BigInt(x)}.0`;
  return shortFloat(x);
}

/** `trunc/1` of a finite float, exactly, as a BigInt (`trunc(1.0e20)` is 100000000000000000000n). */
export function trunc(x) {
  if (!Number.isFinite(x)) throw new RangeError(`trunc: ${x} is not a finite float`);
  return BigInt(Math.trunc(x));
}

/**
 * `:erlang.float_to_binary(x, [:compact, decimals: 10])` on OTP 25 (the
 * Lisp formatter's float text): up to 2^53 the fraction scaled by 10^10 in
 * double arithmetic, rounded half away from zero, trailing zeros dropped
 * but one kept; the sign follows the sign bit (`-0.0`). Beyond 2^53 the
 * integer exactly with `.0`, unless the C text would not fit OTP's 256-byte
 * buffer: then it throws the ArgumentError Elixir raises.
 */
export function floatToBinaryCompact10(x) {
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const af = Math.abs(x);
  if (af > TWO_53) {
    const digits = BigInt(af).toString();
    if (sign.length + digits.length + 11 >= 256) {
      throw badarg("2nd", "invalid option in list");
    }
    return `${sign}${digits}.0`;
  }
  const intF = Math.floor(af);
  const fracF = Math.round((af - intF) * 1e10);
  let intPart = BigInt(intF);
  let fracPart = fracF;
  if (fracF >= 1e10) {
    intPart += 1n;
    fracPart = 0;
  }
  const kept = String(fracPart).padStart(10, "0").replace(/0+$/, "") || "0";
  return `${sign}${intPart}.${kept}`;
}
