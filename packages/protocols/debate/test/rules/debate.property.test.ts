import { canonicalize, type Viewer } from '@db8/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DebateState,
  DebateStateSchema,
  type DebateView,
  DebateViewSchema,
  debate,
  REJECTION_CODES,
} from '../../rules/index.ts';
import { Room } from './harness.ts';
import {
  actionFor,
  type Config,
  catchUp,
  configArb,
  type Move,
  type Step,
  scriptArb,
  seatFor,
  viewersOf,
} from './properties.ts';

/**
 * Properties over random scripts: never throws and only refuses with typed codes; the barrier
 * (a round publishes only when every submission is settled); privacy (no view for anyone but the
 * author — or the fact-checker during verify — holds unpublished content, and views do not depend
 * on other debaters' secrets); atomic reveal (each published submission is revealed by exactly
 * one public entry, the round's publish entry, together with all the others); determinism.
 */

interface Trace {
  room: Room;
  outcomes: string[];
  views: string[][];
}

function run(
  config: Config,
  script: readonly Step[],
  secretFor: (seat: string) => string = () => 'sec',
  check?: (room: Room, before: DebateState, outcome: string, now: number) => void,
  viewers?: readonly Viewer[],
): Trace {
  const room = new Room(config, 1_000);
  const outcomes: string[] = [];
  const views: string[][] = [];
  let now = 1_000;
  for (const step of script) {
    now += step.dt;
    // `play` steps come after a punctual watcher; `act` steps may arrive late (PHASE_CLOSED).
    if (step.t === 'play') catchUp(room, now);
    const before = room.state;
    let outcome: string;
    if (step.t === 'tick') {
      outcome = room.tick(now) ? 'tick' : 'tick-idle';
    } else {
      const seat = seatFor(room, config, step as Move);
      const parsed = debate.actionSchema.safeParse(actionFor(room, seat, step as Move, secretFor(seat)));
      if (!parsed.success) outcome = 'BAD_ACTION';
      else {
        const res = room.act(seat, parsed.data, now);
        outcome = res.ok ? 'ok' : res.error.code;
      }
    }
    outcomes.push(outcome);
    check?.(room, before, outcome, now);
    if (viewers) views.push(viewers.map((v) => canonicalize(normalize(room.view(v)))));
  }
  return { room, outcomes, views };
}

/** A view with published content (which legitimately differs between secret variants) removed. */
function normalize(view: DebateView): unknown {
  return {
    ...view,
    journal: { ...view.journal, chain: '' },
    results: view.results ? { ...view.results, chain: '' } : null,
    rounds: view.rounds.map((r) => ({
      ...r,
      chain: null,
      submissions: r.submissions.map((s) =>
        r.published_at === null ? s : { author: s.author, status: s.status, version: s.version, seq: s.seq },
      ),
    })),
  };
}

const RUNS = { numRuns: 100 };

