import { canonicalize, refoldLog } from '@db8/core';
import { describe, expect, it } from 'vitest';
import {
  type DeliberationState,
  deliberation,
  type LegalAction,
  OPERATOR,
  PHASES,
  scriptedAction,
} from '../../rules/index.ts';
import { configFor, drive, Room, SEED, T0 } from './harness.ts';

const TOPOLOGIES = ['graph_mesh', 'star', 'chain', 'tree'] as const;
const MODES = ['cpde', 'dpde', 'adaptive'] as const;

function phaseOrder(s: DeliberationState, round: number) {
  return s.phases.filter((p) => p.round === round).map((p) => p.phase);
}

describe('six scripted seats run every topology and coordination mode to completion', () => {
  for (const topology of TOPOLOGIES)
    for (const coordination of MODES)
      it(`${topology} × ${coordination}`, () => {
        const room = new Room(configFor({ topology, coordination }));
        const readyCounts: number[] = [];
        drive(room, { before: (r) => readyCounts.push(r.view({ kind: 'admin' }).waitingFor.length) });
        const s = room.state;
        expect(s.status).toBe('completed');
        expect(room.closed).toBe(true);
        for (let r = 1; r <= s.round; r++) expect(phaseOrder(s, r)).toEqual([...PHASES]);
        expect(s.outcome?.winner).toBe('ana'); // the leader: everyone who can see it ranks it first
        expect(s.plan?.style).toBe(coordination === 'dpde' ? 'dpde' : 'cpde');
        expect(s.plan?.tasks.every((t) => t.status === 'done')).toBe(true);
        const result = deliberation.result(s)!;
        expect(result).toMatchObject({ status: 'completed', sessionId: 'delib_test_1', rounds: s.round });
        // Who speaks when.
        if (topology === 'chain') expect(Math.max(...readyCounts)).toBe(1);
        if (topology === 'graph_mesh') expect(Math.max(...readyCounts)).toBe(6);
        for (const step of new Set(s.turns.map((t) => `${t.round}|${t.phase}|${t.pass}|${t.step}`))) {
          const ts = s.turns.filter((t) => `${t.round}|${t.phase}|${t.pass}|${t.step}` === step);
          if (topology === 'star' && ts.length > 1) expect(ts.at(-1)!.seat).toBe(s.layout.hub);
          if (topology === 'tree')
            for (const t of ts) {
              const parent = s.layout.parent[t.seat];
              const p = ts.find((x) => x.seat === parent);
              if (p) expect(p.seq).toBeLessThan(t.seq);
            }
        }
        // Early stop: full visibility converges in one round; the chain never reaches 0.75.
        if (topology === 'graph_mesh' || topology === 'star') expect(s.round).toBe(1);
        if (topology === 'chain') expect(s.round).toBe(3);
      });
});

