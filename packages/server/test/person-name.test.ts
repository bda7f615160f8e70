import { describe, expect, it } from 'vitest';
import { PERSON_NAME_MAX, personName } from '../src/auth/person-name.ts';

describe("personName: a person's display name from their token's claims", () => {
  it('takes name, else preferred_username; never email nor sub', () => {
    expect(personName({ name: 'Ada Lovelace', preferred_username: 'ada' })).toBe('Ada Lovelace');
    expect(personName({ name: '', preferred_username: 'ada' })).toBe('ada');
    expect(personName({ name: 42, preferred_username: 'ada' })).toBe('ada');
    expect(personName({ email: 'ada@example.org', sub: 'u1' })).toBeNull();
  });

  it('drops control and bidi characters, folds white space, bounds the length by code points', () => {
    expect(personName({ name: 'A\u0000d\u001Ba\u007F\u0085' })).toBe('A d a');
    expect(personName({ name: 'evil\u202Egnp.exe' })).toBe('evil gnp.exe');
    expect(personName({ name: '\u2066x\u2069\u2028y' })).toBe('x y');
    expect(personName({ name: 'e\u0301' })).toBe('\u00e9'); // NFC
    expect(personName({ name: 'a\uD800b\uDFFFc' })).toBe('a b c'); // lone surrogates
    const long = personName({ name: '😀'.repeat(100) });
    expect(Array.from(long ?? '')).toHaveLength(PERSON_NAME_MAX);
    expect(long).toBe('😀'.repeat(PERSON_NAME_MAX)); // no split surrogate
    expect(personName({ name: '\u0000\u202E', preferred_username: 'x' })).toBe('x');
  });
});
