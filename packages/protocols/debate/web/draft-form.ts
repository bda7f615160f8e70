import { truncateCodePoints } from '@db8/core';
import type { z } from 'zod';
import {
  type CanonicalPayload,
  ClaimSchema,
  type DraftAction,
  DraftActionSchema,
  type SubmitAction,
  SubmitActionSchema,
} from '../rules/index.ts';
import type { SubmitLegal } from './model.ts';

// The draft editor's model: what the form holds (strings, as typed), how it becomes a `submit`
// or `draft` action, and validation as you type with the protocol's own zod schemas plus the
// room's caps from the legal `submit` descriptor. Pure, so it is unit-tested without a browser.

export type SupportKind = 'citation' | 'logic' | 'data';
export type SupportForm = { kind: SupportKind; ref: string };
export type ClaimForm = { id: string; text: string; confidence: string; support: SupportForm[] };
/** `quote`: words from the source, checked by the fact-checker against the room's research cache. */
export type CitationForm = { url: string; title: string; quote: string };
export type DraftForm = { content: string; claims: ClaimForm[]; citations: CitationForm[] };

export const emptyClaim = (id: string): ClaimForm => ({
  id,
  text: '',
  confidence: '',
  support: [{ kind: 'citation', ref: '' }],
});

export function emptyForm(citationsMin = 2): DraftForm {
  return {
    content: '',
    claims: [emptyClaim('c1')],
    citations: Array.from({ length: citationsMin }, () => ({ url: '', title: '', quote: '' })),
  };
}

/** The first `c<n>` id not already used. */
export function nextClaimId(claims: readonly ClaimForm[]): string {
  const used = new Set(claims.map((c) => c.id));
  let n = claims.length + 1;
  for (let i = 1; i <= n; i++) {
    if (!used.has(`c${i}`)) {
      n = i;
      break;
    }
  }
  return `c${n}`;
}

/** The form for a submission already made (resubmit starts from it). */
export function formFromPayload(p: Pick<CanonicalPayload, 'content' | 'claims' | 'citations'>): DraftForm {
  return {
    content: p.content,
    claims: p.claims.map((c) => ({
      id: c.id,
      text: c.text,
      confidence: c.confidence === undefined ? '' : String(c.confidence),
      support: c.support.map((s) => ({ kind: s.kind, ref: s.ref })),
    })),
    citations: p.citations.map((c) => ({ url: c.url, title: c.title ?? '', quote: c.quote ?? '' })),
  };
}

/** The form for a saved draft (loose: any part may be missing). */
export function formFromDraft(d: Omit<DraftAction, 'type'>): DraftForm {
  const claims = d.claims.map((c, i) => ({
    id: c.id ?? `c${i + 1}`,
    text: c.text ?? '',
    confidence: c.confidence === undefined ? '' : String(c.confidence),
    support: c.support?.map((s) => ({ kind: s.kind, ref: s.ref })) ?? [
      { kind: 'citation' as const, ref: '' },
    ],
  }));
  return {
    content: d.content,
    claims: claims.length ? claims : [emptyClaim('c1')],
    citations: d.citations.map((c) => ({ url: c.url, title: c.title ?? '', quote: c.quote ?? '' })),
  };
}

/** Confidence as typed: '' is "not given"; anything else must be an integer 0–100 (the schema says). */
function confidenceOf(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : Number(t);
}

/** The submit action this form makes for the open round (not yet validated). */
export function buildSubmit(
  form: DraftForm,
  legal: SubmitLegal,
  roomId: string,
  nonce: string,
): SubmitAction {
  return {
    type: 'submit',
    // A room whose config names no room id expects the server's.
    room_id: legal.room_id ?? roomId,
    round_id: legal.round_id,
    author_id: legal.author_id,
    phase: legal.phase,
    deadline_unix: legal.deadline_unix,
    content: form.content,
    claims: form.claims.map((c) => {
      const confidence = confidenceOf(c.confidence);
      return {
        id: c.id.trim(),
        text: c.text.trim(),
        support: c.support.map((s) => ({ kind: s.kind, ref: s.ref.trim() })),
        ...(confidence === undefined ? {} : { confidence }),
      };
    }),
    citations: form.citations.map((c) => ({
      url: c.url.trim(),
      ...(c.title.trim() ? { title: c.title.trim() } : {}),
      ...(c.quote.trim() ? { quote: c.quote.trim() } : {}),
    })),
    client_nonce: nonce,
  };
}

