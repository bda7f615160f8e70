/**
 * One CSV encoder for every exported table (RFC 4180): a field holding a quote, comma, CR or LF is
 * quoted with its quotes doubled; lines end in CRLF. A text field starting with =, +, -, @, tab or
 * CR gets a leading ' so a spreadsheet shows it as text instead of running it as a formula (CSV
 * injection); numbers are written as numbers, so a negative score stays a number.
 */

export type Cell = string | number | boolean | null;

const FORMULA = /^[=+\-@\t\r]/;

export function csvField(v: Cell | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = FORMULA.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvOf(
  columns: readonly string[],
  rows: ReadonlyArray<Readonly<Record<string, Cell>>>,
): string {
  const line = (cells: ReadonlyArray<Cell | undefined>) => `${cells.map(csvField).join(',')}\r\n`;
  return line(columns) + rows.map((r) => line(columns.map((c) => r[c]))).join('');
}
