import { describe, expect, it } from 'vitest';
import type { ApiError } from '../src/errors.ts';
import { parseClientJson } from '../src/routes/strict-json.ts';

const refusal = (text: string) => {
  try {
    parseClientJson(text);
  } catch (e) {
    const err = e as ApiError;
    return { status: err.status, code: err.code, details: err.details };
  }
  return null;
};

describe('client JSON: no NUL in any string or key', () => {
  it('refuses an escaped NUL wherever it is, with its path; a raw one is not JSON at all', () => {
    expect(refusal('{"a":"x\\u0000"}')).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ path: 'a', code: 'nul_character' }],
    });
    expect(refusal('{"a":["b",{"c":"\\u0000"}]}')).toMatchObject({ details: [{ path: 'a.1.c' }] });
    expect(refusal('{"k\\u0000":1}')).toMatchObject({ details: [{ path: 'k\\u0000' }] });
    expect(refusal('{"a":"x\u0000"}')).toMatchObject({ status: 400, code: 'INVALID_JSON' });
  });

  it('takes text that only looks like one: an escaped backslash before u0000', () => {
    expect(parseClientJson('{"a":"\\\\u0000"}')).toEqual({ a: '\\u0000' });
    expect(parseClientJson(Buffer.from('{"a":"ok","b":[1,2]}'))).toEqual({ a: 'ok', b: [1, 2] });
  });
});