/** A draft keeps whatever parts are already well-formed; drafts are never published. */
export function buildDraft(form: DraftForm): DraftAction {
  const shape = ClaimSchema.shape;
  const claims = form.claims.map((c) => {
    const out: Record<string, unknown> = {};
    const confidence = confidenceOf(c.confidence);
    const parts: [keyof typeof shape, unknown][] = [
      ['id', c.id.trim()],
      ['text', c.text.trim()],
      ['support', c.support.map((s) => ({ kind: s.kind, ref: s.ref.trim() }))],
      ['confidence', confidence],
    ];
    for (const [k, v] of parts) if (v !== undefined && shape[k].safeParse(v).success) out[k] = v;
    return out;
  });
  return DraftActionSchema.parse({
    type: 'draft',
    content: truncateCodePoints(form.content, 4000),
    claims,
    citations: form.citations
      .filter((c) => c.url.trim() || c.title.trim() || c.quote.trim())
      .map((c) => ({
        url: c.url.trim(),
        ...(c.title.trim() ? { title: c.title.trim() } : {}),
        ...(c.quote.trim() ? { quote: c.quote.trim() } : {}),
      })),
  });
}

/** Field path (`claims.0.text`) → message. `form` holds problems that belong to no one field. */
export type Problems = Record<string, string>;

function friendly(issue: z.core.$ZodIssue): string {
  const i = issue as z.core.$ZodIssue & {
    minimum?: number;
    maximum?: number;
    origin?: string;
    format?: string;
  };
  const field = String(issue.path.at(-1) ?? '');
  if (issue.code === 'too_small' && i.origin === 'string') {
    return i.minimum === 1 ? 'required' : `at least ${i.minimum} characters`;
  }
  if (issue.code === 'too_big' && i.origin === 'string') return `at most ${i.maximum} characters`;
  if (issue.code === 'too_small' && i.origin === 'array') return `at least ${i.minimum} needed`;
  if (issue.code === 'too_big' && i.origin === 'array') return `at most ${i.maximum} allowed`;
  if ((issue.code === 'too_small' || issue.code === 'too_big') && i.origin === 'number')
    return 'a whole number from 0 to 100';
  if (issue.code === 'invalid_type' && field === 'confidence') return 'a whole number from 0 to 100';
  if (issue.code === 'invalid_format' && field === 'url') return 'an http(s) URL';
  return issue.message;
}

export type Validation =
  | { ok: true; action: SubmitAction; problems: Problems }
  | { ok: false; action: null; problems: Problems };

/**
 * Validate the form as a submit for this round: the protocol's `SubmitActionSchema` (the seed's
 * hard caps and shapes), then the room's own caps and unique claim ids, as `apply` checks them.
 */
export function validateForm(form: DraftForm, legal: SubmitLegal, roomId: string, nonce = 'n'): Validation {
  const problems: Problems = {};
  const add = (path: string, msg: string) => {
    if (!(path in problems)) problems[path] = msg;
  };
  const candidate = buildSubmit(form, legal, roomId, nonce);
  const r = SubmitActionSchema.safeParse(candidate);
  if (!r.success) for (const issue of r.error.issues) add(issue.path.join('.') || 'form', friendly(issue));
  if (form.content.trim() === '') add('content', 'required');
  if (form.content.length > legal.content_max) add('content', `at most ${legal.content_max} characters`);
  if (form.claims.length > legal.claims_max) add('claims', `at most ${legal.claims_max} claims in this room`);
  if (form.citations.length < legal.citations_min)
    add('citations', `at least ${legal.citations_min} citations in this room`);
  const seen = new Set<string>();
  form.claims.forEach((c, i) => {
    const id = c.id.trim();
    if (seen.has(id)) add(`claims.${i}.id`, `duplicate claim id ${id}`);
    seen.add(id);
  });
  if (Object.keys(problems).length > 0 || !r.success) return { ok: false, action: null, problems };
  return { ok: true, action: r.data, problems };
}

/** Human labels for problem paths, for the summary list. */
export function problemLabel(path: string): string {
  const parts = path.split('.');
  if (parts[0] === 'claims' && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
    const rest = parts.slice(2);
    const n = Number(parts[1]) + 1;
    if (rest[0] === 'support' && rest[1] !== undefined) return `claim ${n}, support ${Number(rest[1]) + 1}`;
    return `claim ${n}${rest.length ? ` ${rest.join(' ')}` : ''}`;
  }
  if (parts[0] === 'citations' && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
    return `citation ${Number(parts[1]) + 1}${parts[2] ? ` ${parts[2]}` : ''}`;
  }
  return parts.join(' ');
}
