import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agreementOf,
  computeConsensus,
  ROLES,
  type Stance,
  supportOf,
  type TurnRecord,
} from '../../rules/index.ts';
import { revision } from './harness.ts';

/** Turns with round-3 positions (and optionally an assessment); rounds 1–2 all ok unless `failed`. */
function turnsFor(
  positions: Partial<Record<(typeof ROLES)[number], [Stance, number]>>,
  assessed: Partial<Record<(typeof ROLES)[number], Stance>> | null,
  failedRound1: number = 0,
): TurnRecord[] {
  const out: TurnRecord[] = [];
  let seq = 1;
  ROLES.forEach((role, i) => {
    out.push(
      i < failedRound1
        ? {
            kind: 'failed',
            role,
            seq: seq++,
            at: 0,
            call: null,
            stage: 'Round1',
            error: { code: 'timeout', message: 't' },
          }
        : {
            kind: 'opening',
            role,
            seq: seq++,
            at: 0,
            call: null,
            payload: { claim: 'c', rationale: 'r', risks: [], stance: 'support', confidence: 0.5 },
          },
    );
    out.push({
      kind: 'challenge',
      role,
      seq: seq++,
      at: 0,
      call: null,
      payload: { target: 'Critic', challenges: [{ point: 'p', challenge: 'c', severity: 'low' }] },
    });
  });
  for (const role of ROLES) {
    const p = positions[role];
    out.push(
      p
        ? { kind: 'revision', role, seq: seq++, at: 0, call: null, payload: revision(role, p[0], p[1]) }
        : {
            kind: 'failed',
            role,
            seq: seq++,
            at: 0,
            call: null,
            stage: 'Round3',
            error: { code: 'timeout', message: 't' },
          },
    );
  }
  if (assessed) {
    const payload = {
      positions: Object.entries(assessed).map(([role, stance]) => ({
        role: role as (typeof ROLES)[number],
        stance,
        note: 'n',
      })),
      commonGround: [],
      disagreements: [],
      proposal: 'p',
    };
    out.push({ kind: 'assessment', role: 'Synthesizer', seq: seq++, at: 0, call: null, payload });
  } else {
    out.push({
      kind: 'failed',
      role: 'Synthesizer',
      seq: seq++,
      at: 0,
      call: null,
      stage: 'Consensus',
      error: { code: 'timeout', message: 't' },
    });
  }
  return out;
}

