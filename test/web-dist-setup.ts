// vitest globalSetup for the integration suites: one build of the web app per run, not one per
// browser suite (each `vite build` is several seconds of CPU, and a dozen suites serve the same
// bundle). This only names the directory; the first suite that needs the bundle builds it there
// (packages/app/test/web/browser.ts buildWeb), so a run of suites without a browser builds nothing.
// The directory is this run's own (concurrent runs never share one) and goes when the run ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's web bundle is built (by its first browser suite); absent outside the integration config. */
    db8WebDist?: string;
  }
}

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'db8-web-run-'));
  project.provide('db8WebDist', join(root, 'dist'));
  return () => rmSync(root, { recursive: true, force: true });
}