describe('debate: properties over random scripts', () => {
  it('never throws, refuses only with typed codes, and keeps its invariants (barrier, privacy)', () => {
    let reachedResults = 0;
    let published = 0;
    fc.assert(
      fc.property(configArb, scriptArb, (config, script) => {
        const viewers = viewersOf(config);
        const t = run(config, script, undefined, (room, before, outcome, now) => {
          const state = room.state;
          if (outcome !== 'ok' && outcome !== 'tick' && outcome !== 'tick-idle' && outcome !== 'BAD_ACTION') {
            expect(REJECTION_CODES).toContain(outcome);
            expect(state).toBe(before);
            return;
          }
          if (outcome === 'tick' || outcome === 'tick-idle')
            expect(debate.tick(state, now, room.nextSeq)).toBeNull();
          if (state === before) return;
          expect(DebateStateSchema.safeParse(state).success).toBe(true);
          expect(debate.isOver(state)).toBe(debate.result(state) !== null);
          expect(debate.deadline(state) === null).toBe(debate.isOver(state));
          // Barrier: a published round has no submission waiting for a verdict, and no empty slot.
          for (const r of state.rounds) {
            if (r.published_at === null) continue;
            for (const slot of Object.values(r.slots)) {
              expect(['verified', 'rejected', 'forfeit']).toContain(slot.status);
            }
          }
          // Privacy: unpublished text appears in no view but its author's (and the fact-checker's
          // during verify, and admins').
          const secrets: { author: string; text: string; submitted: boolean }[] = [];
          for (const r of state.rounds) {
            if (r.published_at !== null) continue;
            for (const [author, slot] of Object.entries(r.slots)) {
              if (slot.submission)
                secrets.push({ author, text: slot.submission.payload.content, submitted: true });
              if (slot.draft) secrets.push({ author, text: slot.draft.content, submitted: false });
            }
          }
          const verifying = state.phase === 'verify' || state.phase === 'final_verify';
          for (const viewer of viewers) {
            const view = debate.view(state, viewer);
            expect(DebateViewSchema.safeParse(view).success).toBe(true);
            const text = canonicalize(view);
            if (viewer.kind === 'seat') canonicalize(debate.legal(state, viewer.seat));
            if (viewer.kind === 'admin') continue;
            const seat = viewer.kind === 'seat' ? viewer.seat : null;
            for (const s of secrets) {
              if (s.author === seat) continue;
              if (seat === 'fact_checker' && verifying && s.submitted) continue;
              expect(text.includes(s.text)).toBe(false);
            }
            // Sealed ballots: before results a voter sees only their own.
            if (state.results === null) {
              expect(Object.keys(view.final_vote.ballots).every((v) => v === seat)).toBe(true);
              expect(Object.keys(view.judging.cards).every((v) => v === seat)).toBe(true);
            }
          }
        });
        if (t.room.state.results) reachedResults += 1;
        if (t.room.state.rounds.some((r) => r.published_at !== null)) published += 1;
      }),
      RUNS,
    );
    // The scripts must actually reach the late phases for the properties to mean something.
    expect(published).toBeGreaterThan(RUNS.numRuns * 0.8);
    expect(reachedResults).toBeGreaterThan(RUNS.numRuns * 0.4);
  });

  it('atomic reveal: each published round reveals every latest submission at one public seq', () => {
    fc.assert(
      fc.property(configArb, scriptArb, (config, script) => {
        const { room } = run(config, script);
        const bySeq = new Map(room.log.map((e) => [e.seq, e]));
        const revealedAt = new Map<number, number>();
        for (const e of room.log) {
          if (!e.reveal) continue;
          expect(e.visibility).toBeUndefined(); // only public entries reveal
          for (const seq of e.reveal) {
            expect(revealedAt.has(seq)).toBe(false); // revealed once, ever
            revealedAt.set(seq, e.seq);
            const sealed = bySeq.get(seq);
            expect(sealed?.visibility?.kind).toBe('seat'); // it names an earlier sealed entry
            expect(seq).toBeLessThan(e.seq);
          }
        }
        for (const r of room.state.rounds) {
          if (r.published_seq === null) continue;
          const latest = Object.values(r.slots)
            .filter((s) => s.submission && s.status !== 'forfeit')
            .flatMap((s) => [s.submission!.seq, ...(s.verdict?.seq != null ? [s.verdict.seq] : [])]);
          for (const seq of latest) expect(revealedAt.get(seq)).toBe(r.published_seq);
          expect(r.revealed).toEqual([...latest].sort((a, b) => a - b));
          expect(bySeq.get(r.published_seq)?.milestone).toMatch(/published$/);
        }
        // Drafts are never revealed.
        for (const e of room.log) if (e.action?.type === 'draft') expect(revealedAt.has(e.seq)).toBe(false);
      }),
      RUNS,
    );
  });

  it('non-interference: changing other debaters’ secret text changes no one else’s view', () => {
    fc.assert(
      fc.property(configArb, scriptArb, fc.nat({ max: 3 }), (config, script, f) => {
        const focus = `anon_${(f % config.debaters) + 1}`;
        const viewers: Viewer[] = [
          { kind: 'seat', seat: focus },
          { kind: 'seat', seat: 'moderator' },
          { kind: 'seat', seat: 'judge_1' },
          { kind: 'seat', seat: 'viewer_1' },
          { kind: 'observer' },
        ];
        const a = run(config, script, () => 'alpha', undefined, viewers);
        const b = run(config, script, (seat) => (seat === focus ? 'alpha' : 'omega'), undefined, viewers);
        expect(b.outcomes).toEqual(a.outcomes);
        expect(b.views).toEqual(a.views);
      }),
      { numRuns: 50 },
    );
  });

  it('a planted leak is caught by the non-interference check', () => {
    // Sanity check of the check itself: a view that shows other debaters' unpublished text fails it.
    const config = { topic: 't', debaters: 2, judges: 0, viewers: 0, timings: { research_ms: 0 } } as Config;
    const step = (who: number): Step => ({ t: 'play', who, kind: 'submit', k: 0, pick: 0, flag: 0, dt: 1 });
    const a = run(config, [step(0), step(1)], () => 'alpha');
    const b = run(config, [step(0), step(1)], (s) => (s === 'anon_1' ? 'alpha' : 'omega'));
    const focus: Viewer = { kind: 'seat', seat: 'anon_1' };
    const leaky = (state: DebateState) => ({
      ...debate.view(state, focus),
      leak: state.rounds.map((r) => Object.values(r.slots).map((s) => s.submission?.payload.content ?? null)),
    });
    const same = (x: unknown, y: unknown) => canonicalize(x) === canonicalize(y);
    expect(
      same(normalize(debate.view(a.room.state, focus)), normalize(debate.view(b.room.state, focus))),
    ).toBe(true);
    expect(
      same(
        { ...(normalize(leaky(a.room.state)) as object), leak: leaky(a.room.state).leak },
        { ...(normalize(leaky(b.room.state)) as object), leak: leaky(b.room.state).leak },
      ),
    ).toBe(false);
    expect(canonicalize(leaky(b.room.state)).includes('omega')).toBe(true);
    expect(canonicalize(debate.view(b.room.state, focus)).includes('omega')).toBe(false);
  });

  it('determinism: the same script gives the same log and state; refolding the log reproduces it', () => {
    fc.assert(
      fc.property(configArb, scriptArb, (config, script) => {
        const a = run(config, script);
        const b = run(config, script);
        expect(canonicalize(b.room.state)).toBe(canonicalize(a.room.state));
        expect(b.room.log).toEqual(a.room.log);
        // Refold only what the log recorded.
        const parsed = debate.configSchema.parse(config);
        let state = debate.setup(parsed, { seats: debate.seats(parsed), seed: 'cd'.repeat(32), now: 1_000 });
        for (const e of a.room.log) {
          if (e.kind === 'tick') state = debate.tick(state, e.now, e.seq)!.state;
          else {
            const r = debate.apply(state, { seat: e.actor, action: e.action!, now: e.now, seq: e.seq });
            if (!r.ok) throw new Error(`refold rejected seq ${e.seq}: ${r.error.code}`);
            state = r.state;
          }
        }
        expect(canonicalize(state)).toBe(canonicalize(a.room.state));
      }),
      { numRuns: 60 },
    );
  });
});
