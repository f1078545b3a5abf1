// DateTime.from_iso8601/1 of Elixir 1.18.4 (Calendar.ISO, extended
// format), shifted to UTC: what atomize_value/2 makes of a string typed
// :datetime (JH-9; src/elixir/datetime.rs).

import { Bytes, Temporal } from "../terms.js";

const isDigit = (c) => c >= 48 && c <= 57;
const two = (s, i) => (i + 1 < s.length && isDigit(s[i]) && isDigit(s[i + 1]) ? (s[i] - 48) * 10 + (s[i + 1] - 48) : null);

// Integer.parse/1 of two bytes read whole: two digits, or a sign and one digit.
function integerParse(b) {
  if (b.length !== 2) return null;
  if (isDigit(b[0]) && isDigit(b[1])) return (b[0] - 48) * 10 + (b[1] - 48);
  if ((b[0] === 43 || b[0] === 45) && isDigit(b[1])) return (b[0] === 45 ? -1 : 1) * (b[1] - 48);
  return null;
}

// [ok, seconds]: seconds null for no offset at all.
function offset(s) {
  const text = String.fromCharCode(...s);
  if (text === "") return [true, null];
  if (text === "Z") return [true, 0];
  if (text === "-00:00" || (s[0] !== 43 && s[0] !== 45)) return [false, null];
  const sign = s[0] === 43 ? 1 : -1;
  const r = s.subarray(1);
  let h, m, rest;
  if (r.length >= 5 && r[2] === 58) [h, m, rest] = [r.subarray(0, 2), r.subarray(3, 5), r.subarray(5)];
  else if (r.length >= 4) [h, m, rest] = [r.subarray(0, 2), r.subarray(2, 4), r.subarray(4)];
  else if (r.length >= 2) [h, m, rest] = [r.subarray(0, 2), Uint8Array.of(48, 48), r.subarray(2)];
  else return [false, null];
  const [hour, minute] = [integerParse(h), integerParse(m)];
  if (hour === null || minute === null || rest.length || !(hour < 24 && minute < 60)) return [false, null];
  return [true, (hour * 60 + minute) * 60 * sign];
}

const leap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (y, m) => (m === 2 ? (leap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);
const fdiv = (a, b) => Math.floor(a / b);

function daysFromCivil(y, m, d) {
  y = m <= 2 ? y - 1 : y;
  const era = fdiv(y, 400);
  const yoe = y - era * 400;
  const doy = fdiv(153 * ((m + 9) % 12) + 2, 5) + d - 1;
  return era * 146097 + yoe * 365 + fdiv(yoe, 4) - fdiv(yoe, 100) + doy - 719468;
}

function civilFromDays(z) {
  z += 719468;
  const era = fdiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = fdiv(doe - fdiv(doe, 1460) + fdiv(doe, 36524) - fdiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + fdiv(yoe, 4) - fdiv(yoe, 100));
  const mp = fdiv(5 * doy + 2, 153);
  const d = doy - fdiv(153 * mp + 2, 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n, w) => String(n).padStart(w, "0");

/**
 * The UTC DateTime a binary (string or Bytes) parses to, as a Temporal, or
 * null where DateTime.from_iso8601/1 answers {:error, _}: an optional sign
 * (negating the year), YYYY-MM-DD, T or a space, HH:MM:SS, an optional
 * fraction after . or , (precision its digit count, at most 6), then Z or
 * ±HH:MM, ±HHMM, ±HH (-00:00 refused; parts read by Integer.parse/1, so
 * +-1:00 passes). The date must exist, the time be at most 23:59:59.
 */
export function fromIso8601Utc(text) {
  let s = text instanceof Bytes ? text.bytes : new TextEncoder().encode(text);
  let sign = 1;
  if (s[0] === 43 || s[0] === 45) {
    sign = s[0] === 45 ? -1 : 1;
    s = s.subarray(1);
  }
  if (s.length < 19) return null;
  const parts = [0, 2, 5, 8, 11, 14, 17].map((i) => two(s, i));
  const fixed = s[4] === 45 && s[7] === 45 && (s[10] === 84 || s[10] === 32) && s[13] === 58 && s[16] === 58;
  if (parts.includes(null) || !fixed) return null;
  const year = sign * (parts[0] * 100 + parts[1]);
  const [month, day, hour, minute, second] = parts.slice(2);
  let rest = s.subarray(19);
  let micro = 0;
  let precision = 0;
  if (rest[0] === 46 || rest[0] === 44) {
    let n = 0;
    while (n + 1 < rest.length && isDigit(rest[n + 1])) n++;
    if (n === 0) return null;
    const kept = String.fromCharCode(...rest.subarray(1, 1 + Math.min(n, 6)));
    micro = Number(kept) * 10 ** (6 - kept.length);
    precision = Math.min(n, 6);
    rest = rest.subarray(1 + n);
  }
  const [ok, off] = offset(rest);
  if (!ok) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || off === null) return null;
  const seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - off;
  const days = fdiv(seconds, 86400);
  const secs = seconds - days * 86400;
  const [y, m, d] = civilFromDays(days);
  let iso = `${y < 0 ? `-${pad(-y, 4)}` : pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(fdiv(secs, 3600), 2)}:${pad(fdiv(secs % 3600, 60), 2)}:${pad(secs % 60, 2)}`;
  if (precision) iso += `.${pad(micro, 6).slice(0, precision)}`;
  return new Temporal("datetime", `${iso}Z`);
}
