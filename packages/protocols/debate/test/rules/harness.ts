import { canonicalize, LocalRoom, type LoggedInput, type Stepped } from '@db8/core';
import {
  type DebateAction,
  type DebateConfigInput,
  type DebateState,
  type DebateView,
  debate,
  legalFor,
  type SubmitAction,
  submissionSha256,
} from '../../rules/index.ts';

/**
 * Debate tests run on core's LocalRoom: seqs from 1 (genesis is 0), actions parsed with the
 * protocol's schema, every state deep-frozen (a mutation throws), time never running back, and
 * the entries a server room would write (`log` lists the folded actions and ticks).
 */

export type LoggedEntry = LoggedInput & { action?: DebateAction };

export const SEED = 'cd'.repeat(32);

/** Short windows so hand-played debates read easily: times are ms from 0. */
export const baseConfig: DebateConfigInput = {
  topic: 'Should cities ban cars from their centres?',
  tags: ['urbanism', 'policy'],
  debaters: 5,
  judges: 3,
  viewers: 3,
  max_rounds: 2,
  timings: {
    research_ms: 1_000,
    submit_ms: 10_000,
    verify_ms: 5_000,
    continue_vote_ms: 3_000,
    final_submit_ms: 8_000,
    final_vote_ms: 6_000,
    results_ms: 2_000,
    reveal_ms: 2_000,
  },
};

export class Room extends LocalRoom<typeof debate> {
  constructor(config: DebateConfigInput = baseConfig, now = 0, seed = SEED) {
    super({ protocol: debate, config, seed, now });
  }

  get log(): LoggedEntry[] {
    return this.inputs as LoggedEntry[];
  }

  /** Expect a rejection with `code`, and that nothing changed. */
  refuse(seat: string, action: unknown, now: number): string {
    const before = this.state;
    const snapshot = canonicalize(before);
    const seq = this.nextSeq;
    const res = this.act(seat, action, now);
    if (res.ok) throw new Error(`${seat} ${JSON.stringify(action).slice(0, 80)} was accepted`);
    if (this.state !== before || canonicalize(this.state) !== snapshot || this.nextSeq !== seq) {
      throw new Error('a rejection changed the room');
    }
    return res.error.code;
  }

  /** Tick at the current deadline. */
  override advance(): Stepped<DebateState> {
    const d = debate.deadline(this.state);
    if (d === null) throw new Error('nothing is due');
    const t = this.tick(d);
    if (!t) throw new Error('tick at the deadline did nothing');
    return t;
  }

  seat(seat: string): DebateView {
    return this.view({ kind: 'seat', seat });
  }

  /** A valid submit action for `seat` in the open round (content and claims from `opts`). */
  submission(seat: string, opts: SubmissionOpts = {}): SubmitAction {
    const legal = legalFor(this.state, seat).actions.find((a) => a.type === 'submit');
    if (legal?.type !== 'submit') throw new Error(`${seat} cannot submit now`);
    const claims = opts.claims ?? [
      {
        id: 'c1',
        text: `${seat} claims that fewer cars mean cleaner air`,
        support: [{ kind: 'citation' as const, ref: 'https://example.org/air' }],
      },
    ];
    const a: SubmitAction = {
      type: 'submit',
      room_id: legal.room_id ?? 'room_test',
      round_id: legal.round_id,
      author_id: seat,
      phase: legal.phase,
      deadline_unix: legal.deadline_unix,
      content: opts.content ?? `${seat}: an argument about car-free centres.`,
      claims,
      citations: opts.citations ?? [
        { url: 'https://example.org/air', title: 'Air quality' },
        { url: 'https://example.org/traffic' },
      ],
      client_nonce: opts.nonce ?? `${seat}-${legal.round_id}-${legal.version + 1}`,
    };
    if (opts.concessions) a.concessions = opts.concessions;
    return a;
  }

  /** The fact-checker's verdict on `author`'s latest submission: one verdict for every claim. */
  verdictFor(author: string, verdicts: Record<string, 'true' | 'false' | 'unclear' | 'needs_work'> | string) {
    const sub = this.state.rounds[this.state.round - 1]?.slots[author]?.submission;
    if (!sub) throw new Error(`${author} has no submission`);
    return {
      type: 'verdict' as const,
      author,
      canonical_sha256: submissionSha256(sub.payload),
      claims: sub.payload.claims.map((c) => ({
        claim_id: c.id,
        verdict: (typeof verdicts === 'string' ? verdicts : (verdicts[c.id] ?? 'true')) as
          | 'true'
          | 'false'
          | 'unclear'
          | 'needs_work',
        reason: `checked ${c.id}`,
      })),
    };
  }
}

export interface SubmissionOpts {
  content?: string;
  claims?: SubmitAction['claims'];
  citations?: SubmitAction['citations'];
  concessions?: SubmitAction['concessions'];
  nonce?: string;
}

/** Every debater listed submits a default submission at `at` (one ms apart). */
export function submitAll(room: Room, seats: readonly string[], at: number): void {
  seats.forEach((seat, i) => {
    room.must(seat, room.submission(seat), at + i);
  });
}

/** The fact-checker gives `verdict` on every pending submission, from `at` (one ms apart). */
export function verifyAll(room: Room, at: number, verdict: 'true' | 'false' = 'true'): void {
  const round = room.state.rounds[room.state.round - 1]!;
  let t = at;
  for (const [seat, slot] of Object.entries(round.slots)) {
    if (slot.status === 'submitted') room.must('fact_checker', room.verdictFor(seat, verdict), t++);
  }
}

export const DEBATERS5 = ['anon_1', 'anon_2', 'anon_3', 'anon_4', 'anon_5'];

/** A room driven to the continue vote after round 1 (everyone submitted and verified). */
export function roomAtContinueVote(config: DebateConfigInput = baseConfig): Room {
  const room = new Room(config);
  room.advance(); // research → submit
  submitAll(room, DEBATERS5.slice(0, room.state.config.debaters), 2_000);
  room.advance(); // submit → verify
  verifyAll(room, 12_000);
  room.advance(); // publish
  return room;
}
