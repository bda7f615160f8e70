import { createProtocolRegistry, LocalRoom, refoldLog } from '@db8/core';
import { describe, expect, it } from 'vitest';
import { type ArenaState, arena, type Match, pairKey, standingsOf } from '../../rules/index.ts';
import { btOutcome, config, HEAD, play, result } from './harness.ts';

const pairsOf = (ms: readonly Match[]) =>
  ms.flatMap((m) => m.entrants.flatMap((a, i) => m.entrants.slice(i + 1).map((b) => pairKey(a, b))));

describe('arena schedule', () => {
  it('round robin: every pair once, then again with the seats swapped', () => {
    const once = play(config(), btOutcome({ ann: 1, bob: 1, cy: 1, dee: 1 }));
    expect(once.state.matches).toHaveLength(6);
    expect(new Set(pairsOf(once.state.matches)).size).toBe(6);
    const twice = play(
      config({ format: { kind: 'round-robin', games: 2 } }),
      btOutcome({ ann: 1, bob: 1, cy: 1, dee: 1 }),
    );
    const [m1, m2] = twice.state.matches;
    expect(m2!.entrants).toEqual([...m1!.entrants].reverse());
    expect(new Set(twice.state.matches.map((m) => m.seed)).size).toBe(12);
  });

  it('duplicate poker: each set is one seed played once per seat rotation', () => {
    const room = play(
      config({
        game: 'poker',
        format: { kind: 'duplicate-poker', deals: 3 },
        entrants: config().entrants!.slice(0, 2),
      }),
      (m) => m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: i === 0 ? 50 : -50 })),
    );
    const ms = room.state.matches;
    expect(ms).toHaveLength(6);
    expect(ms[0]!.set).toBe(ms[1]!.set);
    expect(ms[0]!.seed).toBe(ms[1]!.seed);
    expect(ms[1]!.entrants).toEqual([...ms[0]!.entrants].reverse());
    expect(ms[2]!.seed).not.toBe(ms[0]!.seed);
    // Seat 0 always wins 50: summed over a set the luck of the seat cancels, so every set is a draw.
    const rows = standingsOf(room.state).rows;
    expect(rows.map((r) => [r.score, r.draws, r.wins])).toEqual([
      [0, 3, 0],
      [0, 3, 0],
    ]);
  });

  it('swiss never pairs two entrants twice while a fresh pairing exists (8 entrants, 5 rounds, 30 draws)', () => {
    const entrants = 'abcdefgh'.split('').map((name) => ({ name, kind: 'person' as const }));
    for (let s = 0; s < 30; s++) {
      const strength = Object.fromEntries(entrants.map((e, i) => [e.name, 1 + ((i * 7 + s) % 5)]));
      const room = play(
        config({ entrants, format: { kind: 'swiss', rounds: 5 }, bootstrap: 0 }),
        btOutcome(strength, `s${s}`),
      );
      const pairs = pairsOf(room.state.matches);
      expect(room.state.matches).toHaveLength(20);
      expect(new Set(pairs).size).toBe(pairs.length);
    }
  });

  it('swiss with an odd field gives each bye to a different entrant', () => {
    const entrants = 'abcde'.split('').map((name) => ({ name, kind: 'person' as const }));
    const room = play(
      config({ entrants, format: { kind: 'swiss', rounds: 5 }, bootstrap: 0 }),
      btOutcome({ a: 5, b: 4, c: 3, d: 2, e: 1 }),
    );
    const rows = standingsOf(room.state).rows;
    expect(rows.map((r) => r.byes).sort()).toEqual([1, 1, 1, 1, 1]);
  });

  it('swiss pairs leaders with leaders: round 2 puts the two round-1 winners together', () => {
    const room = play(config({ format: { kind: 'swiss', rounds: 2 }, bootstrap: 0 }), (m) =>
      m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: 0 })),
    );
    const r2 = room.state.matches.filter((m) => m.round === 2);
    expect(r2[0]!.entrants).toEqual(['ann', 'cy']);
  });
});

