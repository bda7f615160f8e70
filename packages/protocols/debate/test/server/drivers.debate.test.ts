import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ServerStep } from '@db8/agents/test/model-server.ts';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { verifyBundleText } from '@db8/core';
import { readCouncilRequest } from '@db8/council/test/agent/council-responder.ts';
import { SERVER_PUBKEY_FILE } from '@db8/server/src/keys/server-key.ts';
import { type StartedServer, startEmbeddedServer } from '@db8/server/test/started-server.ts';
import type { RunningServer } from 'db8/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DebateView } from '../../rules/index.ts';

// A debate room on a real server (PGlite) whose five debaters, fact-checker and two judges are
// model drivers on the real local model server: odd debaters and judge_1 speak the OpenAI format,
// the rest Anthropic's. Timers are seconds long, so the room runs live to `closed`.

let server: RunningServer;
let models: ModelServer;
let started: StartedServer;
let admin: string;

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests.
  return { status: res.status, text, json: json as any };
}

beforeAll(async () => {
  models = await ModelServer.start();
  started = await startEmbeddedServer('db8-drivers-debate-');
  server = started.server;
  admin = started.admin;
});

afterAll(async () => {
  await started?.close();
  await models?.close();
});

const DEBATERS = ['anon_1', 'anon_2', 'anon_3', 'anon_4', 'anon_5'];

const spec = (wire: 'openai' | 'anthropic') => ({
  driver: 'model',
  provider: wire,
  model: `${wire}-model`,
  base_url: wire === 'openai' ? models.openaiBaseUrl : models.anthropicBaseUrl,
});

const driverSpecs = () => ({
  anon_1: spec('openai'),
  anon_2: spec('anthropic'),
  anon_3: spec('openai'),
  anon_4: spec('anthropic'),
  anon_5: spec('openai'),
  fact_checker: spec('anthropic'),
  judge_1: spec('openai'),
  judge_2: spec('anthropic'),
});

const CONFIG = {
  topic: 'Should cities ban cars from their centres?',
  judges: 2,
  viewers: 0,
  max_rounds: 2,
  timings: {
    research_ms: 0,
    submit_ms: 5_000,
    verify_ms: 4_000,
    continue_vote_ms: 4_000,
    final_submit_ms: 5_000,
    final_vote_ms: 4_000,
    results_ms: 1_000,
    reveal_ms: 1_000,
  },
};

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is walked freely.
type Json = Record<string, any>;

/** The enum a model is offered at `path` in the request's JSON Schema (seats, claim ids). */
function enumAt(schema: Json, path: string[]): string[] {
  let node: Json | undefined = schema;
  for (const p of path) node = node?.[p];
  const values = node?.enum as string[] | undefined;
  if (!values?.length) throw new Error(`no enum at ${path.join('.')} in ${JSON.stringify(schema)}`);
  return values;
}

/** Schema-valid replies for each debate role, read off the request as a real model would. */
function debateReply(rec: RecordedRequest): ServerStep {
  const r = readCouncilRequest(rec);
  const seat = /You are (anon_\d+)/.exec(r.prompt)?.[1] ?? '?';
  switch (r.schemaName) {
    case 'debate_submission':
      return {
        reply: {
          content: `${seat} argues that car-free centres cut pollution and make streets safer.`,
          claims: [
            {
              id: 'c1',
              text: `${seat}: car-free zones reduce NO2 levels.`,
              support: [{ kind: 'citation', ref: 'https://example.org/no2' }],
              confidence: 80,
            },
            {
              id: 'c2',
              text: `${seat}: pedestrian injuries fall in car-free zones.`,
              support: [{ kind: 'data', ref: 'city road statistics' }],
            },
          ],
          citations: [
            { url: 'https://example.org/no2', title: 'NO2 study' },
            { url: 'https://example.org/safety' },
          ],
        },
      };
    case 'debate_verdicts': {
      const ids = enumAt(r.jsonSchema, ['properties', 'claims', 'items', 'properties', 'claim_id']);
      return { reply: { claims: ids.map((id) => ({ claim_id: id, verdict: 'true', reason: 'sourced' })) } };
    }
    case 'debate_continue':
      return { reply: { choice: 'continue' } };
    case 'debate_scores': {
      const seats = enumAt(r.jsonSchema, ['properties', 'cards', 'items', 'properties', 'debater']);
      return {
        reply: {
          cards: seats.map((debater, i) => ({ debater, e: 90 - i * 10, r: 80 - i * 5, c: 70, v: 60, y: 50 })),
        },
      };
    }
    case 'debate_final_vote': {
      const candidates = enumAt(r.jsonSchema, ['properties', 'approval', 'items']);
      return { reply: { approval: candidates.slice(0, 2) } };
    }
    default:
      return { status: 500, body: { error: { message: `unscripted schema ${r.schemaName}` } } };
  }
}

