import { describe, expect, it } from 'vitest';
import {
  type DebateState,
  type DebateView,
  debate,
  extendChain,
  legalFor,
  submissionSha256,
  ZERO_CHAIN,
} from '../../rules/index.ts';
import { checkChain } from '../../web/chain-check.ts';
import { chartData, matchOrder } from '../../web/chart.ts';
import { readDebate } from '../../web/model.ts';

// The journal badge recomputes the round chain from the revealed content; here it runs on a real
// debate played through the protocol, then on views with one thing changed.

const config = debate.configSchema.parse({
  topic: 'Tabs or spaces?',
  debaters: 3,
  judges: 0,
  viewers: 0,
  max_rounds: 1,
  timings: { research_ms: 0, submit_ms: 1000, verify_ms: 1000, final_submit_ms: 1000 },
});

function play(): DebateView {
  let s: DebateState = debate.setup(config, { seats: debate.seats(config), seed: 'ab'.repeat(32), now: 0 });
  let seq = 1;
  const act = (seat: string, action: unknown, now: number) => {
    const r = debate.apply(s, { seat, action: debate.actionSchema.parse(action), now, seq: seq++ });
    if (!r.ok) throw new Error(`${seat}: ${r.error.code} ${r.error.message}`);
    s = r.state;
  };
  const tick = (now: number) => {
    const t = debate.tick(s, now, seq++);
    if (!t) throw new Error(`nothing due at ${now}`);
    s = t.state;
  };
  const submit = (seat: string, text: string, now: number) => {
    const l = legalFor(s, seat).actions.find((a) => a.type === 'submit');
    if (l?.type !== 'submit') throw new Error('no submit');
    act(
      seat,
      {
        type: 'submit',
        room_id: 'room_t',
        round_id: l.round_id,
        author_id: seat,
        phase: l.phase,
        deadline_unix: l.deadline_unix,
        content: text,
        claims: [{ id: 'c1', text: `${text} claim`, support: [{ kind: 'logic', ref: 'because' }] }],
        citations: [{ url: 'https://a.example/' }, { url: 'https://b.example/' }],
        client_nonce: `${seat}-${now}`,
      },
      now,
    );
  };
  // Round 1: anon_2 forfeits; the final round: everyone submits.
  submit('anon_1', 'Tabs', 10);
  submit('anon_3', 'Spaces', 20);
  tick(1000); // submit → verify
  tick(2000); // verify bound → published → (max rounds) final_submit
  submit('anon_1', 'Tabs again', 2010);
  submit('anon_2', 'Both', 2020);
  submit('anon_3', 'Spaces again', 2030);
  tick(3000);
  tick(4000); // final published → final vote
  return debate.view(s, { kind: 'observer' });
}

describe('checkChain', () => {
  const view = play();

  it('recomputes a real debate’s chain from the revealed content', () => {
    const r = checkChain(view);
    expect(r).toMatchObject({ ok: true, rounds: 2, submissions: 5 });
    // Independently: the head is the chain over the five hashes in round and seat order.
    const hashes = view.rounds.map((round) =>
      round.submissions.filter((x) => x.payload).map((x) => submissionSha256(x.payload!)),
    );
    const head = hashes.reduce((h, list) => extendChain(h, list), ZERO_CHAIN);
    expect(r.ok && r.head).toBe(head);
    expect(view.journal.chain).toBe(head);
  });

  it('fails when revealed content was changed', () => {
    const bad = structuredClone(view);
    bad.rounds[1]!.submissions[1]!.payload!.content = 'Neither';
    const r = checkChain(bad);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/anon_2's final round content does not hash/);
  });

  it('fails when a link is dropped or the head differs', () => {
    const dropped = structuredClone(view);
    dropped.rounds[0]!.chain!.links.pop();
    expect(checkChain(dropped).ok).toBe(false);
    const head = structuredClone(view);
    head.journal.chain = ZERO_CHAIN;
    expect(checkChain(head)).toEqual({ ok: false, reason: 'the room reports another chain head' });
  });

  it('readDebate accepts the protocol’s view and refuses something else', () => {
    const state = {
      room_id: 'room_t',
      seq: 9,
      protocol: 'debate',
      status: 'open',
      viewer: { kind: 'observer' as const },
      view,
      legal: { actions: [{ type: 'draft' }, { type: 'nonsense' }] },
      turn_token: null,
      deadline_unix: null,
      deadline_ms: null,
      protocol_version: '0.1',
    };
    const d = readDebate(state);
    expect(d?.view.phase).toBe('final_vote');
    expect(d?.legal).toEqual([{ type: 'draft' }]);
    expect(d?.problem).toMatch(/nonsense/);
    expect(readDebate({ ...state, view: { phase: 'bidding' } })).toBeNull();
  });
});

describe('rating chart geometry', () => {
  const series = [
    {
      identity: 'ada',
      points: [
        { match: 'r1', at: 100, before: 1500, after: 1512 },
        { match: 'r3', at: 300, before: 1512, after: 1500.5 },
      ],
    },
    { identity: 'bob', points: [{ match: 'r2', at: 200, before: 1500, after: 1488 }] },
  ];

  it('orders matches by time across identities', () => {
    expect(matchOrder(series)).toEqual(['r1', 'r2', 'r3']);
  });

  it('places each rating on a shared axis of debates, starting before its first match', () => {
    const m = chartData(series);
    expect(m.xCount).toBe(3);
    // A row per place on the axis: 0 (before the first match) then r1, r2, r3.
    expect(m.rows).toEqual([
      { x: 0, ada: 1500 },
      { x: 1, ada: 1512, bob: 1500 },
      { x: 2, bob: 1488 },
      { x: 3, ada: 1500.5 },
    ]);
    const [ada, bob] = m.lines;
    // A tooltip (and a dot) only where a match was rated, not at the start point.
    expect(Object.keys(ada!.labels)).toEqual(['1', '3']);
    expect(bob!.labels[2]).toBe('bob: 1488 (-12) after r2');
    expect(ada!.last).toBe(1500.5);
  });
});
