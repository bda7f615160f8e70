// `db8 room create|list|status|join|invite|cert|export`: rooms on a db8 server, through @db8/sdk.

import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseJson } from '@db8/core';
import { exportText, issueRoomCert, type Room, type State } from '@db8/sdk';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_USAGE } from '../exit-codes.ts';
import { CliError, inputName, readTextInput, writeStdout } from '../io.ts';
import { absPath, expiresAtMs, Remote } from '../remote.ts';
import { emptySession, saveSession } from '../session.ts';
import { deadlineText, phaseOf } from '../watch-format.ts';
import { sshPublicLine } from './agent-impl.ts';

const json = (v: unknown) => writeStdout(`${JSON.stringify(v)}\n`);

function seatsLine(room: Room): string {
  return room.seats.map((s) => `${s.seat} (${s.role}, ${s.taken ? 'taken' : 'free'})`).join(', ');
}

/** `--drive seat=provider[/model]` flags as POST /v1/rooms' `drivers` (the server checks the rest). */
export function driversOf(
  flags: readonly string[],
): Record<string, { driver: 'model'; provider: string; model?: string }> | undefined {
  if (flags.length === 0) return undefined;
  const out: Record<string, { driver: 'model'; provider: string; model?: string }> = {};
  for (const f of flags) {
    const m = /^([^=\s]+)=([^/\s]+)(?:\/(\S+))?$/.exec(f);
    if (!m) throw new CliError(EXIT_USAGE, `--drive ${f}: expected seat=provider or seat=provider/model`);
    out[m[1]!] = { driver: 'model', provider: m[2]!, ...(m[3] ? { model: m[3] } : {}) };
  }
  return out;
}

export async function create(o: {
  url?: string;
  protocol: string;
  config?: string;
  title?: string;
  drive?: string[];
  json?: boolean;
}) {
  const drivers = driversOf(o.drive ?? []);
  let config: unknown = {};
  if (o.config !== undefined) {
    const text = await readTextInput(o.config);
    try {
      config = parseJson(text);
    } catch (e) {
      throw new CliError(EXIT_INVALID_INPUT, `${inputName(o.config)}: ${(e as Error).message}`);
    }
  }
  const remote = new Remote(o.url);
  const c = await remote.client();
  const room = await remote.call(() =>
    c.createRoom({
      protocol: o.protocol,
      config: config as never,
      ...(o.title ? { title: o.title } : {}),
      ...(drivers ? { drivers } : {}),
    }),
  );
  if (o.json) return json(room);
  await writeStdout(
    `created room ${room.room_id} (${room.protocol}${room.title ? `, "${room.title}"` : ''})\nseats: ${seatsLine(room)}\n`,
  );
}

