// `db8 swarm …` actions: each one request (or a few) to a node's /v1/swarm routes, signed by the
// node (a draft) or by the user's own key (--key), with answers printed as one line or as JSON.

import { CliError, EXIT_INVALID_INPUT, EXIT_USAGE, writeStdout } from '@db8/cli/kit';
import { Remote } from '@db8/cli/kit-run';
import { timerDelay } from '@db8/core';
import type { QuestionView } from '../rules/index.ts';
import { type AskFields, readSigner, type Signer, signedEnvelope, signedInput } from './sign.ts';

export interface Common {
  url?: string;
  key?: string;
  json?: boolean;
}

interface NodeInfo {
  node_id: string;
  /** The caller's own key on the node (asked with the caller's login). */
  participant_id: string;
  federation_id?: string;
  online: boolean;
}
interface RoomAnswer {
  question_id: string;
  seq: number;
  room: QuestionView;
}

const enc = encodeURIComponent;

async function json<T>(remote: Remote, method: 'GET' | 'POST', path: string, body?: unknown, auth = true) {
  const api = auth ? await remote.client() : remote.api;
  const res = await remote.call(() => api.raw(method, path, body));
  return (await res.json()) as T;
}

const print = (o: Common, value: unknown, line: string) =>
  writeStdout(o.json ? `${JSON.stringify(value)}\n` : `${line}\n`);

/** Who signs: the user's key (--key) or, with no key, the node (a draft). */
async function context(o: Common) {
  const remote = new Remote(o.url);
  // Logged in, the node names the key it signs this caller's drafts with.
  const node = await json<NodeInfo>(remote, 'GET', '/v1/swarm/node', undefined, !o.key);
  const signer: Signer | null = o.key ? readSigner(o.key) : null;
  return { remote, node, signer, me: signer?.participant ?? node.participant_id };
}

async function room(remote: Remote, qid: string) {
  return json<RoomAnswer>(remote, 'GET', `/v1/swarm/questions/${enc(qid)}`, undefined, false);
}

async function postInput(
  c: Awaited<ReturnType<typeof context>>,
  qid: string,
  draft: { type: string } & Record<string, unknown>,
) {
  const body = c.signer
    ? { input: signedInput(draft, qid, c.signer, c.node.node_id, c.node.federation_id ?? null) }
    : { draft };
  return json<Record<string, unknown>>(c.remote, 'POST', `/v1/swarm/questions/${enc(qid)}/inputs`, body);
}

export async function ask(text: string, o: Common & AskFields & { federation: string }) {
  const c = await context(o);
  const fields: AskFields = {
    text,
    tags: o.tags,
    scope: o.scope,
    ttl_sec: o.ttl_sec,
    follow_ups: o.follow_ups,
    ...(o.question_id ? { question_id: o.question_id } : {}),
    ...(o.languages?.length ? { languages: o.languages } : {}),
    ...(o.models_require?.length ? { models_require: o.models_require } : {}),
    ...(o.models_exclude?.length ? { models_exclude: o.models_exclude } : {}),
    ...(o.min_reputation !== undefined ? { min_reputation: o.min_reputation } : {}),
  };
  const body = c.signer
    ? { envelope: signedEnvelope(fields, c.signer, c.node.node_id, o.federation) }
    : { ask: fields };
  const r = await json<{ question_id: string; status: string }>(
    c.remote,
    'POST',
    '/v1/swarm/questions',
    body,
  );
  await print(o, r, `${r.question_id} ${r.status} (signed by ${c.me})`);
}

export async function list(o: Common & { scope?: string; tag?: string; status: string }) {
  const remote = new Remote(o.url);
  const q = new URLSearchParams({ status: o.status });
  if (o.scope) q.set('scope', o.scope);
  if (o.tag) q.set('tag', o.tag);
  const r = await json<{ questions: Array<Record<string, unknown>> }>(
    remote,
    'GET',
    `/v1/swarm/questions?${q}`,
    undefined,
    false,
  );
  if (o.json) return writeStdout(`${JSON.stringify(r)}\n`);
  const lines = r.questions.map(
    (x) => `${x.question_id}  ${x.status}  ${x.scope}  [${(x.tags as string[]).join(',')}]  ${x.text}`,
  );
  await writeStdout(lines.length ? `${lines.join('\n')}\n` : 'no questions\n');
}

