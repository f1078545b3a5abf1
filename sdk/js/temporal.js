// The ISO 8601 texts of the four calendar structs as tagged term JSON
// carries them (spec/terms.md TJ-6): exactly what Calendar.ISO's
// to_iso8601/1 writes, every year of up to nine digits included, and
// nothing else. parseIso checks a text and gives its parts, with the same
// reasons as the Rust harness's reader (src/model/temporal.rs), so a
// refusal reads the same in every codec; term order (TJ-11) reads the
// parts here.

import { quote } from "./json.js";

/** The largest year magnitude carried: nine digits (TJ-6). */
export const MAX_YEAR = 999999999;

/** The length of `month` in `year` (proleptic Gregorian). */
export function daysInMonth(year, month) {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A text that is not one to_iso8601/1 writes: `message` says why. */
export class IsoError extends Error {
  constructor(why) {
    super(why);
    this.name = "IsoError";
  }
}

const isDigit = (c) => c !== undefined && c >= "0" && c <= "9";

function digits2(s, at) {
  return isDigit(s[at]) && isDigit(s[at + 1]) ? Number(s.slice(at, at + 2)) : undefined;
}

function two(s, at, sep, lo, hi) {
  if (s[at] !== sep) return undefined;
  const v = digits2(s, at + 1);
  return v !== undefined && v >= lo && v <= hi ? v : undefined;
}

function restEmpty(s, at) {
  if (at < s.length) throw new IsoError(`${quote(s.slice(at))} after the value`);
}

function countDigits(s, at) {
  let n = 0;
  while (isDigit(s[at + n])) n++;
  return n;
}

function year(s) {
  const negative = s[0] === "-";
  const start = negative ? 1 : 0;
  const n = countDigits(s, start);
  const digits = s.slice(start, start + n);
  if (!(n === 4 || (n > 4 && digits[0] !== "0"))) {
    throw new IsoError("the year is not four digits, or five or more without a leading zero");
  }
  if (n > 9) throw new IsoError(`the year has ${n} digits: years beyond ±${MAX_YEAR} are not carried`);
  const value = Number(digits);
  if (negative && value === 0) throw new IsoError("the year -0000 is written 0000");
  return [negative ? -value : value, start + n];
}

/**
 * The parts of `iso` read as a `kind` ("date", "time", "naive_datetime",
 * "datetime"): {year, month, day, hour, minute, second, microsecond,
 * precision, offset} (those the kind lacks are 0; `offset` is
 * [seconds, "+02:00"] for a fixed offset, null for Z). Throws IsoError
 * saying why when it is not the text to_iso8601/1 writes for one (TJ-6).
 */
export function parseIso(kind, iso) {
  const p = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, microsecond: 0, precision: 0, offset: null };
  let at = 0;
  if (kind !== "time") {
    [p.year, at] = year(iso);
    p.month = two(iso, at, "-", 1, 12);
    if (p.month === undefined) throw new IsoError("the month is not -01 to -12");
    const last = daysInMonth(p.year, p.month);
    p.day = two(iso, at + 3, "-", 1, last);
    if (p.day === undefined) throw new IsoError(`the day is not -01 to -${String(last).padStart(2, "0")} (that month's length)`);
    at += 6;
    if (kind === "date") {
      restEmpty(iso, at);
      return p;
    }
    if (iso[at] !== "T") throw new IsoError("no T between the date and the time");
    at += 1;
  }
  const hour = digits2(iso, at);
  if (hour === undefined || hour > 23) throw new IsoError("the hour is not 00 to 23");
  p.hour = hour;
  p.minute = two(iso, at + 2, ":", 0, 59);
  if (p.minute === undefined) throw new IsoError("the minute is not :00 to :59");
  p.second = two(iso, at + 5, ":", 0, 59);
  if (p.second === undefined) throw new IsoError("the second is not :00 to :59");
  at += 8;
  if (iso[at] === ".") {
    const n = countDigits(iso, at + 1);
    if (n < 1 || n > 6) throw new IsoError("the fraction is not . and one to six digits");
    p.precision = n;
    p.microsecond = Number(iso.slice(at + 1, at + 1 + n).padEnd(6, "0"));
    at += 1 + n;
  }
  if (kind === "datetime") {
    const rest = iso.slice(at);
    if (rest === "Z") return p;
    if (rest[0] !== "+" && rest[0] !== "-") throw new IsoError("no offset: a datetime ends in Z or ±HH:MM");
    const h = digits2(iso, at + 1);
    const m = two(iso, at + 3, ":", 0, 59);
    if (h === undefined || h > 23 || m === undefined) throw new IsoError("the offset is not Z or ±HH:MM of at most 23:59");
    if (rest[0] === "-" && h === 0 && m === 0) throw new IsoError("the offset -00:00 is written +00:00");
    p.offset = [(rest[0] === "-" ? -1 : 1) * (h * 3600 + m * 60), iso.slice(at, at + 6)];
    at += 6;
  }
  restEmpty(iso, at);
  return p;
}

/** A year as Calendar.ISO writes it: `-` for a negative year, then at least four digits. */
export function yearText(y) {
  return (y < 0 ? "-" : "") + String(Math.abs(y)).padStart(4, "0");
}
