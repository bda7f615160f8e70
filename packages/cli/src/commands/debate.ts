// `db8 debate create|status|watch|export|verify|ratings` and `db8 demo debate`; also registers the
// debater commands (`db8 draft`, `submit`, `resubmit`, `vote`, `auth issue-cert`).
import { writeFile } from 'node:fs/promises';
import { parseJson, verifyBundleText } from '@db8/core';
import { DebateConfigSchema } from '@db8/protocols/debate';
import { type Db8Client, debateRating, debateRatings, exportText } from '@db8/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { statusLines } from '../debate/format.ts';
import { checkDebateJournal } from '../debate/journal-check.ts';
import { loadSeat, ROOM_HELP, resolveRoom, URL_HELP } from '../debate/seat.ts';
import { watchDebate } from '../debate/watch.ts';
import { EXIT_INVALID_INPUT, EXIT_IO_ERROR, EXIT_VERIFICATION_FAILED } from '../exit-codes.ts';
import { CliError, inputName, readTextInput, runAction, writeStdout } from '../io.ts';
import { explain, Remote } from '../remote.ts';
import { register as registerSubmit } from './debate-submit.ts';
import { register as registerVote } from './debate-vote.ts';

const out = (line: string) => writeStdout(`${line}\n`);

function count(min: number, max: number) {
  return (v: string) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) throw new InvalidArgumentError(`expected ${min} to ${max}`);
    return n;
  };
}

interface CreateOpts {
  url?: string;
  topic?: string;
  tags?: string;
  config?: string;
  title?: string;
  debaters?: number;
  judges?: number;
  viewers?: number;
  rounds?: number;
  json?: boolean;
}

async function create(o: CreateOpts) {
  let config: Record<string, unknown> = {};
  if (o.config !== undefined) {
    const text = await readTextInput(o.config);
    try {
      config = parseJson(text) as Record<string, unknown>;
    } catch (e) {
      throw new CliError(EXIT_INVALID_INPUT, `${inputName(o.config)}: ${(e as Error).message}`);
    }
  }
  if (o.topic !== undefined) config.topic = o.topic;
  if (o.tags !== undefined)
    config.tags = o.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  if (o.debaters !== undefined) config.debaters = o.debaters;
  if (o.judges !== undefined) config.judges = o.judges;
  if (o.viewers !== undefined) config.viewers = o.viewers;
  if (o.rounds !== undefined) config.max_rounds = o.rounds;
  // Check here first: a bad config is named precisely before anything is sent.
  const check = DebateConfigSchema.safeParse(config);
  if (!check.success) {
    const i = check.error.issues[0]!;
    const hint = i.path[0] === 'topic' ? ' (give --topic "…")' : '';
    throw new CliError(
      EXIT_INVALID_INPUT,
      `debate config: ${i.path.map(String).join('.') || '(top)'}: ${i.message}${hint}`,
    );
  }
  const remote = new Remote(o.url);
  const c = await remote.client();
  const room = await remote.call(() =>
    c.createRoom({
      protocol: 'debate',
      config: config as never,
      title: o.title ?? check.data.topic.slice(0, 120),
    }),
  );
  if (o.json) return out(JSON.stringify(room));
  const t = check.data.timings;
  await out(`created debate ${room.room_id}: "${check.data.topic}"`);
  await out(
    `${check.data.debaters} debaters, ${check.data.judges} judges, ${check.data.viewers} viewers; ${check.data.max_rounds} round(s) + final; submit ${t.submit_ms / 1000} s, verify ${t.verify_ms / 1000} s, continue vote ${t.continue_vote_ms / 1000} s`,
  );
  await out(`seats: ${room.seats.map((s) => s.seat).join(', ')}`);
  await out(`next: db8 room join ${room.room_id} --seat anon_1 · db8 debate watch ${room.room_id}`);
}

async function status(room: string | undefined, o: { url?: string; json?: boolean }) {
  const s = await loadSeat(o.url, room, { required: false });
  if (o.json) return out(JSON.stringify({ room_id: s.roomId, state: s.state }));
  await out(`room ${s.roomId}`);
  for (const l of statusLines(s.view, s.legal, Date.now())) await out(l);
}

async function watch(room: string | undefined, o: { url?: string }) {
  const remote = new Remote(o.url);
  const roomId = resolveRoom(remote, room);
  const client = await remote.roomClient(roomId);
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  try {
    await out(`── watching debate ${roomId}; Ctrl-C to stop`);
    await watchDebate(client, roomId, { print: out, signal: ac.signal });
  } catch (e) {
    throw explain(e, remote.url, { roomId });
  } finally {
    process.off('SIGINT', stop);
    ac.abort();
  }
}

