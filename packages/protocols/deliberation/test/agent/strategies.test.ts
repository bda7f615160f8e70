import { describe, expect, it } from 'vitest';
import { houseBallot, judgeScore, POINTS_HEADER, pointsOf, pointsPrompt } from '../../agent/strategies.ts';
import { DeliberationConfigSchema, type DeliberationView, type Turn } from '../../rules/index.ts';

// The arena's house judge (docs/arena.md, "Deliberation matches"): its checklist travels in the
// proposal phase's prompt, and it scores a proposal by coverage − |confidence − coverage| / 2.

const POINTS = ['burst limits', 'per key quotas', 'retry after header', 'fair sharing'];

const config = (prompt: string | undefined) =>
  DeliberationConfigSchema.parse({
    sessionId: 's',
    topic: 't',
    seats: ['a', 'b', 'c'].map((id) => ({ id, role: 'proposer', provider: 'x', model: 'y', score: 0 })),
    phases: prompt === undefined ? {} : { proposal: { prompt } },
  });

describe('the house judge', () => {
  it('reads the checklist back from the prompt it wrote', () => {
    expect(pointsOf(config(pointsPrompt(POINTS)))).toEqual(POINTS);
    expect(pointsOf(config(`A preamble.\n${pointsPrompt(['x'])}`))).toEqual(['x']);
    expect(pointsOf(config('no checklist here'))).toEqual([]);
    expect(pointsOf(config(undefined))).toEqual([]);
    expect(pointsPrompt(['a b'])).toBe(`${POINTS_HEADER}\n- a b`);
  });

  it('scores coverage (every word of a point, any case or punctuation) and calibration', () => {
    expect(
      judgeScore(POINTS, 'Burst-limits; PER key Quotas, retry-after header and fair sharing.', 0.9),
    ).toBeCloseTo(0.95, 12);
    expect(judgeScore(POINTS, 'burst limits, per key quotas, retry after header, fair sharing', 0.5)).toBe(
      0.75,
    );
    // Half the points: "per key" without "quotas" does not cover the second.
    expect(judgeScore(POINTS, 'burst limits, per key, retry after header', 0.7)).toBeCloseTo(0.5 - 0.1, 12);
    expect(judgeScore(POINTS, 'nothing to the point', 0.95)).toBeCloseTo(-0.475, 12);
    expect(judgeScore(POINTS, 'nothing to the point', 0)).toBe(0);
    expect(judgeScore([], 'anything', 0)).toBe(0);
  });

  it('votes for the one best proposal it reads, and abstains when the best are level', () => {
    const propose = (seat: string, content: string, confidence: number) =>
      ({
        seq: 0,
        round: 1,
        seat,
        action: {
          type: 'propose',
          content,
          confidence,
          taskIds: [],
          code: null,
          testResults: null,
          reflections: [],
          call: null,
        },
      }) as unknown as Turn;
    const view = (turns: Turn[]) =>
      ({ config: config(pointsPrompt(POINTS)), round: 1, turns }) as unknown as DeliberationView;
    const all = POINTS.join(', ');
    expect(houseBallot(view([propose('a', all, 0.9), propose('b', all, 0.5)]), ['a', 'b'])).toEqual(['a']);
    expect(houseBallot(view([propose('a', all, 0.5), propose('b', all, 0.9)]), ['a', 'b'])).toEqual(['b']);
    expect(houseBallot(view([propose('a', all, 0.9), propose('b', all, 0.9)]), ['a', 'b'])).toEqual([]);
    // Only this round's proposals of the candidates count.
    expect(houseBallot(view([propose('a', all, 0.9), propose('b', 'x', 0.9)]), ['b'])).toEqual(['b']);
  });
});
