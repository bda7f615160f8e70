import { createCastRegistry } from '@db8/core';
import { type Harness, listen, makeApp, sharedStore } from '@db8/server/test/app-harness.ts';
import { adminToken } from '@db8/server/test/routes-fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCasts, builtinProtocols } from '../../src/protocols.ts';
import { builtinModules } from '../../src/server-modules.ts';
import { registeredRoutes, stale, uncovered } from './coverage.ts';
import { type CastReport, describeFindings, READ_PATHS, runCast } from './kit.ts';
import { closeMcpClients, mcpSurface } from './paths-mcp.ts';

/**
 * The privacy conformance kit (issue 20) as a vitest suite: for every registered protocol, its
 * scripted cast is played on one in-process server, and at each checkpoint every read path is read
 * as every viewer class — nothing may appear that the protocol's view() hides from that viewer,
 * every entry must be the stored one as that viewer may see it, every export must verify offline and
 * refold to the room's state. The protocols are dealt round-robin to `shards` test files, so the
 * kit uses both cores; shard 0 also checks the cast registry and the server's read paths.
 * DB8_KIT_REPORT=1 prints what each protocol's run read and found.
 */

/** Every protocol the server runs: the protocol registry and the server's modules. */
export const REGISTERED = [
  ...new Set([...builtinProtocols.map((p) => p.name), ...builtinModules.map((m) => m.protocol.name)]),
];

function reportLine(r: CastReport, cpuMs: number): string {
  return (
    `${r.protocol}: ${r.pathForms} path forms × ${r.viewers} viewers × ${r.checkpoints.length} checkpoints ` +
    `(${r.checkpoints.join(', ')}) = ${r.probes} probes, ${r.hidden} hidden (viewer, secret) pairs, ` +
    `${r.leaks.length} leaks, ${r.problems.length} problems, ${(cpuMs / 1000).toFixed(1)} s CPU\n` +
    describeFindings([...r.leaks, ...r.problems], 1000)
  );
}

export function privacyKitSuite(shard: number, shards: number): void {
  let h: Harness;
  let base: string;
  let admin: string;
  const casts = createCastRegistry(builtinCasts);

  beforeAll(async () => {
    h = await makeApp({
      store: await sharedStore(),
      mountModules: true,
      env: {},
      // Idle kept-alive sockets stay open for the whole run: fetch reuses them while the busy loop
      // (server and kit share one process) may let the server's 5 s idle close cross that reuse,
      // which resets the next probe's connection (ECONNRESET) instead of testing anything.
      config: {
        logLevel: 'silent',
        rateLimit: { max: 1_000_000, windowMs: 60_000 },
        keepAliveTimeoutMs: 600_000,
      },
    });
    base = await listen(h);
    admin = await adminToken(h);
  });

  afterAll(async () => {
    await closeMcpClients();
    await h?.close();
    await h?.store.close();
  });

  describe(`privacy conformance kit (${shard + 1} of ${shards})`, () => {
    if (shard === 0) {
      it('every registered protocol has a scripted cast', () => {
        expect(
          REGISTERED.filter((name) => !casts.has(name)),
          'protocols without a cast: add <protocol>/src/cast.ts beside its rules and register it in ' +
            'packages/protocols/src/casts.ts (docs/protocols.md, "The privacy conformance kit")',
        ).toEqual([]);
      });

      it('every read path the server has is read by the kit or excluded with a reason', async () => {
        const covered = new Set(READ_PATHS.flatMap((p) => p.covers));
        const viewer = { name: 'admin', viewer: { kind: 'admin' as const }, token: admin };
        const present = [
          ...registeredRoutes(h.app),
          ...(await mcpSurface({ h, base, admin, viewer } as never)),
        ];
        expect(present).toContain('GET /v1/rooms/:id/entries');
        expect(present).toContain('mcp tool view_room');
        expect(
          uncovered(present, covered),
          'read paths the privacy kit does not read: add a probe in packages/server/test/privacy-kit/' +
            'paths-*.ts, or, if the path serves no room content, an entry with the reason in coverage.ts',
        ).toEqual([]);
        expect(stale(present, covered), 'kit paths or exclusions that match nothing the server has').toEqual(
          [],
        );
      });
    }

    REGISTERED.forEach((name, i) => {
      if (i % shards !== shard) return;
      it(`${name}: no read path serves any viewer what the protocol's view hides`, async () => {
        const cast = casts.get(name);
        expect(cast, `${name} has no scripted cast (see the registry test)`).toBeDefined();
        const protocol = h.runtime.protocols?.get(name);
        expect(protocol, `${name} is not in the server's protocol registry`).toBeDefined();
        const cpu = process.cpuUsage();
        const r = await runCast(h, base, admin, cast!, protocol!);
        const used = process.cpuUsage(cpu);
        if (process.env.DB8_KIT_REPORT) console.log(reportLine(r, (used.user + used.system) / 1000));
        expect(r.leaks, `leaks:\n${describeFindings(r.leaks)}`).toEqual([]);
        expect(r.problems, `problems:\n${describeFindings(r.problems)}`).toEqual([]);
        expect(r.checkpoints.length, 'a cast checks mid-run and after close').toBeGreaterThanOrEqual(2);
        if (!cast!.public)
          expect(r.hidden, `${name}'s cast hides nothing from anyone: plant a secret`).toBeGreaterThan(0);
        // A few seconds of CPU each; the timeout only guards against a cast that never ends.
      }, 300_000);
    });
  });
}
