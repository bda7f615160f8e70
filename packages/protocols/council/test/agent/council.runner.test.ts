// The council driver end to end: scripted, then over real HTTP in both wire formats, with a role
// that fails, a reply that needs the repair attempt, and cancellation.

import { Budget, createProvider, type Provider } from '@db8/agents';
import { ModelServer, type Wire } from '@db8/agents/test/model-server.ts';
import { canonicalize, refoldLog } from '@db8/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completeWriteback, councilScript, runCouncil, scriptedCouncilReply } from '../../agent/index.ts';
import { council, FinalPacketSchema, ROLES, type Role, renderPacketMarkdown } from '../../rules/index.ts';
import { councilResponder, readCouncilRequest } from './council-responder.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const question = 'Should we replace our cron batch jobs with an event-driven pipeline?';

function everyone(p: Provider): Record<Role, Provider> {
  return Object.fromEntries(ROLES.map((r) => [r, p])) as Record<Role, Provider>;
}

function wireProvider(wire: Wire, budget = new Budget()) {
  return createProvider({
    provider: wire,
    model: `${wire}-model`,
    baseUrl: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
    env: { OPENAI_API_KEY: 'sk-test-key-123456', ANTHROPIC_API_KEY: 'sk-ant-test-123456' },
    // A safety limit only: the local server answers at once however loaded the machine, and the
    // cancelling test must be ended by its abort, not by a timeout.
    config: { timeoutMs: 120_000, retry: { maxRetries: 1, baseDelayMs: 1 } },
    budget,
  });
}

