// `db8 debate create|status|watch|export|verify|ratings` and `db8 demo debate`; also registers the
// debater commands (`db8 draft`, `submit`, `resubmit`, `vote`, `auth issue-cert`).
import { writeFile } from 'node:fs/promises';
import {
  CliError,
  EXIT_INVALID_INPUT,
  EXIT_IO_ERROR,
  EXIT_VERIFICATION_FAILED,
  inputName,
  progress,
  readTextInput,
  writeStdout,
} from '@db8/cli/kit';
import {
  defaultLocalAdminFile,
  explain,
  fetchBundle,
  normalizeUrl,
  Remote,
  readLocalAdmin,
  resolveRoom,
} from '@db8/cli/kit-run';
import { parseJson, truncateCodePoints, verifyBundleText } from '@db8/core';
import type { Db8Client } from '@db8/sdk';
import { debateRating, debateRatings } from '../client/index.ts';
import { DebateConfigSchema } from '../rules/index.ts';
import { statusLines } from './format.ts';
import { checkDebateJournal } from './journal-check.ts';
import { loadSeat } from './seat.ts';
import { debateTranscript } from './transcript.ts';
import { watchDebate } from './watch.ts';

const out = (line: string) => writeStdout(`${line}\n`);

export interface CreateOpts {
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

export async function create(o: CreateOpts) {
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
      title: o.title ?? truncateCodePoints(check.data.topic, 120),
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

export async function status(room: string | undefined, o: { url?: string; json?: boolean }) {
  const s = await loadSeat(o.url, room, { required: false });
  if (o.json) return out(JSON.stringify({ room_id: s.roomId, state: s.state }));
  await out(`room ${s.roomId}`);
  for (const l of statusLines(s.view, s.legal, Date.now())) await out(l);
}

export async function watch(room: string | undefined, o: { url?: string }) {
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

/** `db8 debate transcript`: the bundle this credential may see, as Markdown (transcript.ts). */
export async function transcript(room: string | undefined, o: { url?: string; output?: string }) {
  const { roomId, text } = await fetchBundle(room, o);
  let md: string;
  try {
    md = debateTranscript(text, `${roomId}.jsonl`);
  } catch (e) {
    throw new CliError(EXIT_INVALID_INPUT, `${roomId}: ${(e as Error).message}`);
  }
  if (o.output) await writeFile(o.output, md);
  else await out(md.trimEnd());
}

export async function verify(
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

export async function ratings(
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

/** Does a db8 server answer at `url` (quickly)? */
async function answers(api: Db8Client): Promise<boolean> {
  try {
    await Promise.race([
      api.health(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2_000).unref()),
    ]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The server the demo runs on: --url (with the saved admin session, or the local admin credential
 * for it); else a running local server — the one whose local admin credential is here
 * ($DB8_DATA_DIR or ./.db8), or the saved admin session's; else null (the demo starts its own).
 */
async function demoServer(url: string | undefined): Promise<{ admin: Db8Client; api: Db8Client } | null> {
  const local = readLocalAdmin(defaultLocalAdminFile());
  const viaLocal = async (remote: Remote) => {
    if (!local || normalizeUrl(local.url) !== remote.url || !(await answers(remote.api))) return null;
    const s = await remote.call(() => remote.api.adminLogin(local.token));
    return { admin: remote.api.withToken(s.token), api: remote.api };
  };
  if (url) {
    const remote = new Remote(url);
    if (remote.session?.role === 'admin') return { admin: await remote.client(), api: remote.api };
    const viaFile = await viaLocal(remote);
    if (viaFile) return viaFile;
    throw new CliError(
      EXIT_INVALID_INPUT,
      `db8 demo debate --url needs an admin session for ${remote.url}: db8 login --local (on the server's machine) or db8 login --link <admin link>`,
    );
  }
  if (local) {
    const viaFile = await viaLocal(new Remote(local.url));
    if (viaFile) return viaFile;
  }
  const remote = new Remote(undefined);
  if (remote.session?.role === 'admin' && (await answers(remote.api))) {
    return { admin: await remote.client(), api: remote.api };
  }
  return null;
}

export async function demo(o: { url?: string; rounds?: number; pace?: number }) {
  const { runDemo } = await import('./demo.ts');
  const found = await demoServer(o.url);
  const admin = found?.admin;
  const api = found?.api;
  if (found) await out(`using the db8 server at ${found.api.baseUrl}`);
  // Live counts on stderr when both streams are a terminal; in a pipe or log the printed lines
  // already tell the story (and the counts would be noise).
  const status = progress({ tty: process.stderr.isTTY === true && process.stdout.isTTY === true });
  let counts = '';
  const r = await runDemo({
    ...(admin && api ? { admin, api } : {}),
    ...(o.rounds ? { rounds: o.rounds } : {}),
    ...(o.pace ? { pace: o.pace } : {}),
    print: async (line) => {
      status.done();
      await out(line);
      if (counts) status.update(counts, true);
    },
    ...(status.tty
      ? {
          onCount: (c: { acts: number; refused: number }) => {
            counts = `… ${c.acts} scripted actions (${c.refused} refused)`;
            status.update(counts);
          },
        }
      : {}),
  }).finally(() => status.done());
  if (r.view?.phase !== 'closed')
    throw new CliError(EXIT_IO_ERROR, `the demo debate ${r.roomId} did not close`);
  await out(
    `done: ${r.acts} scripted actions over the API (${r.failed} refused); room ${r.roomId} is closed`,
  );
}