export async function list(o: {
  url?: string;
  protocol?: string;
  status?: string;
  limit?: number;
  json?: boolean;
}) {
  const remote = new Remote(o.url);
  const c = remote.loggedIn ? await remote.client() : remote.api;
  const status = o.status === 'open' || o.status === 'closed' ? o.status : undefined;
  const r = await remote.call(() =>
    c.listRooms({
      ...(o.protocol ? { protocol: o.protocol } : {}),
      ...(status ? { status } : {}),
      ...(o.limit ? { limit: o.limit } : {}),
    }),
  );
  if (o.json) return json(r);
  if (r.rooms.length === 0) return writeStdout('no rooms\n');
  const rows = r.rooms.map((room) => [
    room.room_id,
    room.protocol,
    room.status,
    `seq ${room.seq}`,
    `seats ${room.seats.filter((s) => s.taken).length}/${room.seats.length}`,
    room.title ?? '',
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const text = rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  await writeStdout(`${text.join('\n')}\n`);
}

function legalText(s: State): string | null {
  if (!s.legal || s.legal.actions.length === 0) return null;
  return s.legal.actions.map((a) => JSON.stringify(a)).join(' | ');
}

export async function status(roomId: string, o: { url?: string; json?: boolean }) {
  const remote = new Remote(o.url);
  const c = await remote.roomClient(roomId);
  const ctx = { roomId };
  const [room, state] = await Promise.all([
    remote.call(() => c.getRoom(roomId), ctx),
    remote.call(() => c.state(roomId), ctx),
  ]);
  if (o.json) return json({ room, state });
  const phase = phaseOf(state.view);
  const you = state.viewer.kind === 'seat' ? `seat ${state.viewer.seat}` : state.viewer.kind;
  const lines = [
    `room ${room.room_id}${room.title ? ` "${room.title}"` : ''}`,
    `protocol ${room.protocol}${room.protocol_version !== undefined ? ` v${room.protocol_version}` : ''}, status ${state.status}, seq ${state.seq}${phase ? `, phase ${phase}` : ''}`,
    `deadline: ${state.deadline_ms === null ? 'none' : deadlineText(state.deadline_ms, Date.now())}`,
    `seats: ${seatsLine(room)}`,
    `you: ${you}`,
  ];
  const legal = legalText(state);
  if (state.viewer.kind === 'seat') lines.push(`legal: ${legal ?? 'nothing to do now'}`);
  if (state.turn_token) lines.push(`your turn (turn token ${state.turn_token})`);
  await writeStdout(`${lines.join('\n')}\n`);
}

export async function join(
  roomId: string,
  o: { url?: string; seat?: string; invite?: string; json?: boolean },
) {
  const remote = new Remote(o.url);
  // An invite needs no login (people); agents join with their own session.
  const c = o.invite !== undefined ? remote.api : await remote.client();
  // The invite link itself works too: …/rooms/<id>/join#invite=<token>.
  const inv = o.invite?.includes('#invite=') ? o.invite.split('#invite=')[1] : o.invite;
  const r = await remote.call(
    () => c.join(roomId, { ...(o.seat ? { seat: o.seat } : {}), ...(inv ? { invite: inv } : {}) }),
    { roomId },
  );
  const s = remote.session ?? emptySession(remote.url);
  s.rooms[roomId] = { seat: r.seat, token: r.session_token, expiresAt: expiresAtMs(r) };
  saveSession(s);
  if (o.json)
    return json({ room_id: r.room_id, seat: r.seat, principal: r.principal, expires_at: r.expires_at });
  await writeStdout(
    `joined ${roomId} as ${r.seat}\nnext: db8 room status ${roomId} · db8 act ${roomId} '<action json>' · db8 watch ${roomId}\n`,
  );
}

export async function invite(
  roomId: string,
  o: { url?: string; seat?: string; maxUses?: number; json?: boolean },
) {
  const remote = new Remote(o.url);
  const c = await remote.client();
  const body = { ...(o.seat ? { seat: o.seat } : {}), ...(o.maxUses ? { max_uses: o.maxUses } : {}) };
  const r = await remote.call(() => c.createInvite(roomId, body), { roomId });
  if (o.json) return json(r);
  const uses = r.max_uses === 1 ? 'one join' : `${r.max_uses} joins`;
  await writeStdout(
    `${r.url}\nadmits ${uses}, expires ${r.expires_at}; join from a CLI with: db8 room join ${roomId} --invite ${r.invite}\n`,
  );
}

/** Ask the room CA to certify your SSH key for your seat; writes `<key>-cert.pub` (as ssh-keygen names it). */
export async function cert(
  roomId: string,
  o: { url?: string; sshKey: string; ttlSec?: number; json?: boolean },
) {
  const keyPath = absPath(o.sshKey.replace(/\.pub$/, ''));
  const publicKey = sshPublicLine(o.sshKey);
  const remote = new Remote(o.url);
  const c = await remote.roomClient(roomId, { required: true });
  const r = await remote.call(
    () => issueRoomCert(c, roomId, { public_key: publicKey, ...(o.ttlSec ? { ttl_sec: o.ttlSec } : {}) }),
    { roomId },
  );
  const out = `${keyPath}-cert.pub`;
  try {
    writeFileSync(out, `${r.certificate}\n`, { mode: 0o644 });
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  if (o.json) return json({ ...r, file: out });
  await writeStdout(
    `certificate for ${r.principal} (valid until ${r.valid_before}) written to ${out}\nlog in with it: db8 login --ssh-key ${keyPath} --principal ${r.principal}\n`,
  );
}

/** The room argument, else $DB8_ROOM, else the only room this CLI holds a seat in. */
export function resolveRoom(remote: Remote, flag: string | undefined, fallback?: string): string {
  const r = flag ?? (process.env.DB8_ROOM || undefined) ?? fallback;
  if (r) return r;
  const joined = Object.keys(remote.session?.rooms ?? {});
  if (joined.length === 1) return joined[0]!;
  const which = joined.length ? ` (you hold seats in ${joined.join(', ')})` : '';
  throw new CliError(EXIT_USAGE, `which room? give --room <id> or set DB8_ROOM${which}`);
}

/** A room's journal bundle (JSONL) as this CLI's seat or admin session may see it. */
export async function fetchBundle(room: string | undefined, o: { url?: string }) {
  const remote = new Remote(o.url);
  const roomId = resolveRoom(remote, room);
  const client = await remote.roomClient(roomId);
  return { roomId, text: await remote.call(() => exportText(client, roomId), { roomId }) };
}

/** `db8 room export [room]`: the bundle to stdout or --output. */
export async function exportRoom(room: string | undefined, o: { url?: string; output?: string }) {
  const { text } = await fetchBundle(room, o);
  if (!o.output || o.output === '-') return writeStdout(text);
  try {
    await writeFile(o.output, text);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${o.output}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
}
