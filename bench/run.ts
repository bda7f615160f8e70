// `npm run bench [area…]`: runs every bench/*.bench.ts (or the named areas) and prints one table.
// Figures only — no assertions: these machines are shared and noisy.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.includes(f.replace('.bench.ts', '')))
  .sort();

function fmt(n: number | undefined): string {
  if (n === undefined) return '';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toPrecision(4);
}

const rows: BenchRow[] = [];
for (const file of files) {
  const mod = (await import(join(here, file))) as { run: () => Promise<BenchRow[]> };
  process.stderr.write(`bench: ${file}…\n`);
  try {
    rows.push(...(await mod.run()));
  } catch (err) {
    process.stderr.write(`bench: ${file} failed: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

const header = ['area', 'measure', 'db8', 'unit', 'peer', 'peer value', 'goal'];
const table = rows.map((r) => [
  r.area,
  r.name,
  fmt(r.value),
  r.unit,
  r.peer ?? '',
  fmt(r.peerValue),
  r.goal ?? '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const row of table) console.log(line(row));
