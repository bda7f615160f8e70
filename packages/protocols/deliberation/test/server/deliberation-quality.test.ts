import { describe, expect, it } from 'vitest';
import { analyseCode } from '../../server/quality.ts';
import { measurementOf, type SandboxResult } from '../../server/sandbox.ts';

// A code version's quality comes from the analyser (FTA over the version's source), not from a
// guess: branchier code scores more cyclomatic paths and a lower quality; code the analyser cannot
// read, or a language it does not know, gets no score at all.

const FLAT = 'export const add = (a, b) => a + b;\n';
const BRANCHY = `export function grade(n) {
  if (n > 90) return 'A';
  else if (n > 80) return 'B';
  else if (n > 70) return 'C';
  for (let i = 0; i < n; i++) { if (i % 7 === 0 && i > 3) { while (n > i) n -= i; } }
  switch (n) { case 1: return 'x'; case 2: return 'y'; default: return n ? 'D' : 'F'; }
}
`;

describe('code quality (FTA)', () => {
  it('scores branchy code as more complex and of lower quality than flat code', async () => {
    const flat = await analyseCode(FLAT, 'javascript');
    const branchy = await analyseCode(BRANCHY, 'javascript');
    expect(flat!.metrics.cyclomatic).toBe(1);
    expect(branchy!.metrics.cyclomatic).toBeGreaterThan(8);
    expect(branchy!.metrics.halsteadVolume).toBeGreaterThan(flat!.metrics.halsteadVolume!);
    expect(branchy!.qualityScore).toBeLessThan(flat!.qualityScore);
    for (const q of [flat!, branchy!]) {
      expect(q.qualityScore).toBeGreaterThan(0);
      expect(q.qualityScore).toBeLessThanOrEqual(1);
      // The score is FTA's, mapped: 1 − fta/100.
      expect(q.qualityScore).toBeCloseTo(1 - q.metrics.ftaScore! / 100, 2);
    }
    const ts = await analyseCode('export const add = (a: number, b: number): number => a + b;', 'typescript');
    expect(ts!.metrics.cyclomatic).toBe(1);
  });

  it('gives no score to code it cannot read or a language it does not know', async () => {
    expect(await analyseCode('export const = ;;', 'javascript')).toBeNull();
    expect(await analyseCode('print(1)', 'python')).toBeNull();
  });

  it("puts the analyser's score and metrics in the measurement beside the pass rate", async () => {
    const run = {
      passRate: 0.5,
      total: 2,
      passed: 1,
      failed: 1,
      durationMs: 3,
      status: 'ok',
    } as SandboxResult;
    const q = await analyseCode(BRANCHY, 'javascript');
    const m = measurementOf(run, BRANCHY, q);
    expect(m.qualityScore).toBe(q!.qualityScore);
    expect(m.testPassRate).toBe(0.5);
    expect(m.metrics).toMatchObject({ tests: 2, cyclomatic: q!.metrics.cyclomatic });
    expect(measurementOf(run, 'x', null).qualityScore).toBeNull();
  });
});
