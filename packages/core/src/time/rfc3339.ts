import { z } from 'zod';

/**
 * The one RFC 3339 `date-time` parser every protocol uses for a time field (a signed `created-at`,
 * a certificate's validity window…). `Date.parse` accepts far more than RFC 3339 (`2030-01-01
 * 00:00Z`, `Tue Jan 1 2030`…), answers NaN for what it cannot read (`…T23:59:60Z`, a leap
 * second), and differs between engines; a NaN compares false with everything, so one time field
 * could let a stale message through and put NaN into a room's state. This parser reads exactly
 * RFC 3339 §5.6 and always answers a finite integer (unix ms) or null.
 *
 * - `T`/`Z` may be lower case (RFC 3339 §5.6 note); a space instead of `T` is refused.
 * - The offset is `Z` or `±hh:mm` (`-00:00` included); `+0100` and a missing offset are refused.
 * - Fractions of a second may have any number of digits and are cut to milliseconds.
 * - The day must exist (Feb 29 only in leap years).
 * - **Leap seconds are normalised**: second 60 is allowed only where RFC 3339 allows it (the last
 *   minute of a UTC day, 23:59 UTC once the offset is applied) and reads as the last millisecond
 *   of that minute (`…T23:59:60.5Z` → `…T23:59:59.999Z`): the instant stays in its own day and
 *   minute, and a signer whose clock showed a leap second is not refused.
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Unix milliseconds of an RFC 3339 date-time, or null when `text` is not one. */
export function parseRfc3339(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const localMs = daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
  const utcMs = localMs - offsetMin * 60_000;
  if (second === 60) {
    // utcMs is then the first instant of the next minute; a leap second ends a UTC day.
    const utcMinuteOfDay = Math.floor(((((utcMs - 60_000) % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY) / 60_000);
    if (utcMinuteOfDay !== 23 * 60 + 59) return null;
    return utcMs - 1;
  }
  return utcMs + fraction;
}

/** True when `text` is an RFC 3339 date-time this parser reads. */
export const isRfc3339 = (text: unknown): text is string => parseRfc3339(text) !== null;

/** A zod string holding an RFC 3339 date-time (JSON Schema: `format: date-time`). */
export const Rfc3339Schema = z
  .string()
  .refine(isRfc3339, { message: 'not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.f](Z|±hh:mm))' })
  .meta({ format: 'date-time' });
