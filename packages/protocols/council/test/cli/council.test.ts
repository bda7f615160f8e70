// `db8 council` as a user runs it: the CLI spawned against the local model server in both wire
// formats, then replay (and tamper detection), list, show and search on the same home.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModelServer } from '@db8/agents/test/model-server.ts';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinalPacketSchema } from '../../rules/index.ts';
import { councilResponder, readCouncilRequest } from '../agent/council-responder.ts';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', '..', '..', '..', 'app', 'bin', 'db8.js');
const KEY = 'sk-cli-test-key-0123456789';
const home = mkdtempSync(join(tmpdir(), 'db8-council-'));
let server: ModelServer;

beforeAll(async () => {
  server = await ModelServer.start();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Spawn asynchronously: the model server answers from this process's event loop. */
function db8(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

const runs: Record<string, string> = {};
// A safety limit against a hang (each test spawns several CLI processes), not a budget.
const LONG = 900_000;

describe('db8 council (spawned, local model server)', () => {
  it(
    'runs over the OpenAI wire format and writes every artifact, the record and the index',
    async () => {
      server.respond(councilResponder());
      const r = await db8(
        [
          'council',
          'Should we move our nightly batch jobs to an event-driven pipeline?',
          '--home',
          home,
          '--provider',
          'openai',
          '--model',
          'gpt-test',
          '--base-url',
          server.openaiBaseUrl,
          // The local server is not OpenAI's endpoint: the key goes there only when named for it.
          '--api-key-env',
          'OPENAI_API_KEY',
          '--json',
        ],
        { OPENAI_API_KEY: KEY },
      );
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      runs.openai = out.runId;
      expect(out).toMatchObject({
        status: 'completed',
        degraded: false,
        scripted: false,
        decision: { source: 'Judge' },
      });
      const dir = join(home, 'records', 'debates', out.runId);
      for (const f of [
        'request.json',
        'rounds/round-1.json',
        'rounds/round-2.json',
        'rounds/round-3.json',
        'consensus.json',
        'judge.json',
        'final-packet.json',
        'final-packet.md',
        'journal.jsonl',
        'transitions.json',
      ]) {
        expect(statSync(join(dir, f)).size, f).toBeGreaterThan(0);
      }
      const packet = FinalPacketSchema.parse(
        JSON.parse(readFileSync(join(dir, 'final-packet.json'), 'utf8')),
      );
      expect(packet.roles.every((x) => x.provider === 'openai' && x.model === 'gpt-test')).toBe(true);
      const record = JSON.parse(
        readFileSync(join(home, 'records', 'decisions', `${out.runId}.json`), 'utf8'),
      );
      expect(record).toMatchObject({
        type: 'decision',
        runId: out.runId,
        run: { packet: `records/debates/${out.runId}/final-packet.json`, packetSha256: out.packetSha256 },
      });
      expect(
        server.requests.every((q) => q.wire === 'openai' && q.headers.authorization === `Bearer ${KEY}`),
      ).toBe(true);
    },
    LONG,
  );

  it(
    'runs over the Anthropic wire format; a failing role yields a degraded but valid packet',
    async () => {
      server.reset();
      server.respond(councilResponder((q) => (q.role === 'Analyst' ? { status: 503 } : null)));
      const r = await db8(
        [
          'council',
          'Should the platform team adopt a four-day work week?',
          '--home',
          home,
          '--provider',
          'anthropic',
          '--model',
          'claude-test',
          '--base-url',
          server.anthropicBaseUrl,
          '--json',
        ],
        { ANTHROPIC_API_KEY: KEY, DB8_MAX_RETRIES: '1' },
      );
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      runs.anthropic = out.runId;
      expect(out.degraded).toBe(true);
      expect(out.markers).toEqual([
        'Round1/Analyst/server_error',
        'Round2/Analyst/server_error',
        'Round3/Analyst/server_error',
      ]);
      const dir = join(home, 'records', 'debates', out.runId);
      const packet = FinalPacketSchema.parse(
        JSON.parse(readFileSync(join(dir, 'final-packet.json'), 'utf8')),
      );
      expect(packet.scores.coverage).toBe(0.8);
      expect(readFileSync(join(dir, 'final-packet.md'), 'utf8')).toContain('DEGRADED');
      const r1 = JSON.parse(readFileSync(join(dir, 'rounds', 'round-1.json'), 'utf8'));
      expect(r1.turns[2]).toMatchObject({
        role: 'Analyst',
        status: 'failed',
        payload: null,
        error: { code: 'server_error' },
      });
      expect(server.requests.every((q) => q.wire === 'anthropic')).toBe(true);
    },
    LONG,
  );

  it(
    'rerun asks only the failed role again and reuses every other turn; a run that was not degraded is refused',
    async () => {
      server.reset();
      server.respond(councilResponder()); // the Analyst answers now
      const r = await db8(
        [
          'council',
          'rerun',
          runs.anthropic!,
          '--home',
          home,
          '--provider',
          'anthropic',
          '--model',
          'claude-test',
          '--base-url',
          server.anthropicBaseUrl,
          '--json',
        ],
        { ANTHROPIC_API_KEY: KEY },
      );
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ rerunOf: runs.anthropic, degraded: false, markers: [] });
      expect(out.runId).not.toBe(runs.anthropic);
      runs.rerun = out.runId;
      // Only the Analyst's three round turns went to the model: 14 of 17 turns were reused, the
      // Consensus and Judge turns included (they had succeeded).
      expect(out.reused).toBe(14);
      const roles = server.requests.map((q) => readCouncilRequest(q).role);
      expect(roles).toEqual(['Analyst', 'Analyst', 'Analyst']);
      const dir = join(home, 'records', 'debates', out.runId);
      const packet = FinalPacketSchema.parse(
        JSON.parse(readFileSync(join(dir, 'final-packet.json'), 'utf8')),
      );
      expect(packet.roles.find((x) => x.role === 'Analyst')).toMatchObject({ okTurns: 3, failedTurns: 0 });
      const request = JSON.parse(readFileSync(join(dir, 'request.json'), 'utf8'));
      expect(JSON.stringify(request)).toContain(runs.anthropic!);
      // The new run replays like any other.
      const replay = await db8(['council', 'replay', out.runId, '--home', home]);
      expect(replay.status).toBe(0);

      const again = await db8(['council', 'rerun', out.runId, '--home', home, '--provider', 'scripted']);
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('is not degraded');
    },
    LONG,
  );

  it('no file under the home contains the API key', () => {
    for (const f of allFiles(join(home, 'records'))) expect(readFileSync(f, 'utf8'), f).not.toContain(KEY);
  });

  it(
    'replay rebuilds a run from its artifacts and passes; a tampered artifact fails with exit 3',
    async () => {
      const ok = await db8(['council', 'replay', runs.anthropic!, '--home', home]);
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/^replay ok: .* log entries refolded, 10 artifacts and the index match\n$/);

      const file = join(home, 'records', 'debates', runs.anthropic!, 'rounds', 'round-1.json');
      const original = readFileSync(file, 'utf8');
      const doc = JSON.parse(original);
      doc.turns[0].payload.confidence = 0.99; // a quiet edit: still valid JSON and a valid payload
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const bad = await db8(['council', 'replay', runs.anthropic!, '--home', home]);
      expect(bad.status).toBe(3);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(
        /^db8: replay of .* failed: rounds\/round-1\.json: differs from the replayed run\n$/,
      );
      writeFileSync(file, original);

      // The transition log is an artifact too: an edited transition is named.
      const tfile = join(home, 'records', 'debates', runs.anthropic!, 'transitions.json');
      const tOriginal = readFileSync(tfile, 'utf8');
      const tdoc = JSON.parse(tOriginal);
      expect(tdoc.transitions.length).toBeGreaterThan(5);
      tdoc.transitions[1].at += 1;
      writeFileSync(tfile, JSON.stringify(tdoc, null, 2));
      const badT = await db8(['council', 'replay', runs.anthropic!, '--home', home]);
      expect(badT.status).toBe(3);
      expect(badT.stderr).toMatch(/transitions\.json: differs from the replayed run/);
      writeFileSync(tfile, tOriginal);

      // The log is a journal bundle in the server's entry format: db8 verify checks it (pinned to the
      // home's local key) and refolds it; an edited round payload breaks its commitment for both.
      const logFile = join(home, 'records', 'debates', runs.anthropic!, 'journal.jsonl');
      const pin = join(home, 'local_ed25519.pub');
      const verified = await db8(['verify', logFile, '--key', pin]);
      expect(verified.stderr).toBe('');
      expect(verified.status).toBe(0);
      expect(verified.stdout).toMatch(
        /signed by the pinned key\)\n {2}refolded council v\d+ to seq \d+, state [0-9a-f]{64}, the recorded result follows\n$/,
      );
      // db8 replay takes the same file: the refold alone, offline.
      const replayed = await db8(['replay', logFile]);
      expect(replayed.stderr).toBe('');
      expect(replayed.status).toBe(0);
      expect(replayed.stdout).toMatch(/: ok at seq \d+\nrefolded state [0-9a-f]{64}\n$/);
      const log = readFileSync(logFile, 'utf8');
      expect(log).toContain('"confidence":0.8');
      writeFileSync(logFile, log.replace('"confidence":0.8', '"confidence":0.81'));
      const bad2 = await db8(['council', 'replay', runs.anthropic!, '--home', home]);
      expect(bad2.status).toBe(3);
      expect(bad2.stderr).toMatch(/journal\.jsonl: entry \d+ .*(SEALED|REVEAL)_MISMATCH/);
      const bad2v = await db8(['verify', logFile, '--key', pin]);
      expect(bad2v.status).toBe(3);
      expect(bad2v.stderr).toMatch(/(SEALED|REVEAL)_MISMATCH/);
      const bad2r = await db8(['replay', logFile]);
      expect(bad2r.status).toBe(3);
      expect(bad2r.stdout).toMatch(
        /problem: seq \d+: the (sealed payload|reveal of seq \d+) does not match its commitment/,
      );
      writeFileSync(logFile, log);

      // The index is checked too: change one indexed next action behind the CLI's back.
      const db = await PGlite.create(join(home, 'index'));
      const owner = (
        await db.query<{ owner: string }>('SELECT owner FROM debate_actions WHERE run_id = $1 AND idx = 0', [
          runs.anthropic,
        ])
      ).rows[0]!.owner;
      await db.query(`UPDATE debate_actions SET owner = 'mallory' WHERE run_id = $1`, [runs.anthropic]);
      await db.close();
      const bad3 = await db8(['council', 'replay', runs.anthropic!, '--home', home]);
      expect(bad3.status).toBe(3);
      expect(bad3.stderr).toMatch(/failed: index: next actions differ from the packet\n$/);
      const db2 = await PGlite.create(join(home, 'index'));
      await db2.query('UPDATE debate_actions SET owner = $2 WHERE run_id = $1', [runs.anthropic, owner]);
      await db2.close();
      expect((await db8(['council', 'replay', runs.anthropic!, '--home', home])).status).toBe(0);
    },
    LONG,
  );

  it(
    'list, show and search read the index',
    async () => {
      const list = await db8(['council', 'list', '--home', home, '--json']);
      expect(list.status).toBe(0);
      const rows = JSON.parse(list.stdout);
      expect(rows.map((x: { run_id: string }) => x.run_id).sort()).toEqual(
        [runs.openai, runs.anthropic, runs.rerun].sort(),
      );
      const show = await db8(['council', 'show', runs.openai!.slice(0, 20), '--home', home]);
      expect(show.status).toBe(0);
      // The packet, then its state-transition log (seed 001: a transition log per run).
      const md = readFileSync(join(home, 'records', 'debates', runs.openai!, 'final-packet.md'), 'utf8');
      expect(show.stdout.startsWith(md.trimEnd())).toBe(true);
      const log = show.stdout.slice(md.trimEnd().length);
      expect(log).toMatch(/^\n\n## State transitions\n\n/);
      expect(log).toMatch(/Round1 → Round2/);
      const hit = await db8(['council', 'search', 'four-day week', '--home', home, '--json']);
      expect(
        JSON.parse(hit.stdout)
          .map((h: { run_id: string }) => h.run_id)
          .sort(),
      ).toEqual([runs.anthropic, runs.rerun].sort());
      // Turn text is indexed too: "rollback" appears only in round-3 conditions of all three runs.
      const turns = await db8(['council', 'search', 'rollback', '--home', home, '--json']);
      const found = JSON.parse(turns.stdout);
      expect(found).toHaveLength(3);
      expect(found.every((h: { matched_turns: number }) => h.matched_turns > 0)).toBe(true);
      const none = await db8(['council', 'search', 'xylophone', '--home', home]);
      expect(none).toMatchObject({ status: 0, stdout: '' });
    },
    LONG,
  );

  it(
    'the scripted provider needs no server and labels the packet as scripted',
    async () => {
      const r = await db8(['council', 'Scripted demo question?', '--home', home, '--provider', 'scripted']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/completed \(SCRIPTED\)/);
      const id = /^run (\S+) /.exec(r.stdout)![1]!;
      const md = readFileSync(join(home, 'records', 'debates', id, 'final-packet.md'), 'utf8');
      expect(md).toContain('SCRIPTED RUN');
      expect(md).toContain('| Proponent | scripted (scripted) | scripted:default |');
    },
    LONG,
  );

  it(
    'usage errors are one line: no question, unknown provider, a real provider without a model',
    async () => {
      for (const [args, re] of [
        [['council', '--home', home], /give a question/],
        [['council', 'q?', '--home', home, '--provider', 'nope'], /unknown provider profile "nope"/],
        [['council', 'q?', '--home', home, '--provider', 'openai'], /no model for "openai"/],
        [['council', 'replay', 'bad id!', '--home', home], /not a run id/],
      ] as const) {
        const r = await db8([...args]);
        expect(r.status, r.stderr).toBe(1);
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(re);
      }
    },
    LONG,
  );
});
