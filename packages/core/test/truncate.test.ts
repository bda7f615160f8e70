import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, clipText, codePointLength, isWellFormed, truncateCodePoints } from '../src/index.ts';

describe('text shortening by code points', () => {
  it('never cuts a surrogate pair (slice would leave a lone surrogate)', () => {
    const text = `${'a'.repeat(199)}😀 and more`;
    expect(isWellFormed(text.slice(0, 200))).toBe(false);
    expect(truncateCodePoints(text, 200)).toBe(`${'a'.repeat(199)}😀`);
    expect(() => canonicalize({ t: truncateCodePoints(text, 200) })).not.toThrow();
    expect(clipText(text, 10)).toBe(`${'a'.repeat(9)}…`);
    expect(clipText('😀😀😀', 3)).toBe('😀😀😀');
    expect(clipText('😀😀😀😀', 3)).toBe('😀😀…');
  });

  it('any well-formed text cut anywhere stays well-formed and within the bound', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(50), (s, n) => {
        const t = truncateCodePoints(s, n);
        expect(isWellFormed(t)).toBe(true);
        expect(codePointLength(t)).toBe(Math.min(n, codePointLength(s)));
        expect(s.startsWith(t)).toBe(true);
        const c = clipText(s, n + 1);
        expect(isWellFormed(c)).toBe(true);
        expect(codePointLength(c)).toBeLessThanOrEqual(n + 1);
      }),
    );
  });
});
