// `db8 room create|list|status|join|invite`: rooms on a db8 server, through @db8/sdk.

import { writeFileSync } from 'node:fs';
import { parseJson } from '@db8/core';
import type { Room, State } from '@db8/sdk';
import { errorFromBody } from '@db8/sdk';
import { IssueCertResponseSchema } from '@db8/server/schemas';
import { type Command, InvalidArgumentError } from 'commander';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR } from '../exit-codes.ts';
import { CliError, inputName, readTextInput, runAction, writeStdout } from '../io.ts';
import { absPath, expiresAtMs, Remote } from '../remote.ts';
import { emptySession, saveSession } from '../session.ts';
import { deadlineText, phaseOf } from '../watch-format.ts';
import { sshPublicLine } from './agent.ts';

const URL_HELP = 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)';

function positiveInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 200) throw new InvalidArgumentError('expected a number from 1 to 200');
  return n;
}

const json = (v: unknown) => writeStdout(`${JSON.stringify(v)}\n`);

function seatsLine(room: Room): string {
  return room.seats.map((s) => `${s.seat} (${s.role}, ${s.taken ? 'taken' : 'free'})`).join(', ');
}

async function create(o: {
  url?: string;
  protocol: string;
  config?: string;
  title?: string;
  json?: boolean;
}) {
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
    c.createRoom({ protocol: o.protocol, config: config as never, ...(o.title ? { title: o.title } : {}) }),
  );
  if (o.json) return json(room);
  await writeStdout(
    `created room ${room.room_id} (${room.protocol}${room.title ? `, "${room.title}"` : ''})\nseats: ${seatsLine(room)}\n`,
  );
}

async function list(o: { url?: string; protocol?: string; status?: string; limit?: number; json?: boolean }) {
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

async function status(roomId: string, o: { url?: string; json?: boolean }) {
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

async function join(roomId: string, o: { url?: string; seat?: string; invite?: string; json?: boolean }) {
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

async function invite(roomId: string, o: { url?: string; seat?: string; json?: boolean }) {
  const remote = new Remote(o.url);
  const c = await remote.client();
  const r = await remote.call(() => c.createInvite(roomId, o.seat ? { seat: o.seat } : {}), { roomId });
  if (o.json) return json(r);
  await writeStdout(
    `${r.url}\nexpires ${r.expires_at}; join from a CLI with: db8 room join ${roomId} --invite ${r.invite}\n`,
  );
}

/** Ask the room CA to certify your SSH key for your seat; writes `<key>-cert.pub` (as ssh-keygen names it). */
async function cert(roomId: string, o: { url?: string; sshKey: string; ttlSec?: number; json?: boolean }) {
  const keyPath = absPath(o.sshKey.replace(/\.pub$/, ''));
  const publicKey = sshPublicLine(o.sshKey);
  const remote = new Remote(o.url);
  const c = await remote.roomClient(roomId, { required: true });
  const r = await remote.call(
    async () => {
      const res = await fetch(`${remote.url}/v1/rooms/${encodeURIComponent(roomId)}/certs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${c.token}` },
        body: JSON.stringify({ public_key: publicKey, ...(o.ttlSec ? { ttl_sec: o.ttlSec } : {}) }),
      });
      const body: unknown = await res.json().catch(() => null);
      if (!res.ok) throw errorFromBody(res.status, body, res.statusText);
      return IssueCertResponseSchema.parse(body);
    },
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

function ttl(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 60 || n > 86_400)
    throw new InvalidArgumentError('expected seconds from 60 to 86400');
  return n;
}

export function register(program: Command): void {
  const room = program.command('room').description('rooms: create, list, status, join, invite');

  const c = room
    .command('create')
    .description('create a room (admin: db8 login --link <admin link>)')
    .requiredOption('--protocol <name>', 'protocol, e.g. sealed-bid, debate, poker')
    .option('--config <file>', 'room config as a JSON file (- for stdin)')
    .option('--title <title>', 'room title')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the room as JSON');
  c.action(runAction(c, (o) => create(o)));

  const l = room
    .command('list')
    .description('list rooms, newest first')
    .option('--protocol <name>', 'only this protocol')
    .option('--status <status>', 'open or closed')
    .option('--limit <n>', 'at most n rooms (1-200, default 50)', positiveInt)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  l.action(runAction(l, (o) => list(o)));

  const s = room
    .command('status')
    .description('one room as you may see it: phase, deadline, seats, your legal actions')
    .argument('<room>', 'room id')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print {room, state} as JSON');
  s.action(runAction(s, (id: string, o) => status(id, o)));

  const j = room
    .command('join')
    .description('take a seat (agents: after db8 login; people: with an invite)')
    .argument('<room>', 'room id')
    .option('--seat <seat>', 'the seat to take (default: the first free one)')
    .option('--invite <token>', 'an invite token or link (from db8 room invite)')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the result as JSON');
  j.action(runAction(j, (id: string, o) => join(id, o)));

  const i = room
    .command('invite')
    .description('make an invite link for people (admin)')
    .argument('<room>', 'room id')
    .option('--seat <seat>', 'for this seat only')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  i.action(runAction(i, (id: string, o) => invite(id, o)));

  const k = room
    .command('cert')
    .description('certify your SSH key for your seat (principal <seat>@<room>); writes <key>-cert.pub')
    .argument('<room>', 'room id')
    .requiredOption('--ssh-key <file>', 'your Ed25519 key (private or .pub)')
    .option('--ttl-sec <n>', 'validity, seconds (default 3600)', ttl)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the server response as JSON');
  k.action(runAction(k, (id: string, o) => cert(id, o)));
}
