import { createProvider, type Provider } from '@db8/agents';
import { ModelServer, type RecordedRequest } from '@db8/agents/test/model-server.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../rules/index.ts';
import { deliberationScript, deliberationScriptReply, runLocalDeliberation } from '../../server/index.ts';

// Deliberation drivers for every role: the scripted cast (module `scripted`) and model seats
// (turn.ts, the module's `agent`) over both wire formats of a real local model server. A reply that
// names what the seat's topology hides fails the reply schema and becomes a recorded failed turn.

const SEATS = ROLES.map((role, i) => ({
  id: `s${String(i).padStart(2, '0')}`,
  role,
  score: 9.5 - i * 0.25,
  provider: 'x',
  model: 'x',
}));
const config = (patch: Record<string, unknown> = {}) => ({
  sessionId: 'drivers_all_roles',
  topic: 'Choose a deployment strategy',
  seats: SEATS,
  maxRounds: 1,
  minConsensus: 0,
  ...patch,
});

let models: ModelServer;
beforeAll(async () => {
  models = await ModelServer.start();
});
afterAll(async () => {
  await models?.close();
});

const userOf = (r: RecordedRequest): string => {
  if (r.wire === 'anthropic') {
    const m = (r.body.messages as { content: string | { text: string }[] }[])[0]?.content;
    return typeof m === 'string' ? m : (m?.map((x) => x.text).join('') ?? '');
  }
  return (
    (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? ''
  );
};
const schemaOf = (r: RecordedRequest): string =>
  r.wire === 'anthropic'
    ? (r.body.tool_choice?.name ?? r.body.tools?.[0]?.name)
    : (r.body.tools?.[0]?.function?.name ?? r.body.response_format?.json_schema?.name);

describe('deliberation drivers', () => {
  for (const topology of ['graph_mesh', 'star', 'chain', 'tree'])
    it(`the scripted cast plays all ${ROLES.length} roles (${topology}) to completion`, async () => {
      const providers = Object.fromEntries(
        SEATS.map((s) => [
          s.id,
          createProvider({ provider: 'scripted', script: deliberationScript, env: {} }),
        ]),
      );
      const run = await runLocalDeliberation({
        config: config({ topology }),
        providers,
        seed: 'ef'.repeat(32),
      });
      expect(run.state.status).toBe('completed');
      const seated = new Set(run.state.turns.map((t) => t.seat));
      expect(seated.size).toBe(SEATS.length);
      expect(run.state.turns.filter((t) => t.action.type === 'failed')).toEqual([]);
      for (const t of run.state.turns)
        if ('content' in t.action) expect(t.action.content).toMatch(/^\[scripted\]/);
    });

  it('model seats of every role over OpenAI and Anthropic wires; provenance on every turn', async () => {
    models.reset();
    models.respond((req) => ({
      reply: deliberationScriptReply({ schemaName: schemaOf(req), prompt: userOf(req) }),
    }));
    const providers: Record<string, Provider> = Object.fromEntries(
      SEATS.map((s, i) => [
        s.id,
        createProvider({
          provider: i % 2 ? 'anthropic' : 'openai',
          model: i % 2 ? 'claude-test' : 'gpt-test',
          baseUrl: i % 2 ? models.anthropicBaseUrl : models.openaiBaseUrl,
          env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' },
        }),
      ]),
    );
    const run = await runLocalDeliberation({ config: config(), providers, seed: 'ef'.repeat(32) });
    expect(run.state.status).toBe('completed');
    expect(new Set(models.requests.map((r) => r.wire))).toEqual(new Set(['openai', 'anthropic']));
    expect(run.calls).toBe(models.requests.length);
    for (const t of run.state.turns) {
      const call = (t.action as { call: { provider: string; inputTokens: number } | null }).call;
      expect(call?.provider, `${t.seat} ${t.action.type}`).toMatch(/openai|anthropic/);
      expect(call!.inputTokens).toBeGreaterThan(0);
    }
  });

  it("a model seat's prompt never carries a turn its topology hides (chain)", async () => {
    models.reset();
    models.respond((req) => ({
      reply: deliberationScriptReply({ schemaName: schemaOf(req), prompt: userOf(req) }),
    }));
    const seats = SEATS.slice(0, 6);
    const providers = Object.fromEntries(
      seats.map((s) => [
        s.id,
        createProvider({
          provider: 'openai',
          model: 'gpt-test',
          baseUrl: models.openaiBaseUrl,
          env: { OPENAI_API_KEY: 'k' },
        }),
      ]),
    );
    const run = await runLocalDeliberation({
      config: config({ seats, topology: 'chain' }),
      providers,
      seed: 'ef'.repeat(32),
    });
    expect(run.state.status).toBe('completed');
    const seatOfReq = (r: RecordedRequest) =>
      /^You are (\w+),/.exec((r.body.messages as { role: string; content: string }[])[0]?.content ?? '')?.[1];
    let checked = 0;
    for (const t of run.state.turns) {
      const text = (t.action as { content?: string }).content;
      if (!text) continue;
      for (const r of models.requests) {
        const who = seatOfReq(r)!;
        if (who === t.seat || t.audience.includes(who)) continue;
        expect(userOf(r), `${who} saw ${t.seat}'s ${t.action.type}`).not.toContain(text);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('a reply naming a hidden candidate fails its schema: a recorded failed turn, never content', async () => {
    models.reset();
    models.respond((req) => {
      const schema = schemaOf(req);
      const body = deliberationScriptReply({ schemaName: schema, prompt: userOf(req) }) as Record<
        string,
        unknown
      >;
      // Every convergence ballot ranks a seat that is not a candidate the seat can see.
      return { reply: schema === 'deliberation_converge' ? { ...body, ranking: ['nobody'] } : body };
    });
    const seats = SEATS.slice(0, 5);
    const providers = Object.fromEntries(
      seats.map((s) => [
        s.id,
        createProvider({
          provider: 'openai',
          model: 'gpt-test',
          baseUrl: models.openaiBaseUrl,
          env: { OPENAI_API_KEY: 'k' },
        }),
      ]),
    );
    const run = await runLocalDeliberation({ config: config({ seats }), providers, seed: 'ef'.repeat(32) });
    const ballots = run.state.turns.filter((t) => t.phase === 'convergence');
    expect(ballots.length).toBe(5);
    for (const t of ballots) {
      expect(t.action).toMatchObject({ type: 'failed', error: { code: 'invalid_output' } });
      expect(JSON.stringify(t.action)).not.toContain('nobody');
    }
    // Convergence needs 3 responses: the session fails, and says why.
    expect(run.state).toMatchObject({ status: 'failed', failure: { code: 'PHASE_UNDERFILLED' } });
  });
});
