// Where the conformance data lives: test/conformance/ in this repository (each source's folder has
// its SOURCES and licence). A suite whose data is missing fails loudly (never skips):
// conformancePath throws when the path it names does not exist.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONFORMANCE_DIR = fileURLToPath(new URL('./conformance', import.meta.url));

export function conformancePath(...parts: string[]): string {
  const path = resolve(CONFORMANCE_DIR, ...parts);
  if (!existsSync(path)) {
    throw new Error(`conformance data missing: ${path} (expected under test/conformance/ in the repository)`);
  }
  return path;
}
