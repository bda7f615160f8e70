import type { RoomState } from '@db8/web/kit';
import {
  type DebateView,
  DebateViewSchema,
  type LegalAction,
  LegalActionSchema,
  type Phase,
} from '../rules/index.ts';

// The debate's view and legal actions as the server sent them, read with the protocol's own zod
// schemas (pure, browser-safe), so the UI renders exactly what the protocol defines.

export type { DebateView, LegalAction, Phase };
export type RoundView = DebateView['rounds'][number];
export type SubmissionRow = RoundView['submissions'][number];
export type SubmitLegal = Extract<LegalAction, { type: 'submit' }>;

export type DebateState = {
  view: DebateView;
  legal: LegalAction[];
  /** Issues when the server's view does not match this client's schema (shown, never hidden). */
  problem: string | null;
};

export function readDebate(state: RoomState | null): DebateState | null {
  if (!state) return null;
  const v = DebateViewSchema.safeParse(state.view);
  if (!v.success) return null;
  const legal: LegalAction[] = [];
  let problem: string | null = null;
  for (const raw of state.legal?.actions ?? []) {
    const r = LegalActionSchema.safeParse(raw);
    if (r.success) legal.push(r.data);
    else problem = `unreadable legal action ${JSON.stringify(raw)}`;
  }
  return { view: v.data, legal, problem };
}

export function legalOf<T extends LegalAction['type']>(
  legal: readonly LegalAction[],
  type: T,
): Extract<LegalAction, { type: T }> | undefined {
  return legal.find((a) => a.type === type) as Extract<LegalAction, { type: T }> | undefined;
}

/** The FSM of seed §4 as shown in the top bar's stepper (argument rounds fold into one step). */
export const STEPS: { phase: Phase; label: string }[] = [
  { phase: 'research', label: 'Research' },
  { phase: 'submit', label: 'Submit' },
  { phase: 'verify', label: 'Verify' },
  { phase: 'published', label: 'Published' },
  { phase: 'final_submit', label: 'Final submit' },
  { phase: 'final_verify', label: 'Final verify' },
  { phase: 'final_vote', label: 'Final vote' },
  { phase: 'results', label: 'Results' },
  { phase: 'stats_and_reveal', label: 'Reveal' },
  { phase: 'closed', label: 'Closed' },
];

const PHASE_TEXT: Record<Phase, { title: string; hint: string }> = {
  research: { title: 'Research', hint: 'Tools on, no writes: read, plan, gather sources.' },
  submit: { title: 'Submit', hint: 'Drafts are private; submit before the deadline or forfeit.' },
  verify: { title: 'Verify', hint: 'The fact-checker is giving a verdict on every claim.' },
  published: { title: 'Published', hint: 'The round is revealed. Debaters vote to continue or end.' },
  final_submit: { title: 'Final submit', hint: 'Closing statements: submit before the deadline.' },
  final_verify: { title: 'Final verify', hint: 'The fact-checker is checking the closing statements.' },
  final_published: { title: 'Final published', hint: 'The closing statements are revealed.' },
  final_vote: { title: 'Final vote', hint: 'Voters approve and rank the debaters; judges score.' },
  results: { title: 'Results', hint: 'Placements and scores are in; names are still masked.' },
  stats_and_reveal: { title: 'Reveal', hint: 'Names are unmasked and the journal is published.' },
  closed: { title: 'Closed', hint: 'The debate is over. Its record is final.' },
};

export const phaseText = (p: Phase) => PHASE_TEXT[p];

/** Index of the current phase in STEPS (final_published shows as final_verify → final_vote). */
export function stepIndex(p: Phase): number {
  const i = STEPS.findIndex((s) => s.phase === p);
  return i >= 0 ? i : STEPS.findIndex((s) => s.phase === 'final_vote');
}

/** The name to show for a seat: its unmasked identity once revealed, else the anonymous seat. */
/** A debater as shown: its principal's name once unmasked (`names`: GET /v1/identities), else the id or seat. */
export function displayName(
  view: DebateView,
  seat: string,
  names?: Record<string, { name: string }>,
): string {
  const id = view.debaters.find((d) => d.seat === seat)?.identity;
  return id ? (names?.[id]?.name ?? id) : seat;
}

export const isSubmitPhase = (p: Phase) => p === 'submit' || p === 'final_submit';
export const isOverPhase = (p: Phase) => p === 'results' || p === 'stats_and_reveal' || p === 'closed';
