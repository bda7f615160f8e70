// `db8 act <room> '<action json>'`: act for your seat. The action is strict-parsed JSON; the turn
// token of your live turn is sent along, so a move made against a state that has moved on is refused.
import { JsonError, type JsonValue, parseJson } from '@db8/core';
import { EXIT_AUTH, EXIT_INVALID_INPUT } from '../exit-codes.ts';
import { CliError, readTextInput, writeStdout } from '../io.ts';
import { Remote } from '../remote.ts';

export interface ActOptions {
  url?: string;
  seat?: string;
  nonce?: string;
  json?: boolean;
}

async function parseAction(arg: string): Promise<JsonValue> {
  const text = arg === '-' ? await readTextInput('-') : arg;
  try {
    return parseJson(text) as JsonValue;
  } catch (e) {
    const why = e instanceof JsonError ? e.message : String(e);
    throw new CliError(
      EXIT_INVALID_INPUT,
      `action is not JSON (${why}): quote it, e.g. '{"type":"bid","amount":120}'`,
    );
  }
}

export async function act(roomId: string, actionArg: string, o: ActOptions): Promise<void> {
  const action = await parseAction(actionArg);
  const remote = new Remote(o.url);
  const c = await remote.roomClient(roomId, { required: true });
  const ctx = { roomId };
  const state = await remote.call(() => c.state(roomId), ctx);
  const seat =
    o.seat ?? remote.seatIn(roomId)?.seat ?? (state.viewer.kind === 'seat' ? state.viewer.seat : undefined);
  if (!seat) {
    throw new CliError(
      EXIT_AUTH,
      `you hold no seat in ${roomId}: run db8 room join ${roomId} (or give --seat)`,
    );
  }
  const mine = state.viewer.kind === 'seat' && state.viewer.seat === seat;
  const ack = await remote.call(
    () =>
      c.act(roomId, {
        seat,
        action: action as never,
        ...(mine && state.turn_token ? { turn_token: state.turn_token } : {}),
        ...(o.nonce ? { client_nonce: o.nonce } : {}),
      }),
    ctx,
  );
  if (o.json) return writeStdout(`${JSON.stringify(ack)}\n`);
  await writeStdout(
    `ok: ${seat} acted at seq ${ack.seq}${ack.duplicate ? ' (a retry: already accepted)' : ''}\n`,
  );
}
