// A debate server for tests: buildApp + registerDebate on an in-memory PGlite store and a settable
// clock, and helpers that play scripted debates over REST, ticking the room at each deadline.
import { randomBytes } from 'node:crypto';
import { createProtocolRegistry } from '@db8/core';
import { joinEffectsOf } from '@db8/server';
import { buildApp } from '@db8/server/src/app.ts';
import { AdminLinks } from '@db8/server/src/auth/admin-link.ts';
import { LocalBus } from '@db8/server/src/bus/local.ts';
import { serverKeyFromSeed } from '@db8/server/src/keys/index.ts';
import { Runtime } from '@db8/server/src/runtime/index.ts';
import { openStore } from '@db8/server/src/store/index.ts';
import { migrate } from '@db8/server/src/store/migrate.ts';
import { TestClock } from '@db8/server/test/app-harness.ts';
import { call as callApp } from '@db8/server/test/routes-fixtures.ts';
import { builtinProtocols } from 'db8/src/protocols.ts';
import { builtinModules } from 'db8/src/server-modules.ts';
import { expect } from 'vitest';
import { scriptedDecisions } from '../../agent/index.ts';
import { type DebateView, type LegalAction, submissionBytes } from '../../rules/index.ts';
import {
  type DebatePlugin,
  debateModule,
  type ResearchOptions,
  registerDebate,
  type SubmitLimit,
} from '../../server/index.ts';

export const TIMINGS = {
  research_ms: 0,
  submit_ms: 10_000,
  verify_ms: 5_000,
  continue_vote_ms: 3_000,
  final_submit_ms: 10_000,
  final_vote_ms: 6_000,
  results_ms: 2_000,
  reveal_ms: 2_000,
};
export const DEBATERS = ['anon_1', 'anon_2', 'anon_3', 'anon_4', 'anon_5'];

export interface Seat {
  seat: string;
  token: string;
  principal: string;
}

export type Signer = (bytes: Uint8Array) => { signature_kind: 'ssh'; signature_b64: string };

export async function debateServer(
  opts: { journalGit?: string; submitLimit?: SubmitLimit; research?: ResearchOptions } = {},
) {
  const store = await openStore({ memory: true });
  const clock = new TestClock();
  const bus = new LocalBus();
  const serverKey = serverKeyFromSeed(new Uint8Array(randomBytes(32)), 'db8.test');
  const runtime = new Runtime({
    store,
    protocols: createProtocolRegistry(builtinProtocols),
    joinEffects: joinEffectsOf(builtinModules),
    serverKey,
    bus,
    clock: clock.fn,
  });
  const adminLinks = new AdminLinks(clock.fn);
  const app = await buildApp({
    modules: builtinModules,
    runtime,
    store,
    bus,
    serverKey,
    adminLinks,
    clock: clock.fn,
    config: { logLevel: 'silent' },
  });
  await migrate(store.db, debateModule.migrations);
  const plugin: DebatePlugin = await registerDebate(app, {
    runtime,
    ...(opts.submitLimit ? { submitLimit: opts.submitLimit } : {}),
    ...(opts.journalGit ? { journalGit: opts.journalGit } : {}),
    ...(opts.research ? { research: opts.research } : {}),
  });
  await app.ready();
  const h = { app, store, bus, clock, serverKey, runtime, adminLinks, logs: [], close: () => app.close() };
  const login = await callApp(h, 'POST', '/v1/auth/login', { body: { token: adminLinks.create(3_600_000) } });
  const admin: string = login.body.token;

  const call = (method: 'GET' | 'POST', url: string, o: { token?: string; body?: unknown } = {}) =>
    callApp(h, method, url, o);
  async function createDebate(config: Record<string, unknown> = {}) {
    const r = await call('POST', '/v1/rooms', {
      token: admin,
      body: {
        protocol: 'debate',
        title: 'test debate',
        config: { topic: 'Should cities ban cars?', tags: ['urbanism'], judges: 1, viewers: 0, ...config },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { room_id: string; config: Record<string, unknown> };
  }

  /** Five debater agents, a fact-checker agent and a judge agent, each joined over REST. */
  async function seatEveryone(roomId: string, agents?: Map<string, string>): Promise<Map<string, Seat>> {
    const seats = new Map<string, Seat>();
    for (const seat of [...DEBATERS, 'fact_checker', 'judge_1']) {
      let apiKey = agents?.get(seat);
      if (!apiKey) {
        const a = await call('POST', '/v1/agents', { body: { name: `${seat}-bot` } });
        expect(a.status).toBe(201);
        apiKey = a.body.api_key as string;
        agents?.set(seat, apiKey);
      }
      // The fact-checker's seat is given (privileged): the admin's invite for it, joined with the agent's key.
      const invite =
        seat === 'fact_checker'
          ? (await call('POST', `/v1/rooms/${roomId}/invites`, { token: admin, body: { seat } })).body.invite
          : undefined;
      const j = await call('POST', `/v1/rooms/${roomId}/join`, {
        token: apiKey,
        body: { seat, ...(invite ? { invite } : {}) },
      });
      expect(j.status, JSON.stringify(j.body)).toBe(200);
      seats.set(seat, { seat, token: j.body.session_token, principal: j.body.principal });
    }
    return seats;
  }

  /** Every seat acts as the script says until no one has anything left to do at this instant. */
  async function actAll(roomId: string, seats: Map<string, Seat>, signers: Map<string, Signer>) {
    for (let pass = 0; pass < 5; pass++) {
      let acted = 0;
      for (const s of seats.values()) {
        const st = await call('GET', `/v1/rooms/${roomId}/state`, { token: s.token });
        expect(st.status).toBe(200);
        if (st.body.status !== 'open') return;
        const view = st.body.view as DebateView;
        const legal = (st.body.legal?.actions ?? []) as LegalAction[];
        for (const d of scriptedDecisions(s.seat, view, legal, { falseClaim: 'anon_5:1:c2' })) {
          let action: Record<string, unknown> = d.action;
          const sign = signers.get(s.seat);
          if (d.action.type === 'submit' && sign)
            action = { ...d.action, ...sign(submissionBytes(d.action)) };
          const r = await call('POST', `/v1/rooms/${roomId}/actions`, {
            token: s.token,
            body: { seat: s.seat, action, client_nonce: `${s.seat}:${d.key}` },
          });
          expect(r.status, `${s.seat} ${d.key}: ${JSON.stringify(r.body)}`).toBe(200);
          acted++;
        }
      }
      if (acted === 0) return;
    }
  }

  /** Act, then move the clock to the next deadline and tick, until the room closes. */
  async function playToClose(roomId: string, seats: Map<string, Seat>, signers = new Map<string, Signer>()) {
    const phases: string[] = [];
    for (let i = 0; i < 60; i++) {
      await actAll(roomId, seats, signers);
      const st = await call('GET', `/v1/rooms/${roomId}/state`, { token: admin });
      phases.push((st.body.view as DebateView).phase);
      if (st.body.status === 'closed') return phases;
      const due: number | null = st.body.deadline_ms;
      expect(due).not.toBeNull();
      if (due! > clock.now) clock.now = due!;
      await runtime.tick(roomId, clock.now);
    }
    throw new Error(`the debate did not close: ${phases.join(' ')}`);
  }

  return {
    ...h,
    plugin,
    admin,
    call,
    createDebate,
    seatEveryone,
    playToClose,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
