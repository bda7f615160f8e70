import { JSON_MAX_DEPTH, JsonError, type JsonErrorCode, type JsonPathSegment } from './errors.ts';
import type { JsonValue } from './schema.ts';

/**
 * Strict JSON (RFC 8259) parser. Beyond the grammar it rejects what would make two readers disagree
 * about a document, or make it impossible to canonicalise: duplicate keys, integer tokens (no
 * fraction, no exponent) beyond ±(2^53−1), number tokens that overflow to ±Infinity, and strings
 * that decode to lone surrogates (escaped `\uD800` alone, or raw). Errors are JsonError with the
 * path and the UTF-16 offset of the offending character. No BOM, no comments, no trailing commas.
 */

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const LBRACKET = 0x5b;
const BACKSLASH = 0x5c;
const RBRACKET = 0x5d;
const LOWER_E = 0x65;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

const ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** Index of the first non-digit at or after `i`. */
function skipDigits(s: string, i: number): number {
  let c = s.charCodeAt(i);
  while (c >= ZERO && c <= NINE) c = s.charCodeAt(++i);
  return i;
}

function show(s: string, i: number): string {
  if (i >= s.length) return 'end of input';
  const c = s.charCodeAt(i);
  return c < 0x20 || c > 0x7e ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}` : `'${s[i]}'`;
}

class Parser {
  private i = 0;
  private readonly path: JsonPathSegment[] = [];

  constructor(private readonly s: string) {}

  fail(code: JsonErrorCode, detail: string, depth: number, offset: number): JsonError {
    return new JsonError(code, detail, this.path.slice(0, depth), offset, this.s);
  }

  unexpected(depth: number, expected: string): JsonError {
    const at = this.i;
    const code = at >= this.s.length ? 'UNEXPECTED_END' : 'SYNTAX';
    return this.fail(code, `expected ${expected}, found ${show(this.s, at)}`, depth, at);
  }

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) i++;
      else break;
    }
    this.i = i;
  }

  document(): JsonValue {
    this.ws();
    const v = this.value(0);
    this.ws();
    if (this.i < this.s.length) {
      throw this.fail('TRAILING_DATA', `unexpected ${show(this.s, this.i)} after the JSON value`, 0, this.i);
    }
    return v;
  }

  value(depth: number): JsonValue {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    switch (c) {
      case LBRACE:
        return this.object(depth);
      case LBRACKET:
        return this.array(depth);
      case QUOTE:
        return this.string(depth);
      case 0x74: // t
        return this.literal('true', true, depth);
      case 0x66: // f
        return this.literal('false', false, depth);
      case 0x6e: // n
        return this.literal('null', null, depth);
      default:
        if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number(depth);
        throw this.unexpected(depth, 'a JSON value');
    }
  }

  literal<T extends JsonValue>(word: string, v: T, depth: number): T {
    if (!this.s.startsWith(word, this.i)) throw this.unexpected(depth, 'a JSON value');
    this.i += word.length;
    return v;
  }

  object(depth: number): JsonValue {
    if (depth >= JSON_MAX_DEPTH) {
      throw this.fail('TOO_DEEP', `nesting deeper than ${JSON_MAX_DEPTH}`, depth, this.i);
    }
    const s = this.s;
    const obj: Record<string, JsonValue> = {};
    this.i++;
    this.ws();
    if (s.charCodeAt(this.i) === RBRACE) {
      this.i++;
      return obj;
    }
    for (;;) {
      if (s.charCodeAt(this.i) !== QUOTE) throw this.unexpected(depth, 'a string key');
      const keyAt = this.i;
      const key = this.string(depth);
      this.path[depth] = key;
      if (Object.hasOwn(obj, key)) {
        throw this.fail('DUPLICATE_KEY', `duplicate key ${JSON.stringify(key)}`, depth + 1, keyAt);
      }
      this.ws();
      if (s.charCodeAt(this.i) !== COLON) throw this.unexpected(depth + 1, "':'");
      this.i++;
      this.ws();
      const v = this.value(depth + 1);
      // A plain assignment to "__proto__" would replace the prototype instead of adding a member.
      if (key === '__proto__') {
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      } else {
        obj[key] = v;
      }
      this.ws();
      const c = s.charCodeAt(this.i);
      if (c === COMMA) {
        this.i++;
        this.ws();
      } else if (c === RBRACE) {
        this.i++;
        return obj;
      } else {
        throw this.unexpected(depth, "',' or '}'");
      }
    }
  }

  array(depth: number): JsonValue {
    if (depth >= JSON_MAX_DEPTH) {
      throw this.fail('TOO_DEEP', `nesting deeper than ${JSON_MAX_DEPTH}`, depth, this.i);
    }
    const s = this.s;
    const arr: JsonValue[] = [];
    this.i++;
    this.ws();
    if (s.charCodeAt(this.i) === RBRACKET) {
      this.i++;
      return arr;
    }
    for (;;) {
      this.path[depth] = arr.length;
      arr.push(this.value(depth + 1));
      this.ws();
      const c = s.charCodeAt(this.i);
      if (c === COMMA) {
        this.i++;
        this.ws();
      } else if (c === RBRACKET) {
        this.i++;
        return arr;
      } else {
        throw this.unexpected(depth, "',' or ']'");
      }
    }
  }

  number(depth: number): number {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === MINUS) i++;
    let c = s.charCodeAt(i);
    if (c === ZERO) {
      i++;
    } else if (c >= 0x31 && c <= NINE) {
      i = skipDigits(s, i + 1);
    } else {
      this.i = i;
      throw this.unexpected(depth, 'a digit');
    }
    let integer = true;
    if (s.charCodeAt(i) === DOT) {
      integer = false;
      i++;
      c = s.charCodeAt(i);
      if (!(c >= ZERO && c <= NINE)) {
        this.i = i;
        throw this.unexpected(depth, 'a digit after the decimal point');
      }
      i = skipDigits(s, i + 1);
    }
    c = s.charCodeAt(i);
    if (c === LOWER_E || c === UPPER_E) {
      integer = false;
      i++;
      c = s.charCodeAt(i);
      if (c === PLUS || c === MINUS) i++;
      c = s.charCodeAt(i);
      if (!(c >= ZERO && c <= NINE)) {
        this.i = i;
        throw this.unexpected(depth, 'a digit in the exponent');
      }
      i = skipDigits(s, i + 1);
    }
    const token = s.slice(start, i);
    const n = Number(token);
    if (!Number.isFinite(n)) {
      throw this.fail('NON_FINITE_NUMBER', `number ${token} overflows a double`, depth, start);
    }
    // Rounding is monotonic, so an integer token beyond 2^53−1 always parses to a value beyond it.
    if (integer && i - start > 15 && !Number.isSafeInteger(n)) {
      throw this.fail('UNSAFE_INTEGER', `integer ${token} is beyond ±(2^53-1)`, depth, start);
    }
    this.i = i;
    return n;
  }

  /** Fast path: no escapes and only paired raw surrogates; anything else goes to the careful path. */
  string(depth: number): string {
    const s = this.s;
    const start = this.i + 1;
    const n = s.length;
    let i = start;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return s.slice(start, i);
      }
      if (c === BACKSLASH || c < 0x20) break;
      if ((c & 0xf800) === 0xd800) {
        const d = s.charCodeAt(i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          i += 2;
          continue;
        }
        break;
      }
      i++;
    }
    return this.stringSlow(depth, start);
  }

  stringSlow(depth: number, start: number): string {
    const s = this.s;
    const n = s.length;
    let out = '';
    let chunk = start;
    let i = start;
    let pendingHigh = -1; // offset of a high surrogate still waiting for its low half
    const unit = (u: number, at: number): void => {
      if (pendingHigh >= 0) {
        if (u >= 0xdc00 && u <= 0xdfff) {
          pendingHigh = -1;
          return;
        }
        throw this.fail('LONE_SURROGATE', 'high surrogate without a low surrogate', depth, pendingHigh);
      }
      if (u >= 0xd800 && u <= 0xdbff) pendingHigh = at;
      else if (u >= 0xdc00 && u <= 0xdfff) {
        throw this.fail('LONE_SURROGATE', 'low surrogate without a high surrogate', depth, at);
      }
    };
    for (;;) {
      if (i >= n) throw this.fail('UNEXPECTED_END', 'unterminated string', depth, start - 1);
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        if (pendingHigh >= 0) {
          throw this.fail('LONE_SURROGATE', 'high surrogate without a low surrogate', depth, pendingHigh);
        }
        this.i = i + 1;
        return out + s.slice(chunk, i);
      }
      if (c < 0x20) {
        throw this.fail('SYNTAX', `unescaped control character ${show(s, i)} in string`, depth, i);
      }
      if (c !== BACKSLASH) {
        unit(c, i);
        i++;
        continue;
      }
      out += s.slice(chunk, i);
      const e = s.charCodeAt(i + 1);
      if (e === 0x75) {
        // \uXXXX
        let u = 0;
        for (let k = 2; k < 6; k++) {
          const h = hexVal(s.charCodeAt(i + k));
          if (h < 0) {
            const code = i + k >= n ? 'UNEXPECTED_END' : 'SYNTAX';
            throw this.fail(code, 'invalid \\u escape: expected 4 hex digits', depth, i);
          }
          u = (u << 4) | h;
        }
        unit(u, i);
        out += String.fromCharCode(u);
        i += 6;
      } else {
        const ch = ESCAPES[e];
        if (ch === undefined) {
          const code = i + 1 >= n ? 'UNEXPECTED_END' : 'SYNTAX';
          throw this.fail(code, `invalid escape \\${i + 1 < n ? s[i + 1] : ''}`, depth, i);
        }
        unit(e, i);
        out += ch;
        i += 2;
      }
      chunk = i;
    }
  }
}

/** Parse `text` strictly (see the top of this file); throws JsonError saying what and where. */
export function parseJson(text: string): JsonValue {
  if (typeof text !== 'string') {
    throw new JsonError('UNSUPPORTED_TYPE', `parseJson expects a string, got ${typeof text}`, []);
  }
  return new Parser(text).document();
}
