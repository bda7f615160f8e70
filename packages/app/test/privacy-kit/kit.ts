import { type AnyProtocol, type Cast, canonicalize, type StoredEntry } from '@db8/core';
import type { Harness } from '@db8/server/test/app-harness.ts';
import { checkDelivery, expectedView, type Finding, forbiddenFor, type Truth } from './checks.ts';
import { type KitRoom, playCast } from './drive.ts';
import { occurs } from './markers.ts';
import { agentPaths } from './paths-agents.ts';
import { mcpPaths } from './paths-mcp.ts';
import { modulePaths } from './paths-modules.ts';
import { realtimePaths } from './paths-realtime.ts';
import { restPaths } from './paths-rest.ts';
import type { Delivery, ProbeTarget, ReadPath } from './probe.ts';

/** Every read path the kit reads, in one list (coverage.ts compares it with the server's). */
export const READ_PATHS: readonly ReadPath[] = [
  ...restPaths,
  ...realtimePaths,
  ...mcpPaths,
  ...modulePaths,
  ...agentPaths,
];

export interface CastReport {
  protocol: string;
  checkpoints: string[];
  viewers: number;
  /** Deliveries read (path forms × viewers × checkpoints). */
  probes: number;
  /** Distinct path forms read (`GET …/export?as=public` and `?as=admin` are two). */
  pathForms: number;
  /** (viewer, secret, checkpoint) triples where the secret was one the viewer may not see. */
  hidden: number;
  leaks: Finding[];
  problems: Finding[];
}

async function truthOf(h: Harness, room: KitRoom): Promise<Truth> {
  const stored: StoredEntry[] = [];
  for (let from = 0; ; ) {
    const page = await h.runtime.entries(room.roomId, { kind: 'admin' }, from, 1000);
    stored.push(...page);
    if (page.length < 1000) break;
    from = page.at(-1)!.seq + 1;
  }
  const { state, closed } = await h.runtime.protocolState(room.roomId);
  const row = await h.store.rooms.get(room.roomId);
  return {
    protocol: room.protocol,
    registry: h.runtime.protocols!,
    stored,
    state,
    seed: row!.seed,
    closed,
    pinnedKey: h.runtime.serverKey.noteVerifierKey,
    secrets: room.secrets.all(),
  };
}

/**
 * Plays `cast` and, at each of its checkpoints, reads every path as every viewer class and checks
 * each delivery (checks.ts). Returns what it read and found; the caller asserts on it.
 */
export async function runCast(
  h: Harness,
  base: string,
  admin: string,
  cast: Cast,
  protocol: AnyProtocol,
): Promise<CastReport> {
  const report: CastReport = {
    protocol: cast.protocol,
    checkpoints: [],
    viewers: 0,
    probes: 0,
    pathForms: 0,
    hidden: 0,
    leaks: [],
    problems: [],
  };
  const forms = new Set<string>();
  const probe = async (room: KitRoom, checkpoint: string) => {
    report.checkpoints.push(checkpoint);
    report.viewers = room.viewers.length;
    const truth = await truthOf(h, room);
    const seats = room.viewers.flatMap((v) => (v.viewer.kind === 'seat' ? [v.viewer.seat] : []));
    const principals = room.viewers.flatMap((v) => (v.principal ? [v.principal] : []));
    await Promise.all(
      room.viewers.map(async (viewer) => {
        const t: ProbeTarget = {
          h,
          base,
          roomId: room.roomId,
          protocol: protocol.name,
          seats,
          principals,
          head: truth.stored.length - 1,
          questionId: room.questionId,
          viewer,
          admin,
        };
        const view = expectedView(truth, viewer);
        const viewText = JSON.stringify(view);
        const canonical = canonicalize(view as never);
        report.hidden += forbiddenFor(truth, viewer, viewText).length;
        const all: Delivery[] = [];
        for (const path of READ_PATHS) {
          if (path.only !== undefined && path.only !== protocol.name && viewer.viewer.kind !== 'admin')
            continue;
          all.push(...(await path.probe(t)));
        }
        for (const d of all) {
          forms.add(d.path);
          report.probes++;
          const r = checkDelivery(truth, viewer, d, { canonical, text: viewText });
          const at = { checkpoint, viewer: viewer.name, path: d.path };
          for (const what of r.leaks) report.leaks.push({ ...at, what });
          for (const what of r.problems) report.problems.push({ ...at, what });
        }
        if (viewer.viewer.kind === 'admin') {
          // The markers must really be in the log, or the kit would pass by never looking.
          const log = all.find((d) => d.path === 'GET /v1/rooms/:id/entries')?.text ?? '';
          for (const s of room.secrets.planted())
            if (!s.forms.some((f) => occurs(log, f)))
              report.problems.push({
                ...at(checkpoint),
                what: `planted marker ${s.label} is not in the log`,
              });
        }
      }),
    );
  };
  const at = (checkpoint: string) => ({ checkpoint, viewer: 'admin', path: 'GET /v1/rooms/:id/entries' });
  await playCast(h, admin, cast, protocol, probe);
  report.pathForms = forms.size;
  return report;
}

/** One line per finding, for an assertion message that says what leaked where. */
export function describeFindings(list: readonly Finding[], max = 40): string {
  const lines = list.slice(0, max).map((f) => `  [${f.checkpoint}] ${f.viewer} ← ${f.path}: ${f.what}`);
  if (list.length > max) lines.push(`  … and ${list.length - max} more`);
  return lines.join('\n');
}
