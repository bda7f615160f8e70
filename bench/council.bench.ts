// A full council with the scripted provider, artifacts written (goal < 200 ms), the PGlite index
// write on an open index, and the provider adapter's overhead per call vs a raw fetch to the same
// local model server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createProvider } from '../packages/agents/src/index.ts';
import { ModelServer } from '../packages/agents/test/model-server.ts';
import { artifactHashes } from '../packages/protocols/council/cli/artifacts.ts';
import { CouncilIndex } from '../packages/protocols/council/cli/index-db.ts';
import { runLocalCouncil } from '../packages/protocols/council/cli/run.ts';
import type { BenchRow } from './types.ts';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

async function councilRows(home: string): Promise<BenchRow[]> {
  const opts = {
    home,
    question: 'Should we move the nightly batch to an event-driven pipeline?',
    provider: 'scripted',
    env: {},
  };
  await runLocalCouncil({ ...opts, index: false, runId: 'warmup' }); // JIT, module loading
  const times = await timeEach(15, (i) => runLocalCouncil({ ...opts, index: false, runId: `bench-${i}` }));
  const rows: BenchRow[] = [
    {
      area: 'council',
      name: 'full council, scripted, 17 calls + 10 artifacts + record (median of 15)',
      value: median(times),
      unit: 'ms',
      goal: '< 200 ms',
    },
  ];
  // The index: one run's rows (1 run, 17 turns, actions) in a transaction on an already open PGlite.
  const last = await runLocalCouncil({ ...opts, index: false, runId: 'bench-index' });
  const t0 = performance.now();
  const index = await CouncilIndex.open(home);
  const openMs = performance.now() - t0;
  const puts = await timeEach(10, () =>
    index.putRun({
      state: last.run.room.state,
      stateSha256: last.run.room.stateHash(),
      runDir: 'records/debates/bench-index',
      packetPath: 'records/debates/bench-index/final-packet.json',
      artifacts: artifactHashes(last.run.room.state),
    }),
  );
  const searches = await timeEach(10, () => index.search('pipeline rollback'));
  await index.close();
  rows.push(
    { area: 'council', name: 'PGlite index: open (first open runs initdb)', value: openMs, unit: 'ms' },
    { area: 'council', name: 'PGlite index: write one run (median of 10)', value: median(puts), unit: 'ms' },
    {
      area: 'council',
      name: 'PGlite index: full-text search (median of 10)',
      value: median(searches),
      unit: 'ms',
    },
  );
  return rows;
}

const Answer = z.object({ answer: z.string(), score: z.number().min(0).max(1) }).strict();

async function adapterRows(): Promise<BenchRow[]> {
  const server = await ModelServer.start();
  server.respond(() => ({ reply: { answer: 'yes', score: 0.5 } }));
  const rows: BenchRow[] = [];
  try {
    for (const wire of ['openai', 'anthropic'] as const) {
      const p = createProvider({
        provider: wire,
        model: 'm',
        baseUrl: wire === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl,
        env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
      });
      const ask = { schemaName: 'answer', schema: Answer, system: 'You answer.', prompt: 'Is it?' };
      const url =
        wire === 'openai'
          ? `${server.openaiBaseUrl}/chat/completions`
          : `${server.anthropicBaseUrl}/v1/messages`;
      const body = JSON.stringify(
        wire === 'openai'
          ? { model: 'm', messages: [{ role: 'user', content: 'Is it?' }] }
          : { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Is it?' }] },
      );
      const raw = async () => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        return res.json();
      };
      for (let i = 0; i < 50; i++) {
        await p.call(ask);
        await raw();
      }
      const n = 300;
      const ours = median(await timeEach(n, () => p.call(ask)));
      const peer = median(await timeEach(n, raw));
      rows.push({
        area: 'council',
        name: `${wire} adapter call (schema, validation, record) vs raw fetch, local server (median of ${n})`,
        value: ours * 1000,
        unit: 'µs/call',
        peer: 'fetch + res.json()',
        peerValue: peer * 1000,
      });
    }
  } finally {
    await server.close();
  }
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'db8-council-bench-'));
  try {
    return [...(await councilRows(home)), ...(await adapterRows())];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