describe('phases', () => {
  it('dehallucination is skipped at confidence ≥ 0.9 and otherwise runs at most 3 passes', () => {
    const skip = new Room(configFor({ task: { confidence: 0.95 } }));
    drive(skip);
    expect(skip.state.phases[0]).toMatchObject({ phase: 'dehallucination', skipped: 'confident', passes: 0 });
    const unsure = new Room(configFor({ coordination: 'adaptive' }));
    drive(unsure, { confidence: (c) => (c.phase === 'dehallucination' ? 0.3 : 0.92) });
    const d = unsure.state.phases.find((p) => p.phase === 'dehallucination' && p.round === 1)!;
    expect(d.passes).toBe(3);
    // Ambiguity 0.7 from dehallucination: adaptive picks dpde.
    expect(unsure.state.rounds.length).toBeGreaterThan(0);
    expect(unsure.state.turns.filter((t) => t.round === 1 && t.step === 'plan')).toHaveLength(6);
  });

  it('self_evolvement repeats once while a self-test fails (2 passes at most)', () => {
    const room = new Room(configFor());
    let now = T0;
    drive(room, { maxSteps: 6 }); // dehallucination, one pass of six
    expect(room.state.phase).toBe('self_evolvement');
    for (let pass = 1; pass <= 2; pass++)
      for (const seat of room.view({ kind: 'admin' }).waitingFor) {
        now = room.lastTs + 1000;
        room.must(
          seat,
          {
            type: 'evolve',
            selfTests: [{ check: 'compiles', passed: false }],
            content: 'x',
            confidence: 0.5,
          },
          now,
        );
      }
    expect(room.state.phase).toBe('proposal');
    expect(room.state.phases.find((p) => p.phase === 'self_evolvement')?.passes).toBe(2);
  });

  it('adversarial: red findings, blue patches, a second pass with no findings ends it', () => {
    const room = new Room(configFor());
    drive(room);
    const adv = room.state.turns.filter((t) => t.phase === 'adversarial' && t.round === 1);
    expect(room.state.phases.find((p) => p.phase === 'adversarial')?.passes).toBe(2);
    expect(adv.filter((t) => t.step === 'red').map((t) => t.seat)).toEqual(['eli', 'eli']);
    const blue = adv.find((t) => t.step === 'blue')!;
    expect(blue.seat).toBe('fay');
    expect(blue.action).toMatchObject({ type: 'blue', patches: [{ finding: 'eli/f1' }] });
  });

  it('adversarial stops after 3 passes while the risk stays high', () => {
    const room = new Room(configFor());
    drive(room, { findings: () => 1 });
    expect(room.state.phases.find((p) => p.phase === 'adversarial')?.passes).toBe(3);
  });

  it('a failed model call is a recorded failed turn, and the run goes on', () => {
    const room = new Room(configFor());
    drive(room, { fail: (c) => c.seat === 'ben' && c.phase === 'critique' });
    const t = room.state.turns.find((x) => x.seat === 'ben' && x.phase === 'critique')!;
    expect(t.action).toEqual({
      type: 'failed',
      error: { code: 'provider_error', message: 'scripted failure' },
      call: null,
    });
    expect(room.state.status).toBe('completed');
    expect(room.state.phases.find((p) => p.phase === 'critique')?.consensus?.responses).toBe(5);
  });

  it('a missed deadline writes PHASE_TIMEOUT failures; too few answers fail the session', () => {
    const seats = [
      { id: 'ana', role: 'architect', score: 9 },
      { id: 'ben', role: 'critic', score: 8 },
      { id: 'cai', role: 'reviewer', score: 7 },
    ];
    const room = new Room(configFor({}, seats));
    drive(room, { fail: (c) => c.seat === 'cai' && c.phase === 'convergence' });
    expect(room.state.status).toBe('failed');
    expect(room.state.failure?.code).toBe('PHASE_UNDERFILLED');
    const late = new Room(configFor({}, seats));
    late.advance(); // nobody answers dehallucination before the phase timeout
    const failed = late.state.turns.filter((t) => t.action.type === 'failed');
    expect(failed.map((t) => t.seat)).toEqual(['ana', 'ben', 'cai']);
    expect(failed[0]!.action).toMatchObject({ error: { code: 'PHASE_TIMEOUT' } });
    expect(late.state.status).toBe('failed');
  });

  it('a forfeiting seat is rebalanced out: a new layout, no more turns from it', () => {
    const room = new Room(configFor({ topology: 'chain' }));
    drive(room, { forfeit: { seat: 'ana', round: 1, phase: 'critique' } });
    const s = room.state;
    expect(s.status).toBe('completed');
    expect(s.active).not.toContain('ana');
    expect(s.layout.leader).toBe('ben');
    expect(s.layout.order).toEqual(
      ['ben', 'cai', 'dee', 'eli', 'fay'].sort(
        (a, b) => s.layout.order.indexOf(a) - s.layout.order.indexOf(b),
      ),
    );
    const after = s.forfeits[0]!.seq;
    expect(s.turns.some((t) => t.seat === 'ana' && t.seq > after)).toBe(false);
  });

  it('rejects out-of-turn, wrong-kind and hidden-target actions', () => {
    const room = new Room(configFor({ topology: 'chain', task: { confidence: 0.95 } }));
    expect(room.act('ben', { type: 'evolve', selfTests: [], content: 'x', confidence: 1 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_YOUR_TURN' },
    });
    expect(room.act('ana', { type: 'propose', content: 'x', confidence: 1 })).toMatchObject({
      ok: false,
      error: { code: 'WRONG_ACTION' },
    });
    expect(room.act('zed', { type: 'forfeit', reason: '' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_SEAT' },
    });
    expect(room.act(OPERATOR, { type: 'approve', reason: '' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_PAUSED' },
    });
    // In a chain, the third seat sees only the second: it may not critique the first's proposal.
    const r2 = new Room(configFor({ topology: 'chain', task: { confidence: 0.95 } }));
    while (!(r2.state.phase === 'critique')) drive(r2, { maxSteps: 1 });
    const third = r2.state.layout.order[2]!;
    while (r2.view({ kind: 'admin' }).waitingFor[0] !== third) drive(r2, { maxSteps: 1 });
    const r = r2.act(third, { type: 'critique', target: 'ana', points: [], content: 'x', confidence: 0.5 });
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_TARGET' } });
  });
});

describe('approval gates', () => {
  const gated = (patch: Record<string, unknown> = {}) =>
    new Room(
      configFor({
        gates: { phases: ['proposal'], reviewers: [OPERATOR, 'cai'], timeoutMs: 60_000, ...patch },
      }),
    );

  it('pause at the gate phase, refuse turns and outsiders, resume on approval', () => {
    const room = gated();
    while (room.state.status === 'running') drive(room, { maxSteps: 1 });
    const s = room.state;
    expect(s).toMatchObject({ status: 'paused', phase: 'proposal' });
    expect(s.gates.at(-1)).toMatchObject({ round: 1, phase: 'proposal', decision: null });
    expect(room.legal(OPERATOR).actions).toContainEqual({ type: 'approve' });
    expect(
      room.act('ana', { type: 'critique', target: null, points: [], content: 'x', confidence: 1 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'PAUSED' },
    });
    expect(room.act('ben', { type: 'approve', reason: 'me' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_AUTHORISED' },
    });
    room.must('cai', { type: 'approve', reason: 'proposals are sound' }, room.lastTs + 5000);
    expect(room.state).toMatchObject({ status: 'running', phase: 'critique' });
    expect(room.state.gates.at(-1)).toMatchObject({
      decision: 'approve',
      by: 'cai',
      reason: 'proposals are sound',
    });
    // Paused time does not count against the session.
    expect(room.state.sessionDeadline).toBe(s.sessionDeadline + 5000);
    drive(room);
    expect(room.state.status).toBe('completed');
  });

  it('a rejection cancels and records why', () => {
    const room = gated();
    drive(room, { gate: 'reject' });
    expect(room.state).toMatchObject({
      status: 'cancelled',
      cancellation: { by: OPERATOR, reason: 'looks fine' },
    });
    expect(deliberation.result(room.state)).toMatchObject({ status: 'cancelled' });
  });

  it('a gate timeout follows the policy', () => {
    const rejecting = gated();
    drive(rejecting, { gate: 'wait' });
    expect(rejecting.state).toMatchObject({ status: 'cancelled', cancellation: { by: 'timeout' } });
    const approving = gated({ onTimeout: 'approve' });
    drive(approving, { gate: 'wait' });
    expect(approving.state.status).toBe('completed');
    expect(approving.state.gates[0]).toMatchObject({ decision: 'approve', by: 'timeout' });
  });
});

describe('code versions and reflexion', () => {
  const code = () =>
    new Room(
      configFor({
        task: { kind: 'code', language: 'typescript', confidence: 0.95 },
        reflexion: { maxAttempts: 2 },
      }),
    );

  it('drafts carry code; versions are numbered with unified diffs; measurements are recorded as given', () => {
    const room = code();
    const reflection = {
      rootCause: 'off by one',
      whatWentWrong: 'a test failed',
      whatToChange: 'use <=',
      confidence: 0.7,
    };
    drive(room, {
      reflections: (c) => (c.kind === 'optimize' ? [reflection] : []),
      testResults: (c) => (c.kind === 'optimize' ? { passed: 3, failed: 1, output: '' } : null),
    });
    const v = room.state.codeVersions;
    expect(v.map((x) => x.version)).toEqual(v.map((_, i) => i + 1));
    expect(v[0]!.diff).toBeNull();
    const changed = v.find((x) => x.diff?.includes('+export') || x.diff?.includes('+// '))!;
    expect(changed.diff).toContain(`--- v${changed.version - 1}`);
    expect(changed.diff).toContain(`+++ v${changed.version}`);
    expect(v.every((x) => x.testPassRate === null)).toBe(true);
    const opt = room.state.turns.find((t) => t.action.type === 'optimize')!;
    expect(opt.action).toMatchObject({ reflections: [reflection], testResults: { passed: 3, failed: 1 } });
    expect(opt.codeVersion).not.toBeNull();
  });

  it('a code task refuses a draft without code and too many reflections; only the operator measures', () => {
    const room = code();
    while (room.state.phase !== 'proposal' || room.state.step !== 'work') drive(room, { maxSteps: 1 });
    const seat = room.view({ kind: 'admin' }).waitingFor[0]!;
    expect(room.act(seat, { type: 'propose', content: 'x', confidence: 1 })).toMatchObject({
      ok: false,
      error: { code: 'MISSING_CODE' },
    });
    const r = { rootCause: 'a', whatWentWrong: 'b', whatToChange: 'c', confidence: 0.5 };
    const draft = { type: 'propose', content: 'x', confidence: 1, code: { language: 'ts', source: 'x' } };
    expect(room.act(seat, { ...draft, reflections: [r, r, r] })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY_REFLECTIONS' },
    });
    const legal = (room.legal(seat).actions as LegalAction[]).find((a) => a.type === 'propose') as {
      tasks: string[];
    };
    room.must(seat, { ...draft, taskIds: legal.tasks, reflections: [r, r] }, room.lastTs + 1000);
    const m = { qualityScore: 0.8, testPassRate: 0.75, metrics: { complexity: 3 } };
    expect(room.act(seat, { type: 'measure', version: 1, measurement: m })).toMatchObject({
      ok: false,
      error: { code: 'NOT_AUTHORISED' },
    });
    expect(room.act(OPERATOR, { type: 'measure', version: 9, measurement: m })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_VERSION' },
    });
    room.must(OPERATOR, { type: 'measure', version: 1, measurement: m }, room.lastTs + 1000);
    expect(room.state.codeVersions[0]).toMatchObject({
      version: 1,
      qualityScore: 0.8,
      testPassRate: 0.75,
      metrics: { complexity: 3 },
    });
  });
});

describe('replay', () => {
  it('refolding the action log reproduces every state, and core refoldLog agrees', () => {
    const room = new Room(
      configFor({ topology: 'tree', coordination: 'dpde', gates: { phases: ['review'] } }),
    );
    const states: string[] = [];
    const orig = room.must.bind(room);
    room.must = (seat, action, now) => {
      const r = orig(seat, action, now);
      states.push(canonicalize(room.state));
      return r;
    };
    const origAdvance = room.advance.bind(room);
    room.advance = () => {
      const r = origAdvance();
      states.push(canonicalize(room.state));
      return r;
    };
    drive(room, {
      fail: (c) => c.seat === 'dee' && c.phase === 'review',
      forfeit: { seat: 'fay', round: 1, phase: 'optimization' },
    });
    expect(room.state.status).toBe('completed');
    const config = deliberation.configSchema.parse(
      configFor({ topology: 'tree', coordination: 'dpde', gates: { phases: ['review'] } }),
    );
    let state = deliberation.setup(config, { seats: deliberation.seats(config), seed: SEED, now: T0 });
    const inputs = room.inputs;
    expect(inputs).toHaveLength(states.length);
    inputs.forEach((e, i) => {
      if (e.kind === 'tick') state = deliberation.tick(state, e.now, e.seq)!.state;
      else {
        const r = deliberation.apply(state, {
          seat: e.actor,
          action: deliberation.actionSchema.parse(e.action),
          now: e.now,
          seq: e.seq,
        });
        if (!r.ok) throw new Error(`refold rejected seq ${e.seq}: ${r.error.code}`);
        state = r.state;
      }
      expect(canonicalize(state)).toBe(states[i]);
    });
    const again = refoldLog(
      JSON.parse(JSON.stringify(room.entries)),
      new Map([[deliberation.name, deliberation]]),
    );
    expect(again).toMatchObject({ ok: true, closed: true, problems: [] });
    expect(again.stateHash).toBe(room.stateHash());
  });

  it('the same seed gives the same run; the scripted chooser is deterministic', () => {
    const a = new Room(configFor({ topology: 'star' }));
    const b = new Room(configFor({ topology: 'star' }));
    drive(a);
    drive(b);
    expect(canonicalize(a.state)).toBe(canonicalize(b.state));
    expect(scriptedAction(a.view({ kind: 'seat', seat: 'ana' }), a.legal('ana'))).toBeNull(); // over: nothing to do
  });
});
