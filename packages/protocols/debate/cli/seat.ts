// A debate room as one CLI seat sees it: which room (flag, $DB8_ROOM, or the one room joined), the
// seat's view and legal actions, and refusals explained with what to do next.

import { CliError, clock, EXIT_AUTH, EXIT_INVALID_INPUT, EXIT_REJECTED, EXIT_USAGE } from '@db8/cli/kit';
import { explain, Remote, resolveRoom } from '@db8/cli/kit-run';
import type { Db8Client, State } from '@db8/sdk';
import { Db8Error } from '@db8/sdk';
import type { DebateView, LegalAction } from '../rules/index.ts';
import { DebateViewSchema } from '../rules/index.ts';

export { ROOM_HELP, URL_HELP } from '@db8/cli/kit';

export interface SeatState {
  remote: Remote;
  client: Db8Client;
  roomId: string;
  state: State;
  view: DebateView;
  /** The seat this CLI holds, or null for an observer/admin. */
  seat: string | null;
  legal: LegalAction[];
}

/** The room's state as this CLI's credential sees it; refuses non-debate rooms. */
export async function loadSeat(
  urlFlag: string | undefined,
  roomFlag: string | undefined,
  opts: { required?: boolean; fallbackRoom?: string } = {},
): Promise<SeatState> {
  const remote = new Remote(urlFlag);
  const roomId = resolveRoom(remote, roomFlag, opts.fallbackRoom);
  const client = await remote.roomClient(roomId, { required: opts.required ?? true });
  const state = await remote.call(() => client.state(roomId), { roomId });
  if (state.protocol !== 'debate') {
    throw new CliError(
      EXIT_USAGE,
      `${roomId} runs ${state.protocol}, not debate: see db8 room status ${roomId}`,
    );
  }
  const parsed = DebateViewSchema.safeParse(state.view);
  if (!parsed.success) {
    throw new CliError(
      EXIT_INVALID_INPUT,
      `${remote.url} sent a debate view this CLI cannot read: update db8`,
    );
  }
  const seat = state.viewer.kind === 'seat' ? (state.viewer.seat ?? null) : null;
  return {
    remote,
    client,
    roomId,
    state,
    view: parsed.data,
    seat,
    legal: (state.legal?.actions ?? []) as LegalAction[],
  };
}

/** The seat, or a refusal that says how to get one. */
export function requireSeat(s: SeatState, role?: string): string {
  if (!s.seat) {
    throw new CliError(EXIT_AUTH, `you hold no seat in ${s.roomId}: db8 room join ${s.roomId} --seat <seat>`);
  }
  if (role && s.view.you.role !== role) {
    throw new CliError(EXIT_REJECTED, `${s.seat} is a ${s.view.you.role}; only a ${role} may do this`);
  }
  return s.seat;
}

/** `verify until 12:04:10Z` (or `closed`). */
export function phaseUntil(view: DebateView): string {
  if (view.phase === 'closed') return 'closed';
  const r = view.round > 0 ? ` (round ${view.round})` : '';
  return `in ${view.phase}${r}${view.deadline !== null ? ` until ${clock(view.deadline)}` : ''}`;
}

/** When `what` opens next, as far as the view can tell. */
function nextHint(what: string, view: DebateView): string {
  if ((what === 'submit' || what === 'drafting') && view.phase === 'research')
    return ', when the submit window opens';
  if (view.phase === 'closed' || view.phase === 'results' || view.phase === 'stats_and_reveal') return '';
  return '; db8 debate watch shows when it opens';
}

/** A refusal for an action that is not legal now: what is going on, and until when. */
export function notOpen(what: string, view: DebateView): CliError {
  return new CliError(
    EXIT_REJECTED,
    `${what} is closed: the room is ${phaseUntil(view)}${nextHint(what, view)}`,
  );
}

/** Protocol rejections, explained from the view; everything else as the room client explains it. */
export function explainDebate(e: unknown, s: SeatState, what: string): CliError {
  if (e instanceof Db8Error && (e.code === 'PHASE_CLOSED' || e.code === 'WRONG_PHASE')) {
    return new CliError(EXIT_REJECTED, `${what} is closed: the room is ${phaseUntil(s.view)} (${e.message})`);
  }
  if (e instanceof Db8Error && e.code === 'BAD_SIGNATURE') {
    return new CliError(
      EXIT_REJECTED,
      `BAD_SIGNATURE: ${e.message}: sign the exact bytes db8 canon <draft> prints, with namespace db8, by a key registered for your seat or a certificate for <seat>@${s.roomId} (db8 auth issue-cert)`,
    );
  }
  return explain(e, s.remote.url, { roomId: s.roomId });
}

export function legalOf<T extends LegalAction['type']>(
  s: SeatState,
  type: T,
): Extract<LegalAction, { type: T }> | undefined {
  return s.legal.find((a) => a.type === type) as Extract<LegalAction, { type: T }> | undefined;
}

/** Act for the seat; refusals come back explained. */
export async function actAs(
  s: SeatState,
  what: string,
  action: unknown,
  clientNonce?: string,
): Promise<{ seq: number; duplicate: boolean }> {
  const seat = requireSeat(s);
  try {
    return await s.client.act(s.roomId, {
      seat,
      action: action as never,
      ...(clientNonce ? { client_nonce: clientNonce } : {}),
    });
  } catch (e) {
    throw explainDebate(e, s, what);
  }
}
