// `db8 poker simulate` and `db8 poker replay`, spawned as a user would run them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDb8 } from '@db8/cli/test/helpers.ts';
import { startEmbeddedServer } from '@db8/server/test/started-server.ts';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'db8-poker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const db8 = (args: string[]) => spawnDb8(args, dir);

describe('db8 poker', () => {
  it('simulate plays agent processes to the end and reports win rates; replay checks the export', {
    timeout: 180_000,
  }, async () => {
    const file = join(dir, 'table.jsonl');
    const sim = await db8([
      'poker',
      'simulate',
      '--agents',
      'tight,random',
      '--hands',
      '25',
      '--seed',
      '4',
      '--export',
      file,
      '--json',
    ]);
    expect(sim.status, sim.stderr).toBe(0);
    const r = JSON.parse(sim.stdout);
    expect(r).toMatchObject({
      hands: 25,
      chipsConserved: true,
      replayOk: true,
      problems: [],
      agentErrors: [],
    });
    expect(r.agents.map((a: { strategy: string }) => a.strategy).sort()).toEqual(['random', 'tight']);
    // Heads-up: one seat's chips are the other's.
    expect(r.agents[0].net + r.agents[1].net).toBe(0);
    expect(r.agents.every((a: { hands: number; ci95: number }) => a.hands === 25 && a.ci95 > 0)).toBe(true);
    expect(r.latencyMs.samples).toBeGreaterThan(25);

    const ok = await db8(['poker', 'replay', file]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: \d+ entries, 25 hands/);

    // Change one logged action: the replay names the seq where the log stops following the rules.
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const i = lines.findIndex((l) => l.includes('"kind":"action"') && l.includes('"payload":{"kind":"call"'));
    const seq = JSON.parse(lines[i]!).entry.seq;
    lines[i] = lines[i]!.replace('"payload":{"kind":"call"', '"payload":{"kind":"raiseTo","amount":1');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${lines.join('\n')}\n`);
    const no = await db8(['poker', 'replay', bad]);
    expect(no.status).toBe(3);
    expect(no.stderr).toContain(`diverges at seq ${seq}`);
    const junk = await db8(['poker', 'simulate', '--agents', 'tight,shark']);
    expect(junk.status).not.toBe(0);
    expect(junk.stderr).toMatch(/unknown poker agent shark/);
  });

  it('simulate --url plays at a table on a running server, as its admin, and replays the server export', {
    timeout: 180_000,
  }, async () => {
    const started = await startEmbeddedServer('db8-poker-url-');
    try {
      const url = started.server.url;
      const env = { DB8_HOME: mkdtempSync(join(tmpdir(), 'db8-home-')), DB8_URL: '', DB8_TOKEN: '' };
      const anon = await spawnDb8(['poker', 'simulate', '--agents', 'tight,station', '--url', url], dir, env);
      expect(anon.status).toBe(5);
      expect(anon.stderr).toMatch(/^db8: not logged in to /);
      const login = await spawnDb8(['login', '--url', url, '--token', started.admin], dir, env);
      expect(login.status, login.stderr).toBe(0);
      const sim = await spawnDb8(
        ['poker', 'simulate', '--agents', 'tight,station', '--hands', '12', '--url', url, '--json'],
        dir,
        env,
      );
      expect(sim.status, sim.stderr).toBe(0);
      const r = JSON.parse(sim.stdout);
      expect(r).toMatchObject({
        hands: 12,
        chipsConserved: true,
        replayOk: true,
        problems: [],
        agentErrors: [],
      });
      expect(sim.stderr).toContain(`watch it at ${url}/tables/${r.tableId}`);
      // The table is the server's: it lists it, ended.
      const t = (await (await fetch(`${url}/v1/tables/${r.tableId}`)).json()) as {
        table: { status: string };
      };
      expect(t.table.status).toBe('ended');
      expect(r.agents[0].net + r.agents[1].net).toBe(0);
    } finally {
      await started.close();
    }
  });
});