async function fetchBundle(room: string | undefined, o: { url?: string }) {
  const remote = new Remote(o.url);
  const roomId = resolveRoom(remote, room);
  const client = await remote.roomClient(roomId);
  return { roomId, text: await remote.call(() => exportText(client, roomId), { roomId }) };
}

async function exportCmd(room: string | undefined, o: { url?: string; output?: string }) {
  const { text } = await fetchBundle(room, o);
  if (!o.output || o.output === '-') return writeStdout(text);
  try {
    await writeFile(o.output, text);
  } catch (e) {
    throw new CliError(EXIT_IO_ERROR, `cannot write ${o.output}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
}

async function verify(
  room: string | undefined,
  o: { url?: string; key?: string; output?: string; json?: boolean },
) {
  const { roomId, text } = await fetchBundle(room, o);
  if (o.output) await writeFile(o.output, text);
  const pin = o.key
    ? /^ssh-ed25519\s/.test(o.key)
      ? o.key
      : (await readTextInput(o.key)).trim()
    : undefined;
  const generic = verifyBundleText(text, pin ? { pinnedKey: pin } : {});
  const debate = checkDebateJournal(text);
  if (o.json) await out(JSON.stringify({ journal: generic, debate }));
  if (generic.firstFailure) {
    throw new CliError(EXIT_VERIFICATION_FAILED, `${roomId}: journal: ${generic.firstFailure.message}`);
  }
  if (!debate.ok) throw new CliError(EXIT_VERIFICATION_FAILED, `${roomId}: debate: ${debate.failures[0]}`);
  if (o.json) return;
  const trust = generic.keyPinned
    ? 'signed by the pinned key'
    : 'self-consistent (pin the server key with --key)';
  await out(
    `ok ${roomId}: ${generic.entries} entries, ${generic.checkpoints} signed checkpoints, ${generic.reveals} reveals; ${trust}`,
  );
  await out(
    `debate: ${debate.submissions} published submissions in ${debate.rounds} round(s): ${debate.signedByKey} signed by key, ${debate.signedByCertificate} by room certificate, ${debate.unsigned} server-attested — all re-verified offline; chain ${debate.chain.slice(0, 16)}${debate.resultChain ? " = the results' chain" : ' (room not closed yet)'}`,
  );
}

async function ratings(
  identity: string | undefined,
  o: { url?: string; tag?: string; limit?: number; json?: boolean },
) {
  const remote = new Remote(o.url);
  if (identity) {
    const r = await remote.call(() => debateRating(remote.api, identity));
    if (o.json) return out(JSON.stringify(r));
    await out(`${r.identity}: ${r.global?.rating ?? '-'} over ${r.global?.matches ?? 0} debate(s)`);
    for (const h of r.history)
      await out(
        `  ${h.match} ${h.scope}: place ${h.place}, ${h.before} → ${h.after} (${h.delta >= 0 ? '+' : ''}${h.delta})`,
      );
    return;
  }
  const r = await remote.call(() =>
    debateRatings(remote.api, { ...(o.tag ? { tag: o.tag } : {}), ...(o.limit ? { limit: o.limit } : {}) }),
  );
  if (o.json) return out(JSON.stringify(r));
  await out(`${r.matches} rated debate(s)`);
  const table = (name: string, rows: typeof r.global) => [
    `${name}:`,
    ...rows.map(
      (x, i) =>
        `  ${i + 1}. ${x.rating.toFixed(2)}  ${x.identity}  (${x.matches} debates, ${x.wins}-${x.losses}-${x.draws})`,
    ),
  ];
  if (!o.tag) for (const l of table('global', r.global)) await out(l);
  for (const [t, rows] of Object.entries(r.tags)) for (const l of table(`tag ${t}`, rows)) await out(l);
}

async function demo(o: { url?: string; rounds?: number; pace?: number }) {
  const { runDemo } = await import('../debate/demo.ts');
  let admin: Db8Client | undefined;
  let api: Db8Client | undefined;
  if (o.url) {
    const remote = new Remote(o.url);
    if (remote.session?.role !== 'admin') {
      throw new CliError(
        EXIT_INVALID_INPUT,
        `db8 demo debate --url needs an admin session for ${remote.url}: db8 login --link <admin link>`,
      );
    }
    admin = await remote.client();
    api = remote.api;
  }
  const r = await runDemo({
    ...(admin && api ? { admin, api } : {}),
    ...(o.rounds ? { rounds: o.rounds } : {}),
    ...(o.pace ? { pace: o.pace } : {}),
    print: out,
  });
  if (r.view?.phase !== 'closed')
    throw new CliError(EXIT_IO_ERROR, `the demo debate ${r.roomId} did not close`);
  await out(
    `done: ${r.acts} scripted actions over the API (${r.failed} refused); room ${r.roomId} is closed`,
  );
}

export function register(program: Command): void {
  const d = program
    .command('debate')
    .description('debates (seed 000): create, status, watch, export, verify, ratings');
  const c = d
    .command('create')
    .description('create a debate room (admin)')
    .option('--topic <text>', 'the motion')
    .option('--tags <list>', 'topic tags, comma-separated (each gets its own Elo table)')
    .option('--config <file>', 'a debate config as JSON (docs/debate.md#config); flags override it')
    .option('--debaters <n>', 'debaters (2-12, default 5)', count(2, 12))
    .option('--judges <n>', 'judges (0-15, default 3)', count(0, 15))
    .option('--viewers <n>', 'viewers (0-100, default 5)', count(0, 100))
    .option('--rounds <n>', 'argument rounds before the final (1-20, default 3)', count(1, 20))
    .option('--title <title>', 'room title (default: the topic)')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the room as JSON');
  c.action(runAction(c, (o: CreateOpts) => create(o)));

  const s = d
    .command('status')
    .description('phase, deadline, submissions, and what you may do now')
    .argument('[room]', ROOM_HELP)
    .option('--url <url>', URL_HELP)
    .option('--json', 'print the state as JSON');
  s.action(runAction(s, (room: string | undefined, o) => status(room, o)));

  const w = d
    .command('watch')
    .description('phase and timer banners over SSE; prints each round when it is published, then the results')
    .argument('[room]', ROOM_HELP)
    .option('--url <url>', URL_HELP);
  w.action(runAction(w, (room: string | undefined, o) => watch(room, o)));

  const e = d
    .command('export')
    .description('the room journal bundle (JSONL) as your credential may see it')
    .argument('[room]', ROOM_HELP)
    .option('-o, --output <file>', 'write here instead of stdout')
    .option('--url <url>', URL_HELP);
  e.action(runAction(e, (room: string | undefined, o) => exportCmd(room, o)));

  const v = d
    .command('verify')
    .description(
      "export the room journal and verify it offline: leaves, signed checkpoints, reveals, then every published submission's hash and signature and the round chain",
    )
    .argument('[room]', ROOM_HELP)
    .option(
      '--key <key>',
      'pin the server key: an ssh-ed25519 line or a file holding one (server_ed25519.pub)',
    )
    .option('-o, --output <file>', 'also save the bundle here')
    .option('--url <url>', URL_HELP)
    .option('--json', 'print both reports as JSON');
  v.action(runAction(v, (room: string | undefined, o) => verify(room, o)));

  const r = d
    .command('ratings')
    .description("Elo leaderboards (global and per tag), or one identity's history")
    .argument('[identity]', 'an identity (agent principal)')
    .option('--tag <tag>', 'only this tag')
    .option('--limit <n>', 'rows per table', count(1, 1000))
    .option('--url <url>', URL_HELP)
    .option('--json', 'print as JSON');
  r.action(runAction(r, (id: string | undefined, o) => ratings(id, o)));

  const demoCmd = program.command('demo').description('demonstrations on a local server');
  const dd = demoCmd
    .command('debate')
    .description(
      'a scripted five-debater debate in about a minute, printed phase by phase (starts a local server unless --url)',
    )
    .option('--rounds <n>', 'argument rounds before the final (default 3)', count(1, 5))
    .option('--pace <x>', 'scale every window (default 1)', (x) => {
      const n = Number(x);
      if (!(n >= 0.2 && n <= 10)) throw new InvalidArgumentError('expected 0.2 to 10');
      return n;
    })
    .option('--url <url>', 'use this server (needs an admin session: db8 login --link …)');
  dd.action(runAction(dd, (o) => demo(o)));

  // `db8 room export`: any room's bundle with this CLI's own credentials (seat or admin), added to
  // the room client's `room` command when it is there.
  const room = program.commands.find((x) => x.name() === 'room');
  if (room) {
    const re = room
      .command('export')
      .description(
        'the room journal bundle (JSONL) as your seat or admin session may see it; check it with db8 verify',
      )
      .argument('[room]', ROOM_HELP)
      .option('-o, --output <file>', 'write here instead of stdout')
      .option('--url <url>', URL_HELP);
    re.action(runAction(re, (id: string | undefined, o) => exportCmd(id, o)));
  }

  registerSubmit(program);
  registerVote(program);
}
