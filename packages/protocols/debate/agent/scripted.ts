import type { DebateAction, DebateView, LegalAction, SubmitAction, VerdictValue } from '../rules/index.ts';

/**
 * Scripted debate participants (the demo, the end-to-end test and the benchmark): no model call,
 * a fixed script that reads only what its seat may see (its view and legal actions) and answers
 * with actions. Every text they write says `[scripted]`, so nothing they write is mistaken for an
 * argument. Pure: the same view gives the same decisions.
 *
 * Each decision carries a `key` naming it (`submit:<round_id>`, `vote:<round>`, …): a driver sends
 * each key once (and may use it as the idempotency key), since the view that shows the decision
 * was taken can arrive after the next state push.
 */

export interface ScriptedDecision {
  key: string;
  action: DebateAction;
}

export interface ScriptOptions {
  /** Debaters in the order the script's voters prefer them (default anon_3, anon_1, anon_5, …). */
  preference?: readonly string[];
  /** The fact-checker marks this claim `false` (rejecting its submission): `<author>:<round>:<claim>`. */
  falseClaim?: string;
  /** Continue-vote choice per debater (default: odd seats continue, even seats end). */
  continueVote?: (seat: string, round: number) => 'continue' | 'end';
}

const SCRIPTED = '[scripted]';

function seatNumber(seat: string): number {
  const m = /_(\d+)$/.exec(seat);
  return m ? Number(m[1]) : 0;
}

/** Default preference: a fixed order, so a scripted debate has a predictable winner. */
export function defaultPreference(debaters: readonly string[]): string[] {
  const order = [3, 1, 5, 2, 4];
  const known = order.map((i) => `anon_${i}`).filter((s) => debaters.includes(s));
  return [...known, ...debaters.filter((s) => !known.includes(s))];
}

/** The body of a scripted submission (no signature: the driver signs `submissionBytes`). */
export function scriptedSubmission(view: DebateView, legal: Extract<LegalAction, { type: 'submit' }>) {
  const seat = legal.author_id;
  const round = view.round;
  const stance = seatNumber(seat) % 2 === 1 ? 'for' : 'against';
  const content =
    `${SCRIPTED} ${seat}, ${legal.phase.toLowerCase()} (round ${round}): argues ${stance} the motion ` +
    `"${view.config.topic}". This text is a fixed script, not an argument.`;
  const claims = [1, 2].map((i) => ({
    id: `c${i}`,
    text: `${SCRIPTED} claim ${i} of ${seat} in round ${round}`,
    support: [{ kind: 'citation' as const, ref: `https://example.org/db8/scripted/${seat}/${round}/${i}` }],
    confidence: 60 + ((seatNumber(seat) * 7 + i * 11) % 35),
  }));
  const citations = [1, 2].map((i) => ({
    url: `https://example.org/db8/scripted/${seat}/${round}/${i}`,
    title: `${SCRIPTED} source ${i}`,
  }));
  const action: SubmitAction = {
    type: 'submit',
    room_id: legal.room_id ?? '',
    round_id: legal.round_id,
    author_id: seat,
    phase: legal.phase,
    deadline_unix: legal.deadline_unix,
    content: content.slice(0, legal.content_max),
    claims: claims.slice(0, legal.claims_max),
    citations,
    client_nonce: `scripted:${legal.round_id}:${seat}:v${legal.version + 1}`,
  };
  return action;
}

function verdictFor(author: string, round: number, claimId: string, falseClaim?: string): VerdictValue {
  if (falseClaim === `${author}:${round}:${claimId}`) return 'false';
  return (seatNumber(author) + round + claimId.length) % 4 === 0 ? 'unclear' : 'true';
}

/** What the script does now for `seat`, given its view and legal actions. */
export function scriptedDecisions(
  seat: string,
  view: DebateView,
  legal: readonly LegalAction[],
  opts: ScriptOptions = {},
): ScriptedDecision[] {
  const out: ScriptedDecision[] = [];
  const round = view.rounds[view.round - 1];
  const debaters = view.debaters.map((d) => d.seat);
  const preference = opts.preference ?? defaultPreference(debaters);
  const continueVote = opts.continueVote ?? ((s: string) => (seatNumber(s) % 2 === 1 ? 'continue' : 'end'));

  for (const l of legal) {
    switch (l.type) {
      case 'submit': {
        const mine = round?.submissions.find((s) => s.author === seat);
        if (l.version === 0 && (mine?.version ?? 0) === 0) {
          out.push({ key: `submit:${l.round_id}`, action: scriptedSubmission(view, l) });
        }
        break;
      }
      case 'verdict': {
        const r = view.round;
        out.push({
          key: `verdict:${l.author}:${l.canonical_sha256}`,
          action: {
            type: 'verdict',
            author: l.author,
            canonical_sha256: l.canonical_sha256,
            claims: l.claim_ids.map((id) => {
              const verdict = verdictFor(l.author, r, id, opts.falseClaim);
              return { claim_id: id, verdict, reason: `${SCRIPTED} checker says ${verdict}` };
            }),
          },
        });
        break;
      }
      case 'vote_continue': {
        if (round?.continue_vote && !round.continue_vote.voted.includes(seat)) {
          out.push({
            key: `vote:${view.round}`,
            action: { type: 'vote_continue', choice: continueVote(seat, view.round) },
          });
        }
        break;
      }
      case 'score': {
        // Judges score once, when the final vote opens (the latest card set counts).
        if (view.phase === 'final_vote' && !view.judging.scored.includes(seat)) {
          const n = seatNumber(seat);
          out.push({
            key: 'score',
            action: {
              type: 'score',
              cards: l.debaters.map((d) => {
                const rank = preference.indexOf(d);
                const base = 90 - 8 * (rank < 0 ? preference.length : rank) - n;
                const v = Math.max(0, Math.min(100, base));
                return { debater: d, e: v, r: v, c: Math.min(100, v + 3), v: 80, y: Math.max(0, v - 5) };
              }),
            },
          });
        }
        break;
      }
      case 'final_vote': {
        if (!view.final_vote.voted.includes(seat)) {
          const ranking = preference.filter((d) => l.candidates.includes(d));
          out.push({
            key: 'final_vote',
            action: { type: 'final_vote', approval: ranking.slice(0, 2), ranking },
          });
        }
        break;
      }
      case 'stance': {
        const done = view.stances[l.when].includes(seat);
        if (!done) {
          const shift = l.when === 'after' ? 10 : 0;
          out.push({
            key: `stance:${l.when}`,
            action: {
              type: 'stance',
              when: l.when,
              stances: l.debaters.map((d) => {
                const rank = preference.indexOf(d);
                const v = 50 + (rank === 0 ? shift : rank === preference.length - 1 ? -shift : 0);
                return { debater: d, value: v };
              }),
            },
          });
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}
