import { builtinProtocols, createCastRegistry } from '@db8/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, listen, makeApp, sharedStore } from '../app-harness.ts';
import { adminToken } from '../routes-fixtures.ts';
import { registeredRoutes, stale, uncovered } from './coverage.ts';
import { describeFindings, READ_PATHS, runCast, TIMES } from './kit.ts';
import { closeMcpClients, mcpSurface } from './paths-mcp.ts';

/**
 * The privacy conformance kit (issue 20): for every registered protocol, its scripted cast is played
 * on one in-process server, and at each checkpoint every read path is read as every viewer class —
 * nothing may appear that the protocol's view() hides from that viewer, every entry must be the
 * stored one as that viewer may see it, every export must verify and refold. docs/protocols.md,
 * "Privacy conformance kit", says how a protocol adds its cast.
 */

let h: Harness;
let base: string;
let admin: string;
const casts = createCastRegistry();

beforeAll(async () => {
  h = await makeApp({
    store: await sharedStore(),
    mount: true,
    env: {},
    config: { logLevel: 'silent', rateLimit: { max: 1_000_000, windowMs: 60_000 } },
  });
  base = await listen(h);
  admin = await adminToken(h);
});

afterAll(async () => {
  await closeMcpClients();
  await h?.close();
  await h?.store.close();
});

/** Every protocol the server runs: the protocol registry and the server's modules, which must agree. */
const registered = () => [...new Set([...builtinProtocols.map((p) => p.name), ...h.app.db8.modules.keys()])];

describe('privacy conformance kit', () => {
  it('every registered protocol has a scripted cast', () => {
    const missing = registered().filter((name) => !casts.has(name));
    expect(
      missing,
      `protocols without a cast: add <protocol>/src/cast.ts beside its rules and register it in ` +
        `packages/protocols/src/casts.ts (docs/protocols.md, "Privacy conformance kit")`,
    ).toEqual([]);
  });

  it('every read path the server has is read by the kit or excluded with a reason', async () => {
    const covered = new Set(READ_PATHS.flatMap((p) => p.covers));
    const adminViewer = { name: 'admin', viewer: { kind: 'admin' as const }, token: admin };
    const present = [
      ...registeredRoutes(h.app),
      ...(await mcpSurface({ h, base, admin, viewer: adminViewer } as never)),
    ];
    expect(present).toContain('GET /v1/rooms/:id/entries');
    expect(
      uncovered(present, covered),
      'read paths the privacy kit does not read: add a probe in packages/server/test/privacy-kit/paths-*.ts, ' +
        'or, if it serves no room content, an entry with the reason in coverage.ts EXCLUDED',
    ).toEqual([]);
    expect(stale(present, covered), 'kit paths or exclusions that match nothing the server has').toEqual([]);
  });

  for (const name of builtinProtocols.map((p) => p.name)) {
    it(`${name}: no read path serves any viewer what the protocol's view hides`, async () => {
      const cast = casts.get(name);
      expect(cast, `${name} has no scripted cast`).toBeDefined();
      const protocol = h.runtime.protocols!.get(name)!;
      const r = await runCast(h, base, admin, cast!, protocol);
      if (process.env.DB8_KIT_REPORT)
        console.log(
          `${name}: ${r.pathForms} path forms × ${r.viewers} viewers × ${r.checkpoints.length} checkpoints ` +
            `(${r.checkpoints.join(', ')}) = ${r.probes} probes; ${r.hidden} hidden (viewer, secret) pairs; ` +
            `${r.leaks.length} leaks, ${r.problems.length} problems\n${describeFindings([...r.leaks, ...r.problems], 400)}`,
        );
      if (process.env.DB8_KIT_REPORT) console.log([...TIMES].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)}`).join('\n'));
      expect(r.leaks, `leaks:\n${describeFindings(r.leaks)}`).toEqual([]);
      expect(r.problems, `problems:\n${describeFindings(r.problems)}`).toEqual([]);
      expect(r.checkpoints.length).toBeGreaterThanOrEqual(2);
      if (!cast!.public) expect(r.hidden, `${name}'s cast hides nothing from anyone: plant a secret`).toBeGreaterThan(0);
    });
  }
});