describe('council: consensus and confidence', () => {
  it('the worked example of docs/council.md', () => {
    // Proponent support 0.9; Critic declared oppose 0.6 but the Synthesizer reads conditional;
    // Analyst and Synthesizer conditional 0.8 and 0.7; the Judge's round 3 failed.
    const turns = turnsFor(
      {
        Proponent: ['support', 0.9],
        Critic: ['oppose', 0.6],
        Analyst: ['conditional', 0.8],
        Synthesizer: ['conditional', 0.7],
      },
      { Proponent: 'support', Critic: 'conditional' },
    );
    const c = computeConsensus(turns);
    expect(c.positions.map((p) => [p.role, p.declared, p.assessed, p.stance])).toEqual([
      ['Proponent', 'support', 'support', 'support'],
      ['Critic', 'oppose', 'conditional', 'conditional'],
      ['Analyst', 'conditional', null, 'conditional'],
      ['Synthesizer', 'conditional', null, 'conditional'],
    ]);
    // Pair weights: .54 .72 .63 .48 .42 .56 (Σ 3.35); agreements .5 .5 .5 1 1 1 → Σ 2.405.
    expect(c.agreement).toBe(0.7179); // 2.405 / 3.35
    expect(c.support).toBe(0.65); // (.9 + .3 + .4 + .35) / 3.0
    expect(c.lean).toBe('conditional');
    expect(c.coverage).toBe(0.8);
    expect(c.consensus).toBe(0.5743); // .717910 × .8
    expect(c.meanConfidence).toBe(0.75);
    expect(c.okTurns).toBe(15);
    expect(c.evidence).toBe(0.9375); // 15 / 16
    expect(c.confidence).toBe(0.4038); // .574328 × .75 × .9375
    expect(c.assessment).toBe('used');
    expect(c.markers).toEqual([{ stage: 'Round3', role: 'Judge', code: 'timeout', message: 't' }]);
  });

  it('full agreement with full evidence gives consensus 1 and confidence = mean confidence', () => {
    const all = Object.fromEntries(ROLES.map((r) => [r, ['oppose', 0.6] as [Stance, number]]));
    const c = computeConsensus(turnsFor(all, {}));
    expect(c).toMatchObject({
      agreement: 1,
      consensus: 1,
      support: 0,
      lean: 'oppose',
      confidence: 0.6,
      evidence: 1,
      markers: [],
    });
  });

  it('an even split of support and oppose has zero agreement', () => {
    const c = computeConsensus(turnsFor({ Proponent: ['support', 1], Critic: ['oppose', 1] }, null));
    expect(c.agreement).toBe(0);
    expect(c.support).toBe(0.5);
    expect(c.markers.map((m) => m.code)).toContain('SELF_DECLARED_STANCES');
  });

  it('the assessment overrides a declared stance, and a missing assessment falls back to declared stances', () => {
    const declared: Parameters<typeof turnsFor>[0] = {
      Proponent: ['support', 0.9],
      Critic: ['support', 0.9],
    };
    expect(computeConsensus(turnsFor(declared, null)).agreement).toBe(1);
    expect(computeConsensus(turnsFor(declared, { Critic: 'oppose' })).agreement).toBe(0);
  });

  it('one position is too few to agree', () => {
    const c = computeConsensus(turnsFor({ Judge: ['support', 1] }, null));
    expect(c.agreement).toBe(0);
    expect(c.consensus).toBe(0);
    expect(c.markers.map((m) => m.code)).toContain('TOO_FEW_POSITIONS');
  });

  it('zero weights fall back to equal weights', () => {
    expect(
      agreementOf([
        { x: 1, w: 0 },
        { x: 1, w: 0 },
      ]),
    ).toBe(1);
    expect(
      agreementOf([
        { x: 1, w: 0 },
        { x: 0, w: 1 },
        { x: 0, w: 0 },
      ]),
    ).toBeCloseTo(1 / 3);
    expect(
      supportOf([
        { x: 1, w: 0 },
        { x: 0, w: 0 },
      ]),
    ).toBe(0.5);
  });

  const stance = fc.constantFrom<Stance>('support', 'oppose', 'conditional');
  const position = fc.option(fc.tuple(stance, fc.double({ min: 0, max: 1, noNaN: true })), {
    nil: undefined,
  });
  const positions = fc.record(
    Object.fromEntries(ROLES.map((r) => [r, position])) as Record<(typeof ROLES)[number], typeof position>,
  );

  it('property: every score is in [0, 1]; more failures never raise confidence', () => {
    fc.assert(
      fc.property(positions, fc.boolean(), fc.integer({ min: 0, max: 5 }), (pos, withAssessment, fails) => {
        const clean = Object.fromEntries(
          Object.entries(pos).filter(([, v]) => v !== undefined),
        ) as Parameters<typeof turnsFor>[0];
        const a = computeConsensus(turnsFor(clean, withAssessment ? {} : null));
        const b = computeConsensus(turnsFor(clean, withAssessment ? {} : null, fails));
        for (const c of [a, b]) {
          for (const k of [
            'agreement',
            'support',
            'coverage',
            'evidence',
            'meanConfidence',
            'consensus',
            'confidence',
          ] as const) {
            expect(c[k]).toBeGreaterThanOrEqual(0);
            expect(c[k]).toBeLessThanOrEqual(1);
          }
          expect(c.consensus).toBeLessThanOrEqual(c.agreement);
        }
        expect(b.confidence).toBeLessThanOrEqual(a.confidence);
        expect(b.markers.length).toBe(a.markers.length + fails);
      }),
      { numRuns: 300 },
    );
  });
});
