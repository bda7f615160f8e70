// Text lines for `db8 watch` and `db8 room status`: one line per log entry, and banners when the
// room's phase, status, deadline or your turn changes. Pure functions of their inputs (tests).
import { canonicalize } from '@db8/core';
import type { EntryWire, State } from '@db8/sdk';

const MAX_PAYLOAD = 300;

/** `HH:MM:SS` in UTC: a watch log reads the same on every machine. */
export function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)}Z`;
}

export function deadlineText(deadlineMs: number, now: number): string {
  const secs = Math.max(0, Math.round((deadlineMs - now) / 100) / 10);
  return `${clock(deadlineMs)} (in ${secs} s)`;
}

/** The protocol's phase when its view has one (most do: `phase`), else null. */
export function phaseOf(view: unknown): string | null {
  const p = (view as { phase?: unknown } | null)?.phase;
  return typeof p === 'string' ? p : null;
}

function short(v: unknown): string {
  let text: string;
  try {
    text = canonicalize(v as never);
  } catch {
    text = JSON.stringify(v);
  }
  return text.length > MAX_PAYLOAD ? `${text.slice(0, MAX_PAYLOAD - 1)}…` : text;
}

/** `#3 12:00:01Z action bidder_1 {"amount":120,"type":"bid"}`; sealed entries show their commitment. */
export function entryLine(e: EntryWire): string {
  const head = `#${e.seq} ${clock(e.ts)} ${e.kind} ${e.actor}`;
  let body: string;
  if (e.payload !== undefined) body = short(e.payload);
  else if (e.sealed) body = `[sealed, visible to you] ${short(e.sealed.payload)}`;
  else if (e.commit) body = `[sealed ${e.commit.slice(0, 12)}]`;
  else body = '';
  const reveals = e.reveals?.length ? ` (reveals ${e.reveals.map((r) => `#${r.seq}`).join(' ')})` : '';
  return `${head}${body ? ` ${body}` : ''}${reveals}`;
}

/** What the banner tracks; a banner is printed when any of it changes. */
export interface Banner {
  status: string;
  phase: string | null;
  deadlineMs: number | null;
  turn: boolean;
}

export function bannerOf(s: State): Banner {
  return { status: s.status, phase: phaseOf(s.view), deadlineMs: s.deadline_ms, turn: s.turn_token !== null };
}

export function sameBanner(a: Banner | null, b: Banner): boolean {
  return (
    a !== null &&
    a.status === b.status &&
    a.phase === b.phase &&
    a.deadlineMs === b.deadlineMs &&
    a.turn === b.turn
  );
}

/** `── phase reveal · deadline 12:00:31Z (in 30 s) · your turn: {"type":"confirm"} | {"type":"withdraw"}` */
export function bannerLine(s: State, now: number): string {
  const parts = [`── ${s.status === 'closed' ? 'closed' : `phase ${phaseOf(s.view) ?? s.status}`}`];
  if (s.deadline_ms !== null && s.status !== 'closed')
    parts.push(`deadline ${deadlineText(s.deadline_ms, now)}`);
  if (s.turn_token !== null || (s.legal && s.legal.actions.length > 0 && s.status !== 'closed')) {
    const acts = (s.legal?.actions ?? []).map((a) => short(a)).join(' | ');
    parts.push(`${s.turn_token !== null ? 'your turn' : 'you may act'}: ${acts || '(see db8 room status)'}`);
  }
  return parts.join(' · ');
}

/** The result a close entry carries (`payload.result`), if this viewer sees it. */
export function resultOf(e: EntryWire): unknown {
  const p = e.payload as { result?: unknown } | undefined;
  return e.kind === 'close' && p && typeof p === 'object' && 'result' in p ? p.result : undefined;
}

export function resultLine(result: unknown): string {
  return `── result ${short(result)}`;
}
