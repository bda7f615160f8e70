// draft.json between rounds: `db8 draft open` keeps the author's text but not last round's
// concessions, and flags a claim conceded twice in one draft.

import { describe, expect, it } from 'vitest';
import { carryDraft, draftProblems } from '../../cli/draft.ts';
import type { LegalAction } from '../../rules/index.ts';

type SubmitLegal = Extract<LegalAction, { type: 'submit' }>;

const legal = (round_id: string): SubmitLegal => ({
  type: 'submit',
  room_id: 'room_1',
  round_id,
  author_id: 'anon_1',
  phase: 'ARGUMENT',
  deadline_unix: 1_800_000_000,
  version: 0,
  content_max: 4000,
  claims_max: 5,
  citations_min: 2,
  signatures: 'optional',
});

const CONCEDE = { round: 1, author: 'anon_2', claim_id: 'c1' };
const draft = {
  room_id: 'room_1',
  round_id: 'r1',
  author_id: 'anon_1',
  phase: 'OPENING',
  deadline_unix: 1_700_000_000,
  content: 'my argument',
  claims: [{ id: 'c1', text: 'a claim', support: [{ kind: 'citation', ref: 'https://a.example' }] }],
  citations: [{ url: 'https://a.example' }, { url: 'https://b.example' }],
  concessions: [CONCEDE],
};

describe('draft.json carried between rounds', () => {
  it('a new round keeps the text and drops the concessions; the same round keeps them', () => {
    const next = carryDraft(draft, legal('r2'), 'room_1');
    expect(next.dropped).toBe(true);
    expect(next.draft).not.toHaveProperty('concessions');
    expect(next.draft).toMatchObject({ round_id: 'r2', phase: 'ARGUMENT', content: 'my argument' });

    const same = carryDraft(draft, legal('r1'), 'room_1');
    expect(same).toMatchObject({ dropped: false, draft: { concessions: [CONCEDE] } });
  });

  it('a claim conceded twice in one draft is a problem to fix before submitting', () => {
    expect(draftProblems(draft)).toEqual([]);
    expect(
      draftProblems({ ...draft, concessions: [CONCEDE, { ...CONCEDE, note: 'again' }] }, legal('r1')),
    ).toContain('concessions: the same claim is conceded more than once (it counts once)');
  });
});
