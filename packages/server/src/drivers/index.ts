import { randomBytes } from 'node:crypto';
import { ProviderConfigError, resolveProvider } from '@db8/agents';
import { type CouncilView, ROLES, renderPacketMarkdown, seatOf } from '@db8/protocols/council';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '../bus/types.ts';
import { ApiError } from '../errors.ts';
import type { Runtime } from '../runtime/index.ts';
import type { Store } from '../store/index.ts';
import { DriverHost } from './host.ts';
import { type DriverSpec, type Drivers, DriversBodySchema } from './spec.ts';
import { DriverStore } from './store.ts';

export { type Decision, fixedDecision, modelDecision, type SeatAgent, type SeatContext } from './agent.ts';
export { AGENTS, DriverHost, type DriverHostOptions } from './host.ts';
export { type DriverSpec, DriverSpecSchema, type Drivers, DriversBodySchema, providerFor } from './spec.ts';
export { type DriverCallRow, DriverStore } from './store.ts';

export interface RegisterDriversOptions {
  runtime: Runtime;
  store: Store;
  bus: Pick<Bus, 'subscribe'>;
  env?: Readonly<Record<string, string | undefined>>;
}

type Stash = { drivers: Drivers; roomBudget: DriverSpec['budget'] };
const STASH = Symbol('db8.drivers');
const isCreate = (req: FastifyRequest) => req.method === 'POST' && req.routeOptions.url === '/v1/rooms';

/** Council rooms created with drivers get a run id and a roster that says who plays each role. */
export function councilConfigFor(config: unknown, drivers: Drivers): unknown {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return config;
  const c = config as Record<string, unknown>;
  const roster =
    c.roster ??
    ROLES.map((role) => {
      const spec = drivers[seatOf(role)];
      if (!spec) return { role, provider: 'remote', model: 'remote', scripted: false };
      const r = resolveProvider({
        provider: spec.provider,
        ...(spec.model ? { model: spec.model } : {}),
        ...(spec.base_url ? { baseUrl: spec.base_url } : {}),
      });
      return { role, provider: r.profile, model: r.model, scripted: r.kind === 'scripted' };
    });
  return { ...c, runId: c.runId ?? `run_${randomBytes(8).toString('hex')}`, roster };
}

/**
 * Drivers on the generic room routes (as debate's hooks do): POST /v1/rooms takes `drivers` and
 * `room_budget` next to protocol/config; they are checked before the room exists (unknown seat
 * names are checked after, against the created seats), then the host starts driving. Also
 * GET /v1/rooms/:id/drivers (specs and call records — no keys) and the council packet routes.
 */
export async function registerDrivers(
  app: FastifyInstance,
  opts: RegisterDriversOptions,
): Promise<DriverHost> {
  const drivers = new DriverStore(opts.store);
  const env = opts.env ?? process.env;
  const host = new DriverHost({ runtime: opts.runtime, bus: opts.bus, drivers, env, log: app.log });
  app.addHook('onClose', async () => host.close());

  app.addHook('preValidation', async (req: FastifyRequest) => {
    if (!isCreate(req)) return;
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || body.drivers === undefined) return;
    const parsed = DriversBodySchema.safeParse({ drivers: body.drivers, room_budget: body.room_budget });
    if (!parsed.success) throw new ApiError(400, 'BAD_DRIVERS', 'invalid drivers', parsed.error.issues);
    const specs = parsed.data.drivers ?? {};
    const protocol = String(body.protocol ?? '');
    if (!DriverHost.supports(protocol))
      throw new ApiError(400, 'BAD_DRIVERS', `no drivers for protocol ${protocol}`);
    for (const [seat, spec] of Object.entries(specs)) {
      try {
        resolveProvider({
          env,
          provider: spec.provider,
          ...(spec.model ? { model: spec.model } : {}),
          ...(spec.base_url ? { baseUrl: spec.base_url } : {}),
        });
      } catch (err) {
        if (err instanceof ProviderConfigError)
          throw new ApiError(400, 'BAD_DRIVERS', `${seat}: ${err.message}`);
        throw err;
      }
    }
    if (protocol === 'council') body.config = councilConfigFor(body.config ?? {}, specs);
    (req as unknown as Record<symbol, Stash>)[STASH] = {
      drivers: specs,
      roomBudget: parsed.data.room_budget,
    };
  });

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const stash = (req as unknown as Record<symbol, Stash | undefined>)[STASH];
    if (!stash || !isCreate(req) || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
    const room = JSON.parse(payload) as { room_id: string; seats?: Array<{ seat: string }> };
    const known = new Set((room.seats ?? []).map((s) => s.seat));
    const specs = Object.fromEntries(Object.entries(stash.drivers).filter(([seat]) => known.has(seat)));
    const unknown = Object.keys(stash.drivers).filter((s) => !known.has(s));
    if (unknown.length) req.log.warn({ roomId: room.room_id, unknown }, 'drivers: no such seats, ignored');
    await host.attach(room.room_id, specs, stash.roomBudget);
    return payload;
  });

  app.get('/v1/rooms/:id/drivers', async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const id = req.params.id;
    await opts.runtime.getRoom(id);
    const calls = await drivers.calls(id);
    const specs = await drivers.forRoom(id);
    const totals = calls.reduce(
      (t, c) => ({
        calls: t.calls + 1,
        failures: t.failures + (c.ok ? 0 : 1),
        inputTokens: t.inputTokens + c.inputTokens,
        outputTokens: t.outputTokens + c.outputTokens,
        costUsd: t.costUsd + (c.costUsd ?? 0),
      }),
      { calls: 0, failures: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    );
    return { room_id: id, drivers: specs, calls, totals };
  });

  const packet = async (id: string) => {
    const room = await opts.runtime.getRoom(id);
    if (room.protocol !== 'council') throw new ApiError(404, 'NOT_A_COUNCIL', `room ${id} is not a council`);
    const st = await opts.runtime.stateFor(id, { kind: 'observer' });
    const view = st.view as CouncilView;
    if (!view.packet)
      throw new ApiError(404, 'NO_PACKET', `the council has no packet yet (stage ${view.stage})`);
    return { packet: view.packet, sha256: view.packetSha256 };
  };
  app.get(
    '/v1/rooms/:id/council/packet.json',
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const p = await packet(req.params.id);
      return reply
        .header('content-disposition', `attachment; filename="council-${req.params.id}.json"`)
        .header('x-packet-sha256', p.sha256 ?? '')
        .send(p.packet);
    },
  );
  app.get(
    '/v1/rooms/:id/council/packet.md',
    async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const p = await packet(req.params.id);
      return reply
        .type('text/markdown; charset=utf-8')
        .header('content-disposition', `attachment; filename="council-${req.params.id}.md"`)
        .send(renderPacketMarkdown(p.packet));
    },
  );

  await host.resume().catch((err) => app.log.warn({ err }, 'drivers: resume failed'));
  return host;
}
