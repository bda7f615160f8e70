// Seed 000's typed realtime events over SSE `GET /events?room_id=` (read with fetch) and the
// WebSocket: phase, timer, submission and vote in order with the seed's fields, each viewer seeing
// only what its view allows; presence and typing from two sockets; the stream ends with the room.
import { Db8Client, type Db8Socket, type ServerMessage } from '@db8/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../../../../../test/patience.ts';
import { type DebateEvent, DebateEventSchema, type DebateView } from '../../rules/index.ts';
import { debateServer, TIMINGS } from './debate-harness.ts';
import { readSse, type SseEvent } from './sse-reader.ts';

let s: Awaited<ReturnType<typeof debateServer>>;
let base: string;
beforeAll(async () => {
  s = await debateServer();
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = s.app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await s.close();
});

/** Every event parses with the one schema, under the SSE event name its `t` gives. */
function typed(events: readonly SseEvent[]): DebateEvent[] {
  return events.map((e) => {
    const ev = DebateEventSchema.parse(e.data);
    expect(e.event).toBe(ev.t);
    return ev;
  });
}

const of = <T extends DebateEvent['t']>(evs: readonly DebateEvent[], t: T) =>
  evs.filter((e): e is Extract<DebateEvent, { t: T }> => e.t === t);

describe('debate realtime events', () => {
  it('streams phase, timer, submission and vote over SSE as each viewer may see them, and ends when the room closes', async () => {
    const room = await s.createDebate({ max_rounds: 2, timings: TIMINGS });
    const seats = await s.seatEveryone(room.room_id);
    const url = `${base}/events?room_id=${room.room_id}`;
    const observer = await readSse(url);
    const debater = await readSse(url, { authorization: `Bearer ${seats.get('anon_2')!.token}` });
    expect([observer.status, debater.status]).toEqual([200, 200]);

    // The first tick of the room's ticker carries the server's deadline, as REST states it.
    const timer = (await observer.next((e) => e.event === 'timer')).data as Extract<
      DebateEvent,
      { t: 'timer' }
    >;
    const st = await s.call('GET', `/v1/rooms/${room.room_id}/state`);
    const view = st.body.view as DebateView;
    expect(timer).toEqual({
      t: 'timer',
      room_id: room.room_id,
      round_id: view.rounds[0]!.round_id,
      ends_unix: st.body.deadline_unix,
    });

    await s.playToClose(room.room_id, seats);
    await Promise.all([observer.ended, debater.ended]);
    const end = await s.call('GET', `/v1/rooms/${room.room_id}/state`, { token: s.admin });
    const final = end.body.view as DebateView;

    for (const [reader, me] of [
      [observer, null],
      [debater, 'anon_2'],
    ] as const) {
      const evs = typed(reader.events);
      // Connected: the phase, then presence; the last event is the phase that closed the room.
      expect(evs[0]).toMatchObject({ t: 'phase', room_id: room.room_id, phase: 'submit', idx: 1 });
      expect(evs.find((e) => e.t === 'presence')).toMatchObject({ room_id: room.room_id });
      expect(evs.at(-1)).toMatchObject({ t: 'phase', phase: 'results', state: 'closed' });

      // The state at connect, then every state the room went through, in order, once each (the
      // history is the reference; the room had not moved between connecting and the REST read).
      const phases = of(evs, 'phase');
      expect(phases.map((p) => [p.state, p.idx])).toEqual(
        final.history.slice(view.history.length - 1).map((h) => [h.phase, h.round]),
      );
      for (const p of of(evs, 'phase')) {
        const r = final.rounds[p.idx - 1]!;
        expect(p.round_id).toBe(r.round_id);
        expect(p.submit_deadline_unix).toBe(r.deadline_unix);
      }

      // Submissions: before their round is published only the author's own carries its hash.
      const publishedAt = (idx: number) =>
        evs.findIndex((e) => e.t === 'phase' && e.idx === idx && e.phase === 'published');
      for (const r of final.rounds) {
        const subs = of(evs, 'submission').filter((e) => e.round_id === r.round_id);
        const pub = publishedAt(r.index);
        expect(pub).toBeGreaterThan(0);
        const before = subs.filter((e) => evs.indexOf(e) < pub);
        expect(before.length).toBeGreaterThan(0);
        for (const e of before) {
          if (e.author_id === me)
            expect(e.canonical_sha256).toBe(r.submissions.find((x) => x.author === me)!.canonical_sha256);
          else expect(e.canonical_sha256).toBeNull();
        }
        // Revealed at publication: every published submission's hash, as the final view has it.
        for (const row of r.submissions.filter((x) => x.status === 'verified' || x.status === 'rejected')) {
          expect(
            subs.some((e) => e.author_id === row.author && e.canonical_sha256 === row.canonical_sha256),
          ).toBe(true);
        }
      }

      // Votes: each continue vote and final ballot once, after the phase that opened it.
      const votes = of(evs, 'vote');
      const cont = votes.filter((v) => v.kind === 'continue');
      const expected = final.rounds.flatMap((r) =>
        (r.continue_vote?.voted ?? []).map((v) => `${r.round_id}:${v}`),
      );
      expect(cont.map((v) => `${v.round_id}:${v.voter_id}`).sort()).toEqual(expected.sort());
      expect(
        votes
          .filter((v) => v.kind === 'approval')
          .map((v) => v.voter_id)
          .sort(),
      ).toEqual(final.final_vote.voted);
      const finalVoteAt = evs.findIndex((e) => e.t === 'phase' && e.state === 'final_vote');
      for (const v of votes.filter((v) => v.kind === 'approval'))
        expect(evs.indexOf(v)).toBeGreaterThan(finalVoteAt);
      for (const v of cont) {
        const r = final.rounds.find((x) => x.round_id === v.round_id)!;
        expect(evs.indexOf(v)).toBeGreaterThan(publishedAt(r.index));
      }
    }

    // A closed room's stream is empty: 204, so an EventSource stops reconnecting.
    const again = await fetch(`${base}/events?room_id=${room.room_id}`);
    expect(again.status).toBe(204);
  });

  it('refuses an unknown room and a bad query in the error shape', async () => {
    const missing = await fetch(`${base}/events?room_id=nope-nope`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBeTypeOf('string');
    const bad = await fetch(`${base}/events`);
    expect(bad.status).toBe(400);
  });
});

describe('presence and typing over the WebSocket', () => {
  const sockets: Db8Socket[] = [];
  afterAll(() => {
    for (const k of sockets) k.close();
  });

  async function open(token: string) {
    const k = await new Db8Client({ baseUrl: base, token }).socket({ timeoutMs: PATIENCE_MS });
    sockets.push(k);
    return k;
  }
  const events = (k: Db8Socket, t: string) =>
    k.received
      .filter((m): m is Extract<ServerMessage, { type: 'event' }> => m.type === 'event')
      .map((m) => m.payload as DebateEvent)
      .filter((e) => e.t === t);
  const lastPresence = (k: Db8Socket) =>
    events(k, 'presence').at(-1) as Extract<DebateEvent, { t: 'presence' }>;

  it('shows who is connected per seat, who joins and leaves, and who is typing', async () => {
    const room = await s.createDebate({ timings: TIMINGS });
    const seats = await s.seatEveryone(room.room_id);
    const a = await open(seats.get('anon_1')!.token);
    await a.request('subscribe', { room_id: room.room_id, events: true });
    await expect.poll(() => lastPresence(a)?.who.map((w) => w.participant_id)).toEqual(['anon_1']);

    const b = await open(seats.get('anon_4')!.token);
    await b.request('subscribe', { room_id: room.room_id, events: true });
    await expect.poll(() => lastPresence(a)?.who.map((w) => w.participant_id)).toEqual(['anon_1', 'anon_4']);
    // The same events reach b, typed by the one schema.
    await expect.poll(() => lastPresence(b)?.who.map((w) => w.participant_id)).toEqual(['anon_1', 'anon_4']);
    for (const m of b.received.filter((m) => m.type === 'event')) DebateEventSchema.parse(m.payload);
    expect(events(b, 'phase')[0]).toMatchObject({ t: 'phase', room_id: room.room_id, phase: 'submit' });

    // b types: a hears who, until when; a second signal at once is dropped (rate-limited).
    b.typing(room.room_id);
    b.typing(room.room_id);
    await expect.poll(() => lastPresence(a)?.typing).toEqual(['anon_4']);
    const typing = events(a, 'typing');
    expect(typing).toHaveLength(1);
    expect(typing[0]).toMatchObject({ room_id: room.room_id, participant_id: 'anon_4' });

    // An observer (no seat) may not signal typing.
    const watcher = await new Db8Client({ baseUrl: base }).socket({ timeoutMs: PATIENCE_MS });
    sockets.push(watcher);
    await watcher.request('subscribe', { room_id: room.room_id, events: true });
    await expect(watcher.request('typing', { room_id: room.room_id })).rejects.toMatchObject({
      code: 'NOT_A_SEAT',
    });

    // b leaves: a sees it gone, typing with it.
    b.close();
    await expect.poll(() => lastPresence(a)?.who.map((w) => w.participant_id)).toEqual(['anon_1']);
    expect(lastPresence(a).typing).toEqual([]);
  });
});
