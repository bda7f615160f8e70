// Where the shared conformance suites live: $DB8_CONFORMANCE_DIR, else ../shared/conformance beside
// the repository. Suites that need them fail loudly (never skip) when the folder is missing.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');

export const CONFORMANCE_DIR = process.env.DB8_CONFORMANCE_DIR
  ? resolve(process.env.DB8_CONFORMANCE_DIR)
  : resolve(REPO, '../shared/conformance');

export function conformancePath(...parts: string[]): string {
  return resolve(CONFORMANCE_DIR, ...parts);
}