async function waitFor<T>(fn: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Call = {
  seat: string;
  decision: string;
  ok: boolean;
  errorCode: string | null;
  actedSeq: number | null;
};

async function runDebate() {
  const created = await api('POST', '/v1/rooms', {
    protocol: 'debate',
    config: CONFIG,
    drivers: driverSpecs(),
  });
  expect(created.status, created.text).toBe(201);
  const id = created.json.room_id as string;
  await waitFor(async () => ((await api('GET', `/v1/rooms/${id}`)).json.status === 'closed' ? true : null));
  const st = await api('GET', `/v1/rooms/${id}/state`);
  const view = st.json.view as DebateView;
  const drivers = await api('GET', `/v1/rooms/${id}/drivers`);
  return { id, view, calls: drivers.json.calls as Call[], totals: drivers.json.totals };
}

async function checkJournal(id: string) {
  const replay = await server.runtime.replay(id);
  expect(replay.ok, JSON.stringify(replay.problems)).toBe(true);
  const exp = await fetch(`${server.url}/v1/rooms/${id}/export`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(exp.status).toBe(200);
  const text = await exp.text();
  const pinnedKey = readFileSync(join(started.dir, SERVER_PUBKEY_FILE), 'utf8').trim();
  const report = verifyBundleText(text, { pinnedKey });
  expect(report.ok, JSON.stringify(report.firstFailure)).toBe(true);
  expect(report.keyPinned).toBe(true);
  expect(verifyBundleText(text.replace('"kind":"tick"', '"kind":"tIck"')).ok).toBe(false);
}

describe('drivers: a debate run by model drivers', () => {
  it('five model debaters, a model fact-checker and model judges run to closed', async () => {
    models.reset();
    models.respond(debateReply);
    const { id, view, calls, totals } = await runDebate();
    expect(view.phase).toBe('closed');
    // Round 1, round 2 (everyone voted to continue), and the final round.
    expect(view.rounds.map((r) => r.kind)).toEqual(['argument', 'argument', 'final']);
    expect(new Set(models.requests.map((r) => r.wire))).toEqual(new Set(['openai', 'anthropic']));
    expect(totals.failures).toBe(0);
    expect(totals.inputTokens).toBeGreaterThan(0);

    // Every published submission is the action a recorded driver call wrote, at that seq.
    const acted = new Map(calls.filter((c) => c.ok && c.actedSeq !== null).map((c) => [c.actedSeq, c]));
    for (const round of view.rounds) {
      expect(round.published_at).not.toBeNull();
      expect(round.submissions.map((s) => s.author)).toEqual(DEBATERS);
      for (const s of round.submissions) {
        expect(s.status).toBe('verified');
        expect(s.verdict?.by).toBe('fact_checker');
        expect(s.payload?.content).toContain(s.author);
        const call = acted.get(s.seq);
        expect(call, `${round.round_id} ${s.author}`).toMatchObject({
          seat: s.author,
          decision: `submit:${round.round_id}`,
        });
      }
    }
    // The fact-checker checked every submission; both judges scored and voted.
    expect(calls.filter((c) => c.seat === 'fact_checker' && c.ok).length).toBe(15);
    expect(view.judging.scored.sort()).toEqual(['judge_1', 'judge_2']);
    expect(view.final_vote.voted.sort()).toEqual(['judge_1', 'judge_2']);

    const results = view.results!;
    expect(results.placements.map((p) => p.seat).sort()).toEqual(DEBATERS);
    // Both judges approved anon_1 and anon_2 (the first two candidates); the tie on approvals is
    // broken by the judges' cards, which rank anon_1 above anon_2.
    const place = Object.fromEntries(results.placements.map((p) => [p.seat, p]));
    expect(place.anon_1).toMatchObject({ place: 1, approvals: 2 });
    expect(place.anon_2).toMatchObject({ place: 2, approvals: 2 });
    expect(place.anon_3!.approvals).toBe(0);
    expect(results.scores.find((s) => s.seat === 'anon_1')!.rubric).toBeGreaterThan(0);
    await checkJournal(id);
  }, 120_000);

  it('a debater whose model returns garbage forfeits; nothing is invented and the debate closes', async () => {
    models.reset();
    models.respond((rec) => {
      const r = readCouncilRequest(rec);
      if (/You are anon_5\b/.test(r.prompt)) return { rawBody: '{"choices": [ garbage' };
      return debateReply(rec);
    });
    const { id, view, calls } = await runDebate();
    expect(view.phase).toBe('closed');
    for (const round of view.rounds) {
      const five = round.submissions.find((s) => s.author === 'anon_5')!;
      expect(five.status).toBe('forfeit');
      expect(five.payload).toBeUndefined();
      expect(five.seq).toBeNull();
      for (const s of round.submissions.filter((x) => x.author !== 'anon_5'))
        expect(s.status).toBe('verified');
    }
    const mine = calls.filter((c) => c.seat === 'anon_5');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => !c.ok && c.actedSeq === null)).toBe(true);
    expect(mine.filter((c) => c.decision.startsWith('submit:')).length).toBe(view.rounds.length);
    expect(mine.every((c) => c.errorCode === 'malformed_response')).toBe(true);
    expect(calls.filter((c) => c.seat !== 'anon_5').every((c) => c.ok)).toBe(true);

    const results = view.results!;
    expect(results.stats.find((s) => s.seat === 'anon_5')).toMatchObject({ submitted: 0 });
    expect(results.stats.find((s) => s.seat === 'anon_5')!.forfeits).toBe(view.rounds.length);
    expect(results.placements.map((p) => p.seat).sort()).toEqual(DEBATERS);
    await checkJournal(id);
  }, 120_000);
});