/** One line per message, summary and the close, in room order. */
function events(v: QuestionView) {
  const out: Array<{ seq: number; key: string; line: string; value: unknown }> = [];
  for (const m of v.messages) {
    const line = `#${m.seq} ${m.kind} [${m.origin}] ${m.speaker}: ${m.text}`;
    out.push({ seq: m.seq, key: `m:${m.id}`, line, value: { event: 'message', message: m } });
  }
  for (const s of v.summaries) {
    const line =
      `#${s.seq} summary ${s.id} (${s.role}, ${s.status}, uncertainty ${s.uncertainty}): ` +
      `facts ${JSON.stringify(s.facts)} hypotheses ${JSON.stringify(s.hypotheses)} ` +
      `recommendations ${JSON.stringify(s.recommendations)}`;
    out.push({ seq: s.seq, key: `s:${s.id}`, line, value: { event: 'summary', summary: s } });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

export async function watch(qid: string, o: Common & { intervalMs: number }) {
  const remote = new Remote(o.url);
  const seen = new Set<string>();
  for (;;) {
    const r = await room(remote, qid);
    for (const e of events(r.room)) {
      if (seen.has(e.key)) continue;
      seen.add(e.key);
      await print(o, e.value, e.line);
    }
    if (r.room.status !== 'open') {
      const c = r.room.close;
      const line = `${r.room.status}${c ? `: ${c.resolution}${c.acceptedSummary ? ` (accepted ${c.acceptedSummary})` : ''}` : ''}`;
      await print(o, { event: 'end', status: r.room.status, close: c }, line);
      return;
    }
    await new Promise((res) => setTimeout(res, timerDelay(o.intervalMs)));
  }
}

export async function answer(
  qid: string,
  text: string,
  o: Common & { speaker?: string; models: string[]; languages: string[]; origin?: string; kind: string },
) {
  const c = await context(o);
  const r = await room(c.remote, qid);
  if (!r.room.participants.some((p) => p.id === c.me) && r.room.question.asker !== c.me) {
    await postInput(c, qid, {
      type: 'swarm/room-join',
      'responder/models': o.models,
      'responder/languages': o.languages.length
        ? o.languages
        : r.room.question.languages.length
          ? r.room.question.languages
          : ['en'],
      'responder/tags': r.room.question.tags,
    });
  }
  const out = await postInput(c, qid, {
    type: 'swarm/room-message',
    'message/kind': o.kind,
    'message/text': text,
    ...modelLabel(o, c.me),
  });
  await print(o, out, `${qid} ${o.kind} ${String(out.status)} at room seq ${String(out.room_seq ?? '?')}`);
}

/**
 * Who an answer is from. With `--model` (and no `--origin`/`--speaker`) it is labelled a model's:
 * origin `node-generated` (not a person's words relayed) and speaker `model:<label>`, which the
 * room's reads, the web room and `watch` show.
 */
export function modelLabel(o: { speaker?: string; models: string[]; origin?: string }, me = '') {
  const model = o.models[0];
  const speaker = o.speaker ?? (model ? (model.startsWith('model:') ? model : `model:${model}`) : me);
  return {
    'origin/class': o.origin ?? (model ? 'node-generated' : 'node-mediated-human'),
    'origin/speaker': speaker,
  };
}

/** The role a signer holds in the room: asker, the secretary, else participant. */
function roleOf(v: QuestionView, me: string): 'asker' | 'secretary' | 'participant' {
  if (v.question.asker === me) return 'asker';
  if (v.secretary?.participant === me) return 'secretary';
  return 'participant';
}

export async function summarize(
  qid: string,
  o: Common & {
    facts: string[];
    hypotheses: string[];
    recommendations: string[];
    uncertainty: number;
    final?: boolean;
    role?: string;
  },
) {
  if (!Number.isFinite(o.uncertainty) || o.uncertainty < 0 || o.uncertainty > 1)
    throw new CliError(EXIT_USAGE, '--uncertainty: expected a number from 0 to 1');
  const c = await context(o);
  const r = await room(c.remote, qid);
  const out = await postInput(c, qid, {
    type: 'swarm/question-summary',
    'author/role': o.role ?? roleOf(r.room, c.me),
    status: o.final ? 'final' : 'intermediate',
    'content/facts': o.facts,
    'content/hypotheses': o.hypotheses,
    'content/recommendations': o.recommendations,
    'content/uncertainty': o.uncertainty,
  });
  await print(o, out, `${qid} summary ${String(out.status)} at room seq ${String(out.room_seq ?? '?')}`);
}

export async function close(
  qid: string,
  o: Common & { resolution?: string; accept?: string; role?: string },
) {
  if (o.accept && o.resolution && o.resolution !== 'accepted-answer')
    throw new CliError(EXIT_USAGE, '--accept goes with --resolution accepted-answer (or none)');
  const c = await context(o);
  const r = await room(c.remote, qid);
  const role = o.role ?? roleOf(r.room, c.me);
  if (role === 'participant')
    throw new CliError(EXIT_INVALID_INPUT, `${c.me} is neither the asker nor the secretary of ${qid}`);
  const out = await postInput(c, qid, {
    type: 'swarm/question-close',
    'closed-by/role': role,
    resolution: o.accept ? 'accepted-answer' : (o.resolution ?? 'closed'),
    ...(o.accept ? { 'accepted-summary/id': o.accept } : {}),
  });
  await print(o, out, `${qid} close ${String(out.status)}`);
}

/** The asker makes a participant the secretary (`swarm/room-delegate`). */
export async function delegate(
  qid: string,
  to: string,
  o: Common & { node?: string; closeAllowed?: boolean },
) {
  const c = await context(o);
  const r = await room(c.remote, qid);
  const node = o.node ?? r.room.participants.find((p) => p.id === to)?.node;
  if (!node)
    throw new CliError(EXIT_INVALID_INPUT, `${to} is not a participant of ${qid}; name its node with --node`);
  const out = await postInput(c, qid, {
    type: 'swarm/room-delegate',
    'secretary/participant-id': to,
    'secretary/node-id': node,
    'close/allowed': o.closeAllowed === true,
  });
  await print(o, out, `${qid} delegate to ${to} ${String(out.status)}`);
}

/** A participant takes over as secretary once the asker lapsed (`swarm/room-takeover`). */
export async function takeover(qid: string, o: Common) {
  const c = await context(o);
  const out = await postInput(c, qid, { type: 'swarm/room-takeover' });
  await print(o, out, `${qid} takeover ${String(out.status)} (secretary ${c.me})`);
}
