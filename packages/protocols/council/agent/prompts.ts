import {
  CHALLENGE_MAP,
  type CouncilState,
  challengersOf,
  isoDate,
  ROLE_BRIEFS,
  ROLES,
  type Role,
  type TurnStage,
  turnOf,
} from '../rules/index.ts';

/**
 * What each role is told at each stage. A role sees only what the protocol has published to it:
 * in round 1 nothing but the request; in round 2 its target's opening; in round 3 every opening
 * and the challenges addressed to it; the Synthesizer then every final position; the Judge
 * everything, with the consensus scores. Material is given as JSON so nothing is paraphrased.
 */

const STAGE_TASK: Record<TurnStage, string> = {
  Round1:
    'Round 1 — opening. State your claim, your rationale and the risks you see, with your stance and confidence.',
  Round2:
    'Round 2 — challenge. Challenge the one role named below: its weakest points, gaps and unstated assumptions.',
  Round3:
    'Round 3 — revision. Give your revised position. List what changed since your opening (deltas) and why, and answer each challenge you received.',
  Consensus:
    'Consensus — as Synthesizer, read each final position and say which stance (support/oppose/conditional) it really takes, what the roles share and what still divides them, and propose a decision.',
  Judge:
    'Judgement — decide. Give the decision, verdict, rationale, risks with mitigations and concrete next actions, each with an owner and a due date.',
};

export function systemPrompt(role: Role, stage: TurnStage, schemaName: string): string {
  return [
    `You are the ${role} on a five-role decision council (${ROLES.join(', ')}).`,
    `Your responsibility: ${ROLE_BRIEFS[role]}`,
    STAGE_TASK[stage],
    `Reply only with the ${schemaName} JSON object. Be concise and specific. Do not invent facts: say what is assumed.`,
    'stance: support = act as proposed; oppose = do not; conditional = act only if the stated conditions hold. confidence is in [0, 1].',
  ].join('\n');
}

function block(title: string, value: unknown): string {
  return `${title}:\n${JSON.stringify(value, null, 1)}`;
}

function payloadOr(state: CouncilState, stage: TurnStage, role: Role): unknown {
  const t = turnOf(state.turns, stage, role);
  if (!t) return { status: 'missing' };
  return t.kind === 'failed' ? { status: 'failed', error: t.error.code } : t.payload;
}

export function userPrompt(state: CouncilState, role: Role, stage: TurnStage, now: number): string {
  const c = state.config;
  const out = [`Question: ${c.question}`];
  if (c.context) out.push(`Context:\n${c.context}`);
  if (stage === 'Round2') {
    const target = CHALLENGE_MAP[role];
    out.push(
      `You challenge the ${target}.`,
      block(`The ${target}'s opening`, payloadOr(state, 'Round1', target)),
    );
  }
  if (stage === 'Round3') {
    out.push(block('Your opening', payloadOr(state, 'Round1', role)));
    out.push(
      block(
        'Openings of the other roles',
        Object.fromEntries(ROLES.filter((r) => r !== role).map((r) => [r, payloadOr(state, 'Round1', r)])),
      ),
    );
    const received = challengersOf(role).map((from) => ({
      from,
      challenge: payloadOr(state, 'Round2', from),
    }));
    out.push(
      received.length ? block('Challenges addressed to you', received) : 'No role challenged you in round 2.',
    );
  }
  if (stage === 'Consensus' || stage === 'Judge') {
    out.push(
      block(
        'Final (round 3) positions',
        Object.fromEntries(ROLES.map((r) => [r, payloadOr(state, 'Round3', r)])),
      ),
    );
  }
  if (stage === 'Consensus') {
    const assessable = ROLES.filter((r) => turnOf(state.turns, 'Round3', r)?.kind === 'revision');
    out.push(`Assess these roles (the others have no final position): ${assessable.join(', ') || 'none'}.`);
  }
  if (stage === 'Judge') {
    out.push(block('Openings', Object.fromEntries(ROLES.map((r) => [r, payloadOr(state, 'Round1', r)]))));
    out.push(block("The Synthesizer's assessment", payloadOr(state, 'Consensus', 'Synthesizer')));
    if (state.consensus) {
      const { agreement, support, consensus, confidence, lean, markers } = state.consensus;
      out.push(
        block('Consensus scores', { agreement, support, consensus, confidence, lean, degradation: markers }),
      );
    }
    out.push(`Today is ${isoDate(now)}. Every due date must be on or after it.`);
  }
  return out.join('\n\n');
}
