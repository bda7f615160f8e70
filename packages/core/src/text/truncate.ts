/**
 * Text shortened by whole code points. `s.slice(0, n)` counts UTF-16 units: when the n-th unit is
 * the first half of a surrogate pair (an emoji, a rare CJK character) it leaves a lone surrogate,
 * which has no UTF-8 form — canonical JSON refuses it, so a title, a state or an entry holding it
 * cannot be written or hashed.
 */

/** The first `max` code points of `s` (all of it when shorter). */
export function truncateCodePoints(s: string, max: number): string {
  if (s.length <= max) return s; // max UTF-16 units hold at most max code points
  let units = 0;
  let points = 0;
  for (const ch of s) {
    if (points === max) break;
    units += ch.length;
    points++;
  }
  return s.slice(0, units);
}

/** `s` cut to at most `max` code points, `mark` (e.g. `…`) included, when it had to be cut. */
export function clipText(s: string, max: number, mark = '…'): string {
  if (codePointLength(s, max + 1) <= max) return s;
  const room = Math.max(0, max - codePointLength(mark, max + 1));
  return truncateCodePoints(s, room) + mark;
}

/** The number of code points in `s`, counting no further than `stop`. */
export function codePointLength(s: string, stop = Number.POSITIVE_INFINITY): number {
  let n = 0;
  for (const _ of s) {
    if (++n >= stop) return n;
  }
  return n;
}
