// `db8 demo debate`: a whole debate in about a minute — five scripted debaters (one signing with a
// registered SSH key, one with a room certificate), a scripted fact-checker, judges and viewers on
// short timers, all over the SDK against a running local server, --url, or a temporary server
// started here when none runs.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db8Client } from '@db8/sdk';
import { debateRatings } from '../client/index.ts';
import type { DebateConfigInput, DebateView } from '../rules/index.ts';
import {
  castSeats,
  certSigner,
  createDebate,
  keySigner,
  playCast,
  registerAgents,
  takeSeats,
} from './cast.ts';
import { watchDebate } from './watch.ts';

export interface DemoOptions {
  /** A running server and an admin client for it; else a temporary local server is started. */
  admin?: Db8Client;
  api?: Db8Client;
  rounds?: number;
  /** Scales every window (1 = the ~1 minute demo). */
  pace?: number;
  print: (line: string) => void | Promise<void>;
  /** Live counts as the cast acts (a terminal shows them in a status line). */
  onCount?: (c: { acts: number; refused: number }) => void;
}

export interface DemoResult {
  roomId: string;
  url: string;
  view: DebateView | null;
  acts: number;
  failed: number;
}

export function demoConfig(rounds: number, pace: number): DebateConfigInput {
  const ms = (n: number) => Math.round(n * pace);
  return {
    topic: 'Should cities ban private cars from their centres?',
    tags: ['demo', 'urbanism'],
    debaters: 5,
    judges: 3,
    viewers: 2,
    max_rounds: rounds,
    timings: {
      research_ms: 0,
      submit_ms: ms(6_000),
      verify_ms: ms(5_000),
      continue_vote_ms: ms(5_000),
      final_submit_ms: ms(6_000),
      final_vote_ms: ms(6_000),
      results_ms: ms(3_000),
      reveal_ms: ms(3_000),
    },
  };
}

async function localServer() {
  // The debate protocol alone: the demo plays nothing else.
  const [{ startServer }, { debateModule }] = await Promise.all([
    import('@db8/server'),
    import('../server/index.ts'),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'db8-demo-'));
  const server = await startServer({
    modules: [debateModule],
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    env: false,
    adminLink: true,
    logLevel: 'silent',
    print: () => {},
  });
  return {
    server,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  const { Db8Client } = await import('@db8/sdk');
  let local: Awaited<ReturnType<typeof localServer>> | null = null;
  let admin = o.admin;
  let api = o.api;
  try {
    if (!admin || !api) {
      local = await localServer();
      api = new Db8Client({ baseUrl: local.server.url });
      const token = local.server.adminLink!.split('#token=')[1]!;
      admin = api.withToken((await api.adminLogin(token)).token);
      await o.print(`started a local db8 server at ${local.server.url} (embedded store in a temp dir)`);
    }
    const config = demoConfig(o.rounds ?? 3, o.pace ?? 1);
    const roomId = await createDebate(admin, config, '[scripted demo] cars in city centres');
    await o.print(`created debate room ${roomId}: "${config.topic}", ${config.max_rounds} round(s) + final`);
    await o.print(
      local
        ? `   (this temporary server stops when the demo ends; run db8 start first to watch it in the web app)`
        : `   watch it in the web app: ${api.baseUrl}/rooms/${roomId}`,
    );
    const seats = castSeats({ debaters: 5, judges: 3, viewers: 2 });
    const agents = await registerAgents(
      api,
      seats.map((s) => `scripted-${s.replace('_', '-')}`),
      { scripted: true },
    );
    const handles = await takeSeats(api, roomId, seats, agents, admin);
    keySigner(handles[0]!, new Uint8Array(randomBytes(32)));
    const certified = await certSigner(handles[1]!, roomId, new Uint8Array(randomBytes(32)));
    await o.print(
      `seated ${handles.length} scripted agents (every text they write says [scripted]); anon_1 signs with a registered SSH key, anon_2 with a room certificate for ${certified}, the rest are server-attested`,
    );
    const names = Object.fromEntries(handles.map((h, i) => [h.principal, agents[i]!.name]));
    const watcher = watchDebate(admin, roomId, { print: o.print, names });
    let failed = 0;
    let acted = 0;
    const acts = await playCast(roomId, handles, {
      onAct: (r) => {
        acted++;
        if (!r.ok) failed++;
        o.onCount?.({ acts: acted, refused: failed });
        if (r.ok) return;
        void o.print(`   (refused: ${r.seat} ${r.key}: ${r.code})`);
      },
    });
    const view = await watcher;
    // The cast is registered as scripted, so the leaderboard leaves it out: ask for it here.
    const ratings = await debateRatings(api, { limit: 5, scripted: true });
    await o.print(
      `── ratings after ${ratings.matches} debate(s) on this server, scripted agents included (Elo, K=24; the leaderboard leaves them out):`,
    );
    for (const r of ratings.global)
      await o.print(`  ${r.rating.toFixed(2)}  ${names[r.identity] ?? r.identity}`);
    return { roomId, url: api.baseUrl, view, acts: acts.length, failed };
  } finally {
    await local?.close();
  }
}