describe('arena fold', () => {
  const strong = { ann: 8, bob: 4, cy: 2, dee: 1 };

  it('is deterministic: the same inputs give the same state, root and standings (intervals included)', () => {
    const cfg = config({ format: { kind: 'round-robin', games: 6 } });
    const a = play(cfg, btOutcome(strong));
    const b = play(cfg, btOutcome(strong));
    expect(a.stateHash()).toBe(b.stateHash());
    expect(a.leaves.at(-1)).toBe(b.leaves.at(-1));
    expect(standingsOf(a.state)).toEqual(standingsOf(b.state));
    expect(a.result()).toEqual(standingsOf(a.state));
  });

  it('a refold of the log (as db8 verify does) gives the same standings', () => {
    const room = play(config({ format: { kind: 'round-robin', games: 4 } }), btOutcome(strong));
    const r = refoldLog(room.entries, createProtocolRegistry([arena]));
    expect(r.problems).toEqual([]);
    expect(standingsOf(r.state as ArenaState)).toEqual(standingsOf(room.state));
  });

  it('ranks a stronger field in order once there are games enough, and says where it cannot yet', () => {
    const many = play(config({ format: { kind: 'round-robin', games: 40 } }), btOutcome(strong));
    const rows = standingsOf(many.state).rows;
    expect(rows.map((r) => r.entrant)).toEqual(['ann', 'bob', 'cy', 'dee']);
    expect(rows[0]!.ci![0]).toBeLessThan(rows[0]!.rating);
    expect(rows[0]!.clearOfNext).toBe(true);
    const few = play(config(), btOutcome(strong));
    expect(standingsOf(few.state).rows.some((r) => r.clearOfNext)).toBe(false);
  });

  it('tampering one result changes the root hash', () => {
    const cfg = config();
    const honest = play(cfg, btOutcome(strong));
    const flipped = play(cfg, (m) => {
      const p = btOutcome(strong)(m);
      return m.id === 'm3' ? p.map((x) => ({ ...x, place: 3 - x.place })) : p;
    });
    expect(flipped.leaves.at(-1)).not.toBe(honest.leaves.at(-1));
    expect(flipped.stateHash()).not.toBe(honest.stateHash());
  });

  it('refuses a hand-picked schedule, a second report, strangers and a result out of seat order', () => {
    const room = new LocalRoom({ protocol: arena, config: config(), seed: 'ab'.repeat(32), now: 0 });
    const due = room.legal('organizer').actions[0] as { round: number; matches: Match[] };
    const swapped = [
      { ...due.matches[0]!, entrants: [...due.matches[0]!.entrants].reverse() },
      ...due.matches.slice(1),
    ];
    const code = (r: ReturnType<typeof room.act>) => (r.ok ? 'ok' : r.error.code);
    expect(code(room.act('organizer', { type: 'schedule', round: 1, matches: swapped }))).toBe(
      'SCHEDULE_MISMATCH',
    );
    expect(code(room.act('organizer', { type: 'schedule', round: 1, matches: due.matches }))).toBe('ok');
    expect(code(room.act('organizer', { type: 'schedule', round: 1, matches: due.matches }))).toBe('NOT_DUE');
    const m = due.matches[0]!;
    const ok = m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: 0 }));
    expect(code(room.act('organizer', result(m, [...ok].reverse())))).toBe('WRONG_ENTRANTS');
    expect(code(room.act('organizer', result({ ...m, id: 'nope' }, ok)))).toBe('UNKNOWN_MATCH');
    expect(code(room.act('organizer', result(m, ok)))).toBe('ok');
    expect(code(room.act('organizer', result(m, ok)))).toBe('ALREADY_REPORTED');
    expect(HEAD.size).toBe(3);
  });

  it('a partly reported duplicate set does not count yet', () => {
    const room = new LocalRoom({
      protocol: arena,
      config: config({
        game: 'poker',
        format: { kind: 'duplicate-poker', deals: 1 },
        entrants: config().entrants!.slice(0, 2),
      }),
      seed: 'ab'.repeat(32),
      now: 0,
    });
    const due = room.legal('organizer').actions[0] as { round: number; matches: Match[] };
    room.must('organizer', { type: 'schedule', ...due });
    const m = due.matches[0]!;
    room.must(
      'organizer',
      result(
        m,
        m.entrants.map((entrant, i) => ({ entrant, place: i + 1, score: 10 - 20 * i })),
      ),
    );
    expect(standingsOf(room.state).sets).toBe(0);
  });
});
