// vitest globalSetup: expensive setup shared by every worker, done once before any starts (so a
// fresh clone on a busy machine does not pay for it in each worker's first hooks at once).
import { ensurePgliteTemplates } from './pglite-template.ts';

export default async function setup(): Promise<void> {
  await ensurePgliteTemplates();
}
