/**
 * 10^x from +, −, ×, ÷ only. `Math.pow`/`Math.exp` are not required to be correctly rounded, so
 * two engines (Node and a browser) may differ in the last bit and, after rounding, in a rating.
 * IEEE 754 basic operations are exact-rounded everywhere, so this gives the same bits on every
 * engine. Accuracy is within a few ulps, plenty for Elo.
 */

const LN10 = Math.LN10;
const LN2 = Math.LN2;

/** e^y by range reduction y = n·ln2 + r (|r| ≤ ln2/2), a degree-20 Taylor series, then ×2^n. */
export function expDet(y: number): number {
  if (!Number.isFinite(y)) throw new RangeError('expDet: non-finite input');
  if (y > 700 || y < -700) throw new RangeError('expDet: out of range');
  const n = Math.round(y / LN2);
  const r = y - n * LN2;
  let sum = 1;
  for (let k = 20; k >= 1; k--) sum = 1 + (r * sum) / k;
  // Scaling by 2 or 1/2 is exact (no subnormals in this range).
  const factor = n >= 0 ? 2 : 0.5;
  for (let i = 0; i < Math.abs(n); i++) sum *= factor;
  return sum;
}

export function pow10Det(x: number): number {
  return expDet(x * LN10);
}
