// The subset of TOML that PHH files use: `key = value` lines, `[n]` tables (.phhs), '#' comments,
// single- and double-quoted strings, integers, decimals, inf/nan, booleans, multi-line arrays, and bare
// local times/dates (kept as strings). Anything else is a parse error with a line number.

export type TomlValue = string | number | boolean | TomlValue[];
export type TomlTable = { [key: string]: TomlValue | TomlTable };

export class TomlError extends Error {
  constructor(message: string, line: number) {
    super(`TOML line ${line}: ${message}`);
    this.name = 'TomlError';
  }
}

export function parseToml(text: string): TomlTable {
  const root: TomlTable = {};
  let table = root;
  let i = 0;
  const line = () => text.slice(0, i).split('\n').length;
  const fail = (message: string): never => {
    throw new TomlError(message, line());
  };

  const skipSpace = (newlines: boolean) => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\r' || (newlines && c === '\n')) i++;
      else if (c === '#') while (i < text.length && text[i] !== '\n') i++;
      else return;
    }
  };

  const parseKey = (): string => {
    skipSpace(false);
    if (text[i] === '"' || text[i] === "'") return parseString();
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 200));
    if (!m) return fail('expected a key');
    i += m[0].length;
    return m[0];
  };

  const parseString = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length && text[i] !== quote) {
      const c = text[i++]!;
      if (c === '\n') fail('newline in string');
      if (quote === '"' && c === '\\') {
        const e = text[i++];
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'r') out += '\r';
        else if (e === '"' || e === '\\') out += e;
        else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          out += String.fromCodePoint(Number.parseInt(text.slice(i, i + len), 16));
          i += len;
        } else fail(`bad escape \\${e}`);
      } else out += c;
    }
    if (text[i] !== quote) fail('unterminated string');
    i++;
    return out;
  };

  const parseValue = (): TomlValue => {
    skipSpace(false);
    const c = text[i];
    if (c === '"' || c === "'") return parseString();
    if (c === '[') {
      i++;
      const items: TomlValue[] = [];
      for (;;) {
        skipSpace(true);
        if (text[i] === ']') {
          i++;
          return items;
        }
        items.push(parseValue());
        skipSpace(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ] in array');
      }
    }
    const m = /^[^\s,\]#]+/.exec(text.slice(i, i + 100));
    if (!m) return fail('expected a value');
    i += m[0].length;
    const raw = m[0];
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    if (/^[+-]?inf$/.test(raw)) return raw.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(raw)) return Number.NaN;
    if (/^[+-]?(\d[\d_]*)(\.\d[\d_]*)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw.replace(/_/g, ''));
    if (/^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$|^\d{4}-\d{2}-\d{2}/.test(raw)) return raw; // local time / date
    return fail(`unsupported value ${raw}`);
  };

  for (;;) {
    skipSpace(true);
    if (i >= text.length) return root;
    if (text[i] === '[') {
      i++;
      const name = parseKey();
      skipSpace(false);
      if (text[i] !== ']') fail('expected ] after table name');
      i++;
      if (name in root) fail(`table [${name}] repeated`);
      table = {};
      root[name] = table;
      continue;
    }
    const key = parseKey();
    skipSpace(false);
    if (text[i] !== '=') fail(`expected = after ${key}`);
    i++;
    if (key in table) fail(`key ${key} repeated`);
    table[key] = parseValue();
    skipSpace(false);
    if (i < text.length && text[i] !== '\n') fail('expected end of line');
  }
}
