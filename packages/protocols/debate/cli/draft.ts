// draft.json: the submission's canonical payload as a file. Its fields are exactly what is signed,
// so `db8 canon draft.json` prints the bytes to sign (the protocol's submissionBytes).
import { existsSync, writeFileSync } from 'node:fs';
import { CliError, EXIT_INVALID_INPUT, EXIT_IO_ERROR, readTextInput } from '@db8/cli/kit';
import { parseJson } from '@db8/core';
import { type CanonicalPayload, CanonicalPayloadSchema, type LegalAction } from '../rules/index.ts';

type SubmitLegal = Extract<LegalAction, { type: 'submit' }>;

/** The anti-replay fields the protocol hands out for the open round. */
export function replayFields(legal: SubmitLegal, roomId: string) {
  return {
    room_id: legal.room_id ?? roomId,
    round_id: legal.round_id,
    author_id: legal.author_id,
    phase: legal.phase,
    deadline_unix: legal.deadline_unix,
  };
}

/** A fresh draft: the round's fields filled in, the rest left for the author. */
export function draftTemplate(legal: SubmitLegal, roomId: string): Record<string, unknown> {
  return {
    ...replayFields(legal, roomId),
    content: '',
    claims: [{ id: 'c1', text: '', support: [{ kind: 'citation', ref: '' }] }],
    citations: Array.from({ length: legal.citations_min }, () => ({ url: 'https://', title: '' })),
  };
}

/**
 * An existing draft brought up to the open round: the author's text kept, the round's fields
 * refreshed. Concessions belong to the submission they were made in, so a draft carried into a
 * new round drops them (`dropped`) instead of conceding the same claims again.
 */
export function carryDraft(
  raw: Record<string, unknown>,
  legal: SubmitLegal,
  roomId: string,
): { draft: Record<string, unknown>; dropped: boolean } {
  const { concessions, ...rest } = raw;
  const newRound = raw.round_id !== legal.round_id;
  return {
    draft: {
      ...rest,
      ...(concessions !== undefined && !newRound ? { concessions } : {}),
      ...replayFields(legal, roomId),
    },
    dropped: concessions !== undefined && newRound,
  };
}

/** Everything wrong with a draft, as `path: message` lines (empty when it can be submitted). */
export function draftProblems(draft: unknown, legal?: SubmitLegal): string[] {
  const r = CanonicalPayloadSchema.safeParse(draft);
  const out = r.success
    ? []
    : r.error.issues.map((i) => `${i.path.map(String).join('.') || '(top)'}: ${i.message}`);
  const d = draft as Partial<CanonicalPayload> | null;
  if (legal && d && typeof d === 'object') {
    if (typeof d.content === 'string' && d.content.length > legal.content_max)
      out.push(`content: this room allows at most ${legal.content_max} characters`);
    if (Array.isArray(d.claims) && d.claims.length > legal.claims_max)
      out.push(`claims: this room allows at most ${legal.claims_max}`);
    if (Array.isArray(d.citations) && d.citations.length < legal.citations_min)
      out.push(`citations: this room needs at least ${legal.citations_min}`);
    const ids = Array.isArray(d.claims) ? d.claims.map((c) => (c as { id?: unknown }).id) : [];
    if (new Set(ids).size !== ids.length) out.push('claims: claim ids must differ');
    const conceded = Array.isArray(d.concessions)
      ? d.concessions.map((c) => JSON.stringify([c?.round, c?.author, c?.claim_id]))
      : [];
    if (new Set(conceded).size !== conceded.length)
      out.push('concessions: the same claim is conceded more than once (it counts once)');
  }
  return out;
}

/** Where the draft's round fields disagree with the open round (stale draft), or null. */
export function staleField(draft: CanonicalPayload, legal: SubmitLegal, roomId: string): string | null {
  const want = replayFields(legal, roomId);
  for (const k of Object.keys(want) as Array<keyof typeof want>) {
    if (draft[k] !== want[k])
      return `${k} is ${JSON.stringify(draft[k])}, the open round wants ${JSON.stringify(want[k])}`;
  }
  return null;
}

export async function readDraft(path: string): Promise<{ raw: unknown; text: string }> {
  const text = await readTextInput(path);
  try {
    return { raw: parseJson(text), text };
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${path}: ${(e as Error).message}`);
  }
}

export async function readValidDraft(path: string, legal?: SubmitLegal): Promise<CanonicalPayload> {
  const { raw } = await readDraft(path);
  const problems = draftProblems(raw, legal);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (+${problems.length - 1} more; db8 draft open lists them)` : '';
    throw new CliError(EXIT_INVALID_INPUT, `${path}: ${problems[0]}${more}`);
  }
  return CanonicalPayloadSchema.parse(raw);
}

export function writeDraft(path: string, draft: unknown): void {
  try {
    writeFileSync(path, `${JSON.stringify(draft, null, 2)}\n`);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
}

export const draftExists = (path: string) => existsSync(path);