describe('council runner', () => {
  it('a scripted council runs every stage and stops at Writeback with a valid, scripted packet', async () => {
    const p = createProvider({ provider: 'scripted', model: 'council', script: councilScript });
    const run = await runCouncil({ runId: 'r1', question, providers: everyone(p), seed: '00'.repeat(32) });
    const st = run.room.state;
    expect(st.stage).toBe('Writeback');
    const packet = FinalPacketSchema.parse(st.packet);
    expect(packet.scripted).toBe(true);
    expect(
      packet.roles.every((r) => r.scripted && r.provider === 'scripted' && r.model === 'scripted:council'),
    ).toBe(true);
    expect(packet.decision).toMatchObject({ source: 'Judge', verdict: 'adopt_with_conditions' });
    expect(packet.decision.summary.startsWith('[scripted]')).toBe(true);
    expect(packet.degradation.degraded).toBe(false);
    expect(run.calls).toHaveLength(17);
    expect(run.calls.every((c) => c.record?.scripted)).toBe(true);
    completeWriteback(run, 'records/decisions/r1.json');
    expect(run.room.state.status).toBe('completed');
    const re = refoldLog(run.room.entries, new Map([[council.name, council]]));
    expect(re).toMatchObject({ ok: true, closed: true });
    expect(canonicalize(re.state)).toBe(canonicalize(run.room.state));
  });

  describe.each(['openai', 'anthropic'] as const)('over HTTP (%s)', (wire) => {
    it('runs a full council, showing each role only what the protocol has published', async () => {
      server.respond(councilResponder());
      const run = await runCouncil({ runId: `r-${wire}`, question, providers: everyone(wireProvider(wire)) });
      expect(run.room.state.stage).toBe('Writeback');
      const packet = FinalPacketSchema.parse(run.room.state.packet);
      expect(packet.scripted).toBe(false); // the wire provider is a real adapter, even if the server is scripted
      expect(packet.roles[0]).toMatchObject({ provider: wire, model: `${wire}-model`, okTurns: 3 });
      expect(server.requests).toHaveLength(17);
      const texts = server.requests.map((r) => JSON.stringify(r.body));
      // Round 1 prompts carry the question only — no other role's opening.
      const r1 = server.requests.filter((r) => JSON.stringify(r.body).includes('council_opening'));
      expect(r1).toHaveLength(5);
      expect(r1.every((r) => !JSON.stringify(r.body).includes('position on:'))).toBe(true);
      // The Analyst challenges the Proponent and is shown the Proponent's opening.
      const analystR2 = texts.find(
        (t) => t.includes('You are the Analyst') && t.includes('council_challenge'),
      )!;
      expect(analystR2).toContain('Proponent position on:');
      expect(analystR2).not.toContain('Critic position on:');
      // The Judge is told today's date and the consensus scores.
      const judge = texts.find((t) => t.includes('council_verdict'))!;
      expect(judge).toMatch(/Today is \d{4}-\d{2}-\d{2}/);
      expect(judge).toContain('Consensus scores');
      // Usage and cost flow from the server into the turns.
      const opening = run.room.state.turns.find((t) => t.kind === 'opening')!;
      expect(opening.call).toMatchObject({ provider: wire, attempts: 1, scripted: false });
      expect(opening.call!.inputTokens).toBeGreaterThan(0);
    });

    it('a role whose calls fail is marked; the run completes degraded; its challengers record TARGET_UNAVAILABLE', async () => {
      server.respond(councilResponder((r) => (r.role === 'Critic' ? { status: 500 } : null)));
      const run = await runCouncil({ runId: 'deg', question, providers: everyone(wireProvider(wire)) });
      const packet = FinalPacketSchema.parse(run.room.state.packet);
      expect(packet.degradation.degraded).toBe(true);
      const marks = packet.degradation.markers.map((m) => `${m.stage}/${m.role}/${m.code}`);
      expect(marks).toEqual([
        'Round1/Critic/server_error',
        'Round2/Proponent/TARGET_UNAVAILABLE',
        'Round2/Critic/server_error',
        'Round2/Synthesizer/TARGET_UNAVAILABLE',
        'Round3/Critic/server_error',
      ]);
      expect(packet.roles.find((r) => r.role === 'Critic')).toMatchObject({ okTurns: 0, failedTurns: 3 });
      expect(packet.scores.coverage).toBe(0.8);
      expect(packet.decision.source).toBe('Judge');
      // No content was invented for the Critic: its turns are failures with the call's provenance.
      const critic = run.room.state.turns.filter((t) => t.role === 'Critic');
      expect(critic.every((t) => t.kind === 'failed')).toBe(true);
      expect(critic[0]!.call).toMatchObject({ attempts: 2, outputTokens: 0 });
    });

    it('a verdict with a past due date gets the repair attempt and then passes', async () => {
      let first = true;
      server.respond(
        councilResponder((r) => {
          if (r.schemaName !== 'council_verdict' || !first) return null;
          first = false;
          const v = {
            decision: 'x',
            verdict: 'defer',
            rationale: 'y',
            risks: [],
            nextActions: [{ action: 'a', owner: 'o', due: '2001-01-01' }],
            quality: 0.5,
          };
          return { reply: v };
        }),
      );
      const run = await runCouncil({ runId: 'rep', question, providers: everyone(wireProvider(wire)) });
      const verdict = run.room.state.turns.find((t) => t.kind === 'verdict')!;
      expect(verdict.call).toMatchObject({ repaired: true, attempts: 2 });
      const repair = JSON.stringify(server.requests.at(-1)!.body);
      expect(repair).toMatch(/due dates must be \d{4}-\d{2}-\d{2} or later/);
    });
  });

  it("the packet totals every call's tokens and cost, failed calls included, per role and in all", async () => {
    // Every reply reports 1,000 input and 200 output tokens; the Critic's calls fail (HTTP 500:
    // no tokens reported). The openai model is priced, the anthropic one is not.
    server.respond(
      councilResponder((r) =>
        r.role === 'Critic'
          ? { status: 500 }
          : { reply: scriptedCouncilReply(r), usage: { input: 1000, output: 200 } },
      ),
    );
    const prices = { 'openai-*': { inputPerMTok: 3, outputPerMTok: 15 } };
    const priced = createProvider({
      provider: 'openai',
      model: 'openai-model',
      baseUrl: server.openaiBaseUrl,
      env: { OPENAI_API_KEY: 'sk-test-key-123456' },
      config: { timeoutMs: 120_000, retry: { maxRetries: 1, baseDelayMs: 1 }, prices },
    });
    const providers = { ...everyone(priced), Judge: wireProvider('anthropic') };
    const run = await runCouncil({ runId: 'u', question, providers });
    const packet = FinalPacketSchema.parse(run.room.state.packet);
    // 17 turns, 15 calls: the two roles challenging the Critic in round 2 had no target and made no
    // call (TARGET_UNAVAILABLE); the Critic's 3 calls failed (no tokens reported, still counted).
    expect(packet.usage).toMatchObject({ calls: 15, inputTokens: 12_000, outputTokens: 2_400 });
    // Priced: the 8 ok openai calls at 1,000 × $3 + 200 × $15 per million = $0.006 each; the Judge's
    // 4 anthropic calls are unpriced, so the total is a lower bound and says so.
    const judge = packet.usage!.byRole.find((r) => r.role === 'Judge')!;
    expect(judge).toMatchObject({
      calls: 4,
      inputTokens: 4_000,
      outputTokens: 800,
      costUsd: null,
      unpricedCalls: 4,
    });
    const critic = packet.usage!.byRole.find((r) => r.role === 'Critic')!;
    expect(critic).toMatchObject({ calls: 3, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 });
    expect(packet.usage!.costUsd).toBeCloseTo((8 * (1000 * 3 + 200 * 15)) / 1e6, 9);
    expect(packet.usage!.unpricedCalls).toBe(4);
    expect(renderPacketMarkdown(packet)).toContain(
      '15 calls · 12,000 input + 2,400 output tokens · $0.0480 (4 calls unpriced)',
    );
  });

  it('a re-run reuses every successful turn as recorded and asks only the failed ones again', async () => {
    server.respond(councilResponder((r) => (r.role === 'Critic' ? { status: 500 } : null)));
    const first = await runCouncil({ runId: 'deg1', question, providers: everyone(wireProvider('openai')) });
    expect(FinalPacketSchema.parse(first.room.state.packet).degradation.degraded).toBe(true);
    server.reset();
    server.respond(councilResponder());
    const again = await runCouncil({
      runId: 'deg1-again',
      question,
      providers: everyone(wireProvider('openai')),
      rerunOf: 'deg1',
      reuse: first.room.state.turns,
    });
    // The Critic's three turns and the two challenges that had no target are asked again; the
    // Critic is the only one that calls the model in round 1 and 3, and round 2 has three callers.
    const asked = server.requests.map((q) => readCouncilRequest(q).role);
    expect(asked.sort()).toEqual(['Critic', 'Critic', 'Critic', 'Proponent', 'Synthesizer']);
    const packet = FinalPacketSchema.parse(again.room.state.packet);
    expect(packet.degradation.degraded).toBe(false);
    expect(again.room.state.config.rerunOf).toBe('deg1');
    // A reused turn is the earlier one, payload and call provenance alike.
    const opening = (run: typeof first) =>
      run.room.state.turns.find((t) => t.role === 'Analyst' && t.kind === 'opening');
    expect({ ...opening(again), at: 0 }).toEqual({ ...opening(first), at: 0 });
  });

  it('a room budget shared by all roles stops calls when spent, and the run still completes degraded', async () => {
    server.respond(councilResponder());
    // Calls start in roster order, so the 11th and 12th calls are the Proponent's and Critic's round 3.
    const budget = new Budget({ room: { maxCalls: 12 } });
    const run = await runCouncil({
      runId: 'b',
      question,
      providers: everyone(wireProvider('openai', budget)),
    });
    expect(server.requests).toHaveLength(12);
    const packet = FinalPacketSchema.parse(run.room.state.packet);
    expect(
      packet.degradation.markers
        .filter((m) => m.code === 'budget_exceeded')
        .map((m) => `${m.stage}/${m.role}`),
    ).toEqual([
      'Round3/Analyst',
      'Round3/Synthesizer',
      'Round3/Judge',
      'Consensus/Synthesizer',
      'Judge/Judge',
    ]);
    expect(packet.decision.source).toBe('none');
  });

  it('cancelling aborts in-flight calls and the run', async () => {
    server.respond(() => ({ hang: 'headers' }));
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const run = await runCouncil({
      runId: 'c',
      question,
      providers: everyone(wireProvider('anthropic')),
      signal: ctl.signal,
    });
    expect(run.room.state.status).toBe('aborted');
    expect(run.room.state.abort?.error.code).toBe('CANCELLED');
    expect(run.room.state.abort?.stage).toBe('Round1');
  });
});
